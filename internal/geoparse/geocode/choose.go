package geocode

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// choose picks the best candidate, prefers a more specific place held by
// it, and falls back to a holding place when the caption's most specific
// place is unknown.
//
// It also returns the index of the reading the answer comes from (-1 when
// unplaced) and the rules' confidence in it, which the confidence model
// takes as one of its features.
func (gc *Geocoder) choose(c caption.Caption, cands []candidate, known []bool) (Result, int, float64) {
	gc.raiseHeld(cands)
	slices.SortStableFunc(cands, func(a, b candidate) int {
		if c := cmp.Compare(b.score, a.score); c != 0 || a.spelled == b.spelled {
			return c
		}
		if a.spelled {
			return -1
		}
		return 1
	})
	if len(cands) == 0 || cands[0].score < minScore {
		return Result{Precision: None, Confidence: 0, Alternatives: alternatives(c, cands, 0, -1, 1)}, -1, 0
	}
	best := walkToSpecific(len(cands), func(best, i int) bool { return gc.moreSpecific(c, cands, best, i) })
	b := cands[best]
	// "Hmeimah, east of Manbij", where the only Hmeimah known is 77 km
	// off: a wrong place is worse than an honest fallback to what the
	// caption says it is near (its governorate, for a direction).
	if b.contradicted {
		if r, ok := gc.relationFallback(c, cands, b); ok {
			r.Alternatives = alternatives(c, cands, r.Confidence, best, b.score)
			return r, best, r.Confidence
		}
	}
	res := Result{Place: b.hit.Place, Precision: Exact, Mention: c.Text[b.hit.Start:b.hit.End]}
	conf := gc.confidence(c, cands, best)
	// Each fallback below applies only to an answer still exact.
	conf *= gc.unlocatedFallback(c, cands, b, &res)
	if res.Precision == Exact {
		conf *= gc.unknownFallback(c, cands, known, b, &res)
	}
	if res.Precision == Exact {
		conf *= oldQuarterFallback(c, b, &res)
	}
	if res.Precision == Exact {
		conf *= facilityFallback(c, known, b, &res)
	}
	if res.Precision == Exact {
		conf *= gc.landmarkFallback(c, known, b, &res)
	}
	if res.Precision == Exact {
		conf *= gc.originQuarterFallback(c, b, &res)
	}
	// Never a place in Syria for a photo the caption puts abroad: "Syrian
	// refugees enter Jordan at the Hadalat crossing" is not the Syrian
	// village of Hadalat.
	// A crossing is two gates: "in Hatay province, near the Syrian Bab
	// al-Hawa gate" is at the Turkish one; a crossing "into Iraq" may be
	// seen from either, and its name says which.
	if country := photoCountry(c); country != "" && res.Place != nil && res.Place.Country == "SY" {
		stated, _ := countriesSaid(c)
		switch other := gc.g.OtherSide(res.Place); {
		case other != nil && other.Country == stated:
			res.Place = other
		case res.Place.Kind != gazetteer.Crossing && b.hit.Place.Kind != gazetteer.Crossing:
			// (A crossing placed at its village, for want of a point, is
			// still the crossing on the border with that country.)
			res = Result{Precision: None, Mention: res.Mention,
				Note: "the caption puts the photo in " + countryName(country) + "; " + res.Place.Name + " in Syria is another place"}
		}
	}
	if res.Precision == None {
		conf = 0
	}
	res.Confidence = round2(math.Max(0, math.Min(0.99, conf)))
	if res.Precision == None {
		res.Alternatives = alternatives(c, cands, 0, -1, 1)
		return res, -1, 0
	}
	res.Alternatives = alternatives(c, cands, res.Confidence, best, b.score)
	return res, best, res.Confidence
}

// raiseHeld raises the readings held by a reading of another name the
// caption gives: such a place is more likely the one meant (Midan in
// Damascus, not Midan in Aleppo). Of places that share a name, the one
// near another place the caption names, however weakly, is raised a
// little to break the tie ("the village of Anab" in a caption about Afrin is the Anab 8 km
// from Afrin, not the one near Idlib).
func (gc *Geocoder) raiseHeld(cands []candidate) {
	for i := range cands {
		p := &cands[i]
		if p.hit.Place.Kind.Admin() && p.hit.Place.Kind != gazetteer.Governorate {
			continue
		}
		held := false
		for j := range cands {
			// An editor's "another Aleppo" raises nothing near it: it is a
			// reading only the caption's context may pick.
			if q := &cands[j]; q.mention != p.mention && q.base >= 0.1 && !q.hit.Place.Secondary && gc.contains(q.hit.Place, p.hit.Place) {
				held = true
				break
			}
		}
		switch {
		case held:
			p.score *= 1.25
		case hasNamesake(cands, i) && nearAnother(cands, i):
			p.score *= 1.1
		}
	}
}

