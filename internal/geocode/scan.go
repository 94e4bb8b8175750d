package geocode

import (
	"strings"

	"github.com/syriamap/syriamap/internal/caption"
	"github.com/syriamap/syriamap/internal/gazetteer"
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
