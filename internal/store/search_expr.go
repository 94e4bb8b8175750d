package store

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// searchExpr is a full-text search as FTS5 reads it: a phrase (its
// terms, each a token of fts5Tokens, perhaps a prefix), or an operator
// over two searches. A nil *searchExpr is a search that matches nothing
// (FTS5's empty phrase, as `""` or a word of punctuation).
type searchExpr struct {
	// op is 0 for a phrase, else '&' (AND), '|' (OR), '-' (NOT: the
	// left and not the right) or 'n' (NEAR, its phrases in kids).
	op    byte
	terms []searchTerm
	kids  []*searchExpr
}

type searchTerm struct {
	token  string
	prefix bool
}

// errSearchSyntax is a search FTS5 refuses.
var errSearchSyntax = errors.New("not a full-text search")

// parseSearch reads q, a search in FTS5's syntax (ftsQuery's), as FTS5
// does: words and "phrases" (a word that reads as several tokens, a_b,
// is a phrase), + joining phrases, prefix*, NEAR(...), juxtaposed
// phrases (AND, binding tightest), NOT, AND, OR (loosest), and brackets,
// which FTS5 does not let stand beside a phrase without an operator.
// It refuses what FTS5 refuses (errSearchSyntax); column filters (:, {},
// -) and ^ are refused, though FTS5 reads some of them, for no search the
// store makes has them.
func parseSearch(q string) (*searchExpr, error) {
	toks, err := searchLex(q)
	if err != nil {
		return nil, err
	}
	p := &searchParser{toks: toks}
	e, err := p.or()
	if err == nil && p.peek().kind != 0 {
		err = p.fail()
	}
	return e, err
}

// searchToken is a token of FTS5's query syntax: kind is 's' for a
// string (bare or quoted), 'O', 'A', 'N' for OR, AND, NOT, or the
// character itself: ( ) * +; 0 at the end.
type searchToken struct {
	kind byte
	text string
}

func searchLex(q string) ([]searchToken, error) {
	var toks []searchToken
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '(' || c == ')' || c == '*' || c == '+':
			toks = append(toks, searchToken{kind: c})
			i++
		case c == '"':
			var b strings.Builder
			j := i + 1
			for ; ; j++ {
				if j >= len(q) {
					return nil, fmt.Errorf("%w: unterminated string", errSearchSyntax)
				}
				if q[j] == '"' {
					if j+1 < len(q) && q[j+1] == '"' {
						b.WriteByte('"')
						j++
						continue
					}
					break
				}
				b.WriteByte(q[j])
			}
			toks = append(toks, searchToken{kind: 's', text: b.String()})
			i = j + 1
		case isBareword(c):
			j := i
			for j < len(q) && isBareword(q[j]) {
				j++
			}
			word := q[i:j]
			kind := byte('s')
			switch word {
			case "OR":
				kind = 'O'
			case "AND":
				kind = 'A'
			case "NOT":
				kind = 'N'
			}
			toks = append(toks, searchToken{kind: kind, text: word})
			i = j
		default:
			return nil, fmt.Errorf("%w near %q", errSearchSyntax, c)
		}
	}
	return toks, nil
}