// nearAnother reports whether a close spelling of another name the
// caption gives lies near cands[i].
func nearAnother(cands []candidate, i int) bool {
	p := cands[i]
	for _, q := range cands {
		if q.mention != p.mention && q.whole && q.hit.Exact && !q.far && near(p.hit.Place, q.hit.Place) {
			return true
		}
	}
	return false
}

// hasNamesake reports whether another reading of cands[i]'s name, about
// as likely, is a different place far from it.
func hasNamesake(cands []candidate, i int) bool {
	p := cands[i]
	for _, q := range cands {
		if q.mention == p.mention && q.hit.Place != p.hit.Place && !q.hit.Place.Secondary && q.base >= 0.8*p.base && !near(p.hit.Place, q.hit.Place) {
			return true
		}
	}
	return false
}

// confidence is how sure the chosen reading cands[best] is: by the role
// the caption gives its name, its sentence, its spelling and kind, and
// the strength of a rival (the best reading of another name that neither
// holds the chosen place nor is held by it; readings of a name that holds
// it, Damascus the city for Jobar, are no rivals in any of their kinds).
func (gc *Geocoder) confidence(c caption.Caption, cands []candidate, best int) float64 {
	b := cands[best]
	m := c.Mentions[b.mention]
	conf := map[caption.Role]float64{caption.Where: 0.95, caption.Context: 0.75, caption.Target: 0.35, caption.Origin: 0.3}[m.Role]
	if m.Sentence > 0 {
		conf *= 0.7
	}
	if !b.hit.Exact {
		conf *= 0.9
	}
	if b.hit.Place.Kind.Admin() || b.hit.Place.Kind == gazetteer.Region {
		conf *= 0.85
	}
	// Readings of the same name all but as likely, none holding another:
	// "Judaydah, Syria" is one of a dozen villages, a guess among them.
	conf /= 1 + float64(gc.sameNameRivals(cands, best, 0.8))
	holders := map[int]bool{b.mention: true}
	for i := range cands {
		if gc.contains(cands[i].hit.Place, b.hit.Place) {
			holders[cands[i].mention] = true
		}
	}
	for i := range cands {
		o := cands[i]
		if i == best || holders[o.mention] || o.hit.Place.Secondary || gc.contains(b.hit.Place, o.hit.Place) || near(o.hit.Place, b.hit.Place) {
			continue
		}
		conf *= 1 - 0.5*math.Min(1, o.score/b.score)
		break
	}
	return conf
}

// sameNameRivals counts the readings of the chosen name, other than
// cands[best], scored at least ratio times as high, that neither hold it
// nor lie near it: other places of the same name.
func (gc *Geocoder) sameNameRivals(cands []candidate, best int, ratio float64) int {
	b := cands[best]
	same := 0
	for i, o := range cands {
		if i != best && o.mention == b.mention && !o.far && !o.hit.Place.Secondary && o.score >= ratio*b.score && o.hit.Place != b.hit.Place &&
			!gc.contains(o.hit.Place, b.hit.Place) && !gc.contains(b.hit.Place, o.hit.Place) && !near(o.hit.Place, b.hit.Place) {
			same++
		}
	}
	return same
}

// unlocatedFallback shows a place with no point of its own at its parent,
// or at what the caption says holds it ("the Nizip refugee camp in
// Gaziantep province"), or leaves the photo unplaced; it returns the
// factor the confidence takes.
func (gc *Geocoder) unlocatedFallback(c caption.Caption, cands []candidate, b candidate, res *Result) float64 {
	if b.hit.Place.Located {
		return 1
	}
	if parent := gc.located(b.hit.Place); parent != nil {
		res.Place, res.Precision = parent, Fallback
		if namedBare(c, cands, b, parent) {
			res.Precision = Exact
			return 1
		}
		res.Note = b.hit.Place.Name + " has no point in the gazetteer; placed at " + parent.Name + ", which holds it"
		return 0.7
	}
	if holder := namedHolder(c, cands, b.mention); holder != nil {
		res.Place, res.Precision = holder, Fallback
		res.Note = b.hit.Place.Name + " has no point in the gazetteer; placed at " + holder.Name + ", which the caption says holds it"
		return 0.6
	}
	res.Place, res.Precision = nil, None
	res.Note = b.hit.Place.Name + " has no point in the gazetteer"
	return 0
}

