package gazetteer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
	"golang.org/x/text/unicode/norm"
)

// Name matching has to survive the many ways one Arabic name is written in
// Latin letters (Deir ez-Zor, Dayr az Zawr, Deir al-Zour). Rather than list
// variants, every word is folded twice:
//
//   - its fine form: lower case, no diacritics or ʿ ’ ' marks, digraphs
//     reduced (kh→k, sh→s, dh→z, ou→u, ee→i, …), q/c→k, p→b, o→u, e→a,
//     semivowels resolved (y/w before a vowel are consonants, otherwise
//     i/u), doubled letters collapsed and a final vowel+h dropped; and
//   - its skeleton: the fine form's consonants but a non-initial h and a
//     glide after its own vowel (the y of -iya, which Khaldieh and
//     Melbieh leave out), with a leading vowel kept as "a" so that Islam
//     and Salma stay apart.
//
// Article words (al-, el-, ar-, as-, ash-, ad-, az-, at-, an- …) are left out
// and a name's words are joined, so "Kafr Nabl" and "Kafranbel" meet. Two
// names match when their skeletons are equal; when a skeleton has two
// consonants or fewer (Duma, Hama, Raqqa) the fine forms must be equal too.

// foldedRune maps a non-ASCII rune to its lower-case, mark-free Latin or
// normalised Arabic form; runes not in the table are kept as they are.
var foldedRune = buildRuneTable()

func buildRuneTable() map[rune]string {
	t := make(map[rune]string)
	latin := [][2]rune{{0x00C0, 0x024F}, {0x1E00, 0x1EFF}}
	for _, r := range latin {
		for c := r[0]; c <= r[1]; c++ {
			d := norm.NFD.String(string(c))
			out := make([]rune, 0, 2)
			for _, x := range d {
				if unicode.Is(unicode.Mn, x) {
					continue
				}
				out = append(out, unicode.ToLower(x))
			}
			if s := string(out); s != string(c) {
				t[c] = s
			}
		}
	}
	for c, s := range map[rune]string{
		'ı': "i", 'ø': "o", 'Ø': "o", 'æ': "ae", 'Æ': "ae", 'ß': "ss", 'đ': "d", 'Đ': "d",
		'ł': "l", 'Ł': "l", 'œ': "oe", 'Œ': "oe", 'ð': "d", 'þ': "th",
		// Arabic letter variants that spellings use interchangeably.
		'أ': "ا", 'إ': "ا", 'آ': "ا", 'ٱ': "ا", 'ة': "ه", 'ى': "ي", 'ؤ': "و", 'ئ': "ي", 'ـ': "",
		'ک': "ك", 'ی': "ي",
	} {
		t[c] = s
	}
	return t
}

// markRunes are the signs dropped inside a word besides combining marks
// and Arabic vowel signs: apostrophes, ayn and hamza signs.
const markRunes = "'’‘`ʿʾʼʻ′´ʹ"

// isMark reports whether r is dropped inside a word: one of markRunes or
// a combining mark (Arabic vowel signs are).
func isMark(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '\'' || r == '`'
	}
	return strings.ContainsRune(markRunes, r) || unicode.Is(unicode.Mn, r)
}

// isWordRune reports whether r is part of a word.
func isWordRune(r rune) bool {
	return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') ||
		r >= utf8.RuneSelf && unicode.IsLetter(r) || r >= utf8.RuneSelf && unicode.IsDigit(r)
}

func isArabic(r rune) bool { return r >= 0x0600 && r <= 0x06FF }

// lowerWord appends the lower-case, mark-free form of word to dst.
func lowerWord(dst []byte, word string) (out []byte, arabic bool) {
	for _, r := range word {
		switch {
		case r < utf8.RuneSelf && isMark(r):
		case r < utf8.RuneSelf:
			if r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
			dst = append(dst, byte(r))
		case isMark(r):
		default:
			if isArabic(r) {
				arabic = true
			}
			if s, ok := foldedRune[r]; ok {
				dst = append(dst, s...)
			} else {
				dst = utf8.AppendRune(dst, unicode.ToLower(r))
			}
		}
	}
	return dst, arabic
}

