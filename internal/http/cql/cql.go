// Package cql reads the part of CQL2 text (OGC 21-065) that an archive
// of photos can answer with its indexes: comparisons of one property with
// one value, joined by AND.
//
//	agency = 'AFP' AND date >= DATE('2016-01-01') AND confidence > 0.5
//	date BETWEEN DATE('2016-01-01') AND DATE('2016-12-31')
//	T_INTERSECTS(date, INTERVAL('2016-01-01', '..'))
//
// OR, NOT, LIKE, IN, IS NULL, spatial functions and arithmetic are not
// read: each is an error that names what is missing, never a filter that
// quietly selects something else.
package cql

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/syriamap/syriamap/internal/photo"
)

// Type is what a property holds, and so what it may be compared with.
type Type int

// The property types.
const (
	String Type = iota
	Number
	Date
)

// Parse reads a CQL2 text filter over the properties props (name → type)
// into conditions that must all hold. Property names are matched as
// written or double-quoted; keywords in any case. An error is a
// photo.Error naming the "filter" parameter and where the text went wrong.
func Parse(text string, props map[string]Type) ([]photo.Cond, error) {
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, props: props}
	if p.peek().kind == tEOF {
		return nil, p.errorf("is empty")
	}
	conds, err := p.conjunction()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		if t.is("OR") || t.is("NOT") {
			return nil, p.errorf("%s is not supported: only comparisons joined by AND", strings.ToUpper(t.text))
		}
		return nil, p.errorf("unexpected %s at %d", t, t.pos)
	}
	return conds, nil
}

type tokenKind int

const (
	tEOF tokenKind = iota
	tIdent
	tString
	tNumber
	tOp    // = <> < <= > >=
	tPunct // ( ) ,
)

type token struct {
	kind tokenKind
	text string // a string's value without its quotes
	pos  int    // byte offset, for messages
}

func (t token) is(keyword string) bool { return t.kind == tIdent && strings.EqualFold(t.text, keyword) }

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of filter"
	case tString:
		return "'" + t.text + "'"
	}
	return strconv.Quote(t.text)
}

// maxFilter bounds a filter's length: a URL's worth.
const maxFilter = 4096

func lex(s string) ([]token, error) {
	if len(s) > maxFilter {
		return nil, photo.ParamErrorf("filter", "is longer than %d bytes", maxFilter)
	}
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		lexOne := lexers[tokenClass(c)]
		if lexOne == nil {
			return nil, photo.ParamErrorf("filter", "unexpected %q at %d", c, i)
		}
		t, end, err := lexOne(s, i)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
		i = end
	}
	return append(out, token{kind: tEOF, pos: len(s)}), nil
}

// A lexer reads the token that starts at s[i], returning it and where the
// next one may start.
type lexer func(s string, i int) (token, int, error)

// The classes of a token's first byte, each read by its lexer.
const (
	classNone = iota
	classString
	classQuoted
	classPunct
	classOp
	classNumber
	classIdent
)

var lexers = [...]lexer{classString: lexString, classQuoted: lexQuoted, classPunct: lexPunct, classOp: lexOp,
	classNumber: lexNumber, classIdent: lexIdent}

func tokenClass(c byte) int {
	switch {
	case c == '\'':
		return classString
	case c == '"':
		return classQuoted
	case c == '(' || c == ')' || c == ',':
		return classPunct
	case c == '=' || c == '<' || c == '>':
		return classOp
	case c == '-' || c == '+' || c == '.' || isDigit(c):
		return classNumber
	case c == '_' || unicode.IsLetter(rune(c)):
		return classIdent
	}
	return classNone
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// lexString reads a string literal; ” is a quote inside it.
func lexString(s string, i int) (token, int, error) {
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		if s[j] != '\'' {
			b.WriteByte(s[j])
			continue
		}
		if j+1 < len(s) && s[j+1] == '\'' {
			b.WriteByte('\'')
			j++
			continue
		}
		return token{tString, b.String(), i}, j + 1, nil
	}
	return token{}, 0, photo.ParamErrorf("filter", "the string at %d has no closing quote", i)
}

// lexQuoted reads a quoted name.
func lexQuoted(s string, i int) (token, int, error) {
	j := strings.IndexByte(s[i+1:], '"')
	if j < 0 {
		return token{}, 0, photo.ParamErrorf("filter", "the name at %d has no closing quote", i)
	}
	return token{tIdent, s[i+1 : i+1+j], i}, i + j + 2, nil
}

