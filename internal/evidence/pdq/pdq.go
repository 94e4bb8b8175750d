// Package pdq computes PDQ hashes, the perceptual hash Meta's
// ThreatExchange publishes for exchanging lists of known pictures
// between archives and platforms without exchanging the pictures: 256
// bits and a quality score from 0 to 100. Two hashes within MatchRadius
// bits are the same picture; a hash of quality at most LowQuality is of a
// picture too plain to say (a flat colour, a blur) and is best discarded.
//
// It is written from the algorithm's published description
// (ThreatExchange's pdq/README.md and hashing/hashing.pdf): the picture's
// luminance, blurred by two passes of a box filter each way (a Jarosz
// filter) and sampled to 64 × 64; the 16 × 16 lowest non-constant
// frequencies of its DCT; one bit for each, set when it is above their
// median. The quality is the picture's mean gradient at that size. The
// hashes of a picture's seven mirrors and rotations come from the same
// DCT (Dihedral). Tests hold it to ThreatExchange's reference hashes.
package pdq

import (
	"encoding/hex"
	"image"
	"math"
	"math/bits"
	"slices"

	"github.com/syriamap/syriamap/internal/photo"
)

// Hash256 is a PDQ hash: 256 bits as a big-endian number, in the order
// ThreatExchange's tools write them in hex (the first hex digit holds
// bits 255–252). Bit 16·u + v is the sign of the DCT coefficient of
// vertical frequency u+1 and horizontal frequency v+1 against the median.
type Hash256 [32]byte

// MatchRadius and LowQuality are ThreatExchange's recommended thresholds:
// hashes within MatchRadius bits match; a hash of quality ≤ LowQuality is
// too unreliable to match on.
const (
	MatchRadius = 31
	LowQuality  = 49
)

// Distance is the number of bits two hashes differ by (0–256).
func Distance(a, b Hash256) int {
	n := 0
	for i := range a {
		n += bits.OnesCount8(a[i] ^ b[i])
	}
	return n
}

// String is the hash as 64 lower-case hex digits, as ThreatExchange's
// tools write it.
func (h Hash256) String() string { return hex.EncodeToString(h[:]) }

// Parse reads a hash written as 64 hex digits (either case), the form
// String writes and ThreatExchange's tools exchange. Anything else is an
// EInvalid error.
func Parse(s string) (Hash256, error) {
	var h Hash256
	if len(s) != 2*len(h) {
		return h, photo.Errorf(photo.EInvalid, "pdq: a hash is 64 hex digits, not %d characters", len(s))
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return Hash256{}, photo.Errorf(photo.EInvalid, "pdq: %q is not a hash: %v", s, err)
	}
	return h, nil
}

// side is the size of the blurred luminance the DCT reads; freqs the
// number of frequencies kept each way.
const (
	side  = 64
	freqs = 16
)

// Hash is img's PDQ hash and its quality (0–100). A picture without
// pixels hashes to zero of quality 0. Safe for concurrent use.
func Hash(img image.Image) (Hash256, int) {
	bufs := downsample(lumaOf(img), false)
	if bufs == nil {
		return Hash256{}, 0
	}
	c := transform(&bufs[0])
	return c.hash(), quality(&bufs[0])
}

// Dihedral is the hashes of img and of its seven mirrors and rotations, in
// the order and the sense of ThreatExchange's reference pictures
// (pdq/data/reg-test-input/dih): as it is; turned 90° anticlockwise; 180°;
// 90° clockwise; upside down (their "flipx", about the horizontal axis);
// mirrored left to right ("flipy"); mirrored about the diagonal from top
// left to bottom right (transposed, "flip-plus-1"); about the other
// diagonal ("flip-minus-1"). Each is the hash Hash gives the turned or
// mirrored picture (to a float's rounding), so a lookup of the eight
// finds a picture however it was turned. All share Hash's quality, which
// is returned too.
//
// The reference reads the seven from the DCT of the picture as it is.
// PDQ's grid is not symmetric, though (see grids): a mirrored picture is
// sampled up to a pixel and a half off the mirrored samples, which moves
// its hash by up to 18 bits at 1024 pixels and 38 at 256. So the
// mirrored ones are read from the DCTs of the picture sampled on the
// mirrored grids (four DCTs in all, one pass over the pixels).
func Dihedral(img image.Image) ([8]Hash256, int) {
	var out [8]Hash256
	bufs := downsample(lumaOf(img), true)
	if bufs == nil {
		return out, 0
	}
	var cs [4]coeffs
	for i := range bufs {
		cs[i] = transform(&bufs[i])
	}
	var t coeffs
	for k := range out {
		c := &cs[gridOf[k]]
		for u := range freqs {
			for v := range freqs {
				t[u][v] = turned(c, k, u, v)
			}
		}
		out[k] = t.hash()
	}
	return out, quality(&bufs[0])
}

