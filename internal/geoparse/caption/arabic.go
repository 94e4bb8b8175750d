package caption

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// Captions written in Arabic are read by the words Arabic uses — there
// are no capitals to find names by — into the same Caption as English:
// the date, the credit, and the place names with their cues, designators
// and roles in the English words the geocoder weighs ("في" is "in", "بلدة"
// a town, "نازحون من" an origin). Words are matched folded
// (lexicon.FoldArabic); the offsets and texts are the caption's own.

// scripts counts the Arabic and the Latin letters of a caption.
func scripts(s string) (arabic, latin int) {
	for _, r := range s {
		switch {
		case lexicon.IsArabic(r):
			arabic++
		case r < utf8.RuneSelf && (r|0x20) >= 'a' && (r|0x20) <= 'z':
			latin++
		}
	}
	return arabic, latin
}

// mixedLetters is how many letters of its other script make a caption
// mixed (a sentence, not a credit's "afp_tickers").
const mixedLetters = 15

// mix reads a caption written in both scripts with both readers and
// keeps the best of each: the more precise date, the first reader's
// credit or else the other's, and the names of both (the first reader's
// where they overlap).
func mix(first, second Caption) Caption {
	c := first
	rank := map[string]int{"": 0, "year": 1, "month": 2, "day": 3}
	if rank[second.Date.Precision] > rank[c.Date.Precision] {
		c.Date = second.Date
	}
	if c.Credit == (Credit{}) {
		c.Credit, c.CreditStart, c.CreditEnd = second.Credit, second.CreditStart, second.CreditEnd
	}
	ms := append([]Mention(nil), first.Mentions...)
	for _, m := range second.Mentions {
		overlaps := false
		for _, f := range first.Mentions {
			overlaps = overlaps || m.Start < f.End && f.Start < m.End
		}
		if !overlaps && !(c.CreditEnd > 0 && m.Start >= c.CreditStart && m.End <= c.CreditEnd) {
			ms = append(ms, m)
		}
	}
	slices.SortStableFunc(ms, func(a, b Mention) int { return a.Start - b.Start })
	c.Mentions = ms
	return c
}

// arTok is a word, a number or one punctuation rune of an Arabic caption.
type arTok struct {
	start, end int
	text       string // as written
	fold       string // folded (lexicon.FoldArabic)
	punct      bool
	num        int // the value of a number written in digits, else -1
	digits     int
	sentence   int
	used       bool // part of the credit or the date
}

func tokenizeArabic(text string) []arTok {
	var toks []arTok
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case isArWordRune(r):
			j := i + size
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				// A number ends where letters begin: "16من", "2018م".
				if !isArWordRune(r2) || unicode.IsDigit(r) && !unicode.IsDigit(r2) && unicode.IsLetter(r2) {
					break
				}
				j += s2
			}
			t := arTok{start: i, end: j, text: text[i:j], fold: lexicon.FoldArabic(text[i:j]), num: -1}
			// A number, or one with the article ("الـ15", the 15th).
			if n, err := strconv.Atoi(strings.TrimPrefix(t.fold, "ال")); err == nil && t.fold != "ال" {
				t.num, t.digits = n, len(strings.TrimPrefix(t.fold, "ال"))
			}
			toks = append(toks, t)
			i = j
		default:
			toks = append(toks, arTok{start: i, end: i + size, text: text[i : i+size], fold: text[i : i+size], punct: true, num: -1})
			i += size
		}
	}
	return toks
}

func isArWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || r == '_' || r == 0x0640
}

// arSentenceEnd are the marks that end a sentence.
func arSentenceEnd(t *arTok) bool {
	return t.punct && (t.text == "." || t.text == "؟" || t.text == "?" || t.text == "!")
}

// parseArabic reads a caption written in Arabic; ref is the reference
// date a day and month without a year are read in (see ParseAt).
func parseArabic(text string, ref Date) Caption {
	c := Caption{Text: text, Arabic: true}
	// Line breaks end sentences (a title line, a credit on its own line).
	toks := tokenizeArabic(text)
	markArabicSentences(text, toks)
	c.Credit, c.CreditStart, c.CreditEnd = arabicCredit(text, toks)
	c.Date = arabicDate(toks, ref)
	c.Mentions = arabicMentions(text, toks)
	return c
}

// markArabicSentences numbers the sentences so that the one describing
// the photo ("وفي هذه الصورة نرى …", in this photo we see) is sentence 0,
// as the first sentence of an English caption is; without one, the first
// is. A line break ends a sentence too.
func markArabicSentences(text string, toks []arTok) {
	s := 0
	for i := range toks {
		toks[i].sentence = s
		if arSentenceEnd(&toks[i]) || i+1 < len(toks) && strings.Contains(text[toks[i].end:toks[i+1].start], "\n") {
			s++
		}
	}
	photo := -1
	for i := range toks {
		if f := toks[i].fold; (f == "الصوره" || f == "صوره") && i > 0 && (toks[i-1].fold == "هذه" || toks[i-1].fold == "وفي" || toks[i-1].fold == "في") {
			photo = toks[i].sentence
			break
		}
	}
	if photo <= 0 {
		return
	}
	for i := range toks {
		switch n := toks[i].sentence; {
		case n == photo:
			toks[i].sentence = 0
		case n < photo:
			toks[i].sentence = n + 1 + (s - photo) // the lead-in, after the rest
		default:
			toks[i].sentence = n - photo
		}
	}
}

