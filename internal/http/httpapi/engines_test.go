package httpapi

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/pgtest"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestEnginesAnswerAlike (issue 71, 2): the same files imported into an
// archive on SQLite and one on PostgreSQL, and the same edits made to
// both (photos withheld and graphic, events and links, placements
// verified by a second look), answer every query of the conformance
// suite alike — status and body, byte for byte — for the public and for
// a signed-in editor, who sees the withheld photos too.
func TestEnginesAnswerAlike(t *testing.T) {
	lite := httpapitest.GeneratedArchive(t, 11, 1500, httpapitest.ArabicCaptions...)
	pg := httpapitest.GeneratedArchiveAt(t, pgtest.Database(t), 11, 1500, httpapitest.ArabicCaptions...)
	var ids []string
	for _, a := range []*archive.Archive{lite, pg} {
		ids = sameEdits(t, a)
	}
	liteServer, _ := serveArchive(t, lite, Options{})
	pgServer, _ := serveArchive(t, pg, Options{})
	queries := httpapitest.ConformanceQueries()
	for _, id := range ids {
		queries = append(queries, "photos/"+id+".geojson")
	}
	token, pgToken := httpapitest.AddEditor(t, lite, "rana"), httpapitest.AddEditor(t, pg, "rana")
	differ := 0
	for _, who := range []string{"public", "editor"} {
		for _, q := range queries {
			var header, pgHeader []string
			if who == "editor" {
				header, pgHeader = []string{"Authorization", "Bearer " + token}, []string{"Authorization", "Bearer " + pgToken}
			}
			// Each answer names its own server, and the moments its
			// archive was edited, seconds apart: both are read as one.
			a, aBody := get(t, liteServer, "/api/"+q, header...)
			b, bBody := get(t, pgServer, "/api/"+q, pgHeader...)
			aBody = editedAt.ReplaceAll(bytes.ReplaceAll(aBody, []byte(liteServer.URL), []byte("SERVER")), []byte("TIME"))
			bBody = editedAt.ReplaceAll(bytes.ReplaceAll(bBody, []byte(pgServer.URL), []byte("SERVER")), []byte("TIME"))
			if a.StatusCode != b.StatusCode || !bytes.Equal(aBody, bBody) {
				differ++
				if differ <= 20 {
					at := firstDifference(aBody, bBody)
					t.Errorf("%s, %s: SQLite %d, PostgreSQL %d, from byte %d:\n  SQLite     %.200s\n  PostgreSQL %.200s", who, q, a.StatusCode, b.StatusCode,
						at, aBody[max(0, at-60):], bBody[max(0, at-60):])
				}
			}
		}
	}
	t.Logf("%d queries, each asked as the public and as an editor: %d answers of %d differ", len(queries), differ, 2*len(queries))
}

// sameEdits makes the conformance suite's edits to a and returns the
// photos marked.
func sameEdits(t testing.TB, a *archive.Archive) []string {
	t.Helper()
	ctx := context.Background()
	some, err := a.Photos(ctx, photo.Filter{Agencies: []string{"Reuters"}, Newest: true, Limit: 12})
	if err != nil || len(some) < 12 {
		t.Fatalf("photos to mark: %d, %v", len(some), err)
	}
	var ids []string
	for i, p := range some {
		harm := photo.HarmGraphic
		if i%2 == 0 {
			harm = photo.HarmWithheld
		}
		if _, err := a.SetHarm(ctx, p.ID, harm, "editor rana", "a test"); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	if _, _, err := a.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	for _, p := range some[:2] {
		if _, err := a.SetEventLink(ctx, p.ID, "ucdp-ged", "214808", photo.LinkConfirmed, "editor rana"); err != nil {
			t.Fatal(err)
		}
	}
	httpapitest.VerifyPlacements(t, a, photo.Filter{Agencies: []string{"AFP"}, BBox: &orb.Bound{Min: orb.Point{35, 32}, Max: orb.Point{43, 38}}, Limit: 40})
	return ids
}

// editedAt is a moment an archive stamps an edit with (RFC 3339).
var editedAt = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)

// firstDifference is the offset of the first byte where a and b differ.
func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
