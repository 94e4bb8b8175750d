package jpegdc

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"testing"
)

// agencyJPEG is a noisy 3,000 × 1,800 picture at quality 95, about 4.6 MB:
// the pictures `make bench-images` imports.
func agencyJPEG(tb testing.TB) []byte {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	img := image.NewRGBA(image.Rect(0, 0, 3000, 1800))
	for y := range 1800 {
		for x := range 3000 {
			v := uint8(x/10 + y/10)
			img.SetRGBA(x, y, color.RGBA{v + uint8(rng.IntN(90)), v/2 + uint8(rng.IntN(90)), uint8(rng.IntN(120)), 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// BenchmarkDecode reads an agency-sized JPEG's DC plane (issue 70: the
// hash's decode); BenchmarkDecodeFull decodes it whole with image/jpeg.
func BenchmarkDecode(b *testing.B) {
	data := agencyJPEG(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeFull(b *testing.B) {
	data := agencyJPEG(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if _, err := jpeg.Decode(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
