package caption

import (
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// arCues are the words that say a place is where the photo was, folded,
// with the English cue the geocoder weighs them as.
var arCues = map[string]string{
	"في": "in", "داخل": "in", "وسط": "in", "فوق": "over",
	"قرب": "near", "بالقرب": "near", "بجوار": "near", "جوار": "near", "مقربه": "near", "بمحاذاه": "near",
	"محيط": "around", "حول": "around",
	"اطراف": "outskirts", "مشارف": "outskirts", "ضواحي": "outskirts", "تخوم": "outskirts",
}

// arTargets are the words before a place people or fire head to.
var arTargets = map[string]bool{"الى": true, "نحو": true, "باتجاه": true, "صوب": true, "اتجاه": true}

// arOn is "على", on: "غارة على حلب", an airstrike on Aleppo, names a place
// as the English "on" does, without saying the photo was there.
const arOn = "علي"

// arDesignators are the nouns that say what a place is, folded, with the
// English designator: "مدينة" city, "حي" quarter, "ريف" countryside; the
// four directions name a part of the place after them.
var arDesignators = map[string]string{
	"مدينه": "city", "بلده": "town", "قريه": "village", "بلدات": "town", "مدن": "city", "قري": "village",
	"حي": "neighbourhood", "احياء": "neighbourhood", "حاره": "neighbourhood",
	"مخيم": "camp", "مخيمات": "camp", "معبر": "crossing", "بوابه": "crossing", "عبور": "crossing",
	"محافظه": "province", "محافظتي": "province", "ريف": "countryside", "منطقه": "district", "ناحيه": "district",
	"عاصمه": "capital", "سهل": "district", "وادي": "district",
	"شمال": "north", "جنوب": "south", "شرق": "east", "غرب": "west",
	"شمالي": "north", "جنوبي": "south", "شرقي": "east", "غربي": "west",
	"الشماليه": "north", "الجنوبيه": "south", "الشرقيه": "east", "الغربيه": "west",
	"حدود": "border", "الحدود": "border",
}

// arLandmarks are the nouns of a building or site a photo is taken at,
// folded: the name after one is the landmark's city ("متحف الرقة", the
// museum of Raqqa) or its own name ("جامع نور القدس", the Nur al-Quds
// mosque), and the mention takes the designator "landmark". Nouns that
// begin towns' names (جسر الشغور, قلعة المضيق) are left out.
var arLandmarks = map[string]bool{
	"متحف": true, "دوار": true, "ساحة": true, "جامع": true, "مسجد": true, "شارع": true, "مستشفى": true,
	"سوق": true, "مدرسة": true, "جامعة": true, "ملعب": true, "سجن": true, "كنيسة": true,
}

// arOriginWords, a few words before "من", make it "from" where people
// came from: "نازحون من", "فروا من", "خرجوا من".
var arOriginWords = map[string]bool{
	"نزح": true, "نزحت": true, "نزحوا": true, "نازح": true, "نازحون": true, "نازحين": true, "النازحين": true, "النازحون": true,
	"نزوح": true, "النزوح": true, "للنزوح": true, "فر": true, "فروا": true, "فرت": true, "فارين": true, "الفارين": true,
	"فرار": true, "فرارا": true, "هرب": true, "هربوا": true, "هربت": true, "هربا": true, "هاربين": true, "الهاربين": true,
	"خرج": true, "خرجوا": true, "خرجت": true, "المهجرين": true, "مهجرين": true, "تهجير": true, "غادر": true,
	"غادروا": true, "غادرت": true, "القادمين": true, "قادمين": true, "قادمون": true, "اجلاء": true, "اخلاء": true,
	"اجلائهم": true, "وصلوا": true, "وصلت": true,
	"الخروج": true, "خروج": true, "الهروب": true, "هروب": true, "الفرار": true, "المغادرة": true,
}

// arBorderWords are the border and its adjective, folded: the country
// after them and "مع" ("الحدود مع الأردن", "الركبان الحدودي مع
// الأردن") names the border, not where the photo is.
var arBorderWords = map[string]bool{"حدود": true, "الحدود": true, "حدودي": true, "الحدودي": true, "حدوديه": true, "الحدوديه": true}

// arCommonNouns are nouns captions write after a cue that name no place,
// folded: "في الصورة" (in the photo), "على متن" (aboard), "في ظروف" (in
// conditions), "عاصفة" (a storm), "بالبرد" (with the cold), "في أمان"
// (in safety), "في العودة" (in returning), "بحثاً" (seeking), "من المعارك" (from the fighting). Villages are spelled like
// some of them (الصورة, البرد); a designator or quotes still name those.
var arCommonNouns = map[string]bool{
	"الصوره": true, "صوره": true, "متن": true, "ظروف": true, "الظروف": true, "عاصفه": true, "البرد": true,
	"الحياه": true, "حياه": true, "العوده": true, "امان": true, "الامان": true, "بحثا": true,
	"المعارك": true, "معارك": true, "القتال": true, "القصف": true,
}

// arPeopleOf are the nouns of a place's people before its name, folded:
// "أهالي", "سكان", "أبناء", "أهل".
var arPeopleOf = map[string]bool{"اهالي": true, "سكان": true, "ابناء": true, "اهل": true}

// arPeople are the people a camp or shelter is for, folded.
var arPeople = map[string]bool{"اللاجيين": true, "لاجيين": true, "اللاجيون": true, "للاجيين": true, "السوريين": true}

// arCommonNoun reports whether a word is one of arCommonNouns, with a
// particle written onto it or not ("بالبرد").
func arCommonNoun(w arWord) bool {
	r := []rune(w.rest)
	return arCommonNouns[w.rest] || w.particles != "" && len(r) > 1 && arCommonNouns[string(r[1:])]
}

// arStop are words that are no part of a place's name.
var arStop = map[string]bool{
	"و": true, "او": true, "ثم": true, "التي": true, "الذي": true, "الذين": true, "اللتين": true, "على": true, "عن": true,
	"مع": true, "بعد": true, "قبل": true, "حيث": true, "كما": true, "لكن": true, "ان": true, "انه": true, "كان": true,
	"كانت": true, "هذه": true, "هذا": true, "هؤلاء": true, "هولاء": true, "تلك": true, "ذلك": true, "هناك": true,
	"هنا": true, "من": true, "منذ": true, "خلال": true, "بين": true, "ضد": true, "دون": true, "حتي": true, "كل": true,
	"بعض": true, "غير": true, "امام": true, "خلف": true, "تحت": true, "لقد": true, "قد": true, "لا": true,
	"لم": true, "لن": true, "ما": true, "مثل": true, "يوم": true, "امس": true, "اليوم": true, "عام": true, "العام": true,
	"سنه": true, "شهر": true, "اي": true, "ايضا": true, "جراء": true, "اثر": true, "عقب": true,
	"الواقعه": true, "الواقع": true, "التابعه": true, "المحاصره": true, "المحاصر": true,
}

// arWord is a word of an Arabic caption taken apart: the particles
// written onto it (و ف ب ل ك) and what is left, folded.
type arWord struct {
	particles string
	rest      string
}

func splitParticles(fold string) arWord {
	w := arWord{rest: fold}
	for n := 0; n < 2; n++ {
		r := []rune(w.rest)
		if len(r) < 3 || !strings.ContainsRune(lexicon.ArabicParticles, r[0]) {
			break
		}
		next := string(r[1:])
		if known(next) || n == 0 && len(r) > 3 && strings.ContainsRune("بل", r[1]) && known(string(r[2:])) {
			w.particles += string(r[0])
			w.rest = next
			continue
		}
		break
	}
	return w
}

// known reports whether a folded word is a cue, a designator or a stop.
func known(w string) bool {
	_, cue := arCues[w]
	_, des := arDesignators[w]
	_, c := lexicon.ArabicCountries[w]
	return cue || des || arTargets[w] || c || arStop[w] || arBorderWords[w] || arPeopleOf[w] || arLandmark(w) || strings.HasPrefix(w, "ال") && arDesignators[w[len("ال"):]] != ""
}

// arDesignator returns the designator a folded word is ("المدينة" too).
func arDesignator(w string) string {
	if d := arDesignators[w]; d != "" {
		return d
	}
	return arDesignators[strings.TrimPrefix(w, "ال")]
}

// arLandmark reports whether a folded word is one of arLandmarks, with
// or without the article.
func arLandmark(w string) bool { return arLandmarks[w] || arLandmarks[strings.TrimPrefix(w, "ال")] }

// arPhrase is what the words before a name said of it.
type arPhrase struct {
	cue, designator string
	role            Role
}

// Map keys are written as captions write them and folded once, so that
// "إلى" and "الى" are one key.
func init() {
	for _, m := range []map[string]string{arCues, arDesignators} {
		foldKeys(m)
	}
	for _, m := range []map[string]bool{arTargets, arOriginWords, arStop, arLandmarks} {
		foldKeys(m)
	}
	foldKeys(arMonths)
	for k, v := range arTwoWordMonths {
		foldKeys(v)
		delete(arTwoWordMonths, k)
		arTwoWordMonths[lexicon.FoldArabic(k)] = v
	}
	for i := range arAgencies {
		for j, w := range arAgencies[i].words {
			arAgencies[i].words[j] = lexicon.FoldArabic(w)
		}
	}
}

func foldKeys[V any](m map[string]V) {
	for k, v := range m {
		if f := lexicon.FoldArabic(k); f != k {
			delete(m, k)
			m[f] = v
		}
	}
}

// arabicMentions finds the names of an Arabic caption that may be
// places: those a cue or a designator governs ("في حلب", "بلدة «دوما»",
// "بريف إدلب"), written with a particle that is a cue ("بحلب"), in
// guillemets or quotes, and the countries and the adjectives of country
// after a name ("عرسال اللبنانية").
func arabicMentions(text string, toks []arTok) []Mention {
	sc := &arScan{text: text, toks: toks}
	for i := 0; i < len(toks); i++ {
		i = sc.step(i)
	}
	sc.hereFirst()
	return sc.out
}

// arHere is "هنا", here: "وصلوا إلى هنا بحثاً عن ملجأ في مخيم عين
// عيسى", they arrived here seeking shelter in the Ain Issa camp.
const arHere = "هنا"

// arHereMark is a "هنا" of a caption: its sentence and how many
// mentions came before it.
type arHereMark struct{ sentence, mentions, end int }

// hereFirst reads "هنا" as the caption pointing at the photo's place:
// where a place the photo is in follows it in its sentence, the places
// said to be "in" before it there (the city people fled, "الأجواء التي
// نزح منها في مدينة الرقة") are no longer where the photo is.
func (sc *arScan) hereFirst() {
	for _, h := range sc.heres {
		after := false
		for _, m := range sc.out[h.mentions:] {
			after = after || m.Sentence == h.sentence && m.Role == Where && m.Entity == MaybePlace
		}
		if !after {
			continue
		}
		for k := range sc.out[:h.mentions] {
			if m := &sc.out[k]; m.Sentence == h.sentence && m.Role == Where && m.Cue == "in" && m.Entity == MaybePlace && !sc.rightAfterHere(k) {
				m.Role = Context
			}
		}
	}
}

// rightAfterHere reports whether mention k is the first after a "هنا",
// three words from it at most: "هنا في مخيم «المبروكة»" stays the
// photo's place when the caption says "إلى هنا" again later.
func (sc *arScan) rightAfterHere(k int) bool {
	for _, h := range sc.heres {
		if h.mentions == k && len(strings.Fields(sc.text[h.end:sc.out[k].Start])) <= 3 {
			return true
		}
	}
	return false
}

// arScan is arabicMentions' walk over a caption's tokens: what it has
// found, and what the words behind it said.
type arScan struct {
	text string
	toks []arTok
	out  []Mention
	ph   *arPhrase // what the words before said of a name to come
	// quote: inside «…» or "…"; cuedLast: the last name came after a
	// cue or in quotes.
	quote, cuedLast bool
	heres           []arHereMark // the "هنا" read so far
}

// step reads token i and returns the last token it read.
func (sc *arScan) step(i int) int {
	t := &sc.toks[i]
	switch {
	case t.used, t.num >= 0:
		sc.ph = nil
		return i
	case t.punct:
		sc.punct(t.text)
		return i
	}
	w := splitParticles(t.fold)
	if j, ok := sc.person(i); ok {
		return j
	}
	if sc.context(i, w) || sc.phraseWord(i, w) {
		return i
	}
	return sc.name(i, w)
}

// person reads a person's name at token i — a given name of the ruling
// family before الأسد ("نظام بشار الأسد", the regime of Bashar al-Assad) —
// and passes over it: the ruling family's first names are no villages
// (بشار is a village of Idlib too). It returns the last token of the
// name.
func (sc *arScan) person(i int) (int, bool) {
	toks := sc.toks
	// Only the rulers' given names, and not a place named after one
	// ("حي الشهيد باسل الأسد", "ضاحية الأسد"): the name's word is looked
	// up first, as every token of a caption passes here.
	if !arRulerNames[toks[i].fold] || i+1 >= len(toks) || toks[i+1].punct ||
		arFamily != lexicon.FoldArabic(lamAlef.Replace(toks[i+1].fold)) ||
		i > 0 && !toks[i-1].punct && toks[i-1].fold == arMartyr {
		return i, false
	}
	sc.ph = nil
	return i + 1, true
}

// arFamily and arMartyr are الأسد and الشهيد folded; lamAlef writes the
// lam-alef glyphs ("اﻷسد") as their two letters.
var (
	arFamily = lexicon.FoldArabic("الأسد")
	arMartyr = lexicon.FoldArabic("الشهيد")
	lamAlef  = strings.NewReplacer("\ufef7", "لا", "\ufef8", "لا", "\ufefb", "لا", "\ufefc", "لا", "\ufef5", "لا", "\ufef9", "لا")
)

// arRulerNames are the given names of the al-Assad family the war's
// captions name (folded).
var arRulerNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"بشار", "حافظ", "ماهر", "رفعت", "باسل", "أسماء"} {
		m[lexicon.FoldArabic(n)] = true
	}
	return m
}()