// namedBare reports whether reading b, a crossing or camp without a
// point named after parent, the place that holds it, is only the parent's
// name in the caption: "in Nassîb, near Daraa" is the village of Nasib,
// not the Nasib crossing at it, where nothing calls it a crossing or camp.
func namedBare(c caption.Caption, cands []candidate, b candidate, parent *gazetteer.Place) bool {
	k := b.hit.Place.Kind
	if k != gazetteer.Crossing && k != gazetteer.Camp {
		return false
	}
	switch c.Mentions[b.mention].Designator {
	case "camp", "crossing", "border":
		return false
	}
	if rest := c.Text[b.hit.End:]; crossingAfter(rest) || campAfter(rest) || unnamedCampBefore(c.Text[:b.hit.Start]) {
		return false
	}
	for _, o := range cands {
		if o.mention == b.mention && o.hit.Place == parent {
			return true
		}
	}
	return false
}

// unknownFallback handles a name the gazetteer lacks where the caption
// puts the photo: inside the chosen place ("the district of Dwelaa in
// Damascus" is placed at Damascus, as a fallback), or elsewhere in the
// first sentence or as where the photo was taken from (placed at what the
// caption says holds it, if anything). It returns the confidence factor.
func (gc *Geocoder) unknownFallback(c caption.Caption, cands []candidate, known []bool, b candidate, res *Result) float64 {
	if u, ok := unknownBefore(c, known, b.mention); ok && !b.far {
		res.Precision = Fallback
		res.Note = u.Text + " is not in the gazetteer; placed at " + res.Place.Name + ", which the caption says holds it"
		// "the once bustling Old City market in Homs": its old city.
		if old := gc.oldCityOf(res.Place); old != nil && strings.EqualFold(u.Text, "Old City") {
			res.Place, res.Note = old, "the caption names the old city of "+res.Place.Name+"; placed at "+old.Name
		}
		// "Khan Tuman, southwest of Aleppo" is not in Aleppo but in its
		// governorate.
		if d := c.Mentions[b.mention].Designator; isDirection(d) {
			if gov := gc.g.GovernorateOf(res.Place); gov != nil {
				res.Place = gov
				res.Note = u.Text + " is not in the gazetteer; the caption places it " + d + " of " +
					b.hit.Place.Name + ", so it is placed at the governorate, " + gov.Name
			}
		}
		// "the village of Kansafra, Jabal al-Zawiya, Idlib": a village is
		// not in the city its governorate is named after.
		if u.Designator == "village" || u.Designator == "town" {
			if gov := gc.sameNamedGovernorate(c.Mentions[b.mention], b.mention, res.Place, cands); gov != nil {
				res.Place = gov
				res.Note = u.Text + " is not in the gazetteer; the caption calls it a " + u.Designator + " of " +
					gov.Name + ", so it is placed at the governorate"
			}
		}
		res.Mention = u.Text
		return 0.6
	}
	// "in the Jisr al-Haj neighbourhood during the operation … in the city
	// of Aleppo": a quarter the gazetteer lacks, named as one anywhere in
	// the sentence that puts the photo in its city.
	if u, ok := unknownQuarter(c, known, b); ok {
		res.Precision, res.Mention = Fallback, u.Text
		res.Note = u.Text + " is not in the gazetteer; the caption names it a quarter beside " + res.Place.Name + ", so it is placed there"
		return 0.6
	}
	i, ok := unknownWhere(c, known, b.mention)
	if !ok && (c.Mentions[b.mention].Cue == "seen from" || !unknownSeenFrom(c, known, &i)) {
		return 1
	}
	// The caption says where the photo was, but not in a way that ties it
	// to the chosen place ("seen from the village of Ain al-Sawda in Idlib
	// province").
	u := c.Mentions[i]
	if holder := namedHolder(c, cands, i); holder != nil {
		*res = Result{Place: holder, Precision: Fallback, Mention: u.Text,
			Note: u.Text + " is not in the gazetteer; placed at " + holder.Name + ", which the caption says holds it"}
		return 0.5
	}
	// "at the Karaj al-Hajez crossing, a passageway separating Aleppo's
	// Bustan al-Qasr … and Al-Masharqa neighborhood": a crossing, camp or
	// quarter the gazetteer lacks, beside the quarters of one city.
	if city := gc.cityBeside(c, b, u); city != nil {
		*res = Result{Place: city, Precision: Fallback, Mention: u.Text,
			Note: u.Text + " is not in the gazetteer; placed at " + city.Name + ", the city of the places the caption names beside it"}
		return 0.4
	}
	*res = Result{Precision: None, Mention: u.Text, Note: u.Text + " is not in the gazetteer, and the caption names no place that holds it"}
	return 0
}

