// Package framehash finds the same frame among photos: a perceptual hash
// of each picture (the signs of the low frequencies of its 32×32 grey
// thumbnail's DCT, as pHash does) stays within a few bits when the
// picture is resized, recompressed, cropped a little or watermarked, and a
// second hash read from the same coefficients is the mirrored picture's.
// An Index finds every hash within a radius among a million without
// comparing them all (multi-index hashing: Norouzi, Punjani and Fleet,
// CVPR 2012).
package framehash

import (
	"image"
	"math"
	"math/bits"
	"slices"
)

// Hash is a picture's 63-bit perceptual hash (bit 63 is 0).
type Hash uint64

// Distance is the number of bits two hashes differ by.
func Distance(a, b Hash) int { return bits.OnesCount64(uint64(a ^ b)) }

// side is the thumbnail the hash is read from; low the frequencies kept.
const (
	side = 32
	low  = 8
)

// cosines[u][x] = cos((2x+1)uπ / 2·side), the DCT-II basis.
var cosines = func() (c [low][side]float64) {
	for u := range low {
		for x := range side {
			c[u][x] = math.Cos(float64(2*x+1) * float64(u) * math.Pi / (2 * side))
		}
	}
	return c
}()

// Of hashes img, and img mirrored left to right.
func Of(img image.Image) (h, mirrored Hash) {
	return ofThumbnail(thumbnail(img))
}

// OfScaled hashes a w × h picture, and its mirror, from small: the same
// picture at 1/scale of its size, each pixel the mean of a scale × scale
// block of it (a JPEG's DC plane, scale 8; scale 1 is Of). Each cell of
// the thumbnail takes each block by the share of its pixels in the cell,
// as Of's grid would take the pixels themselves; exact where a block is
// flat.
func OfScaled(small image.Image, w, h, scale int) (hash, mirrored Hash) {
	if scale <= 1 {
		return Of(small)
	}
	return ofThumbnail(scaledThumbnail(small, w, h, scale))
}

func ofThumbnail(g *[side][side]float64) (h, mirrored Hash) {
	// The 8×8 lowest frequencies of the thumbnail's DCT-II, separably:
	// rows first (horizontal frequency u), then columns (v).
	var rows [side][low]float64
	for y := range side {
		for u := range low {
			var s float64
			for x := range side {
				s += g[y][x] * cosines[u][x]
			}
			rows[y][u] = s
		}
	}
	var coef [low][low]float64 // [v][u]
	for v := range low {
		for u := range low {
			var s float64
			for y := range side {
				s += rows[y][u] * cosines[v][y]
			}
			coef[v][u] = s
		}
	}
	// Mirroring x → side-1-x multiplies frequency u by (-1)^u.
	return signs(coef, false), signs(coef, true)
}

// signs sets a bit for each coefficient (but the mean, DC) above the
// median of the 63.
func signs(coef [low][low]float64, mirror bool) Hash {
	vals := make([]float64, 0, low*low-1)
	for v := range low {
		for u := range low {
			if u == 0 && v == 0 {
				continue
			}
			c := coef[v][u]
			if mirror && u%2 == 1 {
				c = -c
			}
			vals = append(vals, c)
		}
	}
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	median := sorted[len(sorted)/2]
	var h Hash
	for i, c := range vals {
		if c > median {
			h |= 1 << i
		}
	}
	return h
}

