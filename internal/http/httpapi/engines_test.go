package httpapi

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/pgtest"
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
		ids = httpapitest.ConformanceEdits(t, a)
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
