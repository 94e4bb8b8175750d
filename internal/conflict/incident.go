package conflict

import (
	"strings"
	"unicode"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// What a caption says of the incident its photo shows, as the linker
// reads it: whether it is an illustration or an archive photo, whether it
// shows the aftermath, by what means and by whom the violence was done,
// and whether it speaks of a day before the photo's. The vocabulary is
// small and the words of war reporting in English and Arabic, not of
// one archive's captions; an Arabic word is written once, and matched
// with or without its article and a joined preposition (و ب ل ف ك).

// incident is what one caption tells, read once for a sighting.
type incident struct {
	// text is the caption's words without its stock background
	// sentences, folded (lexicon.FoldArabic) and spaced: " w1 w2 … ".
	text string
	// violence: the words tell of violence or its aftermath (outside
	// the stock sentences); illustrative: an illustration or archive
	// photo; aftermath: the photo shows what was left after.
	violence, illustrative, aftermath bool
	// air: the means were from the air (an air strike, a barrel bomb);
	// bomb: a car bomb, a suicide attack, an explosive device.
	air, bomb bool
	// sides are the sides the caption names, as GED names them.
	sides []string
	// daysBefore is how many days before the photo's the caption says
	// the incident was (1 or 2: "strikes on Saturday" under a Sunday
	// photo, "the day before"); 0 the photo's own.
	daysBefore int
}

// readIncident reads what sighting s's caption tells of its incident.
func readIncident(s Sighting) incident {
	var in incident
	sentences := s.Sentences
	if len(sentences) == 0 {
		sentences = []string{s.Caption}
	}
	var kept []string
	for i, sentence := range sentences {
		if i > 0 && isStockSentence(sentence) {
			continue
		}
		kept = append(kept, sentence)
	}
	in.text = spaced(strings.Join(kept, " "))
	in.violence = TellsOfViolence(strings.Join(kept, " "))
	in.illustrative = isFilePhoto(s.Caption) || hasAny(spaced(s.Caption), illustrativeWords)
	in.aftermath = hasAny(in.text, aftermathWords)
	in.air = hasAny(in.text, airWords)
	in.bomb = hasAny(in.text, bombWords)
	for _, a := range actors {
		if hasAny(in.text, a.words) || a.exact != "" && hasWord(s.Caption, a.exact) {
			in.sides = append(in.sides, a.sides...)
		}
	}
	in.daysBefore = daysBefore(in.text, s)
	if in.daysBefore > 0 {
		in.aftermath = true
	}
	return in
}

// spaced is s folded for matching: lower case, Arabic folded, every run
// of what is not a letter or a digit one space, with a space at each
// end, so that " air strike" finds a word's start.
func spaced(s string) string {
	var b strings.Builder
	b.WriteByte(' ')
	space := true
	for _, r := range lexicon.FoldArabic(strings.ToLower(s)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

// arabicPrefixes are what may join an Arabic word's start: the article,
// the conjunctions and prepositions written with it ("لل" stands for
// "ل" and the article).
var arabicPrefixes = []string{"ال", "و", "ب", "ل", "ف", "ك", "وال", "بال", "لل", "فال", "كال", "وب", "ول", "وبال", "ولل"}

// foldedWords are a word list folded as spaced folds a caption: the
// Latin entries with the space that begins a word, the Arabic ones bare
// (hasAny allows their prefixes, arabicPrefixes). An entry that ends in "=" is a whole
// word ("war=" is not "warm"); the others are stems ("strike" is
// "strikes" too).
type foldedWords struct{ latin, arabic []string }

func words(ws ...string) foldedWords {
	var out foldedWords
	for _, w := range ws {
		whole := strings.HasSuffix(w, "=")
		f := strings.TrimSpace(spaced(strings.TrimSuffix(w, "=")))
		if whole {
			f += " "
		}
		if r := []rune(f); len(r) > 0 && lexicon.IsArabic(r[0]) {
			// An entry written with its article needs it ("الأحد",
			// Sunday, is not "أحد", one); one without takes it or not.
			out.arabic = append(out.arabic, f)
			continue
		}
		out.latin = append(out.latin, " "+f)
	}
	return out
}

// hasAny reports whether spaced text holds a word or phrase of ws at a
// word's start, an Arabic one after one of its prefixes too.
func hasAny(text string, ws foldedWords) bool {
	for _, w := range ws.latin {
		if strings.Contains(text, w) {
			return true
		}
	}
	for _, w := range ws.arabic {
		for from := 0; ; {
			i := strings.Index(text[from:], w)
			if i < 0 {
				break
			}
			if at := from + i; arabicWordStart(text[:at]) {
				return true
			}
			from += i + 1
		}
	}
	return false
}

// arabicWordStart reports whether what comes before a match, before,
// ends a word or a word's prefix.
func arabicWordStart(before string) bool {
	if strings.HasSuffix(before, " ") {
		return true
	}
	for _, p := range arabicPrefixes {
		if strings.HasSuffix(before, " "+p) {
			return true
		}
	}
	return false
}

// hasWord reports whether caption holds word w as written (case and
// all): "IS", which in lower case is a verb.
func hasWord(caption, w string) bool {
	for _, f := range strings.FieldsFunc(caption, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if f == w {
			return true
		}
	}
	return false
}

// The vocabulary.
var (
	// illustrativeWords mark an illustration or an archive photo, which
	// documents no event of its caption's day (isFilePhoto reads the
	// wire's capitals: "FILE PHOTO", "FILE -").
	illustrativeWords = words("file photo", "file picture", "file image", "archive photo", "archive picture", "archive image",
		"archival photo", "illustration", "illustrative", "stock photo", "صورة تعبيرية", "تعبيرية", "تعبيري", "أرشيفية", "أرشيف",
		"صورة من الأرشيف")
	// aftermathWords say the photo shows what was left after: its
	// damage the next days, the funerals, the rubble cleared.
	aftermathWords = words("aftermath", "day after", "days after", "day later", "days later", "next day", "following day",
		"day before", "day earlier", "previous day", "funeral", "mourn", "burial", "buried", "آثار", "اليوم التالي", "غداة", "بعد يوم",
		"بعد يومين", "اليوم السابق", "تشييع", "جنازة", "رفعت الأنقاض", "رفع الأنقاض", "يرفع الأنقاض", "ترفع الأنقاض", "يرفعون الأنقاض", "إزالة الأنقاض", "ترحيل الأنقاض")
	// airWords are the means of a state's air force.
	airWords = words("air strike", "airstrike", "air raid", "airraid", "warplane", "war plane", "jet=", "jets=", "helicopter", "barrel bomb",
		"barrel", "aerial", "from the air", "غارة", "غارات", "طيران", "طائرة", "طائرات", "الطيران الحربي", "مروحي", "برميل", "براميل",
		"قصف جوي", "القصف الجوي")
	// bombWords are the means of a one-sided or non-state attack.
	bombWords = words("car bomb", "suicide", "booby trapped", "explosive laden", "ied=", "improvised explosive", "bomb blast",
		"bomb attack", "roadside bomb", "مفخخة", "مفخخه", "سيارة مفخخة", "انتحاري", "انتحارية", "عبوة ناسفة", "عبوه ناسفه", "تفجير")
	// actors are the sides a caption names, with the GED sides they
	// are (GED codes Russia's strikes under the Government of Syria's
	// dyads); exact is a word matched as written.
	actors = []struct {
		words foldedWords
		exact string
		sides []string
	}{
		{words("government", "regime", "pro government", "syrian army", "syrian troops", "assad", "russian", "russia", "النظام",
			"قوات الأسد", "الحكومة", "الحكومية", "الجيش السوري", "روسيا", "الروسي", "الروسية"), "", []string{"Government of Syria", "Government of Russia (Soviet Union)"}},
		{words("rebel", "insurgent", "opposition", "free syrian army", "fsa=", "المعارضة", "الفصائل", "فصائل", "الجيش الحر"), "",
			[]string{"Syrian insurgents", rebelSide}},
		{words("islamic state", "isis=", "isil=", "daesh", "داعش", "تنظيم الدولة"), "IS", []string{"IS"}},
		{words("sdf=", "ypg=", "syrian democratic forces", "kurdish", "قسد", "سوريا الديمقراطية", "الوحدات الكردية", "وحدات حماية الشعب"), "",
			[]string{"SDF"}},
		{words("turkish", "turkey", "تركيا", "التركي", "التركية"), "", []string{"Government of Turkey"}},
		{words("coalition", "us led=", "american", "التحالف الدولي"), "", []string{"Government of United States of America"}},
		{words("civilian", "مدني", "المدنيين"), "", []string{"Civilians"}},
	}
	// weekdays are the days' names, Sunday first (time.Weekday's order).
	weekdays = []foldedWords{words("sunday", "الأحد"), words("monday", "الاثنين", "الإثنين"), words("tuesday", "الثلاثاء"),
		words("wednesday", "الأربعاء"), words("thursday", "الخميس"), words("friday", "الجمعة"), words("saturday", "السبت")}
	// dayBeforeWords say the incident was the day before the photo (not
	// "a day before", which dates something else by the incident, nor
	// "the next day", which tells a story's days).
	dayBeforeWords = words("the day before", "a day earlier", "the previous day", "a day after", "the day after", "اليوم السابق",
		"بعد يوم", "اليوم التالي", "غداة")
)

// rebelSide stands for the many names GED gives the insurgent groups
// (sideNamed reads them).
const rebelSide = "(insurgent groups)"

// rebelGroups are words of the insurgent groups' names in GED's sides.
var rebelGroups = []string{"insurgents", "FSA", "HTS", "Ahrar", "Jabhat", "Jaysh", "SNA", "Front", "Corps", "Legion", "Division",
	"Brigade", "Operations Room", "Fatah", "Zenki", "Faylaq", "Liwa"}

// sideNamed reports whether GED side (one or several names, ", "
// between them) is one the caption named.
func sideNamed(side string, named []string) bool {
	for _, n := range named {
		if n == rebelSide {
			for _, g := range rebelGroups {
				if strings.Contains(side, g) {
					return true
				}
			}
			continue
		}
		for _, s := range strings.Split(side, ", ") {
			if s == n {
				return true
			}
		}
	}
	return false
}

// isStockSentence reports an agencies' background sentence, which tells
// of the war, not of the photo: "The war that began in 2011 has killed
// hundreds of thousands of people", "Syria's conflict has killed more
// than 300,000". It names the war and either its start in 2011 or its
// toll in thousands.
func isStockSentence(sentence string) bool {
	t := spaced(sentence)
	if !hasAny(t, stockWar) {
		return false
	}
	return hasAny(t, stockSince) || hasAny(t, stockToll) && (hasAny(t, stockMany) || hasThousands(t))
}

var (
	stockWar   = words("war=", "wars=", "conflict", "uprising", "crisis=", "fighting", "الحرب", "النزاع", "الصراع", "الثورة", "الأزمة")
	stockSince = words("2011", "٢٠١١")
	stockToll  = words("killed", "dead=", "deaths=", "displaced", "fled=", "refugees", "driven", "uprooted", "أودت", "أودى", "مقتل", "قتل",
		"نزوح", "تشريد", "تهجير", "لجوء")
	stockMany = words("hundreds of thousands", "thousands", "millions", "million", "half=", "مئات الآلاف", "آلاف", "ملايين", "مليون")
)

// hasThousands reports a number of thousands in spaced text: "300 000"
// (a comma spaced) or "300000".
func hasThousands(t string) bool {
	fs := strings.Fields(t)
	for i, f := range fs {
		if len(f) >= 4 && strings.Trim(f, "0123456789") == "" {
			return true
		}
		if i+1 < len(fs) && f != "" && strings.Trim(f, "0123456789") == "" && fs[i+1] == "000" {
			return true
		}
	}
	return false
}

// daysBefore is how many days before s's photo its caption says the
// incident was: 1 for "the day before", "a day after"; 1 or 2 for a
// weekday so many days before the photo's day ("strikes on Saturday",
// the photo on Sunday), unless it names the photo's weekday too (it then
// dates its own photo, and its other days are the story's: "on
// Wednesday and Thursday", a summit "on Friday"). 0 when it says none,
// or when the photo is not dated to a day.
func daysBefore(text string, s Sighting) int {
	if s.From == 0 || s.From != s.To {
		return 0
	}
	photoDay := int(toTime(s.From).Weekday())
	for k := 1; k <= AftermathDays && !hasAny(text, weekdays[photoDay]); k++ {
		if hasAny(text, weekdays[(photoDay-k+7)%7]) {
			return k
		}
	}
	if hasAny(text, dayBeforeWords) {
		return 1
	}
	return 0
}

// fit is how well event e fits what the caption tells of the incident,
// -1 to 3, with the words that say so: its means (from the air, a
// state's; a car bomb, one-sided or non-state) and its sides (one or
// both the caption names). A side the caption does not name counts for nothing:
// a caption names places' peoples ("the Turkish border") as often as
// sides.
func (in *incident) fit(e Event) (int, string) {
	if e.Dataset != GED {
		return 0, ""
	}
	n, why := 0, []string{}
	state := strings.HasPrefix(e.SideA, "Government of") || strings.HasPrefix(e.SideB, "Government of")
	switch {
	case in.air && state && e.Kind != "non-state":
		n, why = n+1, append(why, "from the air")
	case in.air && e.Kind == "non-state":
		n, why = n-1, append(why, "no side of it flies")
	}
	if in.bomb && (e.Kind == "one-sided" || e.Kind == "non-state") {
		n, why = n+1, append(why, "a bombing, "+e.Kind)
	}
	switch a, b := sideNamed(e.SideA, in.sides), sideNamed(e.SideB, in.sides); {
	case a && b:
		n, why = n+2, append(why, "both sides it names")
	case a || b:
		n, why = n+1, append(why, "a side it names")
	}
	if len(why) == 0 {
		return 0, ""
	}
	n = min(n, 3)
	verb := "fits"
	switch {
	case n < 0:
		verb = "does not fit"
	case n == 0:
		verb = "fits in part"
	}
	return n, "the caption's incident " + verb + " (" + strings.Join(why, ", ") + ")"
}