func isVowel(c byte) bool { return c == 'a' || c == 'i' || c == 'u' }

// fineLatin rewrites the lower-case ASCII word w in place to its fine form
// and returns it.
func fineLatin(w []byte) []byte {
	w = trimGluedArticle(w)
	finalEya(w)
	// Pass 1: digraphs and single letters; y and w are decided in pass 2.
	out := w[:0]
	for i := 0; i < len(w); i++ {
		var next byte
		if i+1 < len(w) {
			next = w[i+1]
		}
		c, pair := foldPair(w[i], next)
		out = append(out, c)
		if pair {
			i++
		}
	}
	out = collapse(out)
	// Pass 2: a semivowel is a consonant at the start or before a vowel.
	for i, c := range out {
		if (c == 'y' || c == 'w') && i > 0 && (i+1 == len(out) || !isVowel(out[i+1])) {
			if c == 'y' {
				out[i] = 'i'
			} else {
				out[i] = 'u'
			}
		}
	}
	out = collapse(out)
	if n := len(out); n > 2 && out[n-1] == 'h' && isVowel(out[n-2]) {
		out = out[:n-1]
	}
	return out
}

// finalEya rewrites in place the e of a final -eya, -eyah, -eyeh, -eyya
// (al-Hamdeya, Khaldeyeh) as the i of -iya, whose y is a glide: the press
// writes the ending of Hamidiyah and Khalidiyah both ways. An e earlier in
// the word (Meyadin) is left alone.
func finalEya(w []byte) {
	n := len(w)
	if n > 0 && w[n-1] == 'h' {
		n--
	}
	if n == 0 || w[n-1] != 'a' && w[n-1] != 'e' {
		return
	}
	n-- // w[:n] ends before the final vowel (and h): y or yy, then e
	i := n
	for i > 0 && w[i-1] == 'y' && n-i < 2 {
		i--
	}
	if i == n || i < 4 || w[i-1] != 'e' {
		return
	}
	w[i-1] = 'i'
}

// foldPair folds the letter c, followed by next, to its fine form's
// letter; pair is true when the two letters are one sound (kh, ou, ee,
// dj, ck) and next is taken too.
func foldPair(c, next byte) (folded byte, pair bool) {
	switch {
	case next == 'h' && (c == 'k' || c == 'g' || c == 's' || c == 'c' || c == 't' || c == 'd' || c == 'p' || c == 'z'):
		return hDigraph(c), true
	case c == 'o' && (next == 'u' || next == 'o'):
		return 'u', true
	case c == 'e' && next == 'e':
		return 'i', true
	case c == 'd' && next == 'j':
		return 'j', true
	case c == 'c' && next == 'k':
		return 'k', true
	}
	switch c {
	case 'q', 'c':
		return 'k', false
	case 'p':
		return 'b', false
	case 'v':
		return 'f', false
	case 'o':
		return 'u', false
	case 'e':
		return 'a', false
	}
	return c, false
}

// trimGluedArticle drops an article written into the word before a doubled
// sun letter, as in "Ezzor" (ez-Zor), "Arraqqa" or "Alleramoon".
func trimGluedArticle(w []byte) []byte {
	if len(w) >= 5 && (w[0] == 'a' || w[0] == 'e') && w[1] == w[2] {
		switch w[1] {
		case 't', 'd', 'r', 'z', 's', 'n', 'l':
			return w[2:]
		}
	}
	return w
}

// hDigraph folds the digraph c+"h": kh→k, gh→g, sh→s, ch→s, th→t, dh→z,
// ph→f, zh→z.
func hDigraph(c byte) byte {
	switch c {
	case 'c':
		return 's'
	case 'd':
		return 'z'
	case 'p':
		return 'f'
	}
	return c
}

// collapse removes doubled letters in place.
func collapse(w []byte) []byte {
	if len(w) < 2 {
		return w
	}
	out := w[:1]
	for _, c := range w[1:] {
		if c != out[len(out)-1] {
			out = append(out, c)
		}
	}
	return out
}