func lexPunct(s string, i int) (token, int, error) {
	return token{tPunct, s[i : i+1], i}, i + 1, nil
}

// lexOp reads =, <, >, <=, >= or <>.
func lexOp(s string, i int) (token, int, error) {
	op := s[i : i+1]
	if i+1 < len(s) && (s[i+1] == '=' || s[i] == '<' && s[i+1] == '>') {
		op = s[i : i+2]
	}
	return token{tOp, op, i}, i + len(op), nil
}

// lexNumber reads a number, a sign and an exponent included.
func lexNumber(s string, i int) (token, int, error) {
	j := i + 1
	for j < len(s) && (isDigit(s[j]) || s[j] == '.' || s[j] == 'e' || s[j] == 'E' ||
		(s[j] == '-' || s[j] == '+') && (s[j-1] == 'e' || s[j-1] == 'E')) {
		j++
	}
	return token{tNumber, s[i:j], i}, j, nil
}

// lexIdent reads a name or a keyword.
func lexIdent(s string, i int) (token, int, error) {
	j := i + 1
	for j < len(s) && (s[j] == '_' || s[j] == ':' || unicode.IsLetter(rune(s[j])) || isDigit(s[j])) {
		j++
	}
	return token{tIdent, s[i:j], i}, j, nil
}

type parser struct {
	toks  []token
	at    int
	props map[string]Type
	depth int
}

func (p *parser) peek() token { return p.toks[p.at] }

func (p *parser) next() token {
	t := p.toks[p.at]
	if t.kind != tEOF {
		p.at++
	}
	return t
}

func (p *parser) errorf(format string, args ...any) error {
	return photo.ParamErrorf("filter", format, args...)
}

func (p *parser) expect(kind tokenKind, text string) error {
	t := p.next()
	if t.kind != kind || t.text != text {
		return p.errorf("expected %q at %d, found %s", text, t.pos, t)
	}
	return nil
}

// maxDepth bounds nested parentheses.
const maxDepth = 32

// conjunction := term (AND term)*
func (p *parser) conjunction() ([]photo.Cond, error) {
	var out []photo.Cond
	for {
		conds, err := p.term()
		if err != nil {
			return nil, err
		}
		out = append(out, conds...)
		if !p.peek().is("AND") {
			return out, nil
		}
		p.next()
	}
}

// term := '(' conjunction ')' | temporal | property op value | property
// BETWEEN value AND value. The property comes first, as clients write it.
func (p *parser) term() ([]photo.Cond, error) {
	t := p.peek()
	switch {
	case t.kind == tPunct && t.text == "(":
		if p.depth++; p.depth > maxDepth {
			return nil, p.errorf("more than %d nested parentheses", maxDepth)
		}
		p.next()
		conds, err := p.conjunction()
		if err != nil {
			return nil, err
		}
		if t := p.peek(); t.is("OR") {
			return nil, p.errorf("OR is not supported: only comparisons joined by AND")
		}
		p.depth--
		return conds, p.expect(tPunct, ")")
	case t.is("NOT"):
		return nil, p.errorf("NOT is not supported: only comparisons joined by AND")
	case t.is("T_INTERSECTS") || t.is("T_DURING"):
		return p.temporal()
	case t.kind == tIdent && !(isValueKeyword(t) && p.toks[p.at+1].text == "("):
		// A property, which may be called date: DATE( is a literal.
		return p.comparison()
	}
	return nil, p.errorf("expected a property at %d, found %s (write the property first: date >= DATE('2016-01-01'))", t.pos, t)
}

func isValueKeyword(t token) bool { return t.is("DATE") || t.is("TIMESTAMP") }

func (p *parser) property(t token) (Type, error) {
	typ, ok := p.props[t.text]
	if !ok {
		if t.is("OR") || t.is("AND") || t.is("NOT") {
			return 0, p.errorf("unexpected %s at %d", strings.ToUpper(t.text), t.pos)
		}
		return 0, p.errorf("%q at %d is not a queryable property", t.text, t.pos)
	}
	return typ, nil
}

