// Package caption reads news-photo captions: the date the photo was taken,
// who took it and for whom, and the place names with what each sentence
// says of them. It does no I/O and knows no gazetteer: deciding which
// place is which is the geocoder's job.
package caption

import (
	"strings"
	"sync"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// Caption is what Parse reads from one caption.
type Caption struct {
	Text   string
	Date   Date
	Credit Credit
	// CreditStart and CreditEnd are the byte span of the credit in Text
	// (both 0 when there is none); place names there are not places.
	CreditStart, CreditEnd int
	// Mentions are the capitalised names outside the credit and the dates,
	// in text order.
	Mentions []Mention
	// Uppercase is true for a caption written in capitals (some wire
	// archives): capitals then say nothing of names.
	Uppercase bool
	// Arabic is true for a caption written mostly in Arabic script, read
	// by parseArabic.
	Arabic bool
}

type scratch struct {
	toks  []token
	skip  []bool
	dates []int
}

var scratchPool = sync.Pool{New: func() any { return &scratch{toks: make([]token, 0, 128)} }}

// Parse reads one caption with no reference date (see ParseAt). It is
// safe for concurrent use.
func Parse(text string) Caption { return ParseAt(text, Date{}) }

// ParseAt reads one caption whose import gives a reference date: the day
// the source page was published, or the date a file gives the photo. A
// caption written in Arabic that gives a day and a month without a year
// ("21 من آب", "السبت 16 نيسان", as Enab Baladi writes them) is read in
// the reference's year, or in the year before when that would put the
// day after the reference (a photo is not published before it is taken);
// with no reference (the zero Date), such a caption gives no date rather
// than a guessed year. A year the caption writes always wins. Against a
// reference known to the day, relative dates are read too, in both
// languages ("on Sunday", "yesterday", "أمس", "اليوم السبت", "ليل
// الأحد"; see relative.go); a date the caption writes in full wins over
// them. It is safe for concurrent use.
func ParseAt(text string, ref Date) Caption {
	var c Caption
	arabic, latin := scripts(text)
	switch {
	case arabic > latin && latin >= mixedLetters:
		c = mix(parseArabic(text, ref), parseEnglish(text, ref))
	case arabic > latin:
		c = parseArabic(text, ref)
	case arabic >= mixedLetters:
		c = mix(parseEnglish(text, ref), parseArabic(text, ref))
		c.Arabic = false
	default:
		c = parseEnglish(text, ref)
	}
	// A source known under names in both scripts is filed under one
	// (lexicon.Agencies): "مركز الغوطة الإعلامي" and "Ghouta Media Center"
	// are one agency.
	c.Credit.Agency = lexicon.AgencyID(c.Credit.Agency)
	return c
}

// parseEnglish reads a caption written in English (or another language in
// Latin script); ref is the reference date relative dates are read
// against (see ParseAt).
func parseEnglish(text string, ref Date) Caption {
	c := Caption{Text: text, Uppercase: mostlyUpper(text)}
	credit, cs, ce, ok := findCredit(text)
	if !ok {
		// No wire or agency credit: a local source's name at the end.
		credit, cs, ce, ok = sourceCredit(text)
	}
	if ok {
		c.Credit, c.CreditStart, c.CreditEnd = credit, cs, ce
	}
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	toks := tokenize(text, s.toks[:0])
	s.toks = toks
	markSentences(toks)
	if cap(s.skip) < len(toks) {
		s.skip = make([]bool, len(toks))
	}
	skip := s.skip[:len(toks)]
	for i := range toks {
		skip[i] = ok && toks[i].start >= cs && toks[i].end <= ce
	}
	inSkip := func(i int) bool { return skip[i] }
	dates := s.dates[:0]
	c.Date = findDate(toks, ref, inSkip, func(i int) { dates = append(dates, i) })
	s.dates = dates
	// Dates are not names: "March 14, 2016" is no place.
	for _, i := range dates {
		skip[i] = true
	}
	c.Mentions = findMentions(text, toks, inSkip, make([]Mention, 0, 8))
	joinDateline(c.Mentions)
	return c
}

// joinDateline counts a dateline that is a sentence of its own ("HASAKA,
// Syria. REUTERS/Rodi Said Christian fighters man a checkpoint in …") as
// part of the first sentence of the body, which describes the photo.
func joinDateline(ms []Mention) {
	if len(ms) == 0 || ms[0].Cue != "dateline" {
		return
	}
	for _, m := range ms {
		if m.Sentence == 0 && m.Cue != "dateline" && m.Entity != Country {
			return
		}
	}
	for i := range ms {
		if ms[i].Sentence > 0 {
			ms[i].Sentence--
		}
	}
}

// mostlyUpper reports whether most of the ASCII letters of s are capitals.
func mostlyUpper(s string) bool {
	upper, lower := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		}
	}
	return upper > lower
}

// Split splits a document into captions: paragraphs are separated by blank
// lines and the lines of a paragraph are joined with a space. A paragraph
// that holds two captions run together is split after the first one's
// parenthesised credit when the next caption starts right after it, with
// no space ("…/Reuters)A fighter …", as in the seed files), or on the next
// line. Text after a credit on the same line (a background sentence) stays
// with its caption.
func Split(doc string) []string {
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, splitParagraph(para)...)
			para = para[:0]
		}
	}
	for _, line := range strings.Split(strings.ReplaceAll(doc, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		para = append(para, line)
	}
	flush()
	return out
}

// splitParagraph splits the lines of one paragraph into captions.
func splitParagraph(lines []string) []string {
	var out, cur []string
	emit := func() {
		if text := strings.Join(strings.Fields(strings.Join(cur, " ")), " "); text != "" {
			out = append(out, text)
		}
		cur = cur[:0]
	}
	for _, line := range lines {
		// A new line after a line that ended with a credit starts a caption.
		if len(cur) > 0 && endsWithCredit(cur[len(cur)-1]) && startsSentence(strings.TrimSpace(line)) {
			emit()
		}
		for {
			first, rest, ok := splitRunTogether(line)
			if !ok {
				break
			}
			cur = append(cur, first)
			emit()
			line = rest
		}
		cur = append(cur, line)
	}
	emit()
	return out
}

// endsWithCredit reports whether a line ends with a credit, in
// parentheses or not ("REUTERS/Name").
func endsWithCredit(line string) bool {
	line = strings.TrimRight(line, " \t.")
	_, _, end, ok := findCredit(line)
	return ok && end >= len(line)
}

// splitRunTogether splits a line after a parenthesised credit that the next
// caption follows with no space between: "…/Reuters)A fighter …".
func splitRunTogether(line string) (first, rest string, ok bool) {
	for from := 0; ; {
		j := strings.IndexByte(line[from:], ')')
		if j < 0 {
			return "", "", false
		}
		j += from
		if i := strings.LastIndexByte(line[:j], '('); i >= 0 && j+1 < len(line) && line[j+1] != ' ' && line[j+1] != '\t' &&
			startsSentence(line[j+1:]) && isCreditGroup(line[i+1:j]) {
			return line[:j+1], line[j+1:], true
		}
		from = j + 1
	}
}

// isCreditGroup reports whether a parenthesised group is a whole credit
// rather than an aside that names an agency.
func isCreditGroup(s string) bool {
	c, ok := parseCredit(s)
	return ok && (c.Photographer != "" || c.Agency != "")
}

func startsSentence(s string) bool {
	toks := tokenize(s[:min(len(s), 40)], nil)
	return len(toks) > 0 && (toks[0].upper() || toks[0].is("“") || toks[0].is("\""))
}
