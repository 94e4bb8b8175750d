package pdq

import (
	"encoding/binary"
	"math/bits"
	"runtime"
	"sync"
)

// Pair is a hash of one set (A, its index) within a radius of one of
// another (B), Distance bits apart.
type Pair struct{ A, B, Distance int }

// words is a hash as four 64-bit words, for a distance in four popcounts.
type words [4]uint64

func wordsOf(h Hash256) words {
	var w words
	for i := range w {
		w[i] = binary.BigEndian.Uint64(h[8*i:])
	}
	return w
}

func (x *words) distance(y *words) int {
	return bits.OnesCount64(x[0]^y[0]) + bits.OnesCount64(x[1]^y[1]) +
		bits.OnesCount64(x[2]^y[2]) + bits.OnesCount64(x[3]^y[3])
}

// Pairs is every pair of a hash of a and a hash of b at most radius bits
// apart, ordered by a's index, then b's; a's hashes are shared out among
// the CPUs. Under 32 bits (MatchRadius is 31) two hashes that near have at
// least one of their 32 bytes alike, so each hash of a is compared only
// with the hashes of b that share a byte with it at the same place (an
// index of b by byte): about len(b)/8 of them, where a comparison with
// every one (a wider radius) is four popcounts each. Safe for concurrent
// use.
func Pairs(a, b []Hash256, radius int) []Pair {
	bw := make([]words, len(b))
	for j, h := range b {
		bw[j] = wordsOf(h)
	}
	var index *[len(Hash256{})][256][]int32
	if radius < len(Hash256{}) {
		index = new([len(Hash256{})][256][]int32)
		for j, h := range b {
			for p, c := range h {
				index[p][c] = append(index[p][c], int32(j))
			}
		}
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(a)/1024))
	found := make([][]Pair, workers)
	var wg sync.WaitGroup
	for k := range workers {
		lo, hi := k*len(a)/workers, (k+1)*len(a)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			var near []Pair
			for i := lo; i < hi; i++ {
				x := wordsOf(a[i])
				if index == nil {
					for j := range bw {
						if d := x.distance(&bw[j]); d <= radius {
							near = append(near, Pair{A: i, B: j, Distance: d})
						}
					}
					continue
				}
				start := len(near)
				for p, c := range a[i] {
					for _, j := range index[p][c] {
						if d := x.distance(&bw[j]); d <= radius && firstAlike(&a[i], &b[j]) == p {
							near = append(near, Pair{A: i, B: int(j), Distance: d})
						}
					}
				}
				sortByB(near[start:])
			}
			found[k] = near
		}()
	}
	wg.Wait()
	var out []Pair
	for _, f := range found {
		out = append(out, f...)
	}
	return out
}

// firstAlike is the first place at which x and y have the same byte, -1
// when none: the one place Pairs counts a pair at.
func firstAlike(x, y *Hash256) int {
	for p := range x {
		if x[p] == y[p] {
			return p
		}
	}
	return -1
}

// sortByB orders one hash's pairs (a few) by b's index.
func sortByB(ps []Pair) {
	for i := 1; i < len(ps); i++ {
		for k := i; k > 0 && ps[k].B < ps[k-1].B; k-- {
			ps[k], ps[k-1] = ps[k-1], ps[k]
		}
	}
}
