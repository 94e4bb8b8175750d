package geocode

import (
	"math"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// anchorShare is how strong, against the reading it doubts, a reading
// must be to doubt it: a namesake town of a quarter's name ("Hama's
// al-Hader": the Hadher near Aleppo) does not send the city of Hama away.
const anchorShare = 0.5

// farMetres is how far a reading may lie from every other place a caption
// names before it is doubted.
const farMetres = 80000

// markFar lowers, and marks far, the readings that do not fit the other
// places the caption names: readings outside the country the caption puts
// the photo in; readings that the next name does not hold though the
// caption says it does ("the Hamidiyeh market in the old city of
// Damascus"); and readings far from every other place named (a loose
// spelling that matches a village across the country, Hamouria for Al
// Hamra, while the caption speaks of eastern Ghouta). A far reading is
// no anchor for others, and no known name for the fallback rules.
func (gc *Geocoder) markFar(c caption.Caption, cands []candidate) {
	farAbroad(c, cands)
	nearBorder(c, cands)
	gc.farFromHolder(c, cands)
	farAgainstDirection(c, cands)
	gc.farFromOthers(c, cands)
}

// farAbroad doubts the readings outside the country a caption puts the
// photo in ("…, Kilis, Turkey, March 2", "in Lebanon's Bekaa valley"):
// Arbil in Iraq is not ‘Irbīn near Damascus.
func farAbroad(c caption.Caption, cands []candidate) {
	if country := photoCountry(c); country != "" {
		for i := range cands {
			// A crossing is on both sides of the border.
			if p := &cands[i]; p.hit.Place.Country != country && p.hit.Place.Kind != gazetteer.Crossing {
				p.far = true
				p.score *= 0.3
			}
		}
	}
}

// farFromHolder doubts the readings that the name the caption puts around
// them does not hold: "the Hamidiyeh market in the old city of Damascus"
// must be read as a place inside Damascus, and a quarter of a city is not
// what "in Aleppo province" holds.
func (gc *Geocoder) farFromHolder(c caption.Caption, cands []candidate) {
	lastMention, holder := -1, -1 // readings of one name come together
	for i := range cands {
		p := &cands[i]
		if p.mention != lastMention {
			lastMention, holder = p.mention, nextHolder(c, p.mention)
			if holder < 0 {
				holder = possessor(c, p.mention)
			}
		}
		if holder < 0 || !p.hit.Place.Located {
			continue
		}
		// "in the Manbij district of Aleppo province" is the district.
		area := isArea(c.Mentions[holder].Designator) || c.Mentions[holder].Designator == "district" && describesNext(c, holder)
		// "the Amiriyah district of Aleppo" is held by the city: Aleppo the
		// governorate would hold every Amiriyah in it.
		cityOnly := !area && quarterDesignated(c, cands, p.mention)
		held, anchored := false, false
		for j := range cands {
			q := &cands[j]
			if q.mention != holder || !q.whole || !q.hit.Exact || !q.hit.Place.Located || cityOnly && q.hit.Place.Kind == gazetteer.Governorate {
				continue
			}
			anchored = true
			pp, qp := p.hit.Place, q.hit.Place
			// "in Sanliurfa province": the province, which the gazetteer
			// may know only by its capital, holds the place.
			sameArea := area && (pp.Governorate.PCode != "" && pp.Governorate.PCode == qp.Governorate.PCode || pp.Country == qp.Country && pp.Country != "SY")
			if sameArea || gc.contains(qp, pp) || within(pp.Point, qp.Point, holdMetres(qp.Kind)) {
				held = true
			}
		}
		// (A region's countryside may hold one: "Jobar … in the Eastern
		// Ghouta countryside of Damascus".)
		quarterInProvince := p.hit.Place.Kind == gazetteer.Neighbourhood && area && readsAsGovernorate(cands, holder)
		if anchored && !held || quarterInProvince {
			p.far = true
			p.score *= 0.3
		}
	}
}

// farAgainstDirection doubts, and marks contradicted, the readings that a
// stated direction or distance from the next name rules out: "Sajur,
// north of Manbij", "Khan Tuman, 10 km southwest of Aleppo".
func farAgainstDirection(c caption.Caption, cands []candidate) {
	for i := range cands {
		p := &cands[i]
		ref, dir, km := directionFrom(c, p.mention)
		if ref < 0 || !p.hit.Place.Located {
			continue
		}
		q := bestReading(cands, ref)
		if q == nil || !contradicts(q.hit.Place.Point, p.hit.Place.Point, dir, km) {
			continue
		}
		p.far, p.contradicted = true, true
		p.score *= 0.3
	}
}

// farFromOthers doubts the readings far from every other place named,
// judged against the readings as they stand and then marked all at once:
// a loose spelling matching a village across the country while the
// caption speaks of eastern Ghouta.
func (gc *Geocoder) farFromOthers(c caption.Caption, cands []candidate) {
	var doubted []int
	for i := range cands {
		p := &cands[i]
		if !p.hit.Place.Located || p.hit.Place.Kind == gazetteer.Governorate || p.hit.Place.Kind == gazetteer.Region {
			continue
		}
		others, near := 0, false
		for j := range cands {
			q := &cands[j]
			m := c.Mentions[q.mention]
			// Only close spellings anchor: two loose ones far apart must
			// not doubt each other; nor does a village or quarter named
			// bare, likely a common word ("Smoke rises over …" is no
			// Shmuka that puts Homs far away).
			// An editor's "another Aleppo" anchors nothing either.
			if q.mention == p.mention || !q.hit.Exact || !q.whole || q.far || q.hit.Place.Secondary || !q.hit.Place.Located || q.base < 0.1 || m.Role == caption.Origin || m.Role == caption.Target ||
				small(q.hit.Place) && !cued(c, q.mention) ||
				q.base < p.base*anchorShare {
				continue
			}
			others++
			if q.hit.Place.Kind == gazetteer.Governorate && q.hit.Place.Governorate.PCode == p.hit.Place.Governorate.PCode ||
				within(p.hit.Place.Point, q.hit.Place.Point, farMetres) || gc.g.Contains(q.hit.Place, p.hit.Place) {
				near = true
				break
			}
		}
		if others > 0 && !near {
			doubted = append(doubted, i)
		}
	}
	for _, i := range doubted {
		p := &cands[i]
		p.far = true
		if p.hit.Exact {
			p.score *= 0.8
		} else {
			p.score *= 0.5
		}
	}
}

// anyBearing is directionFrom's bearing for "X, near Y": no direction,
// but X within nearKm of Y.
const (
	anyBearing = -1
	nearKm     = 50
)

// directionFrom reads "X, north of Y", "X, 40 km southwest of Y", "X,
// near Y" for mention i: the mention of Y, the bearing in degrees from Y
// to X (north 0, east 90; anyBearing for "near") and the distance in km
// (0 when not said). ref is -1 when the caption states no such relation.
func directionFrom(c caption.Caption, i int) (ref int, bearing, km float64) {
	if i+1 >= len(c.Mentions) {
		return -1, 0, 0
	}
	m, n := c.Mentions[i], c.Mentions[i+1]
	if n.Sentence != m.Sentence || n.Start-m.End > 40 || n.Entity != caption.MaybePlace {
		return -1, 0, 0
	}
	if (n.Cue == "near" || n.Cue == "outside") && !isDirection(n.Designator) {
		switch strings.TrimSpace(strings.ToLower(c.Text[m.End:n.Start])) {
		case ", near", "near", ", close to", ", just outside", ", outside":
			return i + 1, anyBearing, 0
		}
		return -1, 0, 0
	}
	if !isDirection(n.Designator) {
		return -1, 0, 0
	}
	found := false
	prev := ""
	for w := range strings.FieldsFuncSeq(strings.ToLower(c.Text[m.End:n.Start]), func(r rune) bool {
		return r == ' ' || r == ',' || r == '-' || r == '(' || r == ')'
	}) {
		if b, ok := bearings[w]; ok {
			bearing, found = b, true
		}
		if w == "km" || w == "kilometres" || w == "kilometers" {
			if v, err := strconv.ParseFloat(prev, 64); err == nil {
				km = v
			}
		}
		if w == "miles" || w == "mile" {
			if v, err := strconv.ParseFloat(prev, 64); err == nil {
				km = v * 1.609
			}
		}
		prev = w
	}
	if !found {
		return -1, 0, 0
	}
	return i + 1, bearing, km
}

// bearings are the compass directions captions use, in degrees.
var bearings = map[string]float64{"north": 0, "northeast": 45, "east": 90, "southeast": 135, "south": 180,
	"southwest": 225, "west": 270, "northwest": 315, "north-east": 45, "south-east": 135, "south-west": 225,
	"north-west": 315}

// contradicts reports whether point p cannot be bearing degrees from
// point ref (at about km when km > 0): more than 80 degrees off, or much
// farther or nearer than said (a town said to lie north of a city, with
// no distance, is within 100 km of it; one near it, within 50 km).
func contradicts(ref, p orb.Point, bearing, km float64) bool {
	d := geo.Distance(ref, p) / 1000
	if bearing == anyBearing {
		return d > nearKm
	}
	if d < 2 {
		return false // at the reference itself: no direction to judge
	}
	if km > 0 && (d > 2*km+15 || d < km/3-5) || km == 0 && d > 100 {
		return true
	}
	got := geo.Bearing(ref, p)
	diff := math.Abs(math.Mod(got-bearing+540, 360) - 180)
	return diff > 80
}

// bestReading returns the most likely located reading of mention i, or
// nil.
func bestReading(cands []candidate, i int) *candidate {
	var best *candidate
	for j := range cands {
		if q := &cands[j]; q.mention == i && q.hit.Place.Located && (best == nil || q.base > best.base) {
			best = q
		}
	}
	return best
}

// holdMetres is how far from a holder's point a place the caption puts in
// it may lie: a region (a valley 120 km long, a mountain range) holds
// places farther from its centre than a town does.
func holdMetres(k gazetteer.Kind) float64 {
	if k == gazetteer.Region {
		return 60000
	}
	return 25000
}

// nextHolder returns the mention that the caption says holds mention i
// ("X in Y", "X of Y", "X, Y" in one clause), or -1.
func nextHolder(c caption.Caption, i int) int {
	if i+1 >= len(c.Mentions) {
		return -1
	}
	m, n := c.Mentions[i], c.Mentions[i+1]
	next := i + 1
	// "X, in Lebanon's Bekaa valley": the country's possessive only says
	// whose the holder is.
	if n.Entity == caption.Country && n.Possessive && i+2 < len(c.Mentions) {
		if after := c.Mentions[i+2]; strings.TrimSpace(strings.TrimLeft(c.Text[n.End:after.Start], "'’s")) == "" {
			n, next = after, i+2
		}
	}
	if n.Sentence != m.Sentence || n.Start-m.End > 60 || n.Entity != caption.MaybePlace {
		return -1
	}
	// "Qardaha, Assad's hometown": a possessive that names a thing, not
	// a place, holds nothing.
	if n.Possessive && !placePossessive(c, n) {
		return -1
	}
	// "northeast of Damascus", "near Damascus" name a neighbour, not a
	// holder.
	if isDirection(n.Designator) || n.Designator == "border" || n.Cue != "in" && n.Cue != "" {
		return -1
	}
	between := c.Text[m.End:c.Mentions[i+1].Start]
	if strings.ContainsAny(between, ".;()") || strings.Count(between, ",") > 1 {
		return -1
	}
	if linksHolder(between, n) {
		return next
	}
	return -1
}

// linksHolder reports whether the words between a place and the next
// name say the name holds it: a comma, "in", "of" among the words a
// holder phrase allows, or an Arabic name written with "ب" (in) right
// after the place ("مدينة الباب بحلب", the city of al-Bab in Aleppo).
func linksHolder(between string, n caption.Mention) bool {
	if n.Cue == "in" && arabicIn(strings.Trim(between, " »”\""), n) {
		return true
	}
	linked := strings.HasPrefix(between, ",")
	for w := range strings.FieldsFuncSeq(strings.ToLower(between), func(r rune) bool { return r == ' ' || r == '-' || r == ',' }) {
		switch {
		case w == "in" || w == "of":
			linked = true
		case w == "the" || w == "a" || w == "an" || facilityWords[w] || holderWords[w] || lexicon.ControlWords[w]:
		default:
			return false // "fled Raqqa city stand near their tent in Ras al-Ain"
		}
	}
	return linked
}

// arabicIn reports whether an Arabic name says it holds the place before
// it with "ب" (in): written onto the name ("الباب بحلب") or onto its
// designator ("«المبروكة» بقرية رأس العين"), rest being what stands
// between the two names, quotes left out.
func arabicIn(rest string, n caption.Mention) bool {
	if rest == "" {
		return strings.HasPrefix(n.Text, "ب")
	}
	return n.Designator != "" && strings.HasPrefix(rest, "ب") && !strings.ContainsAny(rest, " ،,")
}

// possessor returns the mention whose possessive names mention i, right
// before it ("Hama's al-Hader neighbourhood"), or -1.
func possessor(c caption.Caption, i int) int {
	if i == 0 || !c.Mentions[i-1].Possessive || c.Mentions[i-1].Sentence != c.Mentions[i].Sentence {
		return -1
	}
	if between := c.Text[c.Mentions[i-1].End:c.Mentions[i].Start]; strings.TrimSpace(strings.TrimLeft(between, "'’s")) != "" {
		return -1
	}
	return i - 1
}

// holderWords may stand between a place and the place holding it, besides
// facilityWords: "in the rebel-held city of".
var holderWords = map[string]bool{"neighbourhood": true, "neighborhood": true, "area": true,
	"quarter": true, "suburb": true, "suburbs": true, "region": true, "syrian": true, "capital": true}

// quarterDesignated reports whether the caption calls mention i a part of
// a city: "the X neighbourhood", "X quarter", or "X district" where X is
// a quarter or no administrative district (the Harem district of Idlib
// is one).
func quarterDesignated(c caption.Caption, cands []candidate, i int) bool {
	switch c.Mentions[i].Designator {
	case "neighbourhood":
		return true
	case "district":
		// "Raqqa's Al-Thawrah district" is the quarter, though Tabqa's
		// district bears its name too.
		district := false
		for _, q := range cands {
			if q.mention == i && q.hit.Place.Kind == gazetteer.Neighbourhood {
				return true
			}
			district = district || q.mention == i && q.hit.Place.Kind == gazetteer.District
		}
		return !district
	}
	return false
}

// readsAsGovernorate reports whether mention i has a governorate among
// its readings.
func readsAsGovernorate(cands []candidate, i int) bool {
	for _, q := range cands {
		if q.mention == i && q.hit.Place.Kind == gazetteer.Governorate {
			return true
		}
	}
	return false
}

// isArea reports whether a designator names an area larger than a city.
func isArea(d string) bool { return d == "province" || d == "governorate" || d == "countryside" }

// saidElsewhere reports whether mention i says the photo was taken in a
// country the gazetteer does not cover: "in Greece", "on Lesbos",
// "reaching Lesbos", "in Sofia, Bulgaria", "on the Greek island of Kos",
// "the Sicilian harbor of Augusta" — whatever Syrian village shares the
// name.
func saidElsewhere(c caption.Caption, i int) bool {
	m := c.Mentions[i]
	// "arriving from Aleppo in Sofia, Bulgaria": read as Aleppo's holder,
	// Sofia takes its cue; no Bulgarian city holds Aleppo.
	inAfter := i > 0 && c.Text[c.Mentions[i-1].End:m.Start] == " in "
	// "moments after arriving on the island of Lesbos": a clause after
	// "after" says where the photo is when no main clause says it.
	if m.Subordinate && mainWhere(c, i) || m.Role != caption.Where && m.Role != caption.Context && !inAfter {
		return false
	}
	switch m.Entity {
	case caption.Country:
		if code, city := lexicon.PlacesAbroad[lexicon.FoldArabic(strings.ToLower(m.Text))]; city {
			return code == "" && !backs(c, m) // a city abroad: "on Lesbos", "reaching Lesbos"
		}
		return m.Role == caption.Where && (m.Cue == "in" || m.Cue == "on" || m.Cue == "at") && m.Designator == "" && countryCode(m.Text) == elsewhere
	case caption.MaybePlace:
		return (m.Role == caption.Where || inAfter) && statedCountry(c, i, m.End) == elsewhere
	}
	return false
}

// betweenCountries reports whether mentions a and b name two sides of a
// border: "X and Y" after "between", or after a border or crossing.
func betweenCountries(c caption.Caption, a, b int) bool {
	m := c.Mentions[a]
	if m.Entity != caption.Country || strings.TrimSpace(c.Text[m.End:c.Mentions[b].Start]) != "and" {
		return false
	}
	before := strings.ToLower(strings.TrimSpace(c.Text[:m.Start]))
	return m.Designator == "border" || m.Designator == "crossing" || strings.HasSuffix(before, " between")
}

// photoCountry returns the country the first sentence places the photo
// in: the first named as "in Turkey", else the last named as "…, Turkey,"
// or "in Lebanon's …", not one named as a border ("near the border with
// Syria"); else one people enter ("Syrian refugees enter Jordan at the
// Hadalat crossing"). It returns "" when the caption names none, or Syria.
func photoCountry(c caption.Caption) string {
	stated, entered := countriesSaid(c)
	if stated == "" {
		stated = entered
	}
	if stated == "SY" {
		return ""
	}
	return stated
}

// countriesSaid returns the country the first sentence says the photo is
// in, as photoCountry reads it, and apart from it the one people enter
// or cross into: "at the Semalka crossing into Iraqi Kurdistan" is on the
// Syrian side still.
func countriesSaid(c caption.Caption) (stated, entered string) {
	code, in := "", ""
	for i, m := range c.Mentions {
		if m.Sentence == 0 && in == "" && saidElsewhere(c, i) {
			in = elsewhere
		}
		// "Turkey-backed fighters" says who backs them, not where they are.
		if m.Entity != caption.Country || m.Sentence != 0 || backs(c, m) {
			continue
		}
		// "along the border between Syria and Jordan", "the Nassib
		// crossing between Syria and Jordan": both name the border.
		if i > 0 && betweenCountries(c, i-1, i) || i+1 < len(c.Mentions) && betweenCountries(c, i, i+1) {
			continue
		}
		switch {
		case m.Role == caption.Where && m.Cue == "in" && m.Designator == "" && in == "":
			// "in Turkey", "في محافظة هاتاي": said of the photo, it outweighs
			// a country said of a name or a person ("بوابة باب الهوى
			// السورية", the Syrian gate; "فتاة سورية", a Syrian girl).
			in, _ = lexicon.CountryCode(m.Text)
		case (m.Role == caption.Context && m.Cue == "" || m.Possessive) && m.Designator != "border":
			// "الحدودي مع الأردن", on the border with Jordan, is no
			// statement of the photo's country.
			code, _ = lexicon.CountryCode(m.Text)
		case m.Role == caption.Where && strings.HasPrefix(m.Cue, "enter") || m.Role == caption.Target && m.Cue == "into":
			entered, _ = lexicon.CountryCode(m.Text)
		}
	}
	if in != "" {
		code = in
	}
	return code, entered
}
