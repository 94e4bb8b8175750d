package geocode

import (
	"fmt"
	"os"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/caption"
	"github.com/syriamap/syriamap/internal/gazetteer"
)

func TestZZDebug(t *testing.T) {
	text := os.Getenv("DBG")
	if text == "" {
		t.Skip()
	}
	g, _ := gazetteer.Load(geodata.Gazetteer)
	gc := New(g)
	c := caption.Parse(text)
	for i, m := range c.Mentions {
		fmt.Printf("m%d %q role=%s cue=%q des=%q ent=%q sent=%d poss=%v sub=%v\n", i, m.Text, m.Role, m.Cue, m.Designator, m.Entity, m.Sentence, m.Possessive, m.Subordinate)
	}
	hits := gc.scan(c, nil)
	hits = gc.possessiveHits(c, hits)
	hits = gc.oldQuarterHits(c, hits)
	cands := gc.candidates(c, hits, nil)
	gc.markFar(c, cands)
	for _, cd := range cands {
		fmt.Printf("cand m%d %s %s %s score=%.3f base=%.3f far=%v whole=%v exact=%v\n", cd.mention, cd.hit.Place.Name, cd.hit.Place.Kind, cd.hit.Place.ID, cd.score, cd.base, cd.far, cd.whole, cd.hit.Exact)
	}
	r := gc.Geocode(c)
	if r.Place != nil {
		fmt.Println("RESULT", r.Place.Name, r.Place.ID, r.Precision, r.Confidence, r.Note)
	} else {
		fmt.Println("RESULT none", r.Note)
	}
}
