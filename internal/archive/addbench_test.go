package archive

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// BenchmarkAddPlace: one place added to an archive's gazetteer (the
// rebuild of its index is most of it).
func BenchmarkAddPlace(b *testing.B) {
	g, err := bundled()
	if err != nil {
		b.Fatal(err)
	}
	a, err := Open(context.Background(), filepath.Join(b.TempDir(), "a.db"), g, false)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	b.ResetTimer()
	for i := range b.N {
		if _, err := a.AddPlaces(context.Background(), []photo.AddedPlace{{Name: "Bench Shelter " + letters(i), Kind: "camp", Lon: 36.5, Lat: 35.9}}, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

// letters writes n as a word, a syllable a digit (a name's digits fold
// away, and so do vowels and one-letter words).
func letters(n int) string {
	syllables := [...]string{"ba", "ke", "di", "mo", "nu", "ra", "se", "ti", "lo", "pu"}
	s := ""
	for {
		s = syllables[n%10] + s
		if n /= 10; n == 0 {
			return s
		}
	}
}
