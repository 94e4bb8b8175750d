package framehash

import (
	"image"
	"math/rand/v2"
	"testing"
)

// eighth is img's luma averaged over each 8×8 block (a JPEG's DC plane,
// to the rounding of its quantisation).
func eighth(img image.Image) *image.Gray {
	b := img.Bounds()
	w, h := (b.Dx()+7)/8, (b.Dy()+7)/8
	sum, n := make([]float64, w*h), make([]float64, w*h)
	luma := lumaFunc(img)
	for y := range b.Dy() {
		for x := range b.Dx() {
			sum[(y/8)*w+x/8] += luma(b.Min.X+x, b.Min.Y+y)
			n[(y/8)*w+x/8]++
		}
	}
	out := image.NewGray(image.Rect(0, 0, w, h))
	for i := range sum {
		out.Pix[i] = uint8(sum[i]/n[i] + 0.5)
	}
	return out
}

// TestOfScaled: a picture's hash read from its 1/8-scale plane is within
// 2 bits of its hash (the archive hashes a JPEG of 768 pixels or more on
// its short side so), on scenes of the sizes it meets, whose sides are
// and are not multiples of 8 or of the grid's 32.
func TestOfScaled(t *testing.T) {
	r := rand.New(rand.NewPCG(70, 3))
	worst, sum := 0, 0
	const n = 30
	for i := range n {
		w, h := 768+r.IntN(1500), 768+r.IntN(700)
		img := scene(uint64(2000+i), w, h)
		full, _ := Of(img)
		scaled, _ := OfScaled(eighth(img), w, h, 8)
		d := Distance(full, scaled)
		if d > 2 {
			naive, _ := Of(eighth(img))
			t.Errorf("%d × %d: %d bits from Of (the plane hashed as a picture: %d)", w, h, d, Distance(full, naive))
		}
		worst, sum = max(worst, d), sum+d
	}
	t.Logf("%d scenes: %.2f bits on average, %d at worst", n, float64(sum)/n, worst)
}
