package eventsapi

import (
	"slices"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/i18n"
)

// An event's words as a dataset writes them — its place ("Teir Maaleh
// village", "Ar Rastan district", "Homs Governorate") and its sides
// ("Government of Syria", "IS") — in the reader's language: on an
// Arabic page the gazetteer's Arabic names and the catalogue's names of
// the sides (events.side.*), each left in the dataset's words where
// neither has one.

// eventPlaceKinds are the words a dataset ends a place's name with, and
// the kinds of place each may be ("" for a place named without one).
var eventPlaceKinds = map[string][]gazetteer.Kind{
	"town": {gazetteer.City, gazetteer.Town, gazetteer.Village}, "city": {gazetteer.City, gazetteer.Town},
	"village": {gazetteer.Village, gazetteer.Town}, "suburb": {gazetteer.Neighbourhood, gazetteer.Town, gazetteer.Village},
	"camp": {gazetteer.Camp}, "district": {gazetteer.District}, "subdistrict": {gazetteer.Subdistrict},
	"governorate": {gazetteer.Governorate},
}

// eventPlaceKm is how far from the event's point a place of the name
// may be: GED puts a district's or a governorate's events at its middle.
const eventPlaceKm = 60

// eventPlaceName is name, one of an event's place fields, in l's
// language: on an Arabic page the Arabic name of the gazetteer's place so
// named (eventPlace), a district or governorate said as one ("منطقة
// الرستن", "محافظة حمص"); name itself when the gazetteer has none.
func eventPlaceName(l i18n.Locale, g *gazetteer.Gazetteer, name string, lon, lat float64) string {
	if l.Lang != i18n.Arabic || name == "" {
		return name
	}
	p, unit := eventPlace(g, name, orb.Point{lon, lat})
	switch {
	case p == nil:
		return name
	case unit != "":
		return l.T("events.unit."+unit, "name", p.NameAr)
	}
	return p.NameAr
}

// eventPlace is the Syrian place with an Arabic name that name (an
// event's place field) means near pt, and the unit its last word names
// ("district", "governorate"; "" for another word): a governorate or
// district by its name (GED's "Markaz Daraa", "Mintaqat Azaz" also as
// OCHA's "Daraa", "Azaz"), a subdistrict of the name for a district OCHA
// lacks (GED's newer "Atarib district"); another place, of the kinds its
// last word allows, the nearest so named within eventPlaceKm. Nil when
// none is.
func eventPlace(g *gazetteer.Gazetteer, name string, pt orb.Point) (*gazetteer.Place, string) {
	bare, kinds, word := name, []gazetteer.Kind(nil), ""
	if i := strings.LastIndexByte(name, ' '); i > 0 {
		if k, ok := eventPlaceKinds[strings.ToLower(name[i+1:])]; ok {
			bare, kinds, word = name[:i], k, strings.ToLower(name[i+1:])
		}
	}
	if word == "district" || word == "governorate" {
		names := []string{bare}
		for _, prefix := range []string{"Mintaqat Markaz ", "Mintaqat ", "Markaz "} {
			if rest, ok := strings.CutPrefix(bare, prefix); ok {
				names = append(names, rest)
				break
			}
		}
		for _, k := range append(kinds, gazetteer.Subdistrict) {
			for _, n := range names {
				for _, p := range g.Lookup(n) {
					if p.Kind == k && p.Country == "SY" && p.NameAr != "" {
						return p, word
					}
				}
			}
		}
		return nil, ""
	}
	var best *gazetteer.Place
	bestKm := float64(eventPlaceKm)
	for _, p := range g.Lookup(bare) {
		if p.NameAr == "" || p.Country != "SY" || !p.Located || kinds != nil && !slices.Contains(kinds, p.Kind) {
			continue
		}
		if km := geo.Distance(p.Point, pt) / 1000; km < bestKm {
			best, bestKm = p, km
		}
	}
	return best, ""
}

// eventSides are an event's two sides, "A · B", each side's names
// ("National Front for Liberation, SNA") in l's language where the
// catalogue has them.
func eventSides(l i18n.Locale, e conflict.Event) string {
	var sides []string
	for _, side := range []string{e.SideA, e.SideB} {
		var names []string
		for _, name := range strings.Split(side, ", ") {
			if name = strings.TrimSpace(name); name != "" {
				names = append(names, l.Named("events.side.", name))
			}
		}
		if len(names) > 0 {
			sides = append(sides, strings.Join(names, l.T("common.list-sep")))
		}
	}
	return strings.Join(sides, " · ")
}
