package geocode

import (
	"testing"
	"time"
)

// TestWalkToSpecificEnds gives the walk a holding that runs in circles
// (every candidate holds every other, or two hold each other): it must
// end, on a candidate it reached, without the kind rules' help.
func TestWalkToSpecificEnds(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		holds func(best, i int) bool
		want  int
	}{
		{"everyone holds everyone", 5, func(best, i int) bool { return true }, 4},
		{"two hold each other", 3, func(best, i int) bool { return best != i && i < 2 }, 1},
		{"no one holds", 4, func(best, i int) bool { return false }, 0},
		{"a chain", 4, func(best, i int) bool { return i == best+1 }, 3},
	} {
		done := make(chan int, 1)
		go func() { done <- walkToSpecific(c.n, c.holds) }()
		select {
		case got := <-done:
			if got != c.want {
				t.Errorf("%s: stopped at %d, want %d", c.name, got, c.want)
			}
		case <-time.After(time.Second):
			t.Fatalf("%s: the walk goes round for ever", c.name)
		}
	}
}