// punct follows quotes; a phrase goes on over a slash ("ت2/نوفمبر") only.
func (sc *arScan) punct(p string) {
	switch p {
	case "«", "“":
		sc.quote = true
	case "»", "”":
		sc.quote = false
	case "\"":
		sc.quote = !sc.quote
	case "/":
	default:
		sc.ph = nil
	}
}

// context reads token i when it says where things are without being a
// place to put the photo at: a country or an adjective of country, the
// people of a city, a place abroad the gazetteer lacks.
func (sc *arScan) context(i int, w arWord) bool {
	t := &sc.toks[i]
	m := Mention{Text: t.text, Start: t.start, End: t.end, Sentence: t.sentence, Role: Context}
	if _, ok := lexicon.ArabicCountries[w.rest]; ok {
		m.Entity = Nationality
		if arCountryName(w.rest) || len(sc.out) > 0 && sc.out[len(sc.out)-1].End >= sc.toks[max(0, i-1)].start && sc.out[len(sc.out)-1].Entity == MaybePlace {
			m.Entity = Country // "سوريا"; "عرسال اللبنانية": the name's country
		}
		sc.addCued(m)
		return true
	}
	// "حلبيون يلتقطون صور سيلفي", "أسرة حمصية": the people of a city,
	// a hint of where they are, weaker than a place the caption names.
	if city, ok := lexicon.ArabicResidentOf(w.rest); ok {
		m.Entity, m.Of = Residents, city
		sc.out = append(sc.out, m)
		sc.ph = nil
		return true
	}
	// A city or province abroad the gazetteer lacks says its country
	// ("ضواحي أنقرة", the suburbs of Ankara), unless a designator of
	// a small place comes before it.
	if _, ok := lexicon.PlacesAbroad[w.rest]; ok && (sc.ph == nil || sc.ph.designator != "village" && sc.ph.designator != "neighbourhood") {
		m.Entity = Country
		sc.addCued(m)
		return true
	}
	// Two words: "ديار بكر".
	if i+1 < len(sc.toks) && !sc.toks[i+1].punct && sc.toks[i+1].num < 0 {
		if _, ok := lexicon.PlacesAbroad[w.rest+" "+sc.toks[i+1].fold]; ok {
			m.End, m.Text, m.Entity = sc.toks[i+1].end, sc.text[t.start:sc.toks[i+1].end], Country
			sc.toks[i+1].used = true
			sc.addCued(m)
			return true
		}
	}
	return false
}

