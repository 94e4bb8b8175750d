package caption

import (
	"strings"
	"unicode/utf8"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// Role says how a place mention relates to where the photo was taken.
type Role string

// The roles of a place mention.
const (
	// Where: governed by a locative cue (in, at, near, outside, the
	// neighbourhood of …): the camera was there or close by.
	Where Role = "where"
	// Context: named without a cue, as an apposition ("Douma, eastern
	// Ghouta") or a sentence's subject.
	Context Role = "context"
	// Origin: where people came from ("fled Raqqa", "displaced from").
	Origin Role = "origin"
	// Target: where something was aimed or headed ("shelling of",
	// "heading to").
	Target Role = "target"
)

// Entity says what a capitalised name is, when the words around it show it
// is not a place.
type Entity string

// The entities a name can be told apart as.
const (
	MaybePlace   Entity = ""
	Person       Entity = "person"
	Organisation Entity = "organisation"
	Event        Entity = "event"
	Quoted       Entity = "quoted" // a title or slogan in quotes: “I Love Damascus”
	Country      Entity = "country"
	// Nationality: a demonym used as a name ("Syrian", "Kurdish").
	Nationality Entity = "nationality"
	// Modifier: the first half of a compound adjective ("a UN-supervised
	// checkpoint", "US-led strikes", "an Idlib-based group").
	Modifier Entity = "modifier"
	// Residents: the adjective of a city's people ("حلبيون", Aleppans;
	// "أسرة حمصية", a Homs family); Mention.Of names the city.
	Residents Entity = "residents"
)

// Mention is a run of capitalised words that may name a place, with what
// the sentence says of it.
type Mention struct {
	Text       string
	Start, End int // byte offsets in the caption
	Sentence   int // 0 for the first sentence, which describes the photo
	// Cue is the word that governs the mention: "in", "at", "near",
	// "from", "fled", "to", "shelling" …, or "" for none.
	Cue string
	// Designator is the noun that says what the place is: "city", "town",
	// "village", "neighbourhood", "district", "province", "governorate",
	// "countryside", "suburbs", "outskirts", "camp", "capital", "north" …
	// ("" for none), from "the town of X" or "X province".
	Designator string
	Role       Role
	Entity     Entity
	// Possessive is true for "Aleppo's" in "Aleppo's Salaheddine district".
	Possessive bool
	// Of is the name of the city whose people a Residents mention names,
	// as the gazetteer spells it ("حلب" for "حلبيون"); "" otherwise.
	Of string
	// Subordinate is true for a name in a clause that tells what happened
	// before the photo ("a woman cries in Idlib after an attack in Khan
	// Sheikhoun"): it follows "after" or "following" in its sentence, or
	// "killed", "wounded" in its clause.
	Subordinate bool
}

// hurtWords begin a clause that tells where people were killed or hurt.
var hurtWords = map[string]bool{"killed": true, "wounded": true, "injured": true, "died": true}

// hurtNext are the words after one of hurtWords that make it a clause
// ("killed in", "killed during clashes") rather than an adjective ("a
// wounded man").
var hurtNext = map[string]bool{"in": true, "during": true, "by": true, "on": true, "at": true, "when": true, "fighting": true}

// findMentions returns the runs of capitalised words outside the skipped
// tokens (the credit and the dates), with their cues and roles.
func findMentions(text string, toks []token, skip func(int) bool, dst []Mention) []Mention {
	cl := clause{after: -1}
	for i := 0; i < len(toks); i++ {
		cl.see(toks, i)
		if skip(i) || !startsName(&toks[i]) || i > 0 && quarterOf(toks, i) && toks[i-1].kind == tWord {
			continue
		}
		end := nameEnd(toks, i, skip)
		if notAName(toks, i, end) {
			i = max(i, monthEnd(toks, i, end))
			continue
		}
		i = skipLeading(toks, i, end)
		m := mentionAt(text, toks, i, end)
		m.Subordinate = cl.after == toks[i].sentence || cl.hurt
		shareRole(text, toks, i, end, &m, dst)
		dst = append(dst, m)
		i = end
	}
	return dst
}

// clause follows, as findMentions walks the tokens, what makes a name
// subordinate to the sentence's main place.
type clause struct {
	after int // the sentence in which "after" or "following" was last seen, -1 none
	// hurt: "fighters killed in Kobani, at a cemetery in Suruc" — a
	// clause that tells where someone was killed or wounded lasts to its
	// comma.
	hurt bool
}

func (cl *clause) see(toks []token, i int) {
	t := &toks[i]
	if w := t.lower; t.kind == tWord && (w == "after" || w == "following") {
		cl.after = t.sentence
	}
	if t.kind == tWord && hurtWords[t.lower] && i+1 < len(toks) && hurtNext[toks[i+1].lower] {
		cl.hurt = true
	} else if t.kind == tPunct && t.text != "-" && t.text != "(" && t.text != ")" || i > 0 && t.sentence != toks[i-1].sentence {
		// A bracket goes on with the clause: "killed in battles with
		// the Islamic State group (IS) in Manbij".
		cl.hurt = false
	}
}

// notAName reports whether the capitalised run toks[i..end] is no name:
// an adverb that opens a sentence ("2013: Nearly four years into …"), or
// a month and its day ("ISTANBUL, TURKEY - MARCH 15:", "SEPT. 3").
func notAName(toks []token, i, end int) bool {
	if end == i && (i == 0 || toks[i-1].sentence != toks[i].sentence || toks[i-1].is(":")) && len(toks[i].lower) > 4 && strings.HasSuffix(toks[i].lower, "ly") {
		return true
	}
	return monthEnd(toks, i, end) >= 0
}

// monthEnd returns end when toks[i] is a month followed by its day, and
// -1 otherwise.
func monthEnd(toks []token, i, end int) int {
	day := i + 1
	if !monthWord(toks[i].lower) || day >= len(toks) {
		return -1
	}
	if toks[day].is(".") && day+1 < len(toks) {
		day++
	}
	if toks[day].kind == tNumber {
		return end
	}
	return -1
}

// skipLeading returns where the name of the run toks[i..end] starts: "A
// Syrian", "The Old City" — a capitalised function word at the start of
// a sentence is not part of the name after it, nor is a title
// ("President Bashar al-Assad").
func skipLeading(toks []token, i, end int) int {
	if end > i && toks[i].has(lexLeading|lexPerson) {
		i++
		for i < end && !startsName(&toks[i]) {
			i++
		}
	}
	return i
}

// mentionAt is the mention of the name toks[i..end]: its span and text,
// whether it is a possessive, and a modifier ("Kurdish-majority").
func mentionAt(text string, toks []token, i, end int) Mention {
	m := Mention{Start: toks[i].start, End: toks[end].end, Sentence: toks[i].sentence, Role: Context}
	// "al-Hol", "ash-Shaar": a lower-case article joined by a hyphen
	// belongs to the name.
	if i >= 2 && toks[i-1].is("-") && !toks[i-1].space && !toks[i].space && toks[i-2].kind == tWord &&
		toks[i-2].has(lexConnector) && !toks[i-2].upper() && len(toks[i-2].text) <= 3 {
		m.Start = toks[i-2].start
	}
	last := &toks[end]
	if w, ok := cutPossessive(last.text); ok {
		m.End -= len(last.text) - len(w)
		m.Possessive = true
	} else if n := end + 1; n < len(toks) && isApostropheTok(&toks[n]) && !toks[n].space && strings.HasSuffix(last.lower, "s") &&
		(n+1 == len(toks) || toks[n+1].space) {
		m.Possessive = true // Homs' Khalidiya district
	}
	m.Text = text[m.Start:m.End]
	if n := end + 2; n < len(toks) && toks[end+1].is("-") && !toks[end+1].space && !toks[n].space &&
		toks[n].kind == tWord && !startsName(&toks[n]) && !toks[n].has(lexConnector) {
		m.Entity = Modifier
	}
	return m
}

// shareRole fills in m's cue, designator, role and entity (describe),
// and takes the role of the name before it where the caption shares it.
func shareRole(text string, toks []token, i, end int, m *Mention, dst []Mention) {
	if describe(toks, i, end, m) && len(dst) > 0 && dst[len(dst)-1].Role == Where {
		m.Role, m.Cue = Where, dst[len(dst)-1].Cue
	}
	// "evacuated from Ratain village, at a field hospital near the
	// village": the place left is where the photo is, after all.
	if m.Role == Origin {
		if cue, ok := referredBack(toks, end, m.Designator); ok {
			m.Role, m.Cue = Where, cue
		}
	}
	// "evacuated from Foua and Kefraya in the northwestern province of
	// Idlib": the province holds the places left, and is left with them.
	if prev := len(dst) - 1; m.Role == Where && m.Cue == "in" && prev >= 0 && dst[prev].Role == Origin &&
		dst[prev].Entity == MaybePlace && dst[prev].Sentence == m.Sentence && holderPhrase(text[dst[prev].End:m.Start]) {
		m.Role, m.Cue = Origin, dst[prev].Cue
	}
	// "evacuated from Fouaa and Kefraya": the second name shares the
	// first one's cue.
	if prev := len(dst) - 1; m.Cue == "" && prev >= 0 && dst[prev].Cue != "" && dst[prev].Entity == MaybePlace &&
		dst[prev].Sentence == m.Sentence && coordinated(text[dst[prev].End:m.Start]) {
		m.Cue, m.Role = dst[prev].Cue, dst[prev].Role
	}
}

// holderWords may stand between a place and the area that holds it: "in
// the mainly rebel-held northwestern province of".
var holderWords = map[string]bool{"in": true, "the": true, "of": true, "mainly": true, "largely": true,
	"province": true, "governorate": true, "countryside": true, "region": true, "district": true,
	"northern": true, "southern": true, "eastern": true, "western": true, "northwestern": true,
	"northeastern": true, "southwestern": true, "southeastern": true, "central": true, "nearby": true}

// holderPhrase reports whether between, the text from one name to the
// next, only places the second around the first: " in the northwestern
// province of ", with no verb, comma or other word ("arrive in" is not).
func holderPhrase(between string) bool {
	words := strings.Fields(strings.ToLower(between))
	if len(words) == 0 || words[0] != "in" {
		return false
	}
	for _, w := range words {
		if !holderWords[w] && !strings.HasSuffix(w, "-held") && !strings.HasSuffix(w, "-controlled") {
			return false
		}
	}
	return true
}

// referredBack reports whether the rest of the sentence after a name
// that ended at token end, of the given designator (village, town, camp,
// city), puts the photo at it again by its noun alone: "near the
// village", "in the camp", before any other name. It returns the
// preposition as the cue.
func referredBack(toks []token, end int, designator string) (string, bool) {
	switch designator {
	case "village", "town", "camp", "city":
	default:
		return "", false
	}
	for k := end + 1; k+2 < len(toks) && toks[k].sentence == toks[end].sentence; k++ {
		if startsName(&toks[k]) {
			return "", false
		}
		switch toks[k].lower {
		case "near", "in", "at", "outside", "inside", "into":
		default:
			continue
		}
		if toks[k+1].lower != "the" || toks[k+2].lower != designator {
			continue
		}
		if n := k + 3; n < len(toks) && (toks[n].lower == "of" || startsName(&toks[n])) {
			continue // "near the village of Sifat", "in the town Hardatain"
		}
		return toks[k].lower, true
	}
	return "", false
}

// coordinated reports whether the text between two names joins them as
// one list: "and", "or", "&".
func coordinated(between string) bool {
	switch strings.TrimSpace(between) {
	case "and", "or", "&":
		return true
	}
	return false
}

// joinsNext reports whether toks[k], after the name's token end, is a
// hyphen or apostrophe inside the name (al-Ain, Ma'arrat, and "Al-
// Thawrah" with a space typed after the article's hyphen).
func joinsNext(toks []token, k, end int) bool {
	t := &toks[k]
	glued := t.kind == tPunct && (t.text == "-" || isApostropheTok(t)) && !t.space && k+1 < len(toks) && !toks[k+1].space
	return glued || articleHyphen(toks, k, end)
}

// articleHyphen reports whether toks[k] is the hyphen of the article that
// ends the name at end, a space typed after it before the next word of the
// name: "Raqqa's Al- Thawrah district".
func articleHyphen(toks []token, k, end int) bool {
	t := &toks[k]
	return t.is("-") && !t.space && k == end+1 && k+1 < len(toks) && startsName(&toks[k+1]) && isArticleTok(&toks[end])
}

// isArticleTok reports whether t is the Arabic article as the press
// writes it before a hyphen: Al, al, El, el, Ash, As, Ad, Az, Ar, At, An.
func isArticleTok(t *token) bool {
	switch t.lower {
	case "al", "el", "ash", "as", "ad", "az", "ar", "at", "an":
		return true
	}
	return false
}

func startsName(t *token) bool {
	if t.kind != tWord {
		return false
	}
	if t.upper() {
		return true
	}
	r, _ := utf8.DecodeRuneInString(t.text)
	return r >= 0x0600 && r <= 0x06FF // Arabic script has no capitals
}

// nameEnd returns the index of the last token of the name that starts at i.
func nameEnd(toks []token, i int, skip func(int) bool) int {
	end := i
	for k := i + 1; k < len(toks) && !skip(k); k++ {
		if _, ok := cutPossessive(toks[end].text); ok {
			break
		}
		t := &toks[k]
		switch {
		case splitsName(toks, k):
			return end
		case startsName(t) && (t.space || toks[k-1].is("-") || isApostropheTok(&toks[k-1])):
			end = k
		case joinsNext(toks, k, end):
			// al-Ain, Ma'arrat: the next word belongs to the name
		case t.kind == tWord && t.has(lexConnector) && k+1 < len(toks):
			// "into Turkey at Akcakale border gate": a country's name ends
			// before a word that is a connector only in Arabic names.
			if !connects(toks, k) || end == i && isCountryWord(toks[end].lower) {
				return end
			}
		case t.kind == tWord && toks[k-1].is("-") && !t.space && !toks[k-1].space && toks[k-2].has(lexConnector):
			// Jaish al-islam, Bab al-hawa: lower-case after an article's
			// hyphen is inside a name; in "Kurdish-majority" it is not.
			end = k
		case t.kind == tNumber && t.space && t.digits <= 3 && k == end+1:
			end = k // Sham 2, Mezzeh 86
			return end
		default:
			return end
		}
	}
	return end
}

// splitsName reports whether toks[k] begins another name though it
// follows one: "Amiriyah District of Aleppo" is two places, not one name,
// and in "Aleppo Syria on December 15" the country is a name of its own.
func splitsName(toks []token, k int) bool {
	t := &toks[k]
	return quarterOf(toks, k) || t.kind == tWord && t.space && isCountryWord(t.lower)
}

// connects reports whether the connector at toks[k] (of, al, bin …) is
// inside a name: a name word follows it ("Ras al-Ain", "Jaish al-islam").
func connects(toks []token, k int) bool {
	n := k + 1
	if toks[n].is("-") && n+1 < len(toks) {
		n++
	}
	return startsName(&toks[n]) || toks[k+1].is("-") && toks[n].kind == tWord
}

// quarterOf reports whether toks[k] is a capitalised word calling the
// name before it a part of the city named after "of": "Amiriyah District
// of Aleppo", "Bustan al-Qasr Neighbourhood of Aleppo".
func quarterOf(toks []token, k int) bool {
	t := &toks[k]
	if t.kind != tWord || !t.upper() || k+2 >= len(toks) || toks[k+1].lower != "of" || !startsName(&toks[k+2]) {
		return false
	}
	d := designators[t.lower]
	return d == "neighbourhood" && t.lower != "old" || d == "district"
}

// isCountryWord reports whether a lower-case word is a country's name by
// itself ("syria", "turkey").
func isCountryWord(w string) bool {
	_, ok := lexicon.Countries[w]
	return ok
}

func isApostropheTok(t *token) bool {
	r, _ := utf8.DecodeRuneInString(t.text)
	return t.kind == tPunct && isApostrophe(r)
}

// cutPossessive drops an English possessive: Aleppo's → Aleppo.
func cutPossessive(w string) (string, bool) {
	for _, s := range [...]string{"'s", "’s"} {
		if strings.HasSuffix(w, s) && utf8.RuneCountInString(w) > 4 {
			return w[:len(w)-len(s)], true
		}
	}
	return w, false
}

// describe fills in a mention's cue, designator, role and entity from the
// words around tokens i..end.
//
// It returns true when the mention is the object of "<Name> <designator> of"
// ("the Damascus suburb of Irbin", "the Bab al-Hadid neighbourhood of
// Aleppo"): it then shares the cue of the name before it.
func describe(toks []token, i, end int, m *Mention) (sharesCue bool) {
	entityOf(toks, i, end, m)
	designatorAfter(toks, end, m)
	// A dateline: "ALEPPO, SYRIA - DECEMBER 13: …" says where the photo
	// was taken.
	if i == 0 && toks[i].allCaps() && end+1 < len(toks) && toks[end+1].is(",") {
		m.Cue, m.Role = "dateline", Where
		return false
	}
	sharesCue = cueBefore(toks, i, m)
	// "the village of Doha": a small place's designator makes a city
	// abroad's name a Syrian place after all.
	if m.Entity == Country && (m.Designator == "village" || m.Designator == "neighbourhood") {
		if _, ok := lexicon.PlacesAbroad[strings.ToLower(m.Text)]; ok {
			m.Entity = MaybePlace
		}
	}
	return sharesCue
}

// compoundOfNations reports whether a lower-case hyphenated name joins
// only countries and their adjectives ("syrian-turkish", "israel-syria",
// "arab-kurdish"): it qualifies a border or an alliance, and is no place.
func compoundOfNations(low string) bool {
	if !strings.Contains(low, "-") {
		return false
	}
	for p := range strings.SplitSeq(low, "-") {
		_, country := lexicon.Countries[p]
		_, nation := lexicon.Nationalities[p]
		if !country && !nation {
			return false
		}
	}
	return true
}

// inStateName reports whether the country at toks[i] is part of the name
// of the Islamic State's earlier names ("the Islamic State in Iraq and the
// Levant", "of Iraq and Syria"), which say nothing of where a photo is.
func inStateName(toks []token, i int) bool {
	stateOf := func(k int) bool {
		return k >= 1 && toks[k-1].lower == "state" && (toks[k].lower == "in" || toks[k].lower == "of")
	}
	return stateOf(i-1) || i >= 4 && toks[i-1].lower == "and" && stateOf(i-3)
}

// entityOf says what kind of thing the name at tokens i..end is, from its
// words and what follows it: an organisation, an event, a country, a
// nationality, a quoted name, a person given an age, a unit.
func entityOf(toks []token, i, end int, m *Mention) {
	for k := i; k <= end; k++ {
		switch t := &toks[k]; {
		case t.has(lexOrganisation):
			m.Entity = Organisation
		case t.has(lexEvent) && m.Entity == MaybePlace:
			m.Entity = Event
		}
	}
	var buf [32]byte
	low := appendLower(buf[:0], m.Text)
	if _, ok := lexicon.Countries[string(low)]; ok {
		m.Entity = Country
	} else if _, ok := lexicon.PlacesAbroad[string(low)]; ok {
		m.Entity = Country // a city abroad says its country: "in Ankara"
	} else if _, ok := lexicon.Nationalities[string(low)]; ok {
		m.Entity = Nationality
	} else if compoundOfNations(string(low)) {
		m.Entity = Nationality // "the Syrian-Turkish border", "the Israel-Syria line"
	}
	if m.Entity == Country && inStateName(toks, i) {
		m.Entity = Organisation
	}
	// In quotes.
	if i > 0 && quoteOpen[toks[i-1].text] {
		for k := end + 1; k < len(toks) && k <= end+2; k++ {
			if quoteClose[toks[k].text] {
				m.Entity = Quoted
				break
			}
		}
	}
	// Followed by an age: "Hassan Youssef, 27,".
	if end+3 < len(toks) && toks[end+1].is(",") && toks[end+2].kind == tNumber && toks[end+2].digits <= 3 &&
		toks[end+2].num < 120 && (toks[end+3].is(",") || toks[end+3].is(")")) {
		m.Entity = Person
	}
	if namesPerson(toks, i, end) {
		m.Entity = Person
	}
	// A unit's name: "the al-Sultan Murad brigade", "the Hamza division".
	if k := end + 1; k < len(toks) && toks[k].kind == tWord && !toks[k].upper() && unitWords[toks[k].lower] {
		m.Entity = Organisation
	}
}

// namesPerson reports whether the name toks[i..end], opening its
// sentence, is a person's by what follows it: an appositive that says
// who ("Saad, a teen from Raqqa,", "Umm Ahmad, a mother of four") or
// kin with them ("Basi with his son"). A place's appositive says what
// it is ("Kobani, a Kurdish town"), never one of these.
func namesPerson(toks []token, i, end int) bool {
	if i > 0 && toks[i-1].sentence == toks[i].sentence || end+2 >= len(toks) {
		return false
	}
	next := &toks[end+1]
	switch {
	case next.is(",") && (toks[end+2].lower == "a" || toks[end+2].lower == "an"):
		// a few words before the noun: "a 15-year-old Syrian boy"; not
		// one that names a place after it: "a refugee camp"
		for k := end + 3; k < len(toks) && k <= end+9 && (toks[k].kind != tPunct || toks[k].is("-")); k++ {
			if toks[k].has(lexDesignator) && !toks[k-1].is("-") { // "year-old" is no old quarter
				return false
			}
			if personNouns[toks[k].lower] {
				return k+1 >= len(toks) || !toks[k+1].has(lexDesignator)
			}
		}
	case next.lower == "with":
		k := end + 2
		if k < len(toks) && (toks[k].lower == "his" || toks[k].lower == "her" || toks[k].lower == "their") {
			k++
		}
		return k < len(toks) && kinNouns[toks[k].lower]
	}
	return false
}

// designatorAfter reads the kind of place the words after the name give
// it: "Kafranbel town", "Ras al-Ain province", "Idlib's northern
// countryside" (the area is the possessor's), "al-Hol displaced persons
// camp", "the Oncupinar border crossing".
func designatorAfter(toks []token, end int, m *Mention) {
	if k := end + 1; k < len(toks) && toks[k].has(lexDesignator) {
		if d, ok := designators[toks[k].lower]; ok && (!toks[k].upper() || d == "province" || d == "governorate" || d == "countryside" || d == "city" || quarterOf(toks, k)) {
			m.Designator = d
		}
	}
	if m.Possessive && m.Designator == "" {
		for k := end + 1; k < len(toks) && k <= end+3 && toks[k].kind == tWord && !toks[k].upper(); k++ {
			if d := designators[toks[k].lower]; d == "countryside" || d == "suburbs" || d == "outskirts" || d == "province" {
				m.Designator = d
				break
			}
			if !toks[k].has(lexPassOver) {
				break
			}
		}
	}
	for k := end + 1; k < len(toks) && k <= end+4 && (m.Designator == "" || m.Designator == "border"); k++ {
		if toks[k].kind != tWord && !toks[k].is("-") {
			break
		}
		if w := toks[k].lower; w == "camp" || w == "crossing" {
			m.Designator = w
		}
	}
}

// cueBefore looks back from the name at toks[i], over at most nine words,
// for the word that says what the caption does with the place (see
// cueWord), and for a designator before it ("the town of"). It returns
// true when the name is the object of "<Name> <designator> of": it then
// shares the cue of the name before it.
func cueBefore(toks []token, i int, m *Mention) (sharesCue bool) {
	words := 0
	sawOf, sawDesignator := false, false
	for k := i - 1; k >= 0 && words < 9; k-- {
		t := &toks[k]
		if t.kind == tPunct {
			if t.text == "-" || isApostropheTok(t) || quoteOpen[t.text] && k == i-1 {
				continue
			}
			break
		}
		if t.kind == tNumber {
			break
		}
		words++
		w := t.lower
		// "In Homs, capital of …": a cue that begins a sentence is
		// capitalised too.
		opens := (k == 0 || toks[k-1].sentence != t.sentence) && t.has(lexWhere|lexOrigin|lexTarget)
		if t.upper() && !opens {
			if passUpper(t, words, m) {
				continue
			}
			return sawOf && sawDesignator
		}
		sawOf = sawOf || w == "of"
		sawDesignator = sawDesignator || sawOf && t.has(lexDesignator)
		if words == 1 && t.has(lexPerson) {
			m.Entity = Person // "President Bashar al-Assad", "directed by Humam Husari"
		}
		if t.has(lexDesignator) && m.Designator == "" && !(w == "old" && words > 1) {
			m.Designator = designators[w]
		}
		switch cueWord(toks, k, words, m) {
		case cueFound:
			return false
		case cuePassed:
			continue
		}
		// Another word: the name is not in a locative phrase we know.
		if words > 2 {
			return false
		}
	}
	return false
}

// passUpper reports whether the look back for a name's cue passes over
// the capitalised word t, the words-th before it: a word such as "Syrian"
// ("the Syrian town of"), or a possessive right before ("Aleppo's
// Salaheddine district"). A title right before makes the name a person's.
func passUpper(t *token, words int, m *Mention) bool {
	if words == 1 && t.has(lexPerson) {
		m.Entity = Person
	}
	if t.has(lexPassOverUpper) {
		return true
	}
	_, possessive := cutPossessive(t.text)
	return possessive && words == 1
}

// cueStep is what a word before a name is to it.
type cueStep int

const (
	cueOther  cueStep = iota // a word that ends the look back after two
	cuePassed                // a word between a cue and the name
	cueFound                 // the cue: m's cue and role are set
)

// cueWord reads the lower-case word toks[k], the words-th before a name,
// as a cue of the name's role: where the photo was ("in", "seen from",
// "smoke rises from", "an airstrike hit"), where people came from or go
// to, or a word that may stand between such a cue and the name.
func cueWord(toks []token, k, words int, m *Mention) cueStep {
	t := &toks[k]
	w := t.lower
	switch {
	case t.has(lexWhere):
		m.Cue, m.Role = w, Where
		// "seen from near the Mursitpinar crossing", "seen from a hill in
		// Tal-Hajeb": the camera is there.
		if k >= 2 && toks[k-1].lower == "from" && toks[k-2].has(lexCamera) || cameraAbove(toks, k) {
			m.Cue = "seen from"
		}
		return cueFound
	case w == "from" && (k >= 1 && toks[k-1].has(lexCamera) || k >= 2 && toks[k-2].has(lexCamera)):
		// "as seen from Ceylanpinar": the camera was there.
		m.Cue, m.Role = "seen from", Where
		return cueFound
	case w == "from" && lookingFrom(toks, k):
		// "looks toward the village of X from the Golan Heights": the one
		// looking, and the camera, are there.
		m.Cue, m.Role = "seen from", Where
		return cueFound
	case w == "from" && (k >= 1 && toks[k-1].has(lexRises) || k >= 2 && toks[k-2].has(lexRises)):
		// "smoke rises from the Tabqa dam": the camera looks at it.
		m.Cue, m.Role = "rises from", Where
		return cueFound
	case t.has(lexOrigin|lexTarget) && attributive(toks, k):
		// "in the recently recaptured Jobar neighbourhood": a participle
		// used as an adjective governs nothing.
		return cuePassed
	case t.has(lexOrigin):
		m.Cue, m.Role = w, Origin
		if stillThere(toks, k) || leftOf(toks, k) {
			m.Role = Where
		}
		return cueFound
	case landedVerbs[w] && !hardHit(toks, k):
		// "after an airstrike hit the town of X": the strike landed in X,
		// and the photo shows what it left there.
		m.Cue, m.Role = w, Where
		return cueFound
	case t.has(lexTarget):
		m.Cue, m.Role = w, Target
		return cueFound
	case t.has(lexPassOver | lexDesignator):
		return cuePassed
	case strings.HasSuffix(w, "ly") || strings.HasSuffix(w, "ed") && words > 1:
		return cuePassed
	}
	return cueOther
}

// cameraAbove reports whether the place word toks[k] follows "seen from"
// and a few lower-case words: "seen from a hill in", "seen from the roof
// of a building in".
func cameraAbove(toks []token, k int) bool {
	for j := k - 1; j >= 1 && j >= k-6; j-- {
		t := &toks[j]
		if t.kind != tWord || t.upper() {
			return false
		}
		if t.lower == "from" {
			return toks[j-1].has(lexCamera)
		}
	}
	return false
}

// leftOf reports whether the origin cue at toks[k] is "left" of what
// remains: "all that is left of the neighbourhood of X" shows X.
func leftOf(toks []token, k int) bool {
	if toks[k].lower != "left" || k+1 >= len(toks) || toks[k+1].lower != "of" || k == 0 {
		return false
	}
	switch toks[k-1].lower {
	case "is", "was", "are", "were", "been", "s":
		return true
	}
	return false
}

// stillThere reports whether the origin cue at toks[k] leaves people where
// they are: "waiting to be evacuated from X", "as they are being
// evacuated from X".
func stillThere(toks []token, k int) bool {
	for j := k - 1; j >= 1 && j >= k-3; j-- {
		if toks[j].lower == "be" && toks[j-1].lower == "to" {
			return true
		}
	}
	if prevWord(toks, k) == "evacuated" && (prevWord(toks, k-1) == "being" || prevWord(toks, k-1) == "are" || prevWord(toks, k-1) == "is") {
		return true
	}
	return evacuationFrom(toks, k)
}

// evacuationFrom reports whether the "from" at toks[k] says where an
// evacuation the photo shows takes place: "overseeing the evacuation of
// fighters and their families in buses, from the town of Douma".
func evacuationFrom(toks []token, k int) bool {
	if toks[k].lower != "from" {
		return false
	}
	for j := k - 1; j >= 0 && j >= k-15 && toks[j].sentence == toks[k].sentence; j-- {
		switch toks[j].lower {
		case "evacuation", "evacuations":
			return true
		case "arrive", "arrives", "arrived", "arriving", "reach", "reached", "after", "following":
			return false
		}
	}
	return false
}

// attributive reports whether the participle at k is used as an
// adjective after an article: "the recaptured town", "the recently
// liberated X".
func attributive(toks []token, k int) bool {
	if w := toks[k].lower; !strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "en") {
		return false // "the shelling of Douma" is a noun's
	}
	j := k - 1
	for j >= 0 && toks[j].kind == tWord && strings.HasSuffix(toks[j].lower, "ly") {
		j--
	}
	return j >= 0 && (toks[j].lower == "the" || toks[j].lower == "a" || toks[j].lower == "an")
}