// isBareword reports whether FTS5 reads the byte c as part of a bare
// word: ASCII letters and digits, _, \x1a, and every byte of a rune past
// ASCII.
func isBareword(c byte) bool {
	return c >= 0x80 || c == '_' || c == 0x1a || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

type searchParser struct {
	toks []searchToken
	i    int
}

func (p *searchParser) peek() searchToken {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return searchToken{}
}

func (p *searchParser) next() searchToken { t := p.peek(); p.i++; return t }

func (p *searchParser) fail() error {
	if t := p.peek(); t.kind != 0 {
		return fmt.Errorf("%w near %q", errSearchSyntax, t.text+string(t.kind))
	}
	return fmt.Errorf("%w: it ends too soon", errSearchSyntax)
}

// or, and, not: FTS5's binary operators, loosest first, each left
// associative. A side that matches nothing (nil) is read as FTS5 reads
// it: x OR nothing is x, x AND nothing is nothing, nothing NOT x is
// nothing, x NOT nothing is x.
func (p *searchParser) or() (*searchExpr, error) {
	return p.binary('O', p.and, func(l, r *searchExpr) *searchExpr {
		if l == nil || r == nil {
			return either(l, r)
		}
		return &searchExpr{op: '|', kids: []*searchExpr{l, r}}
	})
}

func (p *searchParser) and() (*searchExpr, error) {
	return p.binary('A', p.not, func(l, r *searchExpr) *searchExpr {
		if l == nil || r == nil {
			return nil
		}
		return &searchExpr{op: '&', kids: []*searchExpr{l, r}}
	})
}

func (p *searchParser) not() (*searchExpr, error) {
	return p.binary('N', p.primary, func(l, r *searchExpr) *searchExpr {
		if l == nil || r == nil {
			return l
		}
		return &searchExpr{op: '-', kids: []*searchExpr{l, r}}
	})
}

// either is the one of l and r that is not nil.
func either(l, r *searchExpr) *searchExpr {
	if l == nil {
		return r
	}
	return l
}

func (p *searchParser) binary(op byte, operand func() (*searchExpr, error), join func(l, r *searchExpr) *searchExpr) (*searchExpr, error) {
	l, err := operand()
	if err != nil {
		return nil, err
	}
	for p.peek().kind == op {
		p.next()
		r, err := operand()
		if err != nil {
			return nil, err
		}
		l = join(l, r)
	}
	return l, nil
}

// primary is a bracketed search or phrases side by side (an implicit
// AND, in which a phrase that matches nothing is left out).
func (p *searchParser) primary() (*searchExpr, error) {
	if p.peek().kind == '(' {
		p.next()
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.next().kind != ')' {
			p.i--
			return nil, p.fail()
		}
		return e, p.endOfOperand()
	}
	var parts []*searchExpr
	start := p.i
	for p.peek().kind == 's' {
		e, err := p.nearset()
		if err != nil {
			return nil, err
		}
		if e != nil {
			parts = append(parts, e)
		}
	}
	if p.i == start {
		return nil, p.fail()
	}
	if err := p.endOfOperand(); err != nil {
		return nil, err
	}
	var e *searchExpr
	for _, part := range parts {
		if e == nil {
			e = part
		} else {
			e = &searchExpr{op: '&', kids: []*searchExpr{e, part}}
		}
	}
	return e, nil
}

// endOfOperand: after an operand come only an operator, a closing
// bracket or the end.
func (p *searchParser) endOfOperand() error {
	switch p.peek().kind {
	case 0, 'O', 'A', 'N', ')':
		return nil
	}
	return p.fail()
}

// nearset is a phrase or a NEAR group: NEAR(phrase phrase ...), which
// FTS5 reads when a word is followed by a bracket (any other word
// before a bracket is a syntax error).
func (p *searchParser) nearset() (*searchExpr, error) {
	if p.i+1 < len(p.toks) && p.toks[p.i+1].kind == '(' {
		if p.peek().text != "NEAR" {
			return nil, p.fail()
		}
		p.i += 2
		near := &searchExpr{op: 'n'}
		start := p.i
		for p.peek().kind == 's' {
			ph, err := p.phrase()
			if err != nil {
				return nil, err
			}
			if ph != nil {
				near.kids = append(near.kids, ph)
			}
		}
		if p.i == start || p.peek().kind != ')' {
			return nil, p.fail()
		}
		p.next()
		switch len(near.kids) {
		case 0:
			return nil, nil
		case 1:
			return near.kids[0], nil
		}
		return near, nil
	}
	return p.phrase()
}

// phrase is a string and its star, and those joined to it by +: its
// tokens in order; a star makes the last token before it a prefix.
func (p *searchParser) phrase() (*searchExpr, error) {
	ph := &searchExpr{}
	for {
		t := p.next()
		if t.kind != 's' {
			p.i--
			return nil, p.fail()
		}
		for _, tok := range fts5Tokens(t.text) {
			ph.terms = append(ph.terms, searchTerm{token: tok})
		}
		if p.peek().kind == '*' {
			p.next()
			if n := len(ph.terms); n > 0 {
				ph.terms[n-1].prefix = true
			}
		}
		if p.peek().kind != '+' {
			break
		}
		p.next()
	}
	if len(ph.terms) == 0 {
		return nil, nil
	}
	return ph, nil
}

// tsquery writes e as a PostgreSQL tsquery over the tokens fts5Tokens
// indexes (tsvectorOf): each lexeme quoted, a phrase's with <->, a
// prefix with :*, NEAR as every way its phrases can lie (nearTsquery).
func (e *searchExpr) tsquery() string {
	var b strings.Builder
	e.writeTsquery(&b)
	return b.String()
}

func (e *searchExpr) writeTsquery(b *strings.Builder) {
	switch e.op {
	case 0:
		b.WriteByte('(')
		for i, t := range e.terms {
			if i > 0 {
				b.WriteString(" <-> ")
			}
			b.WriteString(tsLexeme(t.token))
			if t.prefix {
				b.WriteString(":*")
			}
		}
		b.WriteByte(')')
		return
	case 'n':
		if len(e.kids) <= maxNearPhrases {
			e.writeNear(b)
			return
		}
	case '-':
		b.WriteByte('(')
		e.kids[0].writeTsquery(b)
		b.WriteString(" & !")
		e.kids[1].writeTsquery(b)
		b.WriteByte(')')
		return
	}
	op := " & "
	if e.op == '|' {
		op = " | "
	}
	b.WriteByte('(')
	for i, k := range e.kids {
		if i > 0 {
			b.WriteString(op)
		}
		k.writeTsquery(b)
	}
	b.WriteByte(')')
}

// nearDistance is FTS5's default for NEAR: at most ten words between
// the end of one phrase and the start of the last.
const nearDistance = 10

// maxNearPhrases is the most phrases of a NEAR group that writeNear
// spells out (each way they can lie is a tsquery of its own: about 430
// for three one-word phrases); a group of more is read as AND of its
// phrases, which finds a photo FTS5 would not when they lie further
// apart.
const maxNearPhrases = 3

// writeNear writes a NEAR group as a tsquery: the OR of every way its
// phrases can lie as FTS5's NEAR takes them (each phrase starting at or
// before the last one to start, with at most nearDistance words between
// its end and that start; phrases may overlap), each as a chain of
// positions from the first one's start, the terms that share a position
// joined by <0>.
func (e *searchExpr) writeNear(b *strings.Builder) {
	width := 0
	for _, ph := range e.kids {
		width = max(width, len(ph.terms)+nearDistance)
	}
	starts := make([]int, len(e.kids))
	var ways []string
	var place func(i int)
	place = func(i int) {
		if i < len(e.kids) {
			for starts[i] = 0; starts[i] <= width; starts[i]++ {
				place(i + 1)
			}
			return
		}
		if way, ok := e.nearWay(starts); ok {
			ways = append(ways, way)
		}
	}
	place(0)
	b.WriteString("(" + strings.Join(ways, " | ") + ")")
}

// nearWay is the tsquery of the NEAR group's phrases starting at starts,
// false when that is no way FTS5 matches (or a way counted already: the
// first phrase starts at 0) or one that no text holds (two words at one
// place).
func (e *searchExpr) nearWay(starts []int) (string, bool) {
	last := slices.Max(starts)
	if slices.Min(starts) != 0 {
		return "", false
	}
	at := map[int][]searchTerm{}
	for i, ph := range e.kids {
		if starts[i] < last-len(ph.terms)-nearDistance {
			return "", false
		}
		for j, t := range ph.terms {
			p := starts[i] + j
			if !slices.Contains(at[p], t) {
				at[p] = append(at[p], t)
			}
		}
	}
	var b strings.Builder
	prev := 0
	for _, p := range slices.Sorted(maps.Keys(at)) {
		terms := at[p]
		for _, t := range terms {
			if !t.prefix && slices.ContainsFunc(terms, func(u searchTerm) bool { return !u.prefix && u.token != t.token }) {
				return "", false
			}
		}
		if p > 0 {
			fmt.Fprintf(&b, " <%d> ", p-prev)
		}
		prev = p
		b.WriteByte('(')
		for j, t := range terms {
			if j > 0 {
				b.WriteString(" <0> ")
			}
			(&searchExpr{terms: []searchTerm{t}}).writeTsquery(&b)
		}
		b.WriteByte(')')
	}
	return b.String(), true
}

// maxLexemeBytes is the longest word PostgreSQL keeps in a tsvector
// (2 KiB less two); a longer one is indexed cut, as no search is so long
// (maxSearchBytes).
const maxLexemeBytes = 2046

// tsLexeme quotes a token as a lexeme of a tsvector's or tsquery's text.
func tsLexeme(tok string) string {
	if len(tok) > maxLexemeBytes {
		tok = strings.ToValidUTF8(tok[:maxLexemeBytes], "")
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(tok) + "'"
}

// tsvectorOf writes text's words (fts5Tokens) as the text of a
// PostgreSQL tsvector, each with its positions from 1, so that phrases
// match as FTS5 matches them; PostgreSQL's parser never splits them.
func tsvectorOf(text string) string {
	pos := map[string][]int{}
	for i, tok := range fts5Tokens(text) {
		pos[tok] = append(pos[tok], i+1)
	}
	var b strings.Builder
	for _, tok := range slices.Sorted(maps.Keys(pos)) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(tsLexeme(tok))
		for i, p := range pos[tok] {
			if i == 0 {
				b.WriteByte(':')
			} else {
				b.WriteByte(',')
			}
			fmt.Fprint(&b, min(p, 16383))
		}
	}
	return b.String()
}