// addCued adds m with the cue of the phrase before it, if any, which it
// ends.
func (sc *arScan) addCued(m Mention) {
	if sc.ph != nil && sc.ph.cue != "" {
		m.Cue, m.Role = sc.ph.cue, sc.ph.role
	}
	if sc.ph != nil && sc.ph.designator == "border" {
		m.Designator = "border" // "على الحدود مع تركيا"
	}
	sc.out = append(sc.out, m)
	sc.ph = nil
}

// phraseWord reads token i when it begins or goes on with a phrase (a
// cue, a target, "من", "على", a designator) or ends one (a stop word).
func (sc *arScan) phraseWord(i int, w arWord) bool {
	if cue, ok := arCues[w.rest]; ok {
		sc.ph = &arPhrase{cue: cue, role: Where}
		return true
	}
	if sc.marker(i, w) {
		return true
	}
	switch {
	case arTargets[w.rest]:
		sc.ph = &arPhrase{cue: "to", role: Target}
	case w.rest == "من":
		sc.from(i)
	case w.rest == arOn && w.particles == "":
		sc.ph = &arPhrase{cue: "on", role: Context}
	case arDesignator(w.rest) != "":
		sc.designate(i, w, arDesignator(w.rest))
	case arLandmark(w.rest):
		// "في جامع نور القدس": the cue is the landmark's, and so the
		// name's after it.
		if sc.ph == nil {
			sc.ph = &arPhrase{role: Context}
			if strings.Contains(w.particles, "ب") {
				sc.ph.cue, sc.ph.role = "in", Where
			}
		}
		sc.ph.designator = "landmark"
	case arStop[w.rest] || arStop[sc.toks[i].fold] || arOriginWords[w.rest]:
		// A word of leaving ("الخروج من الرقة") is no name either.
		sc.ph = nil
	default:
		return false
	}
	return true
}