// hardHit reports whether the "hit" at k is the adjective of "the hard-hit
// town", not a strike's verb.
func hardHit(toks []token, k int) bool {
	j := k - 1
	if j >= 0 && toks[j].text == "-" {
		j--
	}
	return j >= 0 && (toks[j].lower == "hard" || toks[j].lower == "worst" || toks[j].lower == "badly")
}

// prevWord returns the lower-case word just before token k, or "".
func prevWord(toks []token, k int) string {
	if k < 1 || toks[k-1].kind != tWord {
		return ""
	}
	return toks[k-1].lower
}

// lookVerbs are verbs of looking; followed by lookPrepositions they say
// what is looked at, and a "from" after it where the onlooker stands.
var (
	lookVerbs = map[string]bool{"look": true, "looks": true, "looking": true, "looked": true, "gaze": true, "gazes": true,
		"gazing": true, "stare": true, "stares": true, "staring": true, "peer": true, "peers": true, "peering": true,
		"watch": true, "watches": true, "watching": true}
	lookPrepositions = map[string]bool{"toward": true, "towards": true, "at": true, "across": true, "over": true, "into": true, "on": true}
)

// lookingFrom reports whether the "from" at toks[k] closes a look at
// something: "looks toward the Syrian village of X from …", within one
// clause and a few words.
func lookingFrom(toks []token, k int) bool {
	for j := k - 1; j >= 1 && j >= k-10; j-- {
		t := &toks[j]
		if t.kind == tPunct && !t.is("-") && !isApostropheTok(t) {
			return false
		}
		if lookPrepositions[t.lower] && lookVerbs[toks[j-1].lower] {
			return true
		}
	}
	return false
}

// monthWord reports whether a word is a month's name or its abbreviation
// ("march", "sept"), not a misspelling: before a number it is a date.
func monthWord(lower string) bool {
	if len(lower) < 3 {
		return false
	}
	for _, m := range monthNames {
		if strings.HasPrefix(m, strings.TrimSuffix(lower, ".")) {
			return true
		}
	}
	return false
}
