package importapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestUploadRefusals: an upload the archive cannot take is answered at
// once, as JSON, with the status its error's code maps to and words that
// name what is wrong (the file, when one is); nothing is queued or
// stored.
func TestUploadRefusals(t *testing.T) {
	h := newHarness(t, DefaultLimits, true)
	for _, c := range []struct {
		name        string
		contentType string
		body        string
		status      int
		want        string
	}{
		{"not multipart", "text/csv", caption("Douma"), http.StatusUnsupportedMediaType, "multipart/form-data"},
		{"no file", "", "", http.StatusBadRequest, "holds no file"},
		{"a kind not imported", "", "notes.pdf", http.StatusUnsupportedMediaType, "notes.pdf: not a file syriamap imports"},
		{"a broken multipart body", "multipart/form-data; boundary=xyz", "--xyz\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.csv\"\r\n\r\ncaption\n", http.StatusBadRequest, "reading the upload"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var res *http.Response
			var text string
			switch {
			case c.contentType != "":
				res, text = h.do(t, "rana", "POST", "/api/imports", strings.NewReader(c.body), "Content-Type", c.contentType)
			case c.body == "":
				res, text = h.post(t, "rana", nil)
			default:
				res, text = h.post(t, "rana", [][2]string{{c.body, "%PDF-1.4"}})
			}
			var body struct{ Error string }
			if err := json.Unmarshal([]byte(text), &body); err != nil || res.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%d %q: not a JSON error (%v)", res.StatusCode, text, err)
			}
			if res.StatusCode != c.status || !strings.Contains(body.Error, c.want) {
				t.Errorf("%d %q; want %d saying %q", res.StatusCode, body.Error, c.status, c.want)
			}
		})
	}
	if n, err := h.a.CountPhotos(photo.AsEditor(context.Background(), "rana"), photo.Filter{}); err != nil || n != 0 {
		t.Errorf("%d photos stored (%v) from refused uploads", n, err)
	}
	if left := files(h.im.Dir()); len(left) != 0 {
		t.Errorf("left in the uploads' folder: %v", left)
	}
}

// TestUploadImports: a caption file's import is told in its job, file by
// file: its counts and its photos when it is good, and stored; the
// error `import` gives (the file's name as sent and the line) when it is
// not, and nothing of it stored.
func TestUploadImports(t *testing.T) {
	for _, c := range []struct {
		name   string
		files  [][2]string
		states []string // each file's, in order
		error  string   // what a refused file's error says
		added  int      // photos the archive holds after
	}{
		{"good", [][2]string{{"douma.csv", caption("Douma")}}, []string{"done"}, "", 1},
		{"two good", [][2]string{{"douma.csv", caption("Douma")}, {"aleppo.txt", "Shelling in Aleppo, Syria, May 4, 2016.\n"}}, []string{"done", "done"}, "", 2},
		{"an empty caption on line 3", [][2]string{{"bad.csv", caption("Douma") + "\"\"\n"}}, []string{"refused"}, "bad.csv:3", 0},
		{"a bad line beside a good file", [][2]string{{"bad.jsonl", "{\"caption\": \"Idlib\"}\n{not json\n"}, {"douma.csv", caption("Douma")}}, []string{"refused", "done"}, "bad.jsonl:2", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, DefaultLimits, true)
			res, text := h.post(t, "rana", c.files)
			if res.StatusCode != http.StatusAccepted {
				t.Fatalf("%d %s; want 202", res.StatusCode, text)
			}
			job := h.wait(t, "rana", res.Header.Get("Location"))
			if len(job.Files) != len(c.files) {
				t.Fatalf("the job lists %d files, sent %d: %+v", len(job.Files), len(c.files), job.Files)
			}
			for i, f := range job.Files {
				if f.Name != c.files[i][0] || f.State != c.states[i] {
					t.Errorf("file %d: %s %s; want %s %s (%s)", i, f.Name, f.State, c.files[i][0], c.states[i], f.Error)
				}
				if f.State == "refused" && (!strings.HasPrefix(f.Error, c.error) || strings.Contains(f.Error, h.im.Dir())) {
					t.Errorf("%s: error %q; want it to start %q, without the server's folders", f.Name, f.Error, c.error)
				}
				if f.State == "done" && (f.Result == nil || f.Result.Added != 1) {
					t.Errorf("%s: done with %+v; want one photo added", f.Name, f.Result)
				}
			}
			ctx := photo.AsEditor(context.Background(), "rana")
			photos, err := h.a.Photos(ctx, photo.Filter{})
			if err != nil || len(photos) != c.added || job.NewPhotos != c.added || len(job.Photos) != c.added {
				t.Fatalf("%d photos stored (%v), the job says %d new and lists %d; want %d", len(photos), err, job.NewPhotos, len(job.Photos), c.added)
			}
			for _, p := range photos {
				if custody, err := h.a.CustodyOf(ctx, p.ID); err != nil || len(custody) == 0 || custody[0].Actor != "editor rana" {
					t.Errorf("%s: custody %+v (%v); want its import recorded as by editor rana", p.ID, custody, err)
				}
			}
		})
	}
}