// designate reads the designator d at token i: it begins a phrase, or
// says what the place of the phrase begun is.
func (sc *arScan) designate(i int, w arWord, d string) {
	if sc.ph == nil {
		sc.ph = &arPhrase{role: Context}
		if strings.Contains(w.particles, "ب") {
			sc.ph.cue, sc.ph.role = "in", Where // "بمدينة", "بريف"
			if settlement(d) && sc.holds(i) {
				sc.ph.role = Context // "مخيم «المبروكة» بقرية رأس العين"
			}
		}
	}
	if sc.ph.designator == "" || !isDirectionWord(d) {
		sc.ph.designator = d
	}
}

// marker reads token i when it is a word that is no name and says
// something of the names around it: a border, the people of a camp or
// of a city, "هنا".
func (sc *arScan) marker(i int, w arWord) bool {
	switch {
	case arBorderWords[w.rest] && arDesignator(w.rest) == "":
		sc.ph = nil // "الحدودي", the adjective: it ends the name before it
	case w.rest == "مع" && i > 0 && arBorderWords[splitParticles(sc.toks[i-1].fold).rest]:
		if sc.ph == nil {
			sc.ph = &arPhrase{role: Context}
		}
		sc.ph.designator = "border"
	case arPeople[w.rest] && sc.ph != nil:
		// "مخيم اللاجئين ببلدة أعزاز", the refugee camp in the town of
		// Azaz: the camp's people are no name; the phrase goes on.
	case arPeopleOf[w.rest] && sc.ph == nil:
		// "أهالي" ends a name and begins its people's city's.
	case w.rest == arHere && (i == 0 || sc.toks[i-1].fold != "من"):
		sc.heres = append(sc.heres, arHereMark{sentence: sc.toks[i].sentence, mentions: len(sc.out), end: sc.toks[i].end})
		sc.ph = nil
	default:
		return false
	}
	return true
}

