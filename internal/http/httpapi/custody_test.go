package httpapi

import (
	"context"
	"path"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
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
	p, err := a.Photo(context.Background(), id)
	if err != nil || p.File == nil {
		t.Fatalf("photo %s: %v", id, err)
	}
	place := photo.Place{ID: "ocha:SY02", Name: "Aleppo", Lon: 37.6, Lat: 36.25, Located: true, Precision: "corrected"}
	if _, err := a.Apply(context.Background(), []string{id}, photo.Change{Author: "rana", Note: "the agency's own page", Place: &place}); err != nil {
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

// TestReusedPhoto (issue 42, part 4): a photo flagged as the same frame
// under a caption that disagrees says so beside the caption-against-file
// check, with the other photo's place, date and credit and a link to it,
// in English and Arabic; the API selects it with reuse=conflict and
// refuses a reuse it does not know.
func TestReusedPhoto(t *testing.T) {
	a, _ := imageArchive(t)
	ts, _ := serveArchive(t, a, Options{})
	first := featureWith(t, ts, "Boys play football in a street of Aleppo")
	other := featureWith(t, ts, "Internally displaced Syrian children stand near their tent")
	firstID, otherID := path.Base(first["url"].(string)), path.Base(other["url"].(string))
	if _, err := rawStore(t, a).SetReuse(context.Background(), "test", map[string]store.Reuse{
		otherID: {Kind: photo.ReuseConflict, Of: firstID, Why: []string{"place"}},
		firstID: {Kind: photo.ReuseCopy, Of: otherID},
	}); err != nil {
		t.Fatal(err)
	}
	page := strings.TrimPrefix(other["url"].(string), ts.URL)
	for _, tc := range []struct{ query, want string }{
		{"", "This frame is also in the archive as Aleppo"},
		{"?lang=ar", "هذه اللقطة موجودة في الأرشيف أيضًا بوصفها \u2068حلب\u2069"},
	} {
		_, raw := get(t, ts, page+tc.query)
		body := string(raw)
		i := strings.Index(body, `data-testid="reuse"`)
		if i < 0 || !strings.Contains(body[i:i+800], tc.want) || !strings.Contains(body[i:i+1200], "/photos/"+firstID) {
			t.Errorf("%s%s: reuse %q", page, tc.query, body[max(0, i):min(len(body), max(0, i)+800)])
		}
	}
	_, raw := get(t, ts, "/api/photos.geojson?reuse=conflict")
	if fs := features(t, raw).Features; len(fs) != 1 || !strings.HasPrefix(fs[0].Properties["caption"].(string), "Internally displaced Syrian children") {
		t.Errorf("reuse=conflict: %d features", len(fs))
	}
	if res, _ := get(t, ts, "/api/photos.geojson?reuse=maybe"); res.StatusCode != 400 {
		t.Errorf("reuse=maybe: %d, want 400", res.StatusCode)
	}
}

// rawStore opens the archive's file past the archive, for a test that
// writes what the archive's own use cases would not (a reuse flagged by
// hand, records the import would refuse, a geocoder of its own); it is
// closed when the test ends.
func rawStore(t *testing.T, a *archive.Archive) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), a.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
