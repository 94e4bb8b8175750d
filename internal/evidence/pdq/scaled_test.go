package pdq

import (
	"image"
	"os"
	"path/filepath"
	"testing"
)

// eighth is img's luma averaged over each 8×8 block (a JPEG's DC plane,
// to the rounding of its quantisation).
func eighth(img image.Image) *image.Gray {
	b := img.Bounds()
	w, h := (b.Dx()+7)/8, (b.Dy()+7)/8
	sum, n := make([]float64, w*h), make([]float64, w*h)
	p := lumaOf(img)
	row := make([]float64, b.Dx()+1)
	for y := range b.Dy() {
		p.sums(y, row)
		for x := range b.Dx() {
			sum[(y/8)*w+x/8] += row[x+1] - row[x]
			n[(y/8)*w+x/8]++
		}
	}
	out := image.NewGray(image.Rect(0, 0, w, h))
	for i := range sum {
		out.Pix[i] = uint8(sum[i]/n[i] + 0.5)
	}
	return out
}

// TestHashScaledReference: read from their 1/8-scale pictures, the
// reference photos large enough for the archive to hash that way (768
// pixels on the short side) still hash within 10 bits of the C++
// reference (ThreatExchange's rule for a correct port), and of Hash; the
// plane hashed as a picture of its own (Hash) misses by more.
func TestHashScaledReference(t *testing.T) {
	n := 0
	for _, ref := range readReference(t) {
		if _, err := os.Stat(filepath.Join("testdata", ref.name)); err != nil {
			continue
		}
		img := decode(t, ref.name)
		b := img.Bounds()
		if min(b.Dx(), b.Dy()) < 768 {
			continue
		}
		n++
		small := eighth(img)
		h, q := HashScaled(small, b.Dx(), b.Dy(), 8)
		full, _ := Hash(img)
		naive, _ := Hash(small)
		t.Logf("%s: %d bits from the reference, %d from Hash, quality %d; the plane as a picture %d bits from the reference",
			ref.name, Distance(h, ref.hash), Distance(h, full), q, Distance(naive, ref.hash))
		if d := Distance(h, ref.hash); d > 10 {
			t.Errorf("%s: HashScaled %d bits from the reference's hash, want ≤ 10", ref.name, d)
		}
		if d := Distance(h, full); d > 6 {
			t.Errorf("%s: HashScaled %d bits from Hash of the whole picture, want ≤ 6", ref.name, d)
		}
	}
	if n == 0 {
		t.Fatal("no reference photo of 768 pixels or more")
	}
}