// fineArabic strips the article from a normalised Arabic word.
func fineArabic(w []byte) []byte {
	const al = "ال"
	if len(w) > len(al)+2 && string(w[:len(al)]) == al {
		return w[len(al):]
	}
	return w
}

// skeleton appends the skeleton of the fine form w to dst.
func skeleton(dst, w []byte, arabic bool) []byte {
	if arabic || len(w) == 0 {
		return append(dst, w...)
	}
	if isVowel(w[0]) {
		dst = append(dst, 'a')
	} else {
		dst = append(dst, w[0])
	}
	for i := 1; i < len(w); i++ {
		// h inside a word comes and goes in transliteration (Salah
		// ad-Din, Salaheddine); only a leading h is kept.
		if c := w[i]; !isVowel(c) && c != 'h' && !isGlide(w, i) {
			dst = append(dst, c)
		}
	}
	return dst
}

// isGlide reports whether w[i] is a y between i and a vowel: Khalidiyah
// and Khaldieh, Hamidiyeh and Hamidieh differ by it alone. (The w of
// Shuwayhat is a consonant that Shweihat writes too.)
func isGlide(w []byte, i int) bool {
	return i > 0 && i+1 < len(w) && w[i] == 'y' && w[i-1] == 'i' && isVowel(w[i+1])
}

// articles are the fine forms of the Arabic article's spellings (al, el,
// ar, as, ash, ad, az, at, an, … all fold to these).
var articles = []string{"al", "ar", "as", "ad", "az", "at", "an", "l", "ul"}

// isArticle reports whether a fine-form word is an Arabic article.
func isArticle(fine []byte) bool {
	for _, a := range articles {
		if string(fine) == a { // compared without a copy
			return true
		}
	}
	return false
}

// FoldTables are the data of Fold, for the published site's script, which
// folds a place search as Fold does (assets/src/placesearch.js): the
// runes folded to other text, the marks dropped inside a word besides
// combining marks, and the article's fine forms.
type FoldTables struct {
	Runes    map[string]string `json:"runes"`
	Marks    string            `json:"marks"`
	Articles []string          `json:"articles"`
}

// Tables returns Fold's tables.
func Tables() FoldTables {
	t := FoldTables{Runes: make(map[string]string, len(foldedRune)), Marks: markRunes, Articles: articles}
	for r, s := range foldedRune {
		t.Runes[string(r)] = s
	}
	return t
}

// Key is the folded form of a whole name.
type Key struct {
	Fine     string // fine forms of the words, joined
	Skeleton string // skeletons of the words, joined
	// Consonants counts the skeleton's consonants (its length less a
	// leading vowel mark) and the glides it leaves out; short skeletons
	// need Fine to match as well.
	Consonants int
}

// Fold returns the matching key of a name. Names that fold to the same key
// are spellings of one another.
func Fold(name string) Key {
	var k keyBuilder
	forEachWord(name, func(word string, _ int, _ bool) {
		if w := foldWord(nil, word); w.text != nil && !w.article {
			k.add(w)
		}
	})
	if k.fine == nil {
		// The name was only articles or empty: keep it whole.
		forEachWord(name, func(word string, _ int, _ bool) { k.add(foldWord(nil, word)) })
	}
	return k.key()
}

type foldedWord struct {
	text    []byte // fine form
	skel    []byte
	article bool
	arabic  bool
	// glued is the word without an article written onto its end, when
	// it may carry one: "Karmel Jabl" is Karm al-Jabal (see gluedArticle).
	glued, gluedSkel []byte
	// bare is an Arabic word without the particles written onto it (see
	// bareArabic), or nil.
	bare []byte
}

func foldWord(buf []byte, word string) foldedWord {
	low, arabic := lowerWord(buf[:0], word)
	var fine []byte
	if arabic {
		fine = fineArabic(low)
	} else {
		fine = fineLatin(low)
	}
	if len(fine) == 0 {
		return foldedWord{}
	}
	w := foldedWord{text: fine, skel: skeleton(nil, fine, arabic), article: !arabic && isArticle(fine), arabic: arabic}
	if g, ok := gluedArticle(fine, arabic); ok {
		w.glued, w.gluedSkel = g, skeleton(nil, g, false)
	}
	if arabic {
		w.bare = bareArabic(low)
	}
	return w
}

