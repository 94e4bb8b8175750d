package i18n

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestGlossary: the Arabic pages write each concept one way. The glossary
// (glossary.json, beside the catalogue) fixes the term for each concept
// and lists the ways it must not be written; a catalogue text that uses
// one of them fails, named with its key. A quoted entry ("\"دقيق\"") is
// a whole text, not a part of one.
func TestGlossary(t *testing.T) {
	b, err := os.ReadFile("glossary.json")
	if err != nil {
		t.Fatal(err)
	}
	var glossary []struct {
		Concept, AR string
		Not         []string
	}
	if err := json.Unmarshal(b, &glossary); err != nil {
		t.Fatalf("glossary.json: %v", err)
	}
	if len(glossary) == 0 {
		t.Fatal("an empty glossary")
	}
	for key, m := range catalogue {
		ar := m[Arabic]
		texts := []string{ar.s}
		for _, f := range ar.forms {
			texts = append(texts, f)
		}
		for _, text := range texts {
			for _, entry := range glossary {
				for _, not := range entry.Not {
					whole, isWhole := strings.CutPrefix(not, `"`)
					whole = strings.TrimSuffix(whole, `"`)
					if isWhole && text == whole || !isWhole && strings.Contains(text, not) {
						t.Errorf("%s: %q writes %q; the glossary's term for %s is %q", key, text, whole, entry.Concept, entry.AR)
					}
				}
			}
		}
	}
}
