package pdq

import "image"

// HashScaled is the PDQ hash and quality of a w × h picture read from
// small, the same picture at 1/scale of its size whose every pixel is the
// mean of a scale × scale block of it (a JPEG's DC plane, scale 8; the
// right and bottom blocks may reach past the picture's edge; scale 1 is
// Hash).
//
// PDQ is sensitive to where its 64 × 64 samples fall: a sixth of a sample
// off moves bits (see grids). Hashing small as a picture of its own puts
// the samples and the box filter's reach up to half a block off the
// reference's, and on photos moved the hash by 8 to 14 bits. So the
// filter is applied as on the picture itself: each sample's weights over
// the picture's pixels (two passes of the box, on the grid of w and h),
// summed over each block, applied to the block's mean. That is exact
// where a block is flat, and within a few bits of Hash on the full
// picture otherwise.
func HashScaled(small image.Image, w, h, scale int) (Hash256, int) {
	if scale <= 1 {
		return Hash(small)
	}
	p := lumaOf(small)
	if p.w <= 0 || p.h <= 0 || w <= 0 || h <= 0 || scale < 1 {
		return Hash256{}, 0
	}
	wx, wy := blockWeights(w, scale, p.w), blockWeights(h, scale, p.h)
	// Each row of blocks filtered at the 64 columns, then the columns
	// at the 64 rows.
	cols := make([][side]float64, p.h) // cols[by][j]
	prefix := make([]float64, p.w+1)
	for by := range p.h {
		p.sums(by, prefix)
		for j := range side {
			s := 0.0
			for _, bw := range wx[j] {
				s += bw.w * (prefix[bw.block+1] - prefix[bw.block])
			}
			cols[by][j] = s
		}
	}
	var buf buffer
	for i := range side {
		for j := range side {
			s := 0.0
			for _, bw := range wy[i] {
				s += bw.w * cols[bw.block][j]
			}
			buf[i][j] = s
		}
	}
	c := transform(&buf)
	return c.hash(), quality(&buf)
}

// blockWeight is one block's share of a sample.
type blockWeight struct {
	block int
	w     float64
}

// blockWeights are, for each of the 64 samples along an axis of n pixels,
// the weights twice gives the pixels, summed by block of scale pixels
// (blocks from 0 to blocks-1).
func blockWeights(n, scale, blocks int) [side][]blockWeight {
	g, _ := grids(n)
	var out [side][]blockWeight
	for s, i := range g.idx {
		a, b := max(0, i-g.lo), min(n, i+g.hi+1)
		first := max(0, a-g.lo) / scale
		byBlock := make([]float64, min(n, b+g.hi)/scale-first+1)
		for j := a; j < b; j++ {
			ja, jb := max(0, j-g.lo), min(n, j+g.hi+1)
			share := 1 / float64((jb-ja)*(b-a))
			for x := ja; x < jb; x++ {
				byBlock[x/scale-first] += share
			}
		}
		for k, w := range byBlock {
			if w != 0 {
				out[s] = append(out[s], blockWeight{min(first+k, blocks-1), w})
			}
		}
	}
	return out
}
