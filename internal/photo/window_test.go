package photo

import (
	"math/rand/v2"
	"testing"
)

// randomDate is a date of 2012–2017 at a random precision, or no date.
func randomDate(rng *rand.Rand) Date {
	y, m, d := 2012+rng.IntN(6), 1+rng.IntN(12), 1+rng.IntN(28)
	switch rng.IntN(4) {
	case 0:
		return Date{Year: y, Precision: "year"}
	case 1:
		return Date{Year: y, Month: m, Precision: "month"}
	case 2:
		return Date{Year: y, Month: m, Day: d, Precision: "day"}
	}
	return Date{}
}

// TestWindowIsOverlap: the window admits exactly the photos whose period
// overlaps it, and every one of them starts in a range FirstDays gives —
// the two facts the SQL and the memory index rely on.
func TestWindowIsOverlap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		f := Filter{From: randomDate(rng), To: randomDate(rng)}
		w := WindowOf(f)
		if w.From && w.To && w.First > w.Last {
			continue // refused by the filter's reader
		}
		p := randomDate(rng)
		from, to := p.Span()
		overlap := true
		if w.From || w.To {
			overlap = from != 0 && to >= w.First && from <= w.Last
		}
		if got := w.Admits(from, to); got != overlap {
			t.Fatalf("window %v–%v: a photo dated %v (%d–%d) admitted %v, overlaps %v", f.From, f.To, p, from, to, got, overlap)
		}
		if !overlap || !w.From && !w.To {
			continue
		}
		found := false
		for _, r := range w.FirstDays() {
			found = found || from >= r[0] && from < r[1]
		}
		if !found {
			t.Fatalf("window %v–%v: a photo dated %v starts on %d, outside %v", f.From, f.To, p, from, w.FirstDays())
		}
	}
}
