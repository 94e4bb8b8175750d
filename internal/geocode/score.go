package geocode

import (
	"math"
	"strings"

	"github.com/syriamap/syriamap/internal/caption"
	"github.com/syriamap/syriamap/internal/gazetteer"
)

// candidates scores every reading of every name outside the credit.
func (gc *Geocoder) candidates(c caption.Caption, hits []gazetteer.Hit, out []candidate) []candidate {
	for i, h := range hits {
		if !h.Capitalized || h.Start < c.CreditEnd && h.End > c.CreditStart {
			continue
		}
		if covered(hits, i) {
			continue
		}
		mi := mentionAt(c.Mentions, h)
		if mi < 0 {
			continue
		}
		m := &c.Mentions[mi]
		s := roleWeight(m) * kindPrior[h.Place.Kind] * designatorFit(m.Designator, h.Place.Kind)
		ew := entityWeight(c, m, h)
		s *= ew
		if m.Sentence > 0 {
			s *= 0.3
		}
		if m.Subordinate && mainWhereBefore(c, mi) {
			s *= 0.6 // "in Idlib after an attack in Khan Sheikhoun"
		}
		if !h.Exact {
			s *= 0.85
		}
		if !h.Place.Located {
			s *= 0.95
		}
		s += math.Log10(float64(h.Place.Population)+10) * 0.002 // same-name towns: the larger
		out = append(out, candidate{hit: h, mention: mi, score: s, base: s, whole: ew == 1})
	}
	return out
}

// mainWhereBefore reports whether, before mention i in its sentence, the
// caption names where the photo was outside any "after" clause.
func mainWhereBefore(c caption.Caption, i int) bool {
	for _, m := range c.Mentions[:i] {
		if m.Sentence == c.Mentions[i].Sentence && !m.Subordinate && m.Role == caption.Where && m.Cue != "dateline" && m.Entity == caption.MaybePlace {
			return true
		}
	}
	return false
}

// covered reports whether hit i lies inside a longer hit of another place
// ("Aleppo" inside "Old City of Aleppo"). A loose spelling covers no
// exact one: "the Ramouseh" read as Tremseh leaves Ramouseh standing.
func covered(hits []gazetteer.Hit, i int) bool {
	h := hits[i]
	for j, o := range hits {
		if j != i && o.Start <= h.Start && o.End >= h.End && o.End-o.Start > h.End-h.Start && (o.Exact || !h.Exact) {
			return true
		}
	}
	return false
}

// mentionAt returns the index of the mention a hit overlaps, or -1.
func mentionAt(ms []caption.Mention, h gazetteer.Hit) int {
	for i := range ms {
		if ms[i].Start < h.End && h.Start < ms[i].End {
			return i
		}
	}
	return -1
}

// roleWeight weighs a mention by its role: "in X" and "at X" say the
// photo was in X; "near X", "outside X" name X as a reference point.
func roleWeight(m *caption.Mention) float64 {
	switch m.Role {
	case caption.Where:
		switch m.Cue {
		case "near", "outside", "around", "nearby", "beside", "rises from":
			return 0.7
		case "outskirts":
			return 0.6
		case "seen from":
			return 1.3
		}
		return 1
	case caption.Context:
		// "…, northwest of Damascus" names a point to find the place by,
		// not the place.
		if isDirection(m.Designator) {
			return 0.3
		}
		return 0.5
	case caption.Target:
		return 0.12
	}
	return 0.08
}

// kindPrior prefers, among same-name places, the settlement to the
// administrative area named after it.
var kindPrior = map[gazetteer.Kind]float64{
	gazetteer.City: 1, gazetteer.Town: 1, gazetteer.Village: 1, gazetteer.Neighbourhood: 0.95,
	gazetteer.Camp: 0.95, gazetteer.Landmark: 0.95, gazetteer.Crossing: 0.95, gazetteer.Region: 0.8,
	gazetteer.Governorate: 0.75, gazetteer.District: 0.5, gazetteer.Subdistrict: 0.45,
}

