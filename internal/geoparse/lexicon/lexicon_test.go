package lexicon

import (
	"strings"
	"testing"
)

// TestOneVocabulary checks that the lists agree: every code a country or
// a nationality names is a country with a name, every named country is
// in Countries under its name, and every word is lower case.
func TestOneVocabulary(t *testing.T) {
	for _, m := range []map[string]string{Countries, Nationalities} {
		for w, code := range m {
			if w != strings.ToLower(w) {
				t.Errorf("%q is not lower case", w)
			}
			if _, ok := CountryNames[code]; code != "" && !ok {
				t.Errorf("%q names %q, a country without a name", w, code)
			}
		}
	}
	for code, name := range CountryNames {
		if Countries[strings.ToLower(name)] != code {
			t.Errorf("%s (%s) is not among the countries under its code", name, code)
		}
	}
}