// cityBeside returns the city of the chosen reading b when the caption
// names u, a crossing, camp, quarter or landmark the gazetteer lacks, in
// the sentence that names b, a city or one of its quarters; or nil.
func (gc *Geocoder) cityBeside(c caption.Caption, b candidate, u caption.Mention) *gazetteer.Place {
	switch u.Designator {
	case "crossing", "camp", "neighbourhood", "district", "landmark":
	default:
		return nil
	}
	p := b.hit.Place
	if c.Mentions[b.mention].Sentence != u.Sentence || b.far {
		return nil
	}
	if p.Kind == gazetteer.Neighbourhood {
		p = gc.g.ByID(p.Parent)
	}
	if p == nil || p.Kind != gazetteer.City || !p.Located {
		return nil
	}
	return p
}

// oldQuarterFallback places "the old quarter of Homs", which the gazetteer
// does not know, at the city that holds it; it returns the confidence
// factor.
func oldQuarterFallback(c caption.Caption, b candidate, res *Result) float64 {
	if b.hit.Place.Kind != gazetteer.City && b.hit.Place.Kind != gazetteer.Town {
		return 1
	}
	if _, _, ok := oldQuarterSpan(c, c.Mentions[b.mention]); !ok {
		return 1
	}
	res.Precision = Fallback
	res.Note = "the old city of " + b.hit.Place.Name + " is not in the gazetteer; placed at " + b.hit.Place.Name
	return 0.8
}

// originQuarterFallback answers a quarter the caption names only as where
// people came from ("civilians evacuated from the Old City of Homs arrive
// at a checkpoint") with its city, a fallback: the photo is where they
// arrived, which the caption leaves unnamed, and a quarter is too precise
// a guess at it. It returns the confidence factor.
func (gc *Geocoder) originQuarterFallback(c caption.Caption, b candidate, res *Result) float64 {
	if c.Mentions[b.mention].Role != caption.Origin || b.hit.Place.Kind != gazetteer.Neighbourhood || b.hit.Place.Parent == "" {
		return 1
	}
	city := gc.located(gc.g.ByID(b.hit.Place.Parent))
	if city == nil {
		return 1
	}
	res.Place, res.Precision = city, Fallback
	res.Note = "the caption names " + b.hit.Place.Name + " only as where people came from; placed at " + city.Name + ", which holds it"
	return 0.7
}

// landmarkNouns name a building or site within a town, written in lower
// case before "of" and the town: "the ancient castle of Homs".
var landmarkNouns = map[string]bool{"castle": true, "citadel": true, "fortress": true, "museum": true, "university": true,
	"stadium": true, "hospital": true, "market": true, "souk": true, "mosque": true, "church": true, "cathedral": true,
	"airport": true, "prison": true, "port": true, "harbour": true, "harbor": true, "bridge": true, "square": true,
	"dam": true, "bakery": true, "school": true, "ruins": true, "walls": true, "gate": true, "gates": true,
	"campus": true, "station": true, "academy": true, "college": true, "barracks": true, "base": true, "factory": true,
	"park": true, "cemetery": true, "graveyard": true, "roundabout": true, "palace": true, "monastery": true, "souq": true}

// definite reports whether the words before a landmark's noun begin with
// "the" within three words ("the old souk", "the Grand Mosque").
func definite(before string) bool {
	words := strings.Fields(before)
	for k := len(words) - 1; k >= 0 && k >= len(words)-3; k-- {
		if strings.EqualFold(words[k], "the") {
			return true
		}
	}
	return false
}