// from reads "من" at token i.
func (sc *arScan) from(i int) {
	switch {
	case arFromOrigin(sc.toks, i):
		sc.ph = &arPhrase{cue: "from", role: Origin}
	case sc.ph == nil:
		// "الملتقطة من مدينة دوما", "من حلب": of, or taken at.
		sc.ph = &arPhrase{role: Context}
	default:
		// "الأحياء الشرقية من حلب": the quarters of Aleppo; the name
		// after "من" holds them, and is no quarter.
		sc.ph.designator = ""
	}
}

// name reads the name that begins at token i and returns its last token;
// it is a mention when something names it as a place.
func (sc *arScan) name(i int, w arWord) int {
	t := &sc.toks[i]
	// A particle written onto the name: "بحمص", "لدمشق", "ودوما".
	if w.particles == "" && (arParticleWord(t.fold) || arHamzaParticle(t.text)) {
		w.particles = string([]rune(t.fold)[:1])
	}
	end := sc.nameEnd(i)
	// "مدارس مدينة إدلب", the schools of the city of Idlib: a word right
	// before a settlement's designator governs it, a common noun and no
	// place; the cue before it is the settlement's.
	if inConstruct(sc.toks, end) {
		if sc.ph != nil {
			sc.ph.designator = ""
		} else if prev, ok := sc.joined(i, w); ok {
			// "في شوارع وحدائق مدينة الباب": the nouns joined by "و"
			// share the cue of the first.
			sc.ph = &arPhrase{cue: prev.Cue, role: prev.Role}
		}
		return end
	}
	// "فناء المسجد للصلاة": a word written with a particle after a
	// landmark's noun says what the landmark is for, and names nothing.
	if sc.ph != nil && sc.ph.designator == "landmark" && w.particles != "" {
		sc.ph = nil
		return end
	}
	if arCommonNoun(w) && !sc.quote && (sc.ph == nil || sc.ph.designator == "") {
		sc.ph = nil
		return i
	}
	m := Mention{Text: sc.text[t.start:sc.toks[end].end], Start: t.start, End: sc.toks[end].end, Sentence: t.sentence, Role: Context}
	// "أحد أهالي معرة مصرين", one of the people of Maarrat Misrin: the
	// people of a city, a hint of where they are, as "حلبيون" is.
	if sc.ph == nil && w.particles == "" && i > 0 && !sc.toks[i-1].punct && arPeopleOf[sc.toks[i-1].fold] {
		m.Entity, m.Of = Residents, m.Text
		sc.out = append(sc.out, m)
		return end
	}
	switch {
	case sc.ph != nil:
		m.Cue, m.Designator, m.Role = sc.ph.cue, sc.ph.designator, sc.ph.role
	case strings.Contains(w.particles, "ب"):
		m.Cue, m.Role = "in", Where // "بحلب": in Aleppo
		if sc.holds(i) {
			m.Role = Context // "في مخيم «المبروكة» بقرية رأس العين": where the camp is
		}
	case sc.isJoined(i, w):
		prev := sc.out[len(sc.out)-1] // "في حلب وريفها", "دوما وحرستا"
		m.Cue, m.Role = prev.Cue, prev.Role
	case sc.quote || arTitle(sc.toks, i):
		// Named in quotes, or as a title ("حلب.. وأشباح المدينة").
	default:
		return end // a word no cue names: not read as a place
	}
	sc.out = append(sc.out, m)
	// A name joined by "و" shares the cue of one a word governs, not of
	// one read from a letter that may be its own ("براء", a name).
	sc.cuedLast = sc.ph != nil || sc.quote
	sc.ph = nil
	return end
}

