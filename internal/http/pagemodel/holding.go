package pagemodel

import (
	"slices"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// Holding is what place search with with_photos=true finds, on the
// server and a published site alike: the places photos are placed at,
// the places those lie in (a quarter's city: the city holds its
// quarters' photos) and their governorates (a filter of their own).
type Holding struct {
	// Held are the places found, by id.
	Held map[string]bool
	// within are, by place id, the places inside it photos are placed at.
	within map[string][]string
}

// maxParents bounds the walk up a place's parents.
const maxParents = 8

// HoldingPlaces is the Holding of the places photos are placed at (ids,
// any id of a merged place).
func HoldingPlaces(g *gazetteer.Gazetteer, ids []string) Holding {
	h := Holding{Held: map[string]bool{}, within: map[string][]string{}}
	at := map[string]bool{}
	for _, id := range ids {
		p := g.ByID(id)
		if p == nil || at[p.ID] {
			continue
		}
		at[p.ID], h.Held[p.ID] = true, true
		if gov := g.GovernorateOf(p); gov != nil {
			h.Held[gov.ID] = true
		}
		for up, depth := p.Parent, 0; up != "" && depth < maxParents; depth++ {
			q := g.ByID(up)
			if q == nil {
				break
			}
			h.Held[q.ID] = true
			h.within[q.ID] = append(h.within[q.ID], p.ID)
			up = q.Parent
		}
	}
	for id, in := range h.within {
		slices.Sort(in)
		h.within[id] = slices.Compact(in)
	}
	return h
}

// Within are the places inside p that photos are placed at, by id, for
// a place that is not an administrative area (a governorate is its own
// filter; a district or subdistrict none).
func (h Holding) Within(p *gazetteer.Place) []string {
	if p.Kind.Admin() {
		return nil
	}
	return h.within[p.ID]
}
