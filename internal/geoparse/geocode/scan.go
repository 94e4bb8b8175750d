package geocode

import (
	"slices"
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// nameWord reports whether w can be part of a name after a possessive:
// capitalised, an article joined by a hyphen (al-Shaar), or "old" and
// "city" as in "Aleppo's old city".
func nameWord(w string) bool {
	if w == "" {
		return false
	}
	if c := w[0]; c >= 'A' && c <= 'Z' || c >= 0x80 {
		return true
	}
	if i := strings.IndexByte(w, '-'); i > 0 && i+1 < len(w) {
		return true
	}
	return w == "old" || w == "city" || w == "quarter"
}

// scan finds the place names around the caption's capitalised names only:
// a place name needs a capital, and may begin with up to three lower-case
// words ("old city of Aleppo", "eastern Ghouta") or end with two ("Bab
// al-Hawa border crossing"). Scanning these windows instead of the whole
// caption halves the work. Names that the caption reader knows are not
// places are passed over.
func (gc *Geocoder) scan(c caption.Caption, dst []gazetteer.Hit) []gazetteer.Hit {
	text := c.Text
	start, end := -1, -1
	flush := func() {
		if start < 0 {
			return
		}
		n := len(dst)
		dst = gc.g.ScanNames(text[start:end], dst)
		for i := n; i < len(dst); i++ {
			dst[i].Start += start
			dst[i].End += start
		}
	}
	for _, m := range c.Mentions {
		if m.End <= c.CreditEnd && m.Start >= c.CreditStart && c.CreditEnd > 0 {
			continue
		}
		switch m.Entity {
		case caption.Country, caption.Nationality, caption.Organisation, caption.Event, caption.Quoted:
			// Syria, Syrian, Jaish al-Islam, Eid al-Fitr, “I Love
			// Damascus”: a place inside them would be weighed down to
			// nothing, so they are not scanned.
			continue
		}
		ws, we := skipFunctionWords(text, wordsBefore(text, m.Start, 3), m.Start), wordsAfter(text, m.End, 2)
		if start >= 0 && ws <= end {
			end = max(end, we)
			continue
		}
		flush()
		start, end = ws, we
	}
	flush()
	return dst
}

// functionWords never begin a place name; a window need not fold them.
var functionWords = map[string]bool{"in": true, "the": true, "of": true, "at": true, "on": true,
	"near": true, "a": true, "an": true, "to": true, "from": true, "and": true, "by": true}

// skipFunctionWords moves i past the function words before limit.
func skipFunctionWords(text string, i, limit int) int {
	for i < limit {
		j := strings.IndexByte(text[i:limit], ' ')
		if j < 0 || !functionWords[text[i:i+j]] {
			return i
		}
		i += j + 1
	}
	return i
}

// wordsBefore returns the offset n words before i in text.
func wordsBefore(text string, i, n int) int {
	for ; n > 0 && i > 0; n-- {
		j := strings.LastIndexByte(text[:i], ' ')
		if j < 0 {
			return 0
		}
		for j > 0 && text[j-1] == ' ' {
			j--
		}
		if j == 0 {
			return 0
		}
		k := strings.LastIndexByte(text[:j], ' ')
		i = k + 1
	}
	return i
}

// wordsAfter returns the offset n words after i in text.
func wordsAfter(text string, i, n int) int {
	for ; n > 0 && i < len(text); n-- {
		j := strings.IndexByte(text[i:], ' ')
		if j < 0 {
			return len(text)
		}
		i += j
		for i < len(text) && text[i] == ' ' {
			i++
		}
		k := strings.IndexByte(text[i:], ' ')
		if k < 0 {
			return len(text)
		}
		i += k
	}
	return i
}

// residentHits reads the adjective of a city's people ("حلبيون",
// Aleppans) as a name of the city: the largest Syrian city or town the
// gazetteer knows by the name the caption reader gave. The hit spans the
// adjective.
func (gc *Geocoder) residentHits(c caption.Caption, hits []gazetteer.Hit) []gazetteer.Hit {
	for _, m := range c.Mentions {
		if m.Entity != caption.Residents {
			continue
		}
		var best *gazetteer.Place
		for _, h := range gc.g.ScanNames(m.Of, nil) {
			if p := h.Place; h.Start == 0 && h.End == len(m.Of) && h.Exact && p.Country == "SY" && (p.Kind == gazetteer.City || p.Kind == gazetteer.Town) && (best == nil || p.Population > best.Population) {
				best = p
			}
		}
		if best != nil {
			hits = append(hits, gazetteer.Hit{Start: m.Start, End: m.End, Place: best, Exact: true, Capitalized: true})
		}
	}
	return hits
}

// possessiveHits reads "X's Y" as "Y of X" too, so that "Aleppo's Old City"
// finds the Old City of Aleppo. The hits it adds span X's Y.
func (gc *Geocoder) possessiveHits(c caption.Caption, hits []gazetteer.Hit) []gazetteer.Hit {
	for _, m := range c.Mentions {
		if !m.Possessive {
			continue
		}
		rest := c.Text[m.End:]
		skip := len(rest) - len(strings.TrimLeft(rest, "'’s "))
		words := strings.Fields(rest[skip:])
		end := m.End + skip
		var synthetic []gazetteer.Hit
		for n := 1; n <= len(words) && n <= 4; n++ {
			w := words[n-1]
			trimmed := strings.TrimRight(w, ",.;:)")
			if !nameWord(trimmed) {
				break
			}
			end += strings.Index(c.Text[end:], trimmed) + len(trimmed)
			phrase := c.Text[m.End+skip:end] + " of " + m.Text
			synthetic = gc.g.ScanNames(phrase, synthetic[:0])
			for _, h := range synthetic {
				if h.Start == 0 && h.End == len(phrase) {
					hits = append(hits, gazetteer.Hit{Start: m.Start, End: end, Place: h.Place, Exact: h.Exact, Capitalized: true})
				}
			}
			if trimmed != w {
				break // punctuation ends the phrase
			}
		}
	}
	return hits
}

// oldQuarterLeads are the words before a city's name that speak of its
// old city: "the old quarter of Homs", "in old Damascus".
var oldQuarterLeads = []string{"old city of ", "old quarter of ", "old town of ", "old part of ", "ancient city of ",
	"old city in ", "old ", "old city of syria's ", "old city of syria’s "}

// oldQuarterTails follow a city's possessive: "Hama's old city".
var oldQuarterTails = []string{"old city", "old quarter", "old town", "ancient city"}

// oldQuarterSpan reports whether the caption speaks of the old city of
// mention m ("the old quarter of Homs", "old Damascus", "Hama's old
// city", "Old Homs districts"), and returns the span of the whole phrase.
func oldQuarterSpan(c caption.Caption, m caption.Mention) (start, end int, ok bool) {
	if m.Entity != caption.MaybePlace {
		return 0, 0, false
	}
	if _, ok := capitalOld(m); ok {
		return m.Start, m.End, true
	}
	// (AFP writes "the Old City of Syria's Raqa".)
	before := strings.ToLower(c.Text[max(0, m.Start-24):m.Start])
	for _, lead := range oldQuarterLeads {
		if !strings.HasSuffix(before, lead) {
			continue
		}
		s := m.Start - len(lead)
		// "old" is a word of its own, and not an age ("a 10-year old").
		if s > 0 && isLetter(c.Text[s-1]) || lead == "old " && (strings.HasSuffix(before[:len(before)-len(lead)], "year ") ||
			strings.HasSuffix(before[:len(before)-len(lead)], "years ") || s > 0 && c.Text[s-1] == '-') {
			continue
		}
		return s, m.End, true
	}
	if m.Possessive {
		rest := c.Text[m.End:]
		skip := len(rest) - len(strings.TrimLeft(rest, "'’s "))
		low := strings.ToLower(rest[skip:min(len(rest), skip+16)])
		for _, tail := range oldQuarterTails {
			if strings.HasPrefix(low, tail) && (len(low) == len(tail) || !isLetter(low[len(tail)])) {
				return m.Start, m.End + skip + len(tail), true
			}
		}
	}
	return 0, 0, false
}

// capitalOld returns the name after "Old " when a mention is written
// "Old Homs", "Old Damascus".
func capitalOld(m caption.Mention) (string, bool) {
	rest, ok := strings.CutPrefix(m.Text, "Old ")
	return rest, ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z'
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// oldQuarterHits reads "the old quarter of X" and its kin as the place
// the gazetteer calls the Old City of X, when it knows one.
func (gc *Geocoder) oldQuarterHits(c caption.Caption, hits []gazetteer.Hit) []gazetteer.Hit {
	var found []gazetteer.Hit
	for _, m := range c.Mentions {
		start, end, ok := oldQuarterSpan(c, m)
		if !ok {
			continue
		}
		city := m.Text
		if rest, ok := capitalOld(m); ok {
			city = rest
		}
		phrase := "Old City of " + city
		found = gc.g.ScanNames(phrase, found[:0])
		for _, h := range found {
			if h.Start == 0 && h.End == len(phrase) {
				hits = append(hits, gazetteer.Hit{Start: start, End: end, Place: h.Place, Exact: h.Exact, Capitalized: true})
			}
		}
	}
	return hits
}

// partQuarterHits reads a name the caption calls a quarter ("the al-Mashhad
// neighbourhood", "حي القاطرجي") as the one quarter of a city the caption
// names whose gazetteer name holds it as a part (al-Ansari Mashhad, كرم
// القاطرجي), when no quarter of that city has the name whole: a quarter
// named in the city the caption gives, never a village of that name
// elsewhere. The caption names the quarter whole, in the words the press
// uses: the reading is as exact as a whole name.
func (gc *Geocoder) partQuarterHits(c caption.Caption, hits []gazetteer.Hit) []gazetteer.Hit {
	n := len(hits)
	for _, m := range c.Mentions {
		if m.Designator != "neighbourhood" && m.Designator != "district" {
			continue
		}
		// A quarter of that name already, or a city's name ("the Douma
		// neighbourhood of Damascus", "the old city of Damascus"): no part.
		named := false
		for _, h := range hits[:n] {
			if k := h.Place.Kind; h.Start < m.End && m.Start < h.End && (k == gazetteer.Neighbourhood || k == gazetteer.City || k.Admin()) {
				named = true
			}
		}
		if named {
			continue
		}
		seen := map[*gazetteer.Place]bool{}
		for _, h := range hits[:n] {
			city := h.Place
			if city.Kind != gazetteer.City && city.Kind != gazetteer.Town || seen[city] || h.Start < m.End && m.Start < h.End {
				continue
			}
			seen[city] = true
			if q := gc.g.QuarterByPart(city, m.Text); q != nil {
				hits = append(hits, gazetteer.Hit{Start: m.Start, End: m.End, Place: q, Exact: true, Capitalized: true})
			}
		}
		// No city named ("في حي القاطرجي"): the one quarter of any city
		// whose name holds it, read as a looser spelling would be.
		if len(seen) == 0 {
			if q := gc.g.QuarterByPart(nil, m.Text); q != nil {
				hits = append(hits, gazetteer.Hit{Start: m.Start, End: m.End, Place: q, Exact: false, Capitalized: true})
			}
		}
	}
	return hits
}

// variantHits reads a name an Arabic caption gives a town, village,
// quarter or camp ("بلدة", "في", "مخيم" …), which no gazetteer name
// spells, as the one place of the governorate the caption names whose
// Arabic name differs from it by one letter (a dropped or added letter, a
// changed one, two swapped): معرة مصرين for معر تمصرين. Without a
// governorate named, or with two such places, nothing is read: one edit
// alone matches too many names across the country.
func (gc *Geocoder) variantHits(c caption.Caption, hits []gazetteer.Hit) []gazetteer.Hit {
	n := len(hits)
	var govs []string
	for _, h := range hits[:n] {
		p := h.Place
		if p.Country != "SY" || !(p.Kind == gazetteer.Governorate || p.Kind == gazetteer.City) {
			continue
		}
		if mentionAt(c.Mentions, h) >= 0 && !slices.Contains(govs, p.Governorate.PCode) {
			govs = append(govs, p.Governorate.PCode)
		}
	}
	if len(govs) != 1 {
		return hits
	}
	for _, m := range c.Mentions {
		if m.Entity != caption.MaybePlace || m.Cue == "" && m.Designator == "" || m.Designator == "landmark" || overlapsAny(hits[:n], m) {
			continue
		}
		if ps := gc.g.NearSpellings(m.Text, govs[0]); len(ps) == 1 {
			hits = append(hits, gazetteer.Hit{Start: m.Start, End: m.End, Place: ps[0], Exact: false, Capitalized: true})
		}
	}
	return hits
}

// overlapsAny reports whether a hit lies in mention m's span.
func overlapsAny(hits []gazetteer.Hit, m caption.Mention) bool {
	for _, h := range hits {
		if h.Start < m.End && m.Start < h.End {
			return true
		}
	}
	return false
}