// joined returns the mention right before the word at token i when the
// word is joined to it by "و" and shares its cue.
func (sc *arScan) joined(i int, w arWord) (Mention, bool) {
	if !sc.isJoined(i, w) {
		return Mention{}, false
	}
	return sc.out[len(sc.out)-1], true
}

// isJoined reports whether the word at token i is written with "و" right
// after a mention a cue named.
func (sc *arScan) isJoined(i int, w arWord) bool {
	return strings.HasPrefix(w.particles, "و") && len(sc.out) > 0 && i > 0 && sc.out[len(sc.out)-1].End == sc.toks[i-1].end && sc.cuedLast
}

// settlement reports whether a designator names a settlement or a part
// of one, not an area ("ريف", "محافظة") or a direction.
func settlement(d string) bool {
	switch d {
	case "city", "town", "village", "neighbourhood", "camp":
		return true
	}
	return false
}

// holds reports whether a name written with "ب" at token i follows a
// place the caption puts the photo in, with nothing but a closing quote
// between: "في حي الوعر بحمص", al-Waer in Homs; then it only says what
// holds that place.
func (sc *arScan) holds(i int) bool {
	if len(sc.out) == 0 {
		return false
	}
	prev := sc.out[len(sc.out)-1]
	if prev.Role != Where || prev.Entity != MaybePlace || prev.Sentence != sc.toks[i].sentence {
		return false
	}
	return strings.Trim(sc.text[prev.End:sc.toks[i].start], " »”\"") == ""
}

