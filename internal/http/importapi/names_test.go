package importapi

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNamesAreNames (issue 65, 2): a name a client sends is a file's
// base name, through tus and multipart alike: a traversal or an
// absolute path neither writes nor deletes outside the uploads' folder
// (the victim beside it is untouched), and a name with a control
// character, a bidirectional override or past 255 bytes is refused with
// a 400 that says why.
func TestNamesAreNames(t *testing.T) {
	h := newHarness(t, DefaultLimits, true)
	// The uploads are in base/srv/uploads; from files/SHA-256/ in it,
	// ../../../../ is base.
	victim := filepath.Join(h.base, "victim.csv")
	const was = "caption\nthe victim's own line, never to be replaced\n"
	for _, c := range []struct {
		name, sent string
		status     int    // of the upload (multipart) or its creation (tus)
		want       string // in the refusal, or the name kept
	}{
		{"traversal", "../../../../victim.csv", http.StatusAccepted, "victim.csv"},
		{"absolute", victim, http.StatusAccepted, "victim.csv"},
		{"backslashes", `..\..\..\..\victim.csv`, http.StatusAccepted, "victim.csv"},
		{"escape", "red\x1b[31m.csv", http.StatusBadRequest, "control character"},
		{"newline", "two\nlines.csv", http.StatusBadRequest, "control character"},
		{"override", "gpj\u202e.csv", http.StatusBadRequest, "bidirectional override"},
		{"isolate", "a\u2066b.csv", http.StatusBadRequest, "bidirectional override"},
		{"long", strings.Repeat("a", 300) + ".csv", http.StatusBadRequest, "255 bytes"},
		{"nothing", "../", http.StatusBadRequest, "file name"},
	} {
		for _, via := range []string{"multipart", "tus"} {
			t.Run(c.name+"/"+via, func(t *testing.T) {
				if err := os.WriteFile(victim, []byte(was), 0o644); err != nil {
					t.Fatal(err)
				}
				body := caption("Saraqeb")
				var res *http.Response
				var text string
				switch via {
				case "multipart":
					res, text = h.post(t, "rana", [][2]string{{c.sent, body}})
				default:
					res, text = h.tusCreate(t, "rana", c.sent, len(body))
					if res.StatusCode == http.StatusCreated {
						h.tusSend(t, "rana", text, body)
						res, text = h.importUploads(t, "rana", strings.TrimPrefix(text, "/api/uploads/"))
					}
				}
				if c.status != http.StatusAccepted {
					if res.StatusCode != c.status || !strings.Contains(text, c.want) {
						t.Errorf("%q: %d %s; want %d saying %q", c.sent, res.StatusCode, text, c.status, c.want)
					}
					return
				}
				if res.StatusCode != http.StatusAccepted {
					t.Fatalf("%q: %d %s", c.sent, res.StatusCode, text)
				}
				job := h.wait(t, "rana", res.Header.Get("Location"))
				if f := job.Files[0]; f.Name != c.want || f.State != "done" {
					t.Errorf("%q: kept as %q, %s %s; want %q done", c.sent, f.Name, f.State, f.Error, c.want)
				}
				if b, err := os.ReadFile(victim); err != nil || string(b) != was {
					t.Errorf("%q: the file outside the uploads' folder was touched: %q, %v", c.sent, b, err)
				}
			})
		}
	}
}