// thumbnail is img's luma averaged over a side×side grid of equal areas
// (a box filter: a resized copy averages to nearly the same grid).
func thumbnail(img image.Image) *[side][side]float64 {
	b := img.Bounds()
	w, hgt := b.Dx(), b.Dy()
	var sum [side][side]float64
	var n [side][side]float64
	// Rows and columns map to grid cells once.
	cellX := make([]int, w)
	for x := range w {
		cellX[x] = x * side / w
	}
	if plane, stride, ok := lumaPlane(img); ok {
		// A decoded JPEG's (or a grey picture's) luma is a plane of
		// bytes: each row's run in each cell summed as integers, exactly
		// as the general path sums them, without a call per pixel.
		var isum [side][side]int64
		var cols, rows [side]int
		var from [side + 1]int
		for x := range w {
			cols[cellX[x]]++
		}
		for cx := range side {
			from[cx+1] = from[cx] + cols[cx]
		}
		for y := range hgt {
			cy := y * side / hgt
			rows[cy]++
			row := plane[y*stride : y*stride+w]
			for cx := range side {
				var s int64
				for _, v := range row[from[cx]:from[cx+1]] {
					s += int64(v)
				}
				isum[cy][cx] += s
			}
		}
		for cy := range side {
			for cx := range side {
				sum[cy][cx], n[cy][cx] = float64(isum[cy][cx]), float64(rows[cy]*cols[cx])
			}
		}
	} else {
		luma := lumaFunc(img)
		for y := range hgt {
			cy := y * side / hgt
			for x := range w {
				sum[cy][cellX[x]] += luma(b.Min.X+x, b.Min.Y+y)
				n[cy][cellX[x]]++
			}
		}
	}
	return mean(&sum, &n)
}

// scaledThumbnail is thumbnail's grid of a w × h picture read from small,
// its 1/scale picture (see OfScaled).
func scaledThumbnail(small image.Image, w, h, scale int) *[side][side]float64 {
	b := small.Bounds()
	cx, cy := cellShares(w, scale, b.Dx()), cellShares(h, scale, b.Dy())
	luma := lumaFunc(small)
	var sum, n [side][side]float64
	for by := range b.Dy() {
		for bx := range b.Dx() {
			v := luma(b.Min.X+bx, b.Min.Y+by)
			for _, sy := range cy[by] {
				for _, sx := range cx[bx] {
					k := float64(sy.pixels * sx.pixels)
					sum[sy.cell][sx.cell] += k * v
					n[sy.cell][sx.cell] += k
				}
			}
		}
	}
	return mean(&sum, &n)
}

// mean is each cell's sum over its count (0 for a cell of none).
func mean(sum, n *[side][side]float64) *[side][side]float64 {
	var g [side][side]float64
	for y := range side {
		for x := range side {
			if n[y][x] > 0 {
				g[y][x] = sum[y][x] / n[y][x]
			}
		}
	}
	return &g
}

// cellShare is how many of a block's pixels fall in a cell of the grid.
type cellShare struct{ cell, pixels int }

// cellShares are, for each of blocks blocks of scale pixels along an axis
// of n pixels, the grid cells its pixels fall in (as thumbnail maps them)
// and how many in each.
func cellShares(n, scale, blocks int) [][]cellShare {
	out := make([][]cellShare, blocks)
	for x := range n {
		b := min(x/scale, blocks-1)
		c := x * side / n
		if k := len(out[b]); k > 0 && out[b][k-1].cell == c {
			out[b][k-1].pixels++
		} else {
			out[b] = append(out[b], cellShare{c, 1})
		}
	}
	return out
}

// lumaPlane is img's luma as bytes, from its first pixel, and its
// stride, for a decoded JPEG (its Y plane) or a grey picture.
func lumaPlane(img image.Image) (plane []byte, stride int, ok bool) {
	switch m := img.(type) {
	case *image.YCbCr:
		return m.Y[m.YOffset(m.Rect.Min.X, m.Rect.Min.Y):], m.YStride, true
	case *image.Gray:
		return m.Pix[m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y):], m.Stride, true
	}
	return nil, 0, false
}

// lumaFunc reads a pixel's luma (0–255), straight from the Y plane of a
// decoded JPEG.
func lumaFunc(img image.Image) func(x, y int) float64 {
	switch m := img.(type) {
	case *image.YCbCr:
		return func(x, y int) float64 { return float64(m.Y[m.YOffset(x, y)]) }
	case *image.Gray:
		return func(x, y int) float64 { return float64(m.Pix[m.PixOffset(x, y)]) }
	case *image.RGBA:
		return func(x, y int) float64 {
			i := m.PixOffset(x, y)
			return 0.299*float64(m.Pix[i]) + 0.587*float64(m.Pix[i+1]) + 0.114*float64(m.Pix[i+2])
		}
	}
	return func(x, y int) float64 {
		r, g, b, _ := img.At(x, y).RGBA()
		return (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 257
	}
}
