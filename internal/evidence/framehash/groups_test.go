package framehash

import (
	"fmt"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/pdq"
)

// BenchmarkGroupsOfDifferentScenes measures what the pairs of different
// pictures within Radius make of the archive's groups: groupFrames joins
// a photo to every one within Radius of its hash or its mirrored hash,
// and groups are joined through their members, so pairs ≤ 0.1 % of all
// pairs can still chain thousands of different pictures into one. Among
// n different scenes it reports the lookups' hits (hits: each pair is
// found from both sides, or from one when only a mirror is near), the largest
// group (largest) and the share of scenes in a group of more than one
// (grouped-%), for the frame hash alone and for its pairs whose PDQ
// hashes are also within 80 bits (a mirrored lookup's PDQ taken as the
// hash with the mirrored frequencies' bits flipped, which is within 26
// bits of Dihedral's on TestSameFrame's scenes). Run it once:
// -benchtime=1x.
func BenchmarkGroupsOfDifferentScenes(b *testing.B) {
	const confirm = 80
	for _, n := range []int{10_000, 20_000} {
		hs, ms := make([]Hash, n), make([]Hash, n)
		ps := make([]pdq.Hash256, n)
		x := NewIndex()
		for i := range n {
			img := scene(uint64(1_000_000+i), 96, 72)
			hs[i], ms[i] = Of(img)
			ps[i], _ = pdq.Hash(img)
			x.Add(int64(i), hs[i])
		}
		for _, withPDQ := range []bool{false, true} {
			name := fmt.Sprintf("%d/framehash", n)
			if withPDQ {
				name += fmt.Sprintf("+pdq%d", confirm)
			}
			b.Run(name, func(b *testing.B) {
				for range b.N {
					g := newGroups(n)
					pairs := 0
					for i := range n {
						for k, h := range []Hash{hs[i], ms[i]} {
							p := ps[i]
							if k == 1 {
								p = pdq.MirrorOf(p)
							}
							x.Near(h, Radius, func(m Match) {
								if int(m.ID) == i || withPDQ && pdq.Distance(p, ps[m.ID]) > confirm {
									return
								}
								pairs++
								g.join(i, int(m.ID))
							})
						}
					}
					largest, grouped := g.sizes()
					b.ReportMetric(float64(pairs), "hits")
					b.ReportMetric(float64(largest), "largest")
					b.ReportMetric(100*float64(grouped)/float64(n), "grouped-%")
				}
			})
		}
	}
}

// groups is a union-find over n members, as groupFrames joins photos.
type groups []int

func newGroups(n int) groups {
	g := make(groups, n)
	for i := range g {
		g[i] = i
	}
	return g
}

func (g groups) find(i int) int {
	for g[i] != i {
		g[i] = g[g[i]]
		i = g[i]
	}
	return i
}

func (g groups) join(a, b int) {
	if a, b = g.find(a), g.find(b); a != b {
		g[a] = b
	}
}

// sizes is the largest group's size and how many members are in a group
// of more than one.
func (g groups) sizes() (largest, grouped int) {
	size := map[int]int{}
	for i := range g {
		size[g.find(i)]++
	}
	for _, s := range size {
		largest = max(largest, s)
		if s > 1 {
			grouped += s
		}
	}
	return largest, grouped
}
