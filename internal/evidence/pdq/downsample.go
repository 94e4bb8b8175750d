package pdq

import "image"

// plane is a picture's luminance, 0–255, read a row at a time as the
// running sums the box filter reads.
type plane struct {
	w, h int
	sums func(y int, dst []float64) // fills dst[:w+1] with row y's running sums
}

// lumaOf is img's luminance 0.299 R + 0.587 G + 0.114 B, as the reference
// computes it from 8-bit RGB. A JPEG's Y is nearly that luminance (JFIF
// defines Y so) but not where a colour's RGB is clipped to 0–255: hashing
// Y itself put a reference picture 10 bits from the reference's hash
// instead of 8, so a YCbCr picture is converted to RGB pixel by pixel. A
// grey picture (a JPEG's 1/8-scale luma plane) is read as it is.
func lumaOf(img image.Image) plane {
	b := img.Bounds()
	p := plane{w: b.Dx(), h: b.Dy()}
	switch m := img.(type) {
	case *image.YCbCr:
		hdiv := map[image.YCbCrSubsampleRatio]int{
			image.YCbCrSubsampleRatio422: 2, image.YCbCrSubsampleRatio420: 2,
			image.YCbCrSubsampleRatio411: 4, image.YCbCrSubsampleRatio410: 4,
		}[m.SubsampleRatio]
		hdiv = max(hdiv, 1)
		p.sums = func(y int, dst []float64) {
			s := 0.0
			dst[0] = 0
			yy := b.Min.Y + y
			yi, ci := m.YOffset(b.Min.X, yy), m.COffset(m.Rect.Min.X, yy)-m.Rect.Min.X/hdiv
			for x := range p.w {
				c := ci + (b.Min.X+x)/hdiv
				s += lumaYCbCr(m.Y[yi+x], m.Cb[c], m.Cr[c])
				dst[x+1] = s
			}
		}
	case *image.Gray:
		p.sums = func(y int, dst []float64) {
			s := 0.0
			dst[0] = 0
			i := m.PixOffset(b.Min.X, b.Min.Y+y)
			for x, v := range m.Pix[i : i+p.w] {
				s += float64(v)
				dst[x+1] = s
			}
		}
	case *image.RGBA:
		p.sums = func(y int, dst []float64) {
			s := 0.0
			dst[0] = 0
			i := m.PixOffset(b.Min.X, b.Min.Y+y)
			px := m.Pix[i : i+4*p.w]
			for x := range p.w {
				s += luma(uint32(px[4*x]), uint32(px[4*x+1]), uint32(px[4*x+2]))
				dst[x+1] = s
			}
		}
	default:
		p.sums = func(y int, dst []float64) {
			s := 0.0
			dst[0] = 0
			for x := range p.w {
				r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
				s += luma(r>>8, g>>8, bl>>8)
				dst[x+1] = s
			}
		}
	}
	return p
}

// lumaYCbCr is the luminance of the RGB colour.YCbCrToRGB makes of
// (y, cb, cr), computed as it does (16-bit fixed point, clipped to 0–255)
// without a call per pixel.
func lumaYCbCr(y, cb, cr uint8) float64 {
	yy := int32(y) * 0x10101
	cb1, cr1 := int32(cb)-128, int32(cr)-128
	r := clip(yy + 91881*cr1)
	g := clip(yy - 22554*cb1 - 46802*cr1)
	b := clip(yy + 116130*cb1)
	return 0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)
}

// clip is v>>16 clipped to 0–255.
func clip(v int32) int32 {
	if uint32(v)&0xff000000 == 0 {
		return v >> 16
	}
	return ^(v >> 31) & 0xff
}

func luma(r, g, b uint32) float64 {
	return 0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)
}

// window is the Jarosz filter's box width for shrinking n samples to side:
// the box is about half a target pixel wide; two passes of it make a tent
// as wide as one.
func window(n int) int { return (n + 2*side - 1) / (2 * side) }

