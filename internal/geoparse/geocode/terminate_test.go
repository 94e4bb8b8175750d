package geocode_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// TestNeighboursTerminate geocodes, for two located places of the bundled
// gazetteer within 10 km of each other, the phrasings that set places
// side by side or one inside the other. Each must be answered: places
// that hold each other by distance once sent the choice round in a circle
// for ever (al-Fu'ah and Kafriya). Every pair of places larger than a
// village is tried, every tenth pair of a village and another place, and
// every fiftieth pair of villages (there are too many to try all in CI's
// time).
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
	// The places on a grid of cells about 10 km across.
	type cell struct{ x, y int }
	at := func(p *gazetteer.Place) cell {
		return cell{int(math.Floor(p.Point.Lon() * 10)), int(math.Floor(p.Point.Lat() * 10))}
	}
	grid := map[cell][]int{}
	for i := range places {
		if places[i].Located {
			grid[at(&places[i])] = append(grid[at(&places[i])], i)
		}
	}
	done := make(chan int)
	go func() {
		pairs, seen := 0, 0
		for i := range places {
			p := &places[i]
			if !p.Located {
				continue
			}
			c := at(p)
			for dx := -1; dx <= 1; dx++ {
				for dy := -1; dy <= 1; dy++ {
					for _, j := range grid[cell{c.x + dx, c.y + dy}] {
						q := &places[j]
						if i == j || geo.Distance(p.Point, q.Point) > 10_000 {
							continue
						}
						if every := sampling(p, q); every > 1 {
							if seen++; seen%every != 0 {
								continue
							}
						}
						pairs++
						for _, f := range patterns {
							gc.Geocode(caption.Parse(fmt.Sprintf(f, p.Name, q.Name)))
						}
					}
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

// sampling is how many pairs like p, q there are to one tried.
func sampling(p, q *gazetteer.Place) int {
	switch {
	case p.Kind == gazetteer.Village && q.Kind == gazetteer.Village:
		return 50
	case p.Kind == gazetteer.Village || q.Kind == gazetteer.Village:
		return 10
	}
	return 1
}