// designatorFit weighs how well the noun a caption uses for a place ("the
// town of", "province") fits a kind of place.
func designatorFit(d string, k gazetteer.Kind) float64 {
	switch d {
	case "city", "town", "village", "capital":
		switch {
		case k.Populated():
			return 1.2
		case k.Admin():
			return 0.4
		case k == gazetteer.Neighbourhood:
			return 0.8
		}
		return 0.7
	case "neighbourhood", "district":
		switch {
		case k == gazetteer.Neighbourhood:
			return 1.3
		case k == gazetteer.District && d == "district":
			return 1.1
		case k == gazetteer.Governorate:
			return 0.3
		case k == gazetteer.Subdistrict:
			return 0.6
		}
		return 1
	case "province", "governorate":
		switch {
		case k == gazetteer.Governorate:
			return 1.4
		case k == gazetteer.District:
			return 1
		}
		return 0.9
	case "countryside":
		switch {
		case k == gazetteer.Governorate:
			return 1.4
		case k == gazetteer.Region:
			return 1.2
		}
		return 0.6
	case "suburbs":
		if k.Populated() {
			return 0.7
		}
	case "camp", "crossing":
		if k == gazetteer.Camp && d == "camp" || k == gazetteer.Crossing && d == "crossing" {
			return 1.4
		}
		return 0.8
	case "area", "region":
		if k == gazetteer.Region {
			return 1.2
		}
	case "subdistrict":
		if k == gazetteer.Subdistrict {
			return 2.5
		}
	}
	return 1
}

// Words that may follow a place's name in a longer name that is still in
// that place: Umayyad Square, Aleppo University, Idlib Province.
var facilityWords = map[string]bool{"square": true, "street": true, "road": true, "highway": true, "mosque": true,
	"hospital": true, "university": true, "airport": true, "camp": true, "market": true, "souk": true, "souq": true,
	"bridge": true, "school": true, "park": true, "citadel": true, "gate": true, "stadium": true, "dam": true,
	"prison": true, "hotel": true, "church": true, "cathedral": true, "hill": true, "mount": true, "mountain": true,
	"mountains": true, "valley": true, "plain": true, "river": true, "lake": true, "countryside": true,
	"province": true, "governorate": true, "city": true, "town": true, "village": true, "district": true,
	"airbase": true, "base": true, "academy": true, "college": true, "barracks": true, "artillery": true,
	"factory": true, "station": true, "refinery": true, "complex": true, "compound": true, "checkpoint": true,
	"roundabout": true, "crossing": true, "border": true, "gate's": true, "old": true, "new": true,
	"central": true, "north": true, "south": true, "east": true, "west": true, "northern": true, "southern": true,
	"eastern": true, "western": true, "greater": true, "al": true, "el": true, "of": true, "the": true,
	"refugee": true, "refugees": true, "displaced": true, "palestinian": true, "syrian": true, "iraqi": true,
	"kurdish": true, "military": true, "air": true, "international": true}

// entityWeight lowers a name that is part of a person's, an organisation's
// or an event's name, or of a longer name the gazetteer does not know.
func entityWeight(c caption.Caption, m *caption.Mention, h gazetteer.Hit) float64 {
	whole := h.Start <= m.Start && h.End >= m.End
	switch m.Entity {
	case caption.Quoted:
		return 0.05
	case caption.Person, caption.Organisation, caption.Event, caption.Modifier:
		if whole {
			return 0.3
		}
		return 0.05
	}
	if whole {
		return 1
	}
	// The words of the mention outside the hit: "Bab al-Hadid" is not Al
	// Bab, but "Umayyad Square" is still in its square.
	for _, word := range strings.FieldsFunc(c.Text[m.Start:m.End], func(r rune) bool { return r == ' ' || r == '-' }) {
		off := strings.Index(c.Text[m.Start:m.End], word) + m.Start
		if (off < h.Start || off >= h.End) && !facilityWords[strings.ToLower(strings.Trim(word, "'’"))] {
			return 0.35
		}
	}
	return 1
}