// grid is where the 64 samples along one axis of n are read: their
// indices, and how far the box reaches before (lo) and after (hi) each
// (lo + 1 + hi = its width).
type grid struct {
	idx    [side]int
	lo, hi int
}

// grids are the axis's grid, each sample the pixel at or before a target
// pixel's centre and an even box's extra sample after it, as the
// reference reads it; and the grid a mirrored picture is read on, seen
// from the picture as it is: the same samples reflected, the box's reach
// swapped. The two differ by up to a pixel and a half (nothing on a
// photo's thousands of pixels; a sixth of a sample at 1024 pixels, enough
// to move 18 bits), so Dihedral reads a mirrored picture's hash from the
// mirrored grid.
func grids(n int) (normal, mirrored grid) {
	w := window(n)
	normal.hi = w / 2
	normal.lo = w - 1 - normal.hi
	for i := range normal.idx {
		normal.idx[i] = int((float64(i) + 0.5) * float64(n) / side)
	}
	mirrored.lo, mirrored.hi = normal.hi, normal.lo
	for i := range mirrored.idx {
		mirrored.idx[i] = n - 1 - normal.idx[side-1-i]
	}
	return normal, mirrored
}

// buffer is a picture's blurred luminance sampled at side × side points,
// [row][column].
type buffer [side][side]float64

// downsample is p blurred by two passes of a box filter along its rows and
// two down its columns, then sampled at side × side points; nil when p
// has no pixels. The filter is separable, so only the 64 sampled columns
// of each row are blurred, from the row's running sums, and then only the
// 64 sampled rows of those columns: one pass over the picture's pixels.
//
// With mirrors, it is four buffers, read on the grids of the picture as
// it is, mirrored left to right, upside down and both (index 2·upside
// down + left to right), each seen from the picture as it is; the running
// sums are shared.
func downsample(p plane, mirrors bool) []buffer {
	if p.w <= 0 || p.h <= 0 {
		return nil
	}
	gx, mx := grids(p.w)
	gy, my := grids(p.h)
	xgrids, ygrids := []grid{gx}, []grid{gy}
	if mirrors {
		xgrids, ygrids = append(xgrids, mx), append(ygrids, my)
	}
	prefix := make([]float64, max(p.w, p.h)+1)
	cols := make([][side][]float64, len(xgrids)) // cols[g][j][y]: row y blurred at grid g's sample j
	for g := range cols {
		for j := range cols[g] {
			cols[g][j] = make([]float64, p.h)
		}
	}
	for y := range p.h {
		p.sums(y, prefix)
		for g, xg := range xgrids {
			for j, x := range xg.idx {
				cols[g][j][y] = twice(prefix, p.w, x, xg.lo, xg.hi)
			}
		}
	}
	out := make([]buffer, len(xgrids)*len(ygrids))
	for g := range xgrids {
		for j, col := range cols[g] {
			prefixSums(prefix, col)
			for k, yg := range ygrids {
				for i, y := range yg.idx {
					out[len(xgrids)*k+g][i][j] = twice(prefix, p.h, y, yg.lo, yg.hi)
				}
			}
		}
	}
	return out
}

// prefixSums fills prefix[:len(src)+1] with src's running sums.
func prefixSums(prefix, src []float64) {
	prefix[0] = 0
	for i, v := range src {
		prefix[i+1] = prefix[i] + v
	}
}

// twice is sample i of n, whose running sums are prefix, blurred twice by
// a box reaching lo samples before its centre and hi after; at the ends a
// box averages the samples it covers.
func twice(prefix []float64, n, i, lo, hi int) float64 {
	a, b := max(0, i-lo), min(n, i+hi+1)
	s := 0.0
	for j := a; j < b; j++ {
		ja, jb := max(0, j-lo), min(n, j+hi+1)
		s += (prefix[jb] - prefix[ja]) / float64(jb-ja)
	}
	return s / float64(b-a)
}