// arAgency is an agency's name as Arabic captions write it, folded word
// by word, and the name the archive knows it by.
type arAgency struct {
	words []string
	name  string
	// bare: the words are a credit wherever they stand; else only in
	// brackets or quotes, or at the caption's start or end ("أ ب" is a
	// credit in "(أ ب)", "الفرنسية" in «الفرنسية»).
	bare bool
	// bracketed: only right after an opening bracket or quote (a local
	// source's name, which a sentence names too: "(الدفاع المدني)").
	bracketed bool
}

// arBrackets open and close a credit.
const arOpen, arClose = "(«\"“»[", ")»\"”«]"

// arabicCredit finds the credit: an agency's name (the last one named, in
// brackets or quotes or at either end, as in "(أ ف ب)", "«الفرنسية»",
// "(afp_tickers)"), and a photographer after "تصوير:" or "عدسة:"
// ("تصوير: رودي سعيد - رويترز"). It returns the credit and its span.
func arabicCredit(text string, toks []arTok) (Credit, int, int) {
	cr := &arCredit{text: text, toks: toks, start: -1, end: -1}
	for _, i := range arWordIndex(toks) {
		t := &toks[i]
		switch {
		case t.fold == "تصوير" || t.fold == "عدسه" || t.fold == "بعدسه":
			cr.photographer(i)
		case t.fold == "المصدر" && i+2 < len(toks) && toks[i+1].text == ":" && !toks[i+2].punct:
			cr.source(i)
		case t.fold == "مصور" && cr.c.Agency == "":
			cr.photographerOf(i)
		default:
			cr.agency(i)
		}
	}
	if cr.c.Agency == "" && cr.c.Photographer == "" {
		// An English credit in an Arabic caption: "(Reuters)".
		if ec, s, e, ok := findCredit(text); ok {
			return ec, s, e
		}
	}
	// A local source's name at the end: "(مركز الغوطة الإعلامي)",
	// "(فيسبوك)", beside a photographer or alone.
	if cr.c.Agency == "" {
		if sc, s, e, ok := sourceCredit(text); ok {
			cr.c.Agency = sc.Agency
			for k := range toks { // no place is read from a source's name
				if toks[k].start >= s && toks[k].end <= e {
					toks[k].used = true
				}
			}
			if cr.start < 0 || s < cr.start {
				cr.start = s
			}
			cr.end = max(cr.end, e)
		}
	}
	if cr.c.Agency == "" && cr.c.Photographer == "" {
		return cr.c, 0, 0
	}
	return cr.c, cr.start, cr.end
}

// arCredit is what arabicCredit has read: the credit, and the span of
// the caption it takes.
type arCredit struct {
	text       string
	toks       []arTok
	c          Credit
	start, end int
}

// photographer reads "تصوير: name", "عدسة name" at token i: the name up
// to a dash, a slash, a bracket or the end; an agency may follow.
func (cr *arCredit) photographer(i int) {
	toks := cr.toks
	j := i + 1
	if j < len(toks) && toks[j].punct && toks[j].text == ":" {
		j++
	}
	k := j
	for k < len(toks) && !toks[k].punct && k-j < 4 && toks[k].num < 0 && !arAgencyAt(toks, k) {
		k++
	}
	if k > j {
		cr.c.Photographer = cr.text[toks[j].start:toks[k-1].end]
		cr.span(i, k-1)
	}
}

// photographerOf reads "مصور X" at token i, a photographer of agency X
// ("التقط مصور وكالة الأنباء الفرنسية صورة", a photographer of AFP took a
// picture): X is the credit's agency, wherever the words stand.
func (cr *arCredit) photographerOf(i int) {
	if a, n := arAgencyMatch(cr.toks, i+1); n > 0 {
		cr.c.Agency = a.name
		cr.span(i+1, i+arSpan(cr.toks, i+1, n))
	}
}

// source reads "المصدر: X" at token i, which names where the photo came
// from: a known agency, or the word as written.
func (cr *arCredit) source(i int) {
	last := i + 2
	if a, n := arAgencyMatch(cr.toks, i+2); n > 0 {
		cr.c.Agency, last = a.name, i+1+arSpan(cr.toks, i+2, n)
	} else {
		cr.c.Agency = cr.toks[i+2].text
	}
	cr.span(i, last)
	cr.nameAfterSlash(last)
}