// nameEnd is the last token of the name that begins at token i: the words
// up to a stop, a bracket or a country, three at most; in quotes, what
// they enclose.
func (sc *arScan) nameEnd(i int) int {
	toks := sc.toks
	end := i
	for k := i + 1; k < len(toks) && k-i < 4; k++ {
		n := &toks[k]
		if n.punct || n.used || n.num >= 0 {
			break
		}
		nw := splitParticles(n.fold)
		if _, resident := lexicon.ArabicResidentOf(nw.rest); resident {
			break // "نساء رقاويات": women of Raqqa
		}
		if !sc.quote && (known(nw.rest) || known(n.fold) || nw.particles != "" || arParticleWord(n.fold) || arHamzaParticle(n.text) || arCommonNoun(nw)) {
			break // "الوعر بحمص": al-Waer, in Homs
		}
		if sc.quote || k-i < 3 {
			end = k
		}
	}
	if sc.quote {
		for end+1 < len(toks) && !toks[end+1].punct && end-i < 4 {
			end++
		}
	}
	return end
}

// inConstruct reports whether the name ending at toks[end] stands right
// before a settlement's designator with no particle or article ("مدارس
// مدينة", "مستشفى بلدة"): Arabic then reads the two as one phrase, the
// first a noun of the second. Directions, "ريف" and "محافظة" are left
// out: "منبج شمال حلب" and "دوما ريف دمشق" name Manbij and Douma.
func inConstruct(toks []arTok, end int) bool {
	if end+2 >= len(toks) || toks[end+1].punct || toks[end+1].used {
		return false
	}
	w := splitParticles(toks[end+1].fold)
	if w.particles != "" {
		return false
	}
	return settlement(arDesignators[w.rest]) && !toks[end+2].punct
}

// arCountryName reports whether a folded word is a country's name rather
// than the adjective made from it.
func arCountryName(w string) bool {
	switch w {
	case "سوريا", "سوريه", "لبنان", "تركيا", "الاردن", "العراق", "اسرائيل", "فلسطين", "ايران", "روسيا", "مصر", "المانيا", "فرنسا", "اليونان":
		return true
	}
	return false
}

// isDirectionWord reports whether a designator is one of the directions.
func isDirectionWord(d string) bool {
	return d == "north" || d == "south" || d == "east" || d == "west"
}

// arFromOrigin reports whether "من" at toks[i] says where people came
// from: one of arOriginWords stands among the three words before it.
func arFromOrigin(toks []arTok, i int) bool {
	for k, seen := i-1, 0; k >= 0 && seen < 3; k-- {
		if toks[k].punct {
			if toks[k].text == "،" || toks[k].text == "," || toks[k].text == "." {
				return false
			}
			continue
		}
		seen++
		f := toks[k].fold
		if arOriginWords[f] || arOriginWords[splitParticles(f).rest] || arOriginWords[strings.TrimPrefix(f, "و")] {
			return true
		}
	}
	return false
}

// arTitle reports whether toks[i] begins a title: a sentence or line of
// three words or fewer that the caption goes on after.
func arTitle(toks []arTok, i int) bool {
	if i > 0 && toks[i].sentence == toks[i-1].sentence {
		return false
	}
	words, k := 0, i
	for ; k < len(toks) && toks[k].sentence == toks[i].sentence; k++ {
		if !toks[k].punct {
			words++
		}
	}
	return words <= 3 && k < len(toks)
}

// arParticleWord reports whether a word inside a name is one written with
// "و" (and), "ب" (in) or "ل" (of) onto the next name: "دوما وحرستا",
// "الوعر بحمص", "الغوطة الشرقية لدمشق". A name's own later words rarely
// begin so; "باب" and "بيت" do, and are kept.
func arParticleWord(fold string) bool {
	r := []rune(fold)
	if len(r) < 4 || !strings.ContainsRune("وبل", r[0]) {
		return false
	}
	switch string(r[:3]) {
	case "باب", "بيت", "بير", "بئر", "لوا", "ولي":
		return false
	}
	return r[1] != 'ا' || r[0] == 'ب' && r[2] == 'ل' // "بالرقة"
}

// arHamzaParticle reports whether a word is "و", "ب" or "ل" written onto
// a name that begins with a hamza on its alef ("بإدلب", in Idlib;
// "وأريحا", and Ariha). arParticleWord leaves out words that begin
// "با" or "وا", as names do (بانياس); the hamza, lost in folding, tells
// the particle from a name's own letters.
func arHamzaParticle(text string) bool {
	r := []rune(text)
	return len(r) >= 4 && strings.ContainsRune("وبل", r[0]) && strings.ContainsRune("أإآ", r[1])
}
