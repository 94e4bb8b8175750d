package geocode

import (
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// candidates scores every reading of every name outside the credit.
func (gc *Geocoder) candidates(c caption.Caption, hits []gazetteer.Hit, out []candidate) []candidate {
	// What the words around a name say is the same for all its readings.
	lastMention, lastEnd, code, street := -1, -1, "", false
	for i, h := range hits {
		if !h.Capitalized || h.Start < c.CreditEnd && h.End > c.CreditStart {
			continue
		}
		if covered(c, hits, i) || acronym(c, h) {
			continue
		}
		mi := mentionAt(c.Mentions, h)
		if mi < 0 {
			continue
		}
		m := &c.Mentions[mi]
		if m.Entity == caption.Country || m.Entity == caption.Nationality {
			continue // "the Greek island of Lesbos" names no Girik
		}
		s := roleWeight(m) * kindPrior(h.Place.Kind) * designatorFit(m.Designator, h.Place.Kind)
		ew := entityWeight(c, m, h)
		s = weighMention(s*ew, c, mi)
		// "the Turkish Cilvegozu gate", "the Syrian town of Kobani": the
		// caption says whose the place is.
		if mi != lastMention || h.End != lastEnd {
			lastMention, lastEnd, code, street = mi, h.End, statedCountry(c, mi, h.End), namedAfter(c, h)
		}
		s = weighPlace(s, c, mi, h, code, street)
		out = append(out, candidate{hit: h, mention: mi, score: s, base: s, whole: ew == 1})
	}
	markSpelled(c, out)
	return out
}

// weighMention weighs score s of a reading of mention mi by where the
// mention stands in the caption (the factors applied in turn, as they
// always were).
func weighMention(s float64, c caption.Caption, mi int) float64 {
	m := &c.Mentions[mi]
	if m.Sentence > 0 {
		s *= 0.3
	}
	if locatesPrevious(c, mi) {
		s *= 0.6 // "near the Oncupinar crossing, near the town of Kilis"
	}
	if describesNext(c, mi) {
		s *= 0.4
	}
	if m.Subordinate && mainWhere(c, mi) {
		s *= 0.45 // "in Idlib after an attack in Khan Sheikhoun"
	}
	// "Smoke rises over Kobani, seen from the Mursitpinar crossing": the
	// camera is where the caption says it was seen from.
	if seen := seenFrom(c); seen > mi && c.Mentions[seen].Sentence == m.Sentence && m.Role == caption.Where {
		s *= 0.5
	}
	return s
}

// describesNext reports whether mention mi names the bigger place that
// describes the next one: "the Damascus suburb of Douma", "in the Manbij
// district of Aleppo province" after a village — the next name, or the
// one before, is where the photo was.
func describesNext(c caption.Caption, mi int) bool {
	m := c.Mentions[mi]
	rest := c.Text[m.End:]
	if mi+1 >= len(c.Mentions) {
		return false
	}
	next := c.Mentions[mi+1]
	for _, w := range []string{" suburb of ", " suburbs of "} {
		if strings.HasPrefix(rest, w) {
			return next.Start == m.End+len(w)
		}
	}
	// "the village of X, in the Manbij district of Aleppo province": an
	// administrative district between a place and its province.
	if !strings.HasPrefix(rest, " district of ") || mi == 0 {
		return false
	}
	prev := c.Mentions[mi-1].Designator
	return (next.Designator == "province" || next.Designator == "governorate") && prev != "" && prev != "neighbourhood" && prev != "district"
}

// weighPlace weighs score s of reading h of mention mi by the place it
// reads: code is the country the caption says it is in ("" for none),
// street whether the name is a street's named after it.
func weighPlace(s float64, c caption.Caption, mi int, h gazetteer.Hit, code string, street bool) float64 {
	if code != "" && code != h.Place.Country {
		s *= 0.1
	}
	// "on Tal Abyad street market in central Raqqa": a street named
	// after a town is not the town.
	if h.Place.Kind.Populated() && street {
		s *= 0.3
	}
	if !h.Exact {
		s *= 0.85
	}
	// "the town of Suruc in Sanliurfa province": a province abroad, which
	// the gazetteer holds only by its capital, holds the town named before
	// it; its capital is not where the photo was.
	if d := c.Mentions[mi].Designator; (d == "province" || d == "governorate") && h.Place.Kind.Populated() && h.Place.Country != "SY" {
		s *= 0.6
	}
	if !h.Place.Located {
		s *= 0.95
	}
	// A village or a city quarter is named in a caption as a place, with
	// a cue ("in", "the village of", "…, Idlib"): bare, its name is more
	// likely a common word or a person's (Smoke, Sultan, Hayat).
	if small(h.Place) && !cued(c, mi) {
		s *= 0.3
	}
	// Captions are about Syria: a place abroad is meant when the
	// caption names its country, or is prominent enough to be known.
	if h.Place.Country != "SY" && !statedOf(c, h.Place.Country) {
		if h.Place.Kind == gazetteer.Village {
			s *= 0.3
		} else {
			s *= 0.85
		}
	}
	// Same-name places: the more prominent (see gazetteer.Prominence).
	s *= 1 + prominenceWeight*gazetteer.Prominence(h.Place)
	// An editor's "another Aleppo" yields to the gazetteer's unless
	// the caption's context (its governorate, a place near it) picks it.
	if h.Place.Secondary {
		s *= 0.3
	}
	return s
}

// markSpelled marks, among the readings of one span of a caption that
// has several, those with a name spelled as the caption writes it: of two
// readings scored alike, choose takes it ("Maardes" is Maar Dis, one of
// whose names it is, before Mirdash, whose names only fold alike).
func markSpelled(c caption.Caption, cands []candidate) {
	for i := 0; i < len(cands); {
		j := i + 1
		for j < len(cands) && cands[j].hit.Start == cands[i].hit.Start && cands[j].hit.End == cands[i].hit.End {
			j++
		}
		for k := i; j-i > 1 && k < j; k++ {
			cands[k].spelled = cands[k].hit.Exact && spelledAs(cands[k].hit.Place, c.Text[cands[k].hit.Start:cands[k].hit.End])
		}
		i = j
	}
}

// spelledAs reports whether one of p's names is written as the caption
// writes it, letter case aside.
func spelledAs(p *gazetteer.Place, written string) bool {
	if strings.EqualFold(p.Name, written) {
		return true
	}
	for _, n := range p.Names {
		if strings.EqualFold(n, written) {
			return true
		}
	}
	return false
}

// prominenceWeight is how much a point of prominence (see
// gazetteer.Prominence: a city about 7 to 10, a village 1) raises a
// reading: enough that Sidon the city outweighs a Syrian hamlet named
// Saydah, too little to outweigh what the caption says (a holder, a
// designator, a stated direction).
const prominenceWeight = 0.06

// small reports whether p is a place whose name needs a cue to be read as
// a place: a village or a city quarter.
func small(p *gazetteer.Place) bool {
	return p.Kind == gazetteer.Village || p.Kind == gazetteer.Neighbourhood
}

// cued reports whether mention i is named as a place: governed by a cue
// ("in", "from", "towards", a dateline), with a designator ("the village
// of", "X district"), as a possessor ("Homs' Khalidiya district"), held
// by the next name ("Kansafra, Jabal al-Zawiya") or holding the one before
// ("Douma, eastern Ghouta").
func cued(c caption.Caption, i int) bool {
	m := c.Mentions[i]
	if m.Role != caption.Context || m.Cue != "" || m.Designator != "" || placePossessive(c, m) || nextHolder(c, i) >= 0 {
		return true
	}
	return i > 0 && (placePossessive(c, c.Mentions[i-1]) || nextHolder(c, i-1) == i)
}

// placePossessive reports whether a possessive names a place by what it
// holds: another name ("Aleppo's Salaheddine") or a place's word
// ("Hama's old city", "Idlib's countryside"), not a thing ("Azraq's rows
// of shelters" is no cue that Azraq is a village).
func placePossessive(c caption.Caption, m caption.Mention) bool {
	if !m.Possessive {
		return false
	}
	rest := c.Text[m.End:]
	rest = strings.TrimLeft(rest[len(rest)-len(strings.TrimLeft(rest, "'’s")):], " ")
	word := rest
	if j := strings.IndexAny(rest, " ,.;:()"); j >= 0 {
		word = rest[:j]
	}
	if word == "" {
		return false
	}
	if word[0] >= 'A' && word[0] <= 'Z' {
		return true
	}
	word = strings.ToLower(word)
	switch word {
	case "old", "eastern", "western", "northern", "southern", "central", "rebel-held", "government-held", "besieged":
		return true
	}
	return facilityWords[word] || holderWords[word] || lexicon.ControlWords[word]
}

// acronym reports whether a hit is an acronym in a caption written in
// mixed case: UN, US, EU, SDF, YPG are organisations and countries, not
// the villages they spell (Al-Oun). All-capital names of four letters or
// more (HOMS in a dateline) are places.
func acronym(c caption.Caption, h gazetteer.Hit) bool {
	text := c.Text[h.Start:h.End]
	if len(text) > 3 || strings.ContainsAny(text, " -") {
		return false
	}
	for i := 0; i < len(text); i++ {
		if text[i] < 'A' || text[i] > 'Z' {
			return false
		}
	}
	return !c.Uppercase
}

// backs reports whether a country's name only says who backs or leads
// something ("Turkey-backed fighters", "U.S.-led coalition").
func backs(c caption.Caption, m caption.Mention) bool {
	rest := c.Text[m.End:]
	return strings.HasPrefix(rest, "-backed") || strings.HasPrefix(rest, "-led") || strings.HasPrefix(rest, "-based") || strings.HasPrefix(rest, "-supported")
}

// locatesPrevious reports whether mention i only says where the place
// named before it is: ", near Y", ", outside Y" right after another place
// where the photo was.
func locatesPrevious(c caption.Caption, i int) bool {
	m := c.Mentions[i]
	if i == 0 || m.Cue != "near" && m.Cue != "outside" {
		return false
	}
	prev := c.Mentions[i-1]
	if prev.Sentence != m.Sentence || prev.Role != caption.Where || prev.Entity != caption.MaybePlace {
		return false
	}
	between := c.Text[prev.End:m.Start]
	head, _, ok := strings.Cut(between, ",")
	if !ok || len(between) > 40 || strings.ContainsAny(between, ".;") {
		return false
	}
	for _, w := range strings.Fields(head) { // "the Oncupinar border crossing, near …"
		if !facilityWords[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

// mainWhere reports whether, in the sentence of mention i, the caption
// names where the photo was outside any "after" or "killed in" clause.
func mainWhere(c caption.Caption, i int) bool {
	for j, m := range c.Mentions {
		// "reaches Al Waer district after a siege in Old Homs": a place
		// the main clause names as a place is where, though its verb is
		// no cue.
		named := m.Role == caption.Where || m.Role == caption.Context && m.Designator != "" && !isDirection(m.Designator)
		if j != i && m.Sentence == c.Mentions[i].Sentence && !m.Subordinate && named && m.Cue != "dateline" && m.Entity == caption.MaybePlace {
			return true
		}
	}
	return false
}

// seenFrom returns the first mention the caption says the photo was taken
// from ("seen from the Mursitpinar crossing"), or -1.
func seenFrom(c caption.Caption) int {
	for i, m := range c.Mentions {
		if m.Cue != "seen from" {
			continue
		}
		// "seen from the Turkish border near Suruc": the first place
		// named from there on.
		for j := i; j < len(c.Mentions) && c.Mentions[j].Sentence == m.Sentence; j++ {
			if c.Mentions[j].Entity == caption.MaybePlace {
				return j
			}
		}
	}
	return -1
}

// nationalityGlue are the words that may stand between a nationality and
// the place it is said of.
var nationalityGlue = map[string]bool{"town": true, "city": true, "village": true, "border": true, "crossing": true,
	"gate": true, "of": true, "the": true, "province": true, "port": true, "camp": true, "refugee": true, "capital": true}

// streetWords after a town's name make it the name of a street.
var streetWords = map[string]bool{"street": true, "st": true, "road": true, "avenue": true, "highway": true}

// namedAfter reports whether hit h is the name of a street named after
// a place ("Tal Abyad street", "the Aleppo road"), not the place.
func namedAfter(c caption.Caption, h gazetteer.Hit) bool {
	rest := strings.TrimLeft(c.Text[h.End:], " ")
	word, _, _ := strings.Cut(rest, " ")
	return streetWords[strings.ToLower(strings.TrimRight(word, ".,;"))]
}

// statedCountry returns the country the caption says mention i is in: by
// a nationality right before it ("the Turkish Cilvegozu gate", "the
// Syrian town of Kobani") or the country right after it ("Judaydah,
// Syria"); else "".
// The name read ends at end, which may lie past mention i's end ("Al
// 'Alī" is two mentions).
func statedCountry(c caption.Caption, i, end int) string {
	m := c.Mentions[i]
	for _, n := range c.Mentions[i+1:] {
		if n.Start < end {
			continue
		}
		// "Arsal, Lebanon"; in Arabic the adjective after the name,
		// "عرسال اللبنانية".
		if between := strings.TrimSpace(c.Text[end:n.Start]); n.Entity == caption.Country && n.Sentence == m.Sentence && (between == "," || c.Arabic && between == "") {
			return countryCode(n.Text)
		}
		break
	}
	if first, _, ok := strings.Cut(c.Text[m.Start:m.End], " "); ok {
		var buf [32]byte
		if code := lexicon.Nationalities[string(appendLower(buf[:0], first))]; code != "" {
			return code
		}
	}
	if i == 0 || c.Mentions[i-1].Entity != caption.Nationality {
		return ""
	}
	prev := c.Mentions[i-1]
	between := strings.Fields(c.Text[prev.End:m.Start])
	if len(between) > 3 || strings.ContainsAny(c.Text[prev.End:m.Start], ",.;:()") {
		return ""
	}
	for _, w := range between {
		if !nationalityGlue[w] {
			return "" // "the Israeli-occupied Golan Heights" is not Israel's
		}
	}
	low := strings.ToLower(prev.Text)
	if lexicon.Foreign(low) {
		return elsewhere // "the Greek island of Kos", "the Sicilian harbor of Augusta"
	}
	return lexicon.Nationalities[low]
}

// elsewhere is the code statedCountry and photoCountry give a country the
// gazetteer does not cover (Greece, Bulgaria): no Syrian place is there.
const elsewhere = "ZZ"

// countryCode is a country's code by name (lexicon.CountryCode), or
// elsewhere for a country the gazetteer does not cover, "" for no
// country.
func countryCode(name string) string {
	code, ok := lexicon.CountryCode(name)
	if ok && code == "" {
		return elsewhere
	}
	return code
}

// covered reports whether hit i lies inside a longer hit of another place
// ("Aleppo" inside "Old City of Aleppo"). A loose spelling covers no
// exact one: "the Ramouseh" read as Tremseh leaves Ramouseh standing.
// Nor does a name read with the word district after it: the press calls
// a town or a quarter a district ("the Douma district of Damascus") as
// often as it means the administrative district.
func covered(c caption.Caption, hits []gazetteer.Hit, i int) bool {
	h := hits[i]
	for j, o := range hits {
		if j != i && o.Start <= h.Start && o.End >= h.End && o.End-o.Start > h.End-h.Start && (o.Exact || !h.Exact) &&
			!(o.Start == h.Start && strings.EqualFold(strings.TrimSpace(c.Text[h.End:o.End]), "district")) {
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
// (A switch, not a map: it is asked for every reading.)
func kindPrior(k gazetteer.Kind) float64 {
	switch k {
	case gazetteer.City, gazetteer.Town, gazetteer.Village:
		return 1
	case gazetteer.Neighbourhood, gazetteer.Camp, gazetteer.Landmark, gazetteer.Crossing:
		return 0.95
	case gazetteer.Region:
		return 0.8
	case gazetteer.Governorate:
		return 0.75
	case gazetteer.District:
		return 0.5
	case gazetteer.Subdistrict:
		return 0.45
	}
	return 0
}

// designatorFit weighs how well the noun a caption uses for a place ("the
// town of", "province") fits a kind of place.
func designatorFit(d string, k gazetteer.Kind) float64 {
	switch d {
	case "city", "capital", "town", "village":
		return settlementFit(d, k)
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
		case d == "neighbourhood" && k.Populated():
			// "the Al Mashad neighborhood" of Aleppo is its quarter, not
			// the town of Mashhad: a neighbourhood is seldom a town.
			return 0.8
		}
		return 1
	case "camp", "crossing":
		switch {
		case k == gazetteer.Camp && d == "camp" || k == gazetteer.Crossing && d == "crossing":
			return 1.4
		case k.Populated() && d == "camp":
			// "the Kafr Zeita refugee camp in Hama province": a camp
			// named after a town is at the town, not in the province
			// (facilityFallback marks it a fallback).
			return 1
		}
		return 0.8
	}
	return areaFit(d, k)
}

// settlementFit is designatorFit for "city", "capital", "town" and
// "village".
func settlementFit(d string, k gazetteer.Kind) float64 {
	if d == "city" || d == "capital" {
		switch k {
		case gazetteer.City:
			return 1.3
		case gazetteer.Town:
			return 1.15
		case gazetteer.Village:
			return 0.7 // "the port of Mersin" is no village of that name
		}
		return settlementFit("town", k) * 0.9
	}
	switch {
	case k == gazetteer.Village && d == "village", k == gazetteer.Town && d == "town", k == gazetteer.City && d == "town":
		return 1.2
	case k.Populated():
		return 1.1 // the press calls many villages towns, and some towns villages
	case k.Admin():
		return 0.4
	case k == gazetteer.Neighbourhood:
		return 0.8
	}
	return 0.7
}

// areaFit is designatorFit for the nouns of areas ("province",
// "countryside", "region", "suburbs" …) and any other.
func areaFit(d string, k gazetteer.Kind) float64 {
	switch d {
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
	case "area", "region":
		if k == gazetteer.Region {
			return 1.2
		}
	case "subdistrict":
		if k == gazetteer.Subdistrict {
			return 2.5
		}
	case "border":
		// "Jaber border gate", "the Nasib border post": a crossing, as
		// "the X border crossing" is, not the village it is named after.
		if k == gazetteer.Crossing {
			return 1.4
		}
	}
	return 1
}

// Words that may follow a place's name in a longer name that is still in
// that place: Umayyad Square, Aleppo University, Idlib Province.
var facilityWords = map[string]bool{"masaken": true, "masakin": true, "housing": true, "square": true, "street": true, "road": true, "highway": true, "mosque": true,
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
	for word := range strings.FieldsFuncSeq(c.Text[m.Start:m.End], func(r rune) bool { return r == ' ' || r == '-' }) {
		off := strings.Index(c.Text[m.Start:m.End], word) + m.Start
		if (off < h.Start || off >= h.End) && !facilityWords[strings.ToLower(strings.Trim(word, "'’"))] {
			return 0.35
		}
	}
	return 1
}
