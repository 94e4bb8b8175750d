package framehash

import (
	"runtime"
	"sync"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/pdq"
)

// million is an index of a million hashes of different pictures: reused
// frames' originals (320 × 240, ids 0…reused-1) and, after them, distinct
// generated scenes (64 × 48, as BenchmarkNear's, id i the scene of seed
// millionSeed+i); and the copies of the reused frames to look up, each
// with the id of its original.
type million struct {
	x       *Index
	pdqs    []pdq.Hash256 // the originals'
	queries []query
}

type query struct {
	h, mirrored Hash
	pdq         pdq.Hash256
	of          int64
}

const (
	millionSize   = 1_000_000
	millionReused = 200
	millionSeed   = 2_000_000
)

var (
	millionOnce sync.Once
	millionData million
)

// millionIndex builds the index once a process, on every core (minutes of
// hashing).
func millionIndex() *million {
	millionOnce.Do(func() {
		hashes := make([]Hash, millionSize)
		var m million
		for i := range millionReused {
			img := scene(uint64(i+1), 320, 240)
			hashes[i], _ = Of(img)
			p, _ := pdq.Hash(img)
			m.pdqs = append(m.pdqs, p)
			for _, c := range copies {
				cp := c.f(img)
				h, mh := Of(cp)
				p, _ := pdq.Hash(cp)
				m.queries = append(m.queries, query{h, mh, p, int64(i)})
			}
		}
		var wg sync.WaitGroup
		workers := runtime.GOMAXPROCS(0)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := millionReused + w; i < millionSize; i += workers {
					hashes[i], _ = Of(scene(uint64(millionSeed+i), 64, 48))
				}
			}()
		}
		wg.Wait()
		m.x = NewIndex()
		for i, h := range hashes {
			m.x.Add(int64(i), h)
		}
		millionData = m
	})
	return &millionData
}

// pdqOf is the PDQ hash of the picture id is in the million's index,
// computed when asked: only the frame hash's pairs are confirmed.
func (m *million) pdqOf(id int64) pdq.Hash256 {
	if id < millionReused {
		return m.pdqs[id]
	}
	h, _ := pdq.Hash(scene(uint64(millionSeed+id), 64, 48))
	return h
}

// BenchmarkNearAtAMillion (issue 70's target): a photo's lookup, its hash
// and its mirrored hash at Radius, among a million hashes of different
// pictures, for 1,000 copies of 200 frames — resized, recompressed,
// cropped, watermarked, mirrored — whose originals are among them. It
// reports the share of copies whose original is found (found-%, target ≥
// 99) and the pairs of different pictures found, as a share of lookups ×
// hashes indexed (false-%, target ≤ 0.1) and a lookup (false/lookup);
// and the same with each pair confirmed by PDQ as the archive groups
// frames (within 80 bits, a mirrored lookup's PDQ flipped as
// pdq.MirrorOf does): found-%-pdq80, false-%-pdq80. ns/op is one
// photo's lookup by the frame hash. Run it as -benchtime=1000x: building
// the index takes minutes of CPU.
func BenchmarkNearAtAMillion(b *testing.B) {
	m := millionIndex()
	var found, others, foundPDQ, othersPDQ int
	for _, q := range m.queries {
		near := map[int64]bool{}      // by the frame hash
		confirmed := map[int64]bool{} // and PDQ
		for k, h := range []Hash{q.h, q.mirrored} {
			p := q.pdq
			if k == 1 {
				p = pdq.MirrorOf(p)
			}
			m.x.Near(h, Radius, func(mt Match) {
				near[mt.ID] = true
				if pdq.Distance(p, m.pdqOf(mt.ID)) <= 80 {
					confirmed[mt.ID] = true
				}
			})
		}
		if near[q.of] {
			found++
		}
		if confirmed[q.of] {
			foundPDQ++
		}
		delete(near, q.of)
		delete(confirmed, q.of)
		others += len(near)
		othersPDQ += len(confirmed)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := m.queries[i%len(m.queries)]
		m.x.Near(q.h, Radius, func(Match) {})
		m.x.Near(q.mirrored, Radius, func(Match) {})
	}
	b.StopTimer()
	nq := float64(len(m.queries))
	pairs := nq * float64(m.x.Len())
	b.ReportMetric(100*float64(found)/nq, "found-%")
	b.ReportMetric(100*float64(others)/pairs, "false-%")
	b.ReportMetric(float64(others)/nq, "false/lookup")
	b.ReportMetric(100*float64(foundPDQ)/nq, "found-%-pdq80")
	b.ReportMetric(100*float64(othersPDQ)/pairs, "false-%-pdq80")
	b.ReportMetric(float64(othersPDQ)/nq, "false/lookup-pdq80")
	for _, r := range []struct {
		name          string
		found, others int
	}{{"the frame hash", found, others}, {"the frame hash confirmed by PDQ", foundPDQ, othersPDQ}} {
		if float64(r.found) < 0.99*nq || float64(r.others) > 0.001*pairs {
			b.Errorf("%s: %d of %d copies found, %d false pairs; the target is ≥ 99 %% and ≤ 0.1 %%", r.name, r.found, len(m.queries), r.others)
		}
	}
}
