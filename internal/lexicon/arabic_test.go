package lexicon

import (
	"slices"
	"testing"
)

func TestArabicStems(t *testing.T) {
	for _, c := range []struct {
		word string
		want []string
	}{
		{"بحلب", []string{"حلب"}},
		{"وبالرقه", []string{"بالرقه", "الرقه"}},
		{"للرقه", []string{"لرقه", "الرقه"}},
		{"حلب", nil},
		{"وفي", nil},                  // what is left is too short to be a word
		{"بانياس", []string{"انياس"}}, // a stem, not a verdict: the scanner reads both
	} {
		if got := ArabicStems(c.word); !slices.Equal(got, c.want) {
			t.Errorf("ArabicStems(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

func TestFoldArabic(t *testing.T) {
	for in, want := range map[string]string{"دُومَا": "دوما", "أيار": "ايار", "الرقة": "الرقه", "٢٠١٦": "2016", "ی": "ي"} {
		if got := FoldArabic(in); got != want {
			t.Errorf("FoldArabic(%q) = %q, want %q", in, got, want)
		}
	}
}