// bareArabic returns the fine form of the folded Arabic word w without the
// particles written onto it, and the article after them ("بحلب" → "حلب",
// "وبالرقة" and "للرقة" → "رقه"; see lexicon.ArabicStems), or nil when it
// has none or what is left is too short to be a name. The scanner reads a
// word both ways: "بانياس" is Baniyas itself.
func bareArabic(w []byte) []byte {
	stems := lexicon.ArabicStems(string(w))
	if len(stems) == 0 {
		return nil
	}
	return fineArabic([]byte(stems[len(stems)-1]))
}

// gluedArticle returns the fine form w without the article the press
// sometimes writes onto a word's end ("Karmel Jabl", "Karmal Jabal" for
// Karm al-Jabal): a consonant, then a vowel and l. Only the scanner uses
// it, and only for a name that goes on to the next word.
func gluedArticle(w []byte, arabic bool) ([]byte, bool) {
	n := len(w)
	if arabic || n < 5 || w[n-1] != 'l' || !isVowel(w[n-2]) || isVowel(w[n-3]) {
		return nil, false
	}
	return w[: n-2 : n-2], true
}

type keyBuilder struct {
	fine, skel []byte
	consonants int
}

func (k *keyBuilder) add(w foldedWord) {
	k.fine = appendCollapsed(k.fine, w.text)
	before := len(k.skel)
	k.skel = appendCollapsed(k.skel, w.skel)
	for _, c := range k.skel[before:] {
		if c != 'a' || w.arabic {
			k.consonants++
		}
	}
	// A glide is no part of the skeleton, but it is still evidence that
	// a short name is the one meant (Ithriya, Athriya).
	for i := range w.text {
		if !w.arabic && isGlide(w.text, i) {
			k.consonants++
		}
	}
}

func (k *keyBuilder) key() Key {
	return Key{Fine: string(k.fine), Skeleton: string(k.skel), Consonants: k.consonants}
}

// appendCollapsed appends w to dst, dropping w's first byte when it repeats
// dst's last one, so that "Tall Kalakh" and "Tallkalakh" meet.
func appendCollapsed(dst, w []byte) []byte {
	if len(dst) > 0 && len(w) > 0 && dst[len(dst)-1] == w[0] && w[0] < utf8.RuneSelf {
		w = w[1:]
	}
	return append(dst, w...)
}

// forEachWord calls fn for each word of s with its byte offset and whether
// punctuation other than a hyphen or space separates it from the previous
// word.
func forEachWord(s string, fn func(word string, start int, broken bool)) {
	start := -1
	broken := false
	for i := 0; i < len(s); {
		c := s[i]
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		// ASCII letters and digits first: they are nearly all of a caption.
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c >= utf8.RuneSelf && isWordRune(r) || start >= 0 && isMark(r) {
			if start < 0 {
				start = i
			}
			i += size
			continue
		}
		if start >= 0 {
			fn(trimPossessive(s[start:i]), start, broken)
			start = -1
			broken = false
		}
		if c != ' ' && c != '-' && !(c >= utf8.RuneSelf && (unicode.IsSpace(r) || r == '‐' || r == '–')) && c != '\n' && !isMark(r) {
			broken = true
		}
		i += size
	}
	if start >= 0 {
		fn(trimPossessive(s[start:]), start, broken)
	}
}

// trimPossessive drops an English possessive ("Aleppo's" → "Aleppo") but
// keeps the 's of short Arabic words such as Ra's.
func trimPossessive(w string) string {
	for _, suffix := range [...]string{"'s", "’s"} {
		if n := len(w) - len(suffix); n > 0 && w[n:] == suffix && utf8.RuneCountInString(w[:n]) >= 3 {
			return w[:n]
		}
	}
	return w
}
