package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/evalset"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// quarterTable counts, city by city, the real captions whose photo was
// taken in a quarter of the city and how many of them the geocoder reads
// as that quarter (right by score.py's rule, which a city's point fails:
// the quarter's radius is a few km). Which answer a caption gets does not
// depend on the confidence model, so the count is the same in fold and
// out of fold.
type quarterTable struct {
	g      *gazetteer.Gazetteer
	cities map[string]*quarterCount
	misses []string
}

type quarterCount struct {
	name         string
	named, right int
}

func newQuarterTable(g *gazetteer.Gazetteer) *quarterTable {
	return &quarterTable{g: g, cities: map[string]*quarterCount{}}
}

// add counts one real caption if its label is a quarter.
func (t *quarterTable) add(lc evalset.Caption, answer *gazetteer.Place, right bool) {
	if lc.PlaceKind == nil || *lc.PlaceKind != "neighbourhood" || lc.Parent == nil {
		return
	}
	// The labeller's city in either script: its most prominent reading,
	// so that "Aleppo" and "حلب" count together.
	name := *lc.Parent
	if ps := t.g.Lookup(name); len(ps) > 0 {
		name = ps[0].Name
	}
	c := t.cities[name]
	if c == nil {
		c = &quarterCount{name: name}
		t.cities[name] = c
	}
	c.named++
	if right {
		c.right++
		return
	}
	got := "unplaced"
	if answer != nil {
		got = fmt.Sprintf("%s (%s, %s)", answer.Name, answer.Kind, answer.ID)
	}
	place := ""
	if lc.Place != nil {
		place = *lc.Place
	}
	t.misses = append(t.misses, fmt.Sprintf("  %s %s: %q read as %s", name, lc.ID, place, got))
}

// print writes the table, the cities with most quarters named first, and
// the misses when asked.
func (t *quarterTable) print(w io.Writer, misses bool) {
	var cs []*quarterCount
	for _, c := range t.cities {
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b *quarterCount) int {
		if a.named != b.named {
			return b.named - a.named
		}
		return strings.Compare(a.name, b.name)
	})
	fmt.Fprint(w, "Quarters named by the real captions, read as that quarter:")
	for _, c := range cs {
		fmt.Fprintf(w, " %s %d/%d;", c.name, c.right, c.named)
	}
	fmt.Fprintln(w)
	if misses {
		slices.Sort(t.misses)
		for _, m := range t.misses {
			fmt.Fprintln(w, m)
		}
	}
}