// landmarkFallback places a building or site the caption names by a
// common noun within a town ("near the ancient castle of Homs", "at the
// main hospital of Idlib") at the town, a fallback: the photo is at a
// place more precise than the answer. It returns the confidence factor.
func (gc *Geocoder) landmarkFallback(c caption.Caption, known []bool, b candidate, res *Result) float64 {
	p := b.hit.Place
	if !p.Kind.Populated() {
		return 1
	}
	// Arabic names a landmark by its noun before the town's name ("متحف
	// الرقة", the museum of Raqqa) or before its own name, which the
	// gazetteer lacks, in the sentence that names the town ("جامع نور
	// القدس" in Raqqa): the caption reader marks either "landmark".
	m := c.Mentions[b.mention]
	for i, o := range c.Mentions {
		if o.Designator == "landmark" && o.Sentence == m.Sentence && (i == b.mention || !known[i]) {
			res.Precision = Fallback
			res.Note = "the caption names a landmark (" + o.Text + ") the gazetteer lacks; placed at " + p.Name + ", which holds it"
			return 0.7
		}
	}
	// "the ancient castle of Homs"; "at the old souk in Tartus", "the
	// Grand Mosque in Aleppo" — a definite landmark in the town, not "a
	// field hospital in Douma", which says only the town.
	before, of := strings.CutSuffix(c.Text[:b.hit.Start], " of ")
	if !of {
		var in bool
		if before, in = strings.CutSuffix(c.Text[:b.hit.Start], " in "); !in {
			return 1
		}
	}
	i := strings.LastIndexByte(before, ' ')
	noun := strings.ToLower(before[i+1:])
	// "the once bustling Old City souk in Homs", "the old city walls in
	// Raqqa": a landmark of the city's old city.
	inOld := strings.HasSuffix(strings.ToLower(before[:max(i, 0)]), "old city")
	if !landmarkNouns[noun] || !of && !inOld && !definite(before[:max(i, 0)]) {
		return 1
	}
	res.Precision = Fallback
	res.Note = "the " + noun + " of " + p.Name + " is not in the gazetteer; placed at " + p.Name
	if old := gc.oldCityOf(p); old != nil && inOld {
		res.Place = old
		res.Note = "the " + noun + " of the old city of " + p.Name + " is not in the gazetteer; placed at " + old.Name
	}
	return 0.7
}

// oldCityOf returns the quarter or landmark the gazetteer holds as the old
// city of city ("Old City of Homs", Raqqa's Rafqa), or nil.
func (gc *Geocoder) oldCityOf(city *gazetteer.Place) *gazetteer.Place {
	name := "Old City of " + city.Name
	for _, h := range gc.g.ScanNames(name, nil) {
		q := h.Place
		if h.Start == 0 && h.End == len(name) && q.Located && (q.Kind == gazetteer.Neighbourhood || q.Kind == gazetteer.Landmark) && gc.contains(city, q) {
			return q
		}
	}
	return nil
}

// campWords follow a camp's or shelter's own name: "the Mahalej
// shelter".
var campWords = []string{"refugee camp", "displacement camp", "camp", "shelter"}

// facilityFallback handles a camp or shelter the gazetteer lacks, with a
// name of its own, that the caption places at the chosen town ("the
// Mahalej shelter near Azaz"): the town is coarser than what the caption
// says, a fallback, and its confidence says so. A Syrian camp named after
// a town ("Azaz camp", "مخيم عين عيسى") is placed at the town too, a
// fallback less doubtful: such camps stand on the town's edge or a few km
// out. One named after a village ("Al-Tah camp") is at the village.
// It returns the confidence factor.
func facilityFallback(c caption.Caption, known []bool, b candidate, res *Result) float64 {
	p := b.hit.Place
	if !p.Kind.Populated() {
		return 1
	}
	fallback := func(mention string) float64 {
		res.Precision, res.Mention = Fallback, mention
		res.Note = mention + " is not in the gazetteer; placed at " + p.Name + ", which the caption says it is at"
		return 0.6
	}
	m := c.Mentions[b.mention]
	if p.Country == "SY" && p.Kind != gazetteer.Village && (m.Designator == "camp" || campAfter(c.Text[b.hit.End:])) {
		res.Precision = Fallback
		res.Note = "the camp named after " + p.Name + " is not in the gazetteer; placed at the town"
		return 0.75
	}
	// "the Tal Abyad border crossing", "Jarabulus border gate": a crossing
	// the gazetteer lacks, named after its town, stands at the town's
	// edge; one named after a village (Mursitpinar, Nasib) is the village.
	if p.Country == "SY" && p.Kind != gazetteer.Village && crossingAfter(c.Text[b.hit.End:]) {
		res.Precision = Fallback
		res.Note = "the crossing named after " + p.Name + " is not in the gazetteer; placed at the town"
		return 0.75
	}
	// "at a refugee camp on the border with Turkey, near Azaz": a camp
	// without a name, near the town.
	if unnamedCampBefore(c.Text[:b.hit.Start]) {
		res.Precision = Fallback
		res.Note = "the caption places the photo at a camp near " + p.Name + "; placed at " + p.Name
		return 0.75
	}
	for i := b.mention - 1; i >= 0 && i >= b.mention-2; i-- {
		u := c.Mentions[i]
		if u.Sentence != m.Sentence || known[i] || u.Entity != caption.MaybePlace || u.End > b.hit.Start {
			continue
		}
		between := strings.ToLower(c.Text[u.End:b.hit.Start])
		for _, w := range campWords {
			rest, ok := strings.CutPrefix(between, " "+w+" ")
			if !ok || len(rest) > 20 {
				continue
			}
			for _, rel := range []string{"near ", "in ", "at ", "outside ", "of ", "close to ", "on the outskirts of "} {
				if strings.HasPrefix(rest, rel) {
					return fallback(u.Text + " " + c.Text[u.End+1:u.End+1+len(w)])
				}
			}
		}
	}
	return 1
}

