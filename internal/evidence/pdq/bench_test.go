package pdq

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"
)

// BenchmarkHash hashes a decoded 3,000 × 1,800 JPEG (5.4 MP, the size
// import's benchmark pictures are), a 360 × 260 grey plane (that
// picture's 1/8-scale DC plane, which the issue hashes from) and a
// 64 × 64 picture (nearly only the DCT).
func BenchmarkHash(b *testing.B) {
	bridge := decode(b, "bridge-1-original.jpg")
	sizes := []struct {
		name string
		img  image.Image
	}{
		{"5.4MP-YCbCr", scaled(bridge, 3000, 1800, true)},
		{"360x260-Gray", scaled(bridge, 360, 260, false)},
		{"64x64-Gray", scaled(bridge, 64, 64, false)},
	}
	for _, s := range sizes {
		b.Run(s.name, func(b *testing.B) {
			for b.Loop() {
				Hash(s.img)
			}
		})
	}
}

// scaled is img resampled (nearest pixel) to w × h, as a 4:2:0 YCbCr
// picture the way a JPEG decodes, or grey.
func scaled(img image.Image, w, h int, ycbcr bool) image.Image {
	sb := img.Bounds()
	var out interface {
		image.Image
		Set(x, y int, c color.Color)
	}
	var ycc *image.YCbCr
	if ycbcr {
		ycc = image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	} else {
		out = image.NewGray(image.Rect(0, 0, w, h))
	}
	for y := range h {
		for x := range w {
			c := img.At(sb.Min.X+x*sb.Dx()/w, sb.Min.Y+y*sb.Dy()/h)
			if ycc == nil {
				out.Set(x, y, c)
				continue
			}
			p := color.YCbCrModel.Convert(c).(color.YCbCr)
			ycc.Y[ycc.YOffset(x, y)] = p.Y
			ycc.Cb[ycc.COffset(x, y)], ycc.Cr[ycc.COffset(x, y)] = p.Cb, p.Cr
		}
	}
	if ycc != nil {
		return ycc
	}
	return out
}

// BenchmarkDihedral reads the eight hashes of a decoded 5.4 MP JPEG.
func BenchmarkDihedral(b *testing.B) {
	img := scaled(decode(b, "bridge-1-original.jpg"), 3000, 1800, true)
	for b.Loop() {
		Dihedral(img)
	}
}

// BenchmarkPairs matches an archive of a million hashes against a
// partner's list of a thousand (random hashes: no pair is near, so the
// time is the comparisons'): the scale `syriamap frames --match` is
// held to.
func BenchmarkPairs(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []Hash256 {
		out := make([]Hash256, n)
		for i := range out {
			for k := range out[i] {
				out[i][k] = byte(r.Uint32())
			}
		}
		return out
	}
	ours, theirs := random(1_000_000), random(1_000)
	for b.Loop() {
		if len(Pairs(ours, theirs, MatchRadius)) != 0 {
			b.Fatal("random hashes matched")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ours)*len(theirs)), "ns/pair")
}
