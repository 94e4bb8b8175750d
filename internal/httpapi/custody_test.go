package httpapi

import (
	"context"
	"path"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestPhotoPageCustody (issue 42, part 2): a photo's page shows its
// custody records — imported, with its file's SHA-256, then corrected by
// an editor — each with its record hash, in English and Arabic, and not
// the system user an import ran as.
func TestPhotoPageCustody(t *testing.T) {
	a, _ := imageArchive(t)
	ts, _ := serveArchive(t, a, Options{})
	props := featureWith(t, ts, "Boys play football in a street of Aleppo")
	id := path.Base(props["url"].(string))
	p, err := a.DB.Photo(context.Background(), id)
	if err != nil || p.File == nil {
		t.Fatalf("photo %s: %v", id, err)
	}
	place := photo.Place{ID: "ocha:SY02", Name: "Aleppo", Lon: 37.6, Lat: 36.25, Located: true, Precision: "corrected"}
	if _, err := a.DB.Apply(context.Background(), []string{id}, photo.Change{Author: "rana", Note: "the agency's own page", Place: &place}); err != nil {
		t.Fatal(err)
	}
	page := strings.TrimPrefix(props["url"].(string), ts.URL)
	for _, tc := range []struct{ query, imported, corrected string }{
		{"", "Imported", "Place corrected"},
		{"?lang=ar", "استُورِدت", "صُحّح المكان"},
	} {
		_, raw := get(t, ts, page+tc.query)
		i := strings.Index(string(raw), `data-testid="custody"`)
		if i < 0 {
			t.Fatalf("%s%s: no custody record", page, tc.query)
		}
		table := string(raw)[i:]
		table = table[:strings.Index(table, "</table>")]
		if strings.Count(table, `data-testid="custody-record"`) != 2 || !strings.Contains(table, tc.imported) || !strings.Contains(table, tc.corrected) ||
			!strings.Contains(table, p.File.SHA256) || !strings.Contains(table, "rana") || strings.Contains(table, "system user") {
			t.Errorf("%s%s: the custody table %s", page, tc.query, table)
		}
	}
}