// campAfter reports whether a camp word follows a name right away: "Azaz
// Camp", "the Ain Issa refugee camp".
func campAfter(rest string) bool {
	for _, w := range campWords[:3] {
		if len(rest) > len(w) && rest[0] == ' ' && strings.EqualFold(rest[1:1+len(w)], w) && (len(rest) == len(w)+1 || !isLetter(rest[1+len(w)])) {
			return true
		}
	}
	return false
}

// unnamedCampBefore reports whether the text before a name ends with a
// camp the caption names only by its noun, near the place: "at a refugee
// camp on the border with Turkey, near" (Azaz), "a makeshift camp
// outside".
func unnamedCampBefore(before string) bool {
	low := strings.ToLower(before[max(0, len(before)-90):])
	at := max(strings.LastIndex(low, " camp "), strings.LastIndex(low, " camps "))
	if at < 0 || strings.ContainsAny(low[at:], ".;") {
		return false
	}
	rest := low[at:]
	// (A camp "in" a town is in it: "a refugee camp in Zardana".)
	if !strings.HasSuffix(rest, " near ") && !strings.HasSuffix(rest, " outside ") &&
		!strings.HasSuffix(rest, " on the outskirts of ") && !strings.HasSuffix(rest, " close to ") {
		return false
	}
	// "a camp", "a refugee camp", "a makeshift displacement camp".
	words := strings.Fields(low[:at])
	for k := len(words) - 1; k >= 0 && k >= len(words)-3; k-- {
		if words[k] == "a" || words[k] == "an" {
			return true
		}
	}
	return false
}

// crossingAfter reports whether the words after a name make it a border
// crossing's: "border crossing", "border gate", "crossing point", "crossing".
func crossingAfter(rest string) bool {
	for _, w := range []string{" border crossing", " border gate", " crossing point", " crossing", " border post"} {
		if len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) && (len(rest) == len(w) || !isLetter(rest[len(w)])) {
			return true
		}
	}
	return false
}

// heldByMention reports whether p is held by the best reading, or by
// another likely reading of the same name of a larger kind than p: "the
// Shayrat air base in Homs" is in Homs the governorate, though the city is
// the likelier Homs; "Quneitra, on the Syrian side of the Golan Heights"
// is not in the Golan region, which the governorate also holds.
func (gc *Geocoder) heldByMention(cands []candidate, best candidate, p *gazetteer.Place) bool {
	if gc.contains(best.hit.Place, p) {
		return true
	}
	for _, q := range cands {
		if q.mention == best.mention && q.base >= 0.3*best.base && !q.far && specificity(p.Kind) < specificity(best.hit.Place.Kind) &&
			gc.contains(q.hit.Place, p) {
			return true
		}
	}
	return false
}

