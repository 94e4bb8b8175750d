package archive

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/gen"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestSearchFindsEverySpelling (issue 68, 3): a caption search for a
// place's name finds the captions that spell it in either script, with a
// particle written on, as one: "Raqqa", "Raqqah", "ar-Raqqah", "الرقة"
// and "بالرقة" find the same photos (each found only its own spelling);
// the words beside the name still count, and the literal search of a
// word that is no place is as it was.
func TestSearchFindsEverySpelling(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	captions := []string{
		"Smoke rises over Raqqa, Syria, June 6, 2017.",
		"A street in Raqqah, Syria.",
		"Fighters in ar-Raqqah, Syria.",
		"دخان فوق الرقة",
		"أطفال بالرقة",
		"A market in Aleppo, Syria.",
		"سوق في حلب",
		"Smoke over Deir ez-Zor, Syria.",
		"دخان في دير الزور",
		"A street in Homs, Syria.",
		"Children in Hims.",
		"شارع في حمص",
	}
	var b strings.Builder
	b.WriteString("id,caption\n")
	for i, c := range captions {
		fmt.Fprintf(&b, "p%d,%q\n", i, c)
	}
	if _, err := a.ImportFile(ctx, write(t, "photos.csv", b.String()), "", nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		searches []string
		want     int
	}{
		{[]string{"Raqqa", "raqqah", "Raqqah", "ar-Raqqah", "الرقة", "بالرقة"}, 5},
		{[]string{"Aleppo", "حلب", "بحلب"}, 2},
		{[]string{"Deir ez-Zor", "Dayr az-Zawr", "دير الزور"}, 2},
		{[]string{"Homs", "Hims", "حمص"}, 3},
		{[]string{"smoke Raqqa", "Raqqa smoke"}, 1},
		{[]string{"smoke"}, 2},
		{[]string{"Raqqa OR Aleppo"}, 2}, // operators: searched as written
	} {
		for _, q := range tc.searches {
			n, err := a.CountPhotos(ctx, photo.Filter{Query: q})
			if err != nil || n != tc.want {
				t.Errorf("%q finds %d photos (%v); want %d", q, n, err, tc.want)
			}
		}
	}
}

// BenchmarkPlaceNameSearch counts the photos a search that names a place
// finds among 20,000 generated captions (English and Arabic), read
// literally and widened to the place's spellings: what the widening
// costs a search.
func BenchmarkPlaceNameSearch(b *testing.B) {
	g, err := bundled()
	if err != nil {
		b.Fatal(err)
	}
	gn := gen.New(g, 7)
	var sb strings.Builder
	for range 20000 {
		sb.WriteString(gn.Caption() + "\n\n")
	}
	a := newArchive(b)
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "captions.txt")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	if _, err := a.ImportFile(ctx, path, "", nil); err != nil {
		b.Fatal(err)
	}
	a.Spellings() // made once, on the first search that needs it
	for _, q := range []string{"Raqqa", "raqqah", "الرقة", "بالرقة", "Deir ez-Zor", "smoke Aleppo"} {
		for _, mode := range []string{"literal", "widened"} {
			b.Run(mode+"/"+q, func(b *testing.B) {
				a.db.WidenSearch = nil
				if mode == "widened" {
					a.db.WidenSearch = a.widenSearch
				}
				defer func() { a.db.WidenSearch = a.widenSearch }()
				n := 0
				for b.Loop() {
					if n, err = a.CountPhotos(ctx, photo.Filter{Query: q}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n), "photos")
			})
		}
	}
}
