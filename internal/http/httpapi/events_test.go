package httpapi

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/http/publish/sitetest"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestNoACLEDOnPublicRoutes (issue 56, 5): with ACLED events in the
// archive and a photo of one of them, no public route — walked whole, as
// a reader — and no file of a published copy holds an ACLED event's id,
// actor or notes; an editor's answer of the photo's events does.
func TestNoACLEDOnPublicRoutes(t *testing.T) {
	e := newEditorServer(t, Options{})
	ctx := context.Background()
	acled, err := archive.ReadEventFiles([]string{"../../conflict/testdata/acled-synthetic.csv"}, "2020-01")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.ImportEvents(ctx, acled, "test"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "saraqeb.txt")
	os.WriteFile(path, []byte("A man walks past a damaged building in Saraqeb, Idlib province, Syria January 15, 2018. REUTERS/Ammar Abdullah\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=Saraqeb")
	traces := []string{"SYR900001", "SYR900002", "A made-up air strike", "Synthetic Source", "Hayat Tahrir al Sham"}
	// An editor links the photo to the ACLED event: the link is theirs
	// to see, and the bag's, never a reader's.
	if _, err := e.a.SetEventLink(ctx, id, "acled", "SYR900001", photo.LinkConfirmed, "editor rana"); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, e.ts, "/api/photos/"+id+"/events", "Authorization", "Bearer "+e.token)
	if !strings.Contains(string(body), `"links":[{"dataset":"acled","version":"2020-01","id":"SYR900001"`) {
		t.Fatalf("an editor is not answered the ACLED event and link: the test would read nothing: %s", body)
	}
	if _, page := get(t, e.ts, "/events/acled/SYR900001", "Authorization", "Bearer "+e.token); !strings.Contains(string(page), "A made-up air strike") {
		t.Error("an editor is not shown the ACLED event's page")
	}
	if res, _ := get(t, e.ts, "/events/acled/SYR900001"); res.StatusCode != http.StatusNotFound {
		t.Errorf("a reader asks for the ACLED event's page: %d, want 404", res.StatusCode)
	}
	for _, q := range []string{"?event=acled:SYR900001", "?event=any"} {
		if _, body := get(t, e.ts, "/api/photos.geojson"+q); len(features(t, body).Features) != 0 {
			t.Errorf("a reader's %s selects the photo linked to an ACLED event", q)
		}
	}
	vars := map[string]string{"id": id, "collection": "photos", "z": "7", "x": "77", "y": "50", "file": "app.js", "path": "x.jpg", "sha": strings.Repeat("ab", 32), "slug": "s",
		"dataset": "acled", "event": "SYR900001", "look": "1"}
	reads := 0
	for _, r := range routesOf(t, e.s, vars) {
		if !slices.Contains(r.methods, http.MethodGet) {
			continue
		}
		reads++
		for _, q := range []string{"", "?q=Saraqeb&download=1", "?lang=ar"} {
			_, body := get(t, e.ts, r.path+q)
			for _, tr := range traces {
				if strings.Contains(string(body), tr) {
					t.Errorf("GET %s%s holds ACLED's %q", r.path, q, tr)
				}
			}
		}
	}
	if reads < 35 {
		t.Fatalf("%d read routes walked", reads)
	}
	dir := t.TempDir()
	if _, err := publish.Publish(ctx, e.a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	for file, texts := range sitetest.Texts(t, dir) {
		for _, text := range texts {
			for _, tr := range traces {
				if strings.Contains(string(text), tr) {
					t.Errorf("the published %s holds ACLED's %q", file, tr)
				}
			}
		}
	}
}
