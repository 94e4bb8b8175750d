package resize

import (
	"image"
	"image/color"
	"math"
)

// Shrink scales img to fit a size × size square, keeping its proportions,
// by area averaging: each pixel of the result is the mean of the source
// pixels it covers (in part, at its edges). It reads the source a row at a
// time and keeps only the result and three rows besides: a kernel
// resampler's intermediate (the result's width × the source's height, four
// float64s each) is 245 MB for a 48-megapixel photo, more than its
// decoding. Smaller images are kept as they are.
func Shrink(img image.Image, size int) image.Image {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	if sw <= size && sh <= size {
		return img
	}
	dw, dh := size, max(1, sh*size/sw)
	if sh > sw {
		dw, dh = max(1, sw*size/sh), size
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	xs, xw := spans(sw, dw)
	ys, yw := spans(sh, dh)
	// Each column's total weight, for the exact mean at the edges.
	colWeight := make([]float32, dw)
	for x := range sw {
		colWeight[xs[x]] += xw[x]
		if xw[x] < 1 && int(xs[x])+1 < dw {
			colWeight[xs[x]+1] += 1 - xw[x]
		}
	}
	src := make([]uint8, 4*sw)
	across := make([]float32, 4*dw) // a source row, averaged across
	cur := make([]float32, 4*dw)    // the result's row being summed
	next := make([]float32, 4*dw)   // what spills into the row below
	var curWeight, nextWeight float32
	row := 0
	emit := func() {
		out := dst.Pix[row*dst.Stride:]
		for x := range dw {
			w := colWeight[x] * curWeight
			for c := range 4 {
				out[4*x+c] = uint8(min(255, cur[4*x+c]/w+0.5))
			}
		}
	}
	read := rowReader(img)
	for y := range sh {
		read(b.Min.Y+y, src)
		clear(across)
		for x := range sw {
			d, w := 4*int(xs[x]), xw[x]
			for c := range 4 {
				v := float32(src[4*x+c])
				across[d+c] += w * v
				if w < 1 && d+4 < len(across) {
					across[d+4+c] += (1 - w) * v
				}
			}
		}
		d, w := int(ys[y]), yw[y]
		if d > row {
			emit()
			row = d
			cur, next = next, cur
			clear(next)
			curWeight, nextWeight = nextWeight, 0
		}
		for i, v := range across {
			cur[i] += w * v
		}
		curWeight += w
		if w < 1 && d+1 < dh {
			for i, v := range across {
				next[i] += (1 - w) * v
			}
			nextWeight += 1 - w
		}
	}
	emit()
	return dst
}

// spans maps each of n source pixels to the result pixel (of m) it begins
// in and the share of it that falls there; the rest falls in the next.
func spans(n, m int) (first []int32, share []float32) {
	first, share = make([]int32, n), make([]float32, n)
	scale := float64(m) / float64(n)
	for i := range n {
		lo := float64(i) * scale
		d := math.Floor(lo)
		first[i] = int32(min(d, float64(m-1)))
		share[i] = float32(min(1, (d+1-lo)/scale))
	}
	return first, share
}

// rowReader returns a function that reads row y of img as RGBA bytes
// (alpha premultiplied), fast for the types the decoders make.
func rowReader(img image.Image) func(y int, out []uint8) {
	b := img.Bounds()
	switch p := img.(type) {
	case *image.YCbCr:
		return func(y int, out []uint8) {
			for x := range b.Dx() {
				yi, ci := p.YOffset(b.Min.X+x, y), p.COffset(b.Min.X+x, y)
				r, g, bl := color.YCbCrToRGB(p.Y[yi], p.Cb[ci], p.Cr[ci])
				out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = r, g, bl, 255
			}
		}
	case *image.Gray:
		return func(y int, out []uint8) {
			row := p.Pix[p.PixOffset(b.Min.X, y):]
			for x := range b.Dx() {
				v := row[x]
				out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = v, v, v, 255
			}
		}
	case *image.RGBA:
		return func(y int, out []uint8) {
			copy(out, p.Pix[p.PixOffset(b.Min.X, y):p.PixOffset(b.Min.X, y)+4*b.Dx()])
		}
	case *image.NRGBA: // PNGs: At would box every pixel
		return func(y int, out []uint8) {
			row := p.Pix[p.PixOffset(b.Min.X, y):]
			for x := range b.Dx() {
				a := uint16(row[4*x+3])
				for c := range 3 {
					out[4*x+c] = uint8((uint16(row[4*x+c])*a + 127) / 255)
				}
				out[4*x+3] = uint8(a)
			}
		}
	}
	return func(y int, out []uint8) {
		for x := range b.Dx() {
			r, g, bl, a := img.At(b.Min.X+x, y).RGBA()
			out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = uint8(r>>8), uint8(g>>8), uint8(bl>>8), uint8(a>>8)
		}
	}
}