// nameAfterSlash reads the photographer written after a source at token
// i and a slash, up to the closing bracket or the end: "(المصدر: البوابة/
// جـ. زاك هولو)". The name is at most five words; initials keep their dots.
func (cr *arCredit) nameAfterSlash(i int) {
	toks := cr.toks
	if cr.c.Photographer != "" || i+2 >= len(toks) || !toks[i+1].punct || toks[i+1].text != "/" {
		return
	}
	k, words := i+2, 0
	for k < len(toks) && words <= 5 && (!toks[k].punct && toks[k].num < 0 || toks[k].text == "." && words > 0) {
		if !toks[k].punct {
			words++
		}
		k++
	}
	end := k
	for end > i+2 && toks[end-1].punct { // a closing dot is the sentence's
		end--
	}
	if words == 0 || words > 5 || k < len(toks) && !strings.Contains(arClose, toks[k].text) {
		return
	}
	cr.c.Photographer = cr.text[toks[i+2].start:toks[end-1].end]
	cr.span(i+1, end-1)
}

// agency reads an agency's name at token i: one that is only ever an
// agency's anywhere, another in brackets or quotes.
func (cr *arCredit) agency(i int) {
	a, n := arAgencyMatch(cr.toks, i)
	if n == 0 {
		return
	}
	last := i + arSpan(cr.toks, i, n) - 1
	if !a.bare && !arEnclosed(cr.toks, i, last) {
		return
	}
	if a.bracketed && (i == 0 || !cr.toks[i-1].punct || !strings.Contains(arOpen, cr.toks[i-1].text)) {
		return
	}
	cr.c.Agency = a.name
	cr.span(i, last)
	cr.nameBeforeSlash(i)
}

// nameBeforeSlash reads the photographer written before the agency at
// token i and a slash, in the same brackets: "(محمد خير/ الأناضول)".
func (cr *arCredit) nameBeforeSlash(i int) {
	toks := cr.toks
	if cr.c.Photographer != "" || i < 3 || !toks[i-1].punct || toks[i-1].text != "/" {
		return
	}
	k := i - 2
	for k >= 0 && !toks[k].punct && toks[k].num < 0 && i-2-k < 4 {
		k--
	}
	if k < 0 || k == i-2 || !toks[k].punct || !strings.Contains(arOpen, toks[k].text) {
		return
	}
	cr.c.Photographer = cr.text[toks[k+1].start:toks[i-2].end]
	cr.span(k+1, i-1)
}

// span takes tokens a to b, with the brackets around them, into the
// credit.
func (cr *arCredit) span(a, b int) {
	toks := cr.toks
	if a > 0 && toks[a-1].punct && strings.Contains(arOpen, toks[a-1].text) {
		a--
	}
	if b+1 < len(toks) && toks[b+1].punct && strings.Contains(arClose, toks[b+1].text) {
		b++
	}
	if cr.start < 0 || toks[a].start < cr.start {
		cr.start = toks[a].start
	}
	cr.end = max(cr.end, toks[b].end)
	for k := a; k <= b; k++ {
		toks[k].used = true
	}
}

// arWordIndex lists the indexes of the word tokens.
func arWordIndex(toks []arTok) []int {
	var out []int
	for i := range toks {
		if !toks[i].punct {
			out = append(out, i)
		}
	}
	return out
}

// arAgencyMatch returns the agency whose words begin at toks[i], skipping
// the dots and spaces between letters ("أ.ف.ب", "أ. ف. ب"), and how many
// words it took. An AFP feed's tag ("afp_tickers") is AFP's.
func arAgencyMatch(toks []arTok, i int) (arAgency, int) {
	if i < len(toks) && !toks[i].punct && strings.HasPrefix(toks[i].fold, "afp") {
		return arAgency{words: []string{toks[i].fold}, name: "AFP", bare: true}, 1
	}
	for _, a := range arAgencies {
		k, n := i, 0
		for n < len(a.words) && k < len(toks) {
			if toks[k].punct {
				if toks[k].text == "." && n > 0 {
					k++
					continue
				}
				break
			}
			if toks[k].fold != a.words[n] {
				break
			}
			n++
			k++
		}
		// A one-letter abbreviation must end there: "أ ب" is not the
		// start of "أ بناء".
		if n == len(a.words) && (k >= len(toks) || toks[k].punct || len(a.words[n-1]) > 2) {
			return a, n
		}
	}
	return arAgency{}, 0
}

func arAgencyAt(toks []arTok, i int) bool {
	_, n := arAgencyMatch(toks, i)
	return n > 0
}

// arSpan is how many tokens n words from toks[i] take, dots included.
func arSpan(toks []arTok, i, n int) int {
	k := i
	for seen := 0; k < len(toks) && seen < n; k++ {
		if !toks[k].punct {
			seen++
		}
	}
	return k - i
}

// arEnclosed reports whether toks[a:b+1] stand in brackets or quotes, or
// at the caption's end.
func arEnclosed(toks []arTok, a, b int) bool {
	if a > 0 && toks[a-1].punct && strings.Contains(arOpen, toks[a-1].text) {
		return true
	}
	for _, t := range toks[b+1:] {
		if !t.punct {
			return false
		}
		if strings.Contains(arClose, t.text) {
			return true
		}
	}
	return true // nothing but punctuation after it
}
