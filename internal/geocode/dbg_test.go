package geocode_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/syriamap/syriamap/internal/caption"
)

func TestDebug(t *testing.T) {
	gc, g := newGeocoder(t)
	text := os.Getenv("CAP")
	c := caption.Parse(text)
	for _, m := range c.Mentions {
		fmt.Printf("M %q cue=%q des=%q role=%s ent=%s s%d\n", m.Text, m.Cue, m.Designator, m.Role, m.Entity, m.Sentence)
	}
	for _, h := range g.Scan(text, nil) {
		fmt.Printf("H %q %s %s %s exact=%v cap=%v\n", text[h.Start:h.End], h.Place.ID, h.Place.Name, h.Place.Kind, h.Exact, h.Capitalized)
	}
	r := gc.Geocode(c)
	fmt.Printf("R %+v\n", r)
}