func (p *parser) comparison() ([]photo.Cond, error) {
	prop := p.next()
	typ, err := p.property(prop)
	if err != nil {
		return nil, err
	}
	op := p.next()
	if op.is("BETWEEN") {
		lo, err := p.value(typ)
		if err != nil {
			return nil, err
		}
		if t := p.next(); !t.is("AND") {
			return nil, p.errorf("expected AND at %d, found %s", t.pos, t)
		}
		hi, err := p.value(typ)
		if err != nil {
			return nil, err
		}
		return []photo.Cond{{Property: prop.text, Op: ">=", Value: lo}, {Property: prop.text, Op: "<=", Value: hi}}, nil
	}
	if op.kind != tOp {
		if op.is("LIKE") || op.is("IN") || op.is("IS") || op.is("NOT") {
			return nil, p.errorf("%s is not supported: use = <> < <= > >= or BETWEEN", strings.ToUpper(op.text))
		}
		return nil, p.errorf("expected a comparison after %q at %d, found %s", prop.text, op.pos, op)
	}
	v, err := p.value(typ)
	if err != nil {
		return nil, err
	}
	return []photo.Cond{{Property: prop.text, Op: op.text, Value: v}}, nil
}

// temporal := (T_INTERSECTS | T_DURING) '(' property ',' (INTERVAL '('
// value ',' value ')' | value) ')'. A photo's date is an instant (its
// first day), so both read as "within".
func (p *parser) temporal() ([]photo.Cond, error) {
	p.next()
	if err := p.expect(tPunct, "("); err != nil {
		return nil, err
	}
	prop := p.next()
	typ, err := p.property(prop)
	if err != nil {
		return nil, err
	}
	if typ != Date {
		return nil, p.errorf("%q is not a date", prop.text)
	}
	if err := p.expect(tPunct, ","); err != nil {
		return nil, err
	}
	var out []photo.Cond
	if p.peek().is("INTERVAL") {
		p.next()
		if err := p.expect(tPunct, "("); err != nil {
			return nil, err
		}
		for i, op := range []string{">=", "<="} {
			if i == 1 {
				if err := p.expect(tPunct, ","); err != nil {
					return nil, err
				}
			}
			if t := p.peek(); t.kind == tString && (t.text == ".." || t.text == "") {
				p.next()
				continue
			}
			v, err := p.value(Date)
			if err != nil {
				return nil, err
			}
			out = append(out, photo.Cond{Property: prop.text, Op: op, Value: v})
		}
		if err := p.expect(tPunct, ")"); err != nil {
			return nil, err
		}
	} else {
		v, err := p.value(Date)
		if err != nil {
			return nil, err
		}
		out = append(out, photo.Cond{Property: prop.text, Op: "=", Value: v})
	}
	return out, p.expect(tPunct, ")")
}

// value reads a literal of the property's type: a 'string', a number, or
// for a date DATE('YYYY-MM-DD'), TIMESTAMP('…T…Z') or a plain string.
func (p *parser) value(typ Type) (any, error) {
	t := p.next()
	switch typ {
	case Number:
		if t.kind != tNumber {
			return nil, p.errorf("expected a number at %d, found %s", t.pos, t)
		}
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, p.errorf("%q at %d is not a number", t.text, t.pos)
		}
		return f, nil
	case Date:
		if isValueKeyword(t) && p.peek().text == "(" {
			if err := p.expect(tPunct, "("); err != nil {
				return nil, err
			}
			lit := p.next()
			if lit.kind != tString {
				return nil, p.errorf("expected a quoted date at %d, found %s", lit.pos, lit)
			}
			if err := p.expect(tPunct, ")"); err != nil {
				return nil, err
			}
			t = lit
		}
		if t.kind != tString {
			return nil, p.errorf("expected DATE('YYYY-MM-DD') at %d, found %s", t.pos, t)
		}
		d, err := ParseInstant(t.text)
		if err != nil {
			return nil, p.errorf("%q at %d: %v", t.text, t.pos, err)
		}
		return d, nil
	}
	if t.kind != tString {
		return nil, p.errorf("expected a 'quoted string' at %d, found %s", t.pos, t)
	}
	return t.text, nil
}

// ParseInstant reads a date as OGC APIs write instants: YYYY-MM-DD,
// RFC 3339 (its time of day is dropped: photos are dated to the day),
// and, leniently, YYYY and YYYY-MM, or a date with a bare "T" after it
// (as GDAL writes interval ends).
func ParseInstant(s string) (photo.Date, error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "Tt"); i >= 0 {
		s = s[:i]
	}
	d, err := photo.ParseDate(s)
	if err != nil {
		return photo.Date{}, fmt.Errorf("not a date: want YYYY-MM-DD or an RFC 3339 time")
	}
	return d, nil
}
