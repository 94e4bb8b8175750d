package framehash

import (
	"image"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/pdq"
)

// BenchmarkCopiesFound (issue 70, 2) measures both hashes on the copies
// TestSameFrame makes of 300 scenes and on the pairs among 3,000
// different ones, each at its own radius (Radius here, PDQ's
// pdq.MatchRadius) and looked up as groupFrames looks a photo up: its
// hash and its mirror's (for PDQ, Dihedral's picture as it is and
// mirrored left to right, against the original's Hash). It reports, per
// copy, the share found (found-%) and the distance 99 % of copies lie
// within (p99-bits), and the pairs of different scenes within the radius
// as a share of all pairs (false-%), and the distance of the closest
// pair (closest-bits). framehash+pdq80 is the frame hash's pairs whose
// PDQ hashes are also within 80 bits (copies lie within 74; different
// scenes, here, 78 or more). Run it once: -benchtime=1x.
func BenchmarkCopiesFound(b *testing.B) {
	type hasher struct {
		name     string
		radius   int
		original func(img image.Image) any   // the hash an index holds
		lookups  func(img image.Image) []any // a photo's lookups
		distance func(a, b any) int
	}
	hashers := []hasher{
		{"framehash", Radius,
			func(img image.Image) any { h, _ := Of(img); return h },
			func(img image.Image) []any { h, m := Of(img); return []any{h, m} },
			func(a, b any) int { return Distance(a.(Hash), b.(Hash)) }},
		{"pdq", pdq.MatchRadius,
			func(img image.Image) any { h, _ := pdq.Hash(img); return h },
			func(img image.Image) []any { d, _ := pdq.Dihedral(img); return []any{d[0], d[5]} },
			func(a, b any) int { return pdq.Distance(a.(pdq.Hash256), b.(pdq.Hash256)) }},
		// Frame hash pairs confirmed by PDQ at a wider radius than
		// exchange's (BenchmarkGroupsOfDifferentScenes says why): a
		// mirrored lookup's PDQ is pdq.MirrorOf's, as a stored hash gives it.
		{"framehash+pdq80", Radius,
			func(img image.Image) any { h, _ := Of(img); p, _ := pdq.Hash(img); return both{h, p} },
			func(img image.Image) []any {
				h, m := Of(img)
				p, _ := pdq.Hash(img)
				return []any{both{h, p}, both{m, pdq.MirrorOf(p)}}
			},
			func(a, b any) int {
				x, y := a.(both), b.(both)
				if pdq.Distance(x.p, y.p) > 80 {
					return 1 << 9
				}
				return Distance(x.h, y.h)
			}},
	}
	nearest := func(h hasher, of any, lookups []any) int {
		d := 1 << 10
		for _, l := range lookups {
			d = min(d, h.distance(of, l))
		}
		return d
	}
	for _, h := range hashers {
		b.Run(h.name, func(b *testing.B) {
			for range b.N {
				const n = 300
				for _, c := range copies {
					var dists []int
					for i := range n {
						img := scene(uint64(i+1), 320, 240)
						dists = append(dists, nearest(h, h.original(img), h.lookups(c.f(img))))
					}
					slices.Sort(dists)
					found, _ := slices.BinarySearch(dists, h.radius+1)
					unit := strings.Fields(c.name)[0]
					b.ReportMetric(100*float64(found)/n, "found-%-"+unit)
					b.ReportMetric(float64(dists[n*99/100]), "p99-bits-"+unit)
				}
				const m = 3000
				var originals, lookups = make([]any, m), make([][]any, m)
				for i := range m {
					img := scene(uint64(1_000_000+i), 96, 72)
					originals[i], lookups[i] = h.original(img), h.lookups(img)
				}
				pairs, closest := 0, 1<<10
				for i := range m {
					for j := i + 1; j < m; j++ {
						d := nearest(h, originals[j], lookups[i])
						closest = min(closest, d)
						if d <= h.radius {
							pairs++
						}
					}
				}
				b.ReportMetric(100*float64(pairs)/float64(m*(m-1)/2), "false-%")
				if closest < 1<<9 { // some pair near at all
					b.ReportMetric(float64(closest), "closest-bits")
				}
			}
		})
	}
}

// both is a picture's frame hash and PDQ hash.
type both struct {
	h Hash
	p pdq.Hash256
}