// walkToSpecific walks from candidate 0 to a more specific one as long as
// one is held by the current best (moreSpecific), and returns where it
// stops. Each step goes to a candidate never chosen before, so the walk
// ends even where holding runs in a circle (al-Fu'ah and Kafriya, 3 km
// apart, each once held the other).
func walkToSpecific(n int, moreSpecific func(best, i int) bool) int {
	best := 0
	chosen := map[int]bool{0: true}
	for again := true; again; {
		again = false
		for i := range n {
			if !chosen[i] && moreSpecific(best, i) {
				best, again = i, true
				chosen[i] = true
				break
			}
		}
	}
	return best
}

// moreSpecific reports whether candidate i is a more specific answer than
// best: a place held by it, named where the photo was ("Bustan Pasha
// neighborhood of Aleppo").
func (gc *Geocoder) moreSpecific(c caption.Caption, cands []candidate, best, i int) bool {
	p, b := cands[i], cands[best]
	m := c.Mentions[p.mention]
	// A piece of a longer name ("Burj" of Burj al-Khasad) is not the more
	// specific place: the whole name is unknown.
	return p.whole && p.mention != b.mention && m.Sentence == 0 &&
		(!m.Subordinate || c.Mentions[b.mention].Subordinate) &&
		!designatedOther(c, cands, i) &&
		(p.base >= 0.3 && p.score >= 0.35*b.score || qualifies(c, b.mention, p.mention)) &&
		(gc.heldByMention(cands, b, p.hit.Place) || gc.statedHolder(c, b, p))
}

// statedRegionRadius is how far from a region's point a place the caption
// says it holds may lie: regions are vague and long (the Beqaa valley is
// 120 km), and here the caption itself asserts the holding. A province
// abroad, which the gazetteer may know only by its capital, holds what
// lies within statedProvinceRadius of it.
const (
	statedRegionRadius   = 80000
	statedProvinceRadius = 150000
	// statedSuburbRadius is how far from a city a town the caption calls
	// its neighbourhood may lie (Douma is 13 km from Damascus).
	statedSuburbRadius = 30000
)

// sameGovernorate reports whether p and q lie in the same governorate.
func sameGovernorate(gc *Geocoder, p, q *gazetteer.Place) bool {
	gp := gc.g.GovernorateOf(p)
	return gp != nil && gp == gc.g.GovernorateOf(q)
}

// isQuarter reports whether a designator calls a place a part of a city.
func isQuarter(d string) bool { return d == "neighbourhood" || d == "district" }

// statedHolder reports whether the caption names best right after
// candidate p as what holds it and p lies where that can be true: a
// region ("Majdal Anjar, in Lebanon's Bekaa valley"), or a province
// abroad read as its capital ("the Yayladagi refugee camp in Hatay
// province", Hatay being Antakya), in the same country and near enough.
func (gc *Geocoder) statedHolder(c caption.Caption, best, p candidate) bool {
	r, q := best.hit.Place, p.hit.Place
	if nextHolder(c, p.mention) != best.mention || !r.Located || !q.Located || r.Country != q.Country {
		return false
	}
	if d := c.Mentions[p.mention].Designator; r.Kind == gazetteer.City && q.Kind.Populated() && (isQuarter(d) || d == "town" || d == "village" || d == "city") {
		// "the Douma neighborhood of Damascus", "in al-Bab town of
		// Aleppo", "مدينة الباب بحلب": the town named is meant, whatever its kind, when it
		// is near the city or in the governorate named after it.
		return within(r.Point, q.Point, statedSuburbRadius) || sameGovernorate(gc, q, r)
	}
	if specificity(q.Kind) >= specificity(r.Kind) {
		return false
	}
	switch {
	case r.Kind == gazetteer.Region:
		return within(r.Point, q.Point, statedRegionRadius)
	case isArea(c.Mentions[best.mention].Designator) && r.Country != "SY":
		return within(r.Point, q.Point, statedProvinceRadius)
	}
	return false
}

// designatedOther reports whether cands[i]'s name has another reading of
// the kind the caption says it is: "the Oncupinar border crossing" is the
// crossing, not Tipil, the village also called Oncupinar.
func designatedOther(c caption.Caption, cands []candidate, i int) bool {
	want := map[string]gazetteer.Kind{"camp": gazetteer.Camp, "crossing": gazetteer.Crossing}[c.Mentions[cands[i].mention].Designator]
	if want == "" || cands[i].hit.Place.Kind == want {
		return false
	}
	for _, q := range cands {
		// (Not a loose spelling of a camp far off: "the Helle refugee
		// camp in Idlib province" is no al-Hol camp.)
		if q.mention == cands[i].mention && q.hit.Place.Kind == want && !q.far {
			return true
		}
	}
	return false
}

