// Package caption reads news-photo captions: the date the photo was taken,
// who took it and for whom, and the place names with what each sentence
// says of them. It does no I/O and knows no gazetteer: deciding which
// place is which is the geocoder's job.
package caption

import (
	"strings"
	"sync"
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
}

type scratch struct {
	toks  []token
	skip  []bool
	dates []int
}

var scratchPool = sync.Pool{New: func() any { return &scratch{toks: make([]token, 0, 128)} }}

// Parse reads one caption. It is safe for concurrent use.
func Parse(text string) Caption {
	c := Caption{Text: text}
	credit, cs, ce, ok := findCredit(text)
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
	c.Date = findDate(toks, inSkip, func(i int) { dates = append(dates, i) })
	s.dates = dates
	// Dates are not names: "March 14, 2016" is no place.
	for _, i := range dates {
		skip[i] = true
	}
	c.Mentions = findMentions(text, toks, inSkip, make([]Mention, 0, 8))
	return c
}

// Split splits a document into captions: paragraphs are separated by blank
// lines and the lines of a paragraph are joined with a space. A paragraph
// that holds two captions run together, the second starting right after
// the first's parenthesised credit ("…/Reuters)A fighter …"), is split there.
func Split(doc string) []string {
	doc = strings.ReplaceAll(doc, "\r\n", "\n")
	var out []string
	for _, para := range strings.Split(doc, "\n\n") {
		text := strings.Join(strings.Fields(para), " ")
		for text != "" {
			first, rest := splitAfterCredit(text)
			out = append(out, first)
			text = rest
		}
	}
	return out
}

// splitAfterCredit returns the text up to the end of the first
// parenthesised credit that more text follows, and that text.
func splitAfterCredit(text string) (string, string) {
	for from := 0; ; {
		j := strings.IndexByte(text[from:], ')')
		if j < 0 {
			return text, ""
		}
		j += from
		i := strings.LastIndexByte(text[:j], '(')
		rest := strings.TrimSpace(text[j+1:])
		if i >= 0 && rest != "" && startsSentence(rest) && isCreditGroup(text[i+1:j]) {
			return strings.TrimSpace(text[:j+1]), rest
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
