package geocode_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/caption"
)

// TestNeighboursTerminate geocodes, for every two located places of the
// bundled gazetteer within 10 km of each other, the phrasings that set
// places side by side or one inside the other. Each must be answered:
// places that hold each other by distance once sent the choice round in
// a circle for ever (al-Fu'ah and Kafriya).
func TestNeighboursTerminate(t *testing.T) {
	gc, g := newGeocoder(t)
	places := g.Places()
	patterns := []string{
		"People walk in %s and %s, Syria.",
		"Families wait to be evacuated from %s and %s, Syria.",
		"Fighters advance towards %s, %s, Syria.",
		"A man walks in the %s neighbourhood of %s.",
		"Smoke rises over %s near %s, Syria.",
	}
	done := make(chan int)
	go func() {
		pairs := 0
		for i := range places {
			for j := range places {
				p, q := &places[i], &places[j]
				if i == j || !p.Located || !q.Located || geo.Distance(p.Point, q.Point) > 10_000 {
					continue
				}
				pairs++
				for _, f := range patterns {
					gc.Geocode(caption.Parse(fmt.Sprintf(f, p.Name, q.Name)))
				}
			}
		}
		done <- pairs
	}()
	select {
	case n := <-done:
		t.Logf("%d pairs of neighbours, %d phrasings each", n, len(patterns))
		if n < 100 {
			t.Errorf("only %d pairs of neighbours in the gazetteer", n)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("geocoding neighbouring places did not finish in 2 minutes: a loop that does not end")
	}
}