// gridOf is the buffer (downsample's index: 2·upside down + left to right)
// each of Dihedral's eight is read from: which of the picture's axes the
// turn or mirror reverses. A transposition swaps the axes and their grids
// with them, which changes nothing.
var gridOf = [8]int{0, 1, 3, 2, 2, 1, 0, 3}

// turned is coefficient (u, v) of the picture whose coefficients are c,
// turned or mirrored the k-th way of Dihedral's order. Mirroring a
// picture left to right multiplies its horizontal frequency f's
// coefficient by (-1)^f (index v is frequency v+1), upside down its
// vertical ones; transposing it swaps the two frequencies.
func turned(c *coeffs, k, u, v int) float64 {
	su, sv := sign(u), sign(v)
	switch k {
	case 1: // anticlockwise: transposed, then upside down
		return su * c[v][u]
	case 2:
		return su * sv * c[u][v]
	case 3: // clockwise: transposed, then mirrored left to right
		return sv * c[v][u]
	case 4:
		return su * c[u][v]
	case 5:
		return sv * c[u][v]
	case 6:
		return c[v][u]
	case 7:
		return su * sv * c[v][u]
	}
	return c[u][v]
}

// sign is (-1)^(i+1): the sign mirroring gives frequency i+1.
func sign(i int) float64 {
	if i%2 == 0 {
		return -1
	}
	return 1
}

// coeffs are the DCT coefficients the hash reads, [vertical][horizontal],
// frequencies 1–16 each way.
type coeffs [freqs][freqs]float64

// hash sets each bit whose coefficient is above the median of the 256.
func (c *coeffs) hash() Hash256 {
	all := make([]float64, 0, freqs*freqs)
	for u := range freqs {
		all = append(all, c[u][:]...)
	}
	slices.Sort(all)
	median := all[len(all)/2-1]
	var h Hash256
	for u := range freqs {
		for v := range freqs {
			if c[u][v] > median {
				k := freqs*u + v
				h[len(h)-1-k/8] |= 1 << (k % 8)
			}
		}
	}
	return h
}

// dct is the DCT-II's basis for frequencies 1–16 over 64 samples:
// dct[f][n] = √(2/64) · cos(π/128 · (f+1) · (2n+1)).
var dct = func() (m [freqs][side]float64) {
	scale := math.Sqrt(2.0 / side)
	for f := range freqs {
		for n := range side {
			m[f][n] = scale * math.Cos(math.Pi/(2*side)*float64(f+1)*float64(2*n+1))
		}
	}
	return m
}()

// transform is the DCT of a, frequencies 1–16 each way.
func transform(a *buffer) coeffs {
	var c coeffs
	// t = dct · a, then c = t · dctᵀ.
	var t [freqs][side]float64
	for f := range freqs {
		for y := range side {
			w := dct[f][y]
			for x := range side {
				t[f][x] += w * a[y][x]
			}
		}
	}
	for u := range freqs {
		for v := range freqs {
			s := 0.0
			for x := range side {
				s += t[u][x] * dct[v][x]
			}
			c[u][v] = s
		}
	}
	return c
}

// quality is the picture's summed gradient at 64 × 64, each step between
// neighbours counted in whole percent of the full 0–255 range, divided by
// 90 and capped at 100: a flat or blurred picture scores near 0.
func quality(a *buffer) int {
	sum := 0
	for y := range side {
		for x := range side {
			if y+1 < side {
				sum += abs(int((a[y+1][x] - a[y][x]) * 100 / 255))
			}
			if x+1 < side {
				sum += abs(int((a[y][x+1] - a[y][x]) * 100 / 255))
			}
		}
	}
	return min(100, sum/90)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// MirrorOf is nearly the hash of h's picture mirrored left to right, read
// from h alone (for a stored hash, whose picture is not at hand):
// mirroring negates the DCT coefficients of odd horizontal frequency
// (bits 16·u + v with v even: frequency v+1), whose bits then flip — all
// but those near the median, which moves: within 16 bits of Dihedral's
// exact mirrored hash on the reference photos, farther on small pictures
// (see grids), so it serves to confirm, not to match a partner's list.
func MirrorOf(h Hash256) Hash256 {
	for u := range freqs {
		for v := 0; v < freqs; v += 2 {
			k := freqs*u + v
			h[len(h)-1-k/8] ^= 1 << (k % 8)
		}
	}
	return h
}
