package ingest

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// joinedWarnings says where a text file's paragraph (its lines para,
// the first on line start) may hold two captions the caption reader
// made one (captions, as caption.Split gave them): a line that ends a
// sentence followed by one that starts a sentence, both in one caption.
// Captions are separated by blank lines; a caption split at a credit is
// two already. It returns the warnings by caption, nil when none.
func joinedWarnings(name string, start int, para, captions []string) map[int][]string {
	var out map[int][]string
	for i := 1; i < len(para); i++ {
		prev, next := strings.Fields(para[i-1]), strings.Fields(para[i])
		if len(prev) == 0 || len(next) == 0 || !endsSentence(prev[len(prev)-1]) || !startsSentence(next[0]) {
			continue
		}
		joint := strings.Join(prev, " ") + " " + next[0]
		for k, c := range captions {
			if strings.Contains(c, joint) {
				if out == nil {
					out = map[int][]string{}
				}
				out[k] = append(out[k], fmt.Sprintf("%s:%d: two captions may be joined into one photo: separate captions by a blank line", name, start+i))
				break
			}
		}
	}
	return out
}

// endsSentence reports whether a word ends a sentence (., !, ?, ؟).
func endsSentence(word string) bool {
	r, _ := utf8.DecodeLastRuneInString(word)
	return strings.ContainsRune(".!?؟", r)
}

// startsSentence reports whether a word may start a sentence: a capital,
// or a letter of a script without case (Arabic).
func startsSentence(word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	return unicode.IsUpper(r) || unicode.IsLetter(r) && !unicode.IsLower(r)
}
