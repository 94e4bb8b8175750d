package caption

import (
	"strings"
	"unicode"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// The sources a human-rights archive holds most of its photos from are
// not wire agencies: local media centres and coordination committees,
// the civil defence, activists' networks, a social network. A caption
// from one of them ends with its name in brackets or quotes ("– 9 شباط
// 2018 (مركز الغوطة الإعلامي)", "(Aleppo Media Center)", "(فيسبوك)"), or
// names it after "via" ("posted via Facebook"). sourceCredit reads such a
// name as the credit's agency, as written: a source has no photographer
// unless the caption names one (a cue word: Photo:, تصوير, عدسة).

// sourceKinds are words that make a bracketed name a source's: kinds of
// outlet in both scripts, and the social networks. Folded (lower case;
// Arabic by lexicon.FoldArabic).
var sourceKinds = func() []string {
	words := []string{
		"media center", "media centre", "media office", "media office of", "press office", "news network", "network",
		"coordination", "coordinating committee", "local council", "civil defence", "civil defense", "white helmets",
		"facebook", "twitter", "youtube", "telegram", "instagram", "social media", "activists", "observatory",
		"news agency", "tv", "channel",
		"مركز", "المركز", "مكتب", "المكتب", "شبكة", "شبكه", "تنسيقية", "تنسيقيه", "الدفاع المدني", "الخوذ البيضاء",
		"فيسبوك", "فيس بوك", "تويتر", "يوتيوب", "تلغرام", "تيليغرام", "انستغرام", "مواقع التواصل", "ناشطون", "ناشطين",
		"ناشط", "لجان", "اللجان", "المرصد", "وكالة", "وكاله", "قناة", "قناه", "صفحة", "صفحه", "موقع", "اتحاد", "الإعلامي",
		"الاعلامي", "إعلام", "اعلام", "المجلس المحلي",
	}
	for i, w := range words {
		words[i] = foldSource(w)
	}
	return words
}()

// maxSourceWords bounds a source's name in brackets: a longer bracketed
// text is a remark, not a credit.
const maxSourceWords = 7

// foldSource folds a name for matching source kinds.
func foldSource(s string) string {
	return lexicon.FoldArabic(strings.ToLower(s))
}

// isSource reports whether a bracketed name is a source's: it holds a
// source kind as whole words.
func isSource(name string) bool {
	f := " " + strings.Join(strings.FieldsFunc(foldSource(name), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ") + " "
	for _, k := range sourceKinds {
		if strings.Contains(f, " "+k+" ") {
			return true
		}
	}
	return false
}

// knownSource reports whether a name is one of a source the table of
// sources knows (lexicon.Agencies): "(قاسيون)" is a credit, though no
// word of it says what kind of source it is.
func knownSource(name string) bool {
	_, ok := lexicon.AgencyOf(name)
	return ok
}

// sourceCredit finds a source's name in the brackets or quotes that end
// the caption, or after "via" at its end, and returns it with its span.
func sourceCredit(text string) (c Credit, start, end int, ok bool) {
	t := strings.TrimRightFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == '.' || r == '!' || r == '؟' })
	if t == "" {
		return c, 0, 0, false
	}
	for _, pair := range [][2]string{{"(", ")"}, {"«", "»"}, {"»", "«"}, {"\"", "\""}, {"“", "”"}, {"[", "]"}} {
		if !strings.HasSuffix(t, pair[1]) {
			continue
		}
		inner := t[:len(t)-len(pair[1])]
		i := strings.LastIndex(inner, pair[0])
		if i < 0 {
			continue
		}
		name := strings.TrimSpace(inner[i+len(pair[0]):])
		if n := len(strings.Fields(name)); n == 0 || n > maxSourceWords || !isSource(name) && !knownSource(name) || strings.ContainsAny(name, "()«»") {
			continue
		}
		return Credit{Agency: name}, i, len(t), true
	}
	// "… posted via Facebook", "عبر فيسبوك".
	for _, via := range []string{" via ", " عبر "} {
		i := strings.LastIndex(strings.ToLower(t), via)
		if i < 0 {
			continue
		}
		name := strings.TrimSpace(t[i+len(via):])
		if n := len(strings.Fields(name)); n > 0 && n <= 4 && isSource(name) {
			return Credit{Agency: name}, i + 1, len(t), true
		}
	}
	return c, 0, 0, false
}
