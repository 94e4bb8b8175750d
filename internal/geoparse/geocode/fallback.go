package geocode

import (
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// isDirection reports whether a designator places a name beside another
// rather than in it: "north of Aleppo".
func isDirection(d string) bool {
	return d == "north" || d == "south" || d == "east" || d == "west"
}

// unknownBefore finds a name the gazetteer lacks that the caption places
// inside the chosen mention: "district of Dwelaa in Damascus", "Bishqatin
// near Aleppo", "Aleppo's Bab al-Nasr district".
func unknownBefore(c caption.Caption, known []bool, chosen int) (caption.Mention, bool) {
	ch := c.Mentions[chosen]
	for i := chosen - 1; i >= 0 && i >= chosen-2; i-- {
		u := c.Mentions[i]
		if u.Sentence != ch.Sentence || !placeLike(c, i) || known[i] {
			continue
		}
		between := strings.ToLower(c.Text[u.End:ch.Start])
		if len(between) < 60 && (ch.Role == caption.Where || strings.Contains(between, ",") || strings.Contains(between, " of ")) {
			return u, true
		}
	}
	// Possessive: "Aleppo's Bab al-Nasr district".
	if ch.Possessive && chosen+1 < len(c.Mentions) {
		u := c.Mentions[chosen+1]
		if placeLike(c, chosen+1) && !known[chosen+1] && u.Designator != "" {
			return u, true
		}
	}
	return caption.Mention{}, false
}

// unknownQuarter finds a name the gazetteer lacks that the caption calls a
// neighbourhood or district where the photo was, in the sentence that
// puts the photo in the chosen city, however far from it ("in the Jisr
// al-Haj neighbourhood during … in the northern city of Aleppo").
func unknownQuarter(c caption.Caption, known []bool, b candidate) (caption.Mention, bool) {
	ch := c.Mentions[b.mention]
	if b.far || b.hit.Place.Kind != gazetteer.City || ch.Role != caption.Where {
		return caption.Mention{}, false
	}
	for i, u := range c.Mentions {
		if i == b.mention || known[i] || u.Sentence != ch.Sentence || u.Role != caption.Where || !placeLike(c, i) {
			continue
		}
		if u.Designator == "neighbourhood" || u.Designator == "district" {
			return u, true
		}
	}
	return caption.Mention{}, false
}

// unknownWhere finds, before the chosen mention, a name the gazetteer
// lacks that the first sentence says the photo was taken in, when the
// chosen place is only context; it returns the mention's index.
func unknownWhere(c caption.Caption, known []bool, chosen int) (int, bool) {
	if c.Mentions[chosen].Role == caption.Where && c.Mentions[chosen].Sentence == 0 {
		return -1, false
	}
	for i := range c.Mentions {
		// A landmark's own name ("جامع نور القدس") is a building in the
		// place the caption names, not a place it lacks.
		if u := c.Mentions[i]; u.Sentence == 0 && u.Role == caption.Where && u.Designator != "landmark" && placeLike(c, i) && !known[i] {
			return i, true
		}
	}
	return -1, false
}

// unknownSeenFrom finds a name the gazetteer lacks that the caption says
// the photo was taken from ("as seen from Mursitpinar, Turkey") and sets
// at to its index.
func unknownSeenFrom(c caption.Caption, known []bool, at *int) bool {
	for i, m := range c.Mentions {
		if m.Cue == "seen from" && !known[i] && m.Entity == caption.MaybePlace {
			*at = i
			return true
		}
	}
	return false
}

// placeLike reports whether mention i reads as a place name: where the
// photo was, not a person, organisation, event or country, and not an
// adjective before a noun ("a Syrian army soldier").
func placeLike(c caption.Caption, i int) bool {
	m := c.Mentions[i]
	if m.Entity != caption.MaybePlace || m.Role == caption.Origin || m.Role == caption.Target || m.Role != caption.Where && m.Designator == "" {
		return false
	}
	rest := strings.TrimLeft(c.Text[m.End:], " ")
	next := rest
	if j := strings.IndexAny(rest, " ,.;:()"); j >= 0 {
		next = rest[:j]
	}
	if next != "" && next[0] >= 'a' && next[0] <= 'z' && !followers[next] {
		return false
	}
	return true
}

// Words that may follow a place name without making it an adjective.
var followers = map[string]bool{"in": true, "on": true, "at": true, "near": true, "of": true, "as": true,
	"after": true, "during": true, "while": true, "and": true, "where": true, "with": true, "is": true,
	"was": true, "were": true, "are": true, "has": true, "had": true, "have": true, "before": true,
	"since": true, "when": true, "which": true, "that": true, "to": true, "from": true, "under": true,
	"outside": true, "inside": true, "northeast": true, "northwest": true, "southeast": true,
	"southwest": true, "north": true, "south": true, "east": true, "west": true, "by": true, "for": true,
	"district": true, "neighbourhood": true, "neighborhood": true, "town": true, "village": true,
	"city": true, "area": true, "camp": true, "province": true, "governorate": true, "countryside": true,
	"suburb": true, "suburbs": true, "quarter": true, "region": true, "close": true, "about": true,
	// "the Oncupinar border crossing", "the Dar al-Shifa hospital"
	"border": true, "crossing": true, "checkpoint": true, "airport": true, "airbase": true, "hospital": true,
	"square": true, "street": true, "road": true, "highway": true, "bridge": true, "mosque": true, "market": true,
	"school": true, "refugee": true, "displaced": true, "dam": true, "prison": true, "citadel": true,
	"river": true, "valley": true, "mountains": true, "plain": true, "outskirts": true, "gate": true,
	"base": true, "military": true, "front": true, "frontline": true, "bakery": true, "church": true}
