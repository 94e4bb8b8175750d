package caption

import (
	"unicode"
	"unicode/utf8"
)

// tokKind is what a token is.
type tokKind uint8

const (
	tWord tokKind = iota
	tNumber
	tPunct
)

// token is a word, a number or one punctuation rune of a caption.
type token struct {
	kind       tokKind
	start, end int    // byte offsets in the caption
	text       string // the caption's own text
	lower      string // text with ASCII letters in lower case
	num        int    // the value of a number (ordinal suffix dropped)
	digits     int    // how many digits a number has
	sentence   int    // index of the sentence the token is in
	space      bool   // white space comes before the token
	lex        lexFlag
}

func (t *token) has(f lexFlag) bool { return t.lex&f != 0 }

// upper reports whether a word begins with a capital letter.
func (t *token) upper() bool {
	r, _ := utf8.DecodeRuneInString(t.text)
	return t.kind == tWord && unicode.IsUpper(r)
}

// allCaps reports whether a word of two letters or more is all capitals.
func (t *token) allCaps() bool {
	if t.kind != tWord || len(t.text) < 2 {
		return false
	}
	for _, r := range t.text {
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}

func (t *token) is(p string) bool { return t.kind == tPunct && t.text == p }

func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', '`', 'ʿ', 'ʾ', 'ʼ':
		return true
	}
	return false
}

// wordEnd returns where the word whose letters go on at j ends: letters,
// marks and digits, and an apostrophe inside a word (Ma'arrat, Ra's).
func wordEnd(text string, j int) int {
	for j < len(text) {
		if c := text[j]; c < utf8.RuneSelf {
			if isLetterByte(c) || c >= '0' && c <= '9' {
				j++
				continue
			}
			if c != '\'' && c != '`' {
				break
			}
		}
		r2, s2 := utf8.DecodeRuneInString(text[j:])
		if unicode.IsLetter(r2) || unicode.IsMark(r2) || unicode.IsDigit(r2) {
			j += s2
			continue
		}
		if isApostrophe(r2) && j+s2 < len(text) {
			if r3, _ := utf8.DecodeRuneInString(text[j+s2:]); unicode.IsLetter(r3) {
				j += s2
				continue
			}
		}
		break
	}
	return j
}

// numberAt reads the number that starts at i: its digits (the value of
// the first nine), and an ordinal suffix (17th) as part of it.
func numberAt(text string, i int) token {
	j, n, d := i, 0, 0
	for j < len(text) && text[j] >= '0' && text[j] <= '9' {
		if d < 9 {
			n = n*10 + int(text[j]-'0')
		}
		d++
		j++
	}
	end := j
	if j+2 <= len(text) {
		switch lowerASCII(text[j : j+2]) {
		case "st", "nd", "rd", "th":
			if j+2 == len(text) || !isLetterByte(text[j+2]) {
				end = j + 2
			}
		}
	}
	return token{kind: tNumber, start: i, end: end, text: text[i:end], num: n, digits: d}
}

// tokenize splits text into words (letters, with apostrophes inside),
// numbers (digits, with an ordinal suffix such as 17th) and single
// punctuation runes. Hyphens are tokens of their own.
func tokenize(text string, toks []token) []token {
	i := 0
	space := true
	for i < len(text) {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		switch {
		case r == ' ' || r < utf8.RuneSelf && (r == '\n' || r == '\t' || r == '\r') || r >= utf8.RuneSelf && unicode.IsSpace(r):
			space = true
			i += size
			continue
		case isLetterByte(byte(r)) && r < utf8.RuneSelf || r >= utf8.RuneSelf && unicode.IsLetter(r):
			j := wordEnd(text, i+size)
			toks = append(toks, token{kind: tWord, start: i, end: j, text: text[i:j], space: space})
			i = j
		case r >= '0' && r <= '9':
			t := numberAt(text, i)
			t.space = space
			toks = append(toks, t)
			i = t.end
		default:
			toks = append(toks, token{kind: tPunct, start: i, end: i + size, text: text[i : i+size], space: space})
			i += size
		}
		space = false
	}
	// One lower-cased copy of the text serves every token.
	lower := lowerASCII(text)
	for k := range toks {
		t := &toks[k]
		t.lower = lower[t.start:t.end]
		if t.kind == tWord {
			t.lex = lexOf(t.lower)
		}
	}
	return toks
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// lowerASCII lower-cases ASCII letters only, so byte offsets are kept; it
// allocates only when s has a capital.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// appendLower appends s to dst with ASCII letters in lower case: a map
// key that needs no allocation of its own.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// abbreviations end with a full stop that does not end a sentence.
var abbreviations = map[string]bool{
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
	"mr": true, "mrs": true, "ms": true, "dr": true, "st": true, "mt": true, "gen": true, "lt": true,
	"col": true, "maj": true, "capt": true, "sgt": true, "no": true, "vs": true, "u": true, "s": true,
	"n": true, "un": true, "jr": true, "sr": true, "prof": true, "rev": true,
}

// markSentences numbers the sentences: a sentence ends at . ! or ? before
// a space and a capital, digit or quote, unless the full stop ends an
// abbreviation or an initial.
func markSentences(toks []token) {
	s := 0
	for i := range toks {
		toks[i].sentence = s
		t := &toks[i]
		if t.kind != tPunct || !(t.text == "." || t.text == "!" || t.text == "?") || i+1 >= len(toks) {
			continue
		}
		next := &toks[i+1]
		if !next.space || !(next.upper() || next.kind == tNumber || next.is("“") || next.is("\"") || next.is("(")) {
			continue
		}
		if t.text == "." && i > 0 {
			prev := &toks[i-1]
			if prev.kind == tWord && (abbreviations[prev.lower] || utf8.RuneCountInString(prev.text) == 1 && prev.upper()) {
				continue
			}
		}
		s++
	}
}