// relationFallback places a photo whose best reading the caption's stated
// relation contradicts at the governorate of the place the relation names
// ("X, north of Manbij": Aleppo governorate), or the place itself when it
// has none.
func (gc *Geocoder) relationFallback(c caption.Caption, cands []candidate, b candidate) (Result, bool) {
	ref, _, _ := directionFrom(c, b.mention)
	q := bestReading(cands, ref)
	if q == nil {
		return Result{}, false
	}
	at := q.hit.Place
	if gov := gc.g.GovernorateOf(at); gov != nil {
		at = gov
	}
	name := c.Text[b.hit.Start:b.hit.End]
	return Result{Place: at, Precision: Fallback, Mention: name, Confidence: 0.4,
		Note: "the " + b.hit.Place.Name + " the gazetteer knows is not where the caption puts " + name + " (" +
			strings.TrimSpace(c.Text[c.Mentions[b.mention].End:c.Mentions[ref].End]) + "); placed at " + at.Name}, true
}

// sameNamedGovernorate returns the governorate of the city p when the
// mention that named p reads as the governorate too (Idlib, Hama, Raqqa …)
// and does not put the photo near the city.
func (gc *Geocoder) sameNamedGovernorate(m caption.Mention, mention int, p *gazetteer.Place, cands []candidate) *gazetteer.Place {
	if p.Kind != gazetteer.City || m.Cue == "near" || m.Designator == "city" || m.Designator == "outskirts" {
		return nil
	}
	gov := gc.g.GovernorateOf(p)
	if gov == nil {
		return nil
	}
	for _, o := range cands {
		if o.mention == mention && o.hit.Place == gov {
			return gov
		}
	}
	return nil
}

// near reports whether two places are close enough (25 km) that naming
// both is context, not a choice between them.
func near(p, q *gazetteer.Place) bool {
	return p.Located && q.Located && within(p.Point, q.Point, 25000)
}

// located returns p's nearest ancestor that has a point, or nil.
func (gc *Geocoder) located(p *gazetteer.Place) *gazetteer.Place {
	for depth := 0; p != nil && depth < 8; depth++ {
		if p.Located {
			return p
		}
		if p.Parent == "" {
			return nil
		}
		p = gc.g.ByID(p.Parent)
	}
	return nil
}

// alternatives lists up to three other places among cands, best first,
// their scores scaled so that the chosen one's would be conf.
func alternatives(c caption.Caption, cands []candidate, conf float64, best int, bestScore float64) []Alternative {
	var out []Alternative
	seen := map[string]bool{}
	if best >= 0 {
		seen[cands[best].hit.Place.ID] = true
	}
	for i, o := range cands {
		if i == best || seen[o.hit.Place.ID] || len(out) == 3 {
			continue
		}
		seen[o.hit.Place.ID] = true
		score := o.score / bestScore
		if best >= 0 {
			score *= conf
		}
		out = append(out, Alternative{Place: o.hit.Place, Score: round2(math.Min(0.99, score)), Mention: c.Text[o.hit.Start:o.hit.End]})
	}
	return out
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// qualifies reports whether mention h only says where mention i is: named
// right after it as its holder ("towards the city of Manbij, Aleppo
// governorate"). Then i is the answer in whatever role, unless it is where
// people came from.
func qualifies(c caption.Caption, h, i int) bool {
	return nextHolder(c, i) == h && c.Mentions[h].Role == caption.Context && c.Mentions[i].Role != caption.Origin
}

// namedHolder returns the best located reading of the name the caption
// puts right after mention i as what holds it ("X in Y", "X, Y"), or nil.
func namedHolder(c caption.Caption, cands []candidate, i int) *gazetteer.Place {
	h := nextHolder(c, i)
	if h < 0 {
		return nil
	}
	var best *candidate
	for j := range cands {
		// A reading of the whole name, not of a piece of it.
		if q := &cands[j]; q.mention == h && q.whole && q.hit.Place.Located && !q.far && (best == nil || q.score > best.score) {
			best = q
		}
	}
	if best == nil {
		return nil
	}
	return best.hit.Place
}

// countryName names a country by its code, elsewhere as another country.
func countryName(code string) string {
	if code == elsewhere {
		return "another country"
	}
	return lexicon.CountryNames[code]
}
