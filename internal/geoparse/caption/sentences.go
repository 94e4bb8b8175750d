package caption

import "strings"

// Sentences splits a caption into its sentences as Parse numbers them,
// the one that describes the photo first: an English caption's first
// sentence (with a dateline that is a sentence of its own, "HASAKA,
// Syria.", joined to it), an Arabic caption's "وفي هذه الصورة …" when it
// has one, else its first. The others follow in text order; each is
// trimmed, and a caption with no words gives none. It is how other
// rules read "the sentence that describes the photo" (the linker's
// stock background sentence, conflict.Sighting.Sentences). It is safe
// for concurrent use.
func Sentences(text string) []string {
	type span struct{ n, start, end int }
	var spans []span
	add := func(n, start, end int) {
		if k := len(spans); k > 0 && spans[k-1].n == n {
			spans[k-1].end = end
			return
		}
		spans = append(spans, span{n, start, end})
	}
	if arabic, latin := scripts(text); arabic > latin {
		toks := tokenizeArabic(text)
		markArabicSentences(text, toks)
		for _, t := range toks {
			add(t.sentence, t.start, t.end)
		}
	} else {
		toks := tokenize(text, nil)
		markSentences(toks)
		for _, t := range toks {
			add(t.sentence, t.start, t.end)
		}
		if len(spans) > 1 && isDateline(text[spans[0].start:spans[0].end]) {
			spans[1].start = spans[0].start
			spans = spans[1:]
			for i := range spans {
				spans[i].n--
			}
		}
	}
	var out []string
	// The describing sentence (numbered 0) first, the rest in text
	// order; an Arabic caption's lead-in may span several runs.
	for pass := 0; pass < 2; pass++ {
		for _, s := range spans {
			if (s.n == 0) == (pass == 0) {
				if t := strings.TrimSpace(text[s.start:s.end]); t != "" {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// isDateline reports a first sentence that is only a dateline: a few
// words in capitals, a country perhaps ("HASAKA, Syria.", "BEIRUT.").
func isDateline(s string) bool {
	words := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '.' || r == '(' || r == ')' })
	if len(words) == 0 || len(words) > 4 {
		return false
	}
	return words[0] == strings.ToUpper(words[0]) && strings.ToUpper(words[0]) != strings.ToLower(words[0])
}
