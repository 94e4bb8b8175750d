package importapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/originals"
)

// TestPicturesNeedOriginals (issue 65, 1): a server without a store of
// originals it can write refuses pictures (503, saying why), by
// multipart and by tus, before a byte is kept; caption files it takes.
func TestPicturesNeedOriginals(t *testing.T) {
	jpeg := readFixture(t)
	for _, c := range []struct {
		name  string
		store func(h *harness) // how the originals stand
		want  string
	}{
		{"none", func(h *harness) { h.a.Originals = nil }, "keeps no originals"},
		{"read-only", func(h *harness) {
			dir := filepath.Join(h.base, "ro")
			s, err := originals.NewDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			os.Chmod(dir, 0o555)
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
			h.a.Originals = s
		}, "cannot write"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if os.Geteuid() == 0 && c.name == "read-only" {
				t.Skip("root writes a read-only folder")
			}
			h := newHarness(t, DefaultLimits, false)
			c.store(h)
			if res, text := h.post(t, "rana", [][2]string{{"photo.jpg", jpeg}}); res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(text, c.want) {
				t.Errorf("multipart: %d %s; want 503 saying %q", res.StatusCode, text, c.want)
			}
			if res, _ := h.tusCreate(t, "rana", "photo.jpg", len(jpeg)); res.StatusCode != http.StatusServiceUnavailable {
				t.Errorf("tus: %d, want 503", res.StatusCode)
			}
			if res, text := h.post(t, "rana", [][2]string{{"captions.csv", caption("Douma")}}); res.StatusCode != http.StatusAccepted {
				t.Errorf("a caption file: %d %s", res.StatusCode, text)
			}
			if left := files(filepath.Join(h.im.Dir(), "files")); len(left) > 1 {
				t.Errorf("kept of the refused pictures: %v", left)
			}
		})
	}
}

// TestUploadKeepsItsOriginal (issue 65, 1): an uploaded picture is in
// the store of originals, as sent, once its job says done, by multipart
// and by tus; the same bytes sent again, under any name, change nothing
// and add no custody record.
func TestUploadKeepsItsOriginal(t *testing.T) {
	h := newHarness(t, DefaultLimits, true)
	jpeg := readFixture(t)
	sum := sha256.Sum256([]byte(jpeg))
	res, text := h.post(t, "rana", [][2]string{{"photo.jpg", jpeg}})
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("upload: %d %s", res.StatusCode, text)
	}
	job := h.wait(t, "rana", res.Header.Get("Location"))
	if job.NewPhotos != 1 || len(job.Photos) != 1 {
		t.Fatalf("the job: %+v", job)
	}
	if n, err := originals.Check(context.Background(), h.a.Originals, hex.EncodeToString(sum[:])); err != nil || n != int64(len(jpeg)) {
		t.Errorf("the original once the job is done: %d bytes, %v", n, err)
	}
	id := job.Photos[0].ID
	before, _ := h.a.CustodyOf(context.Background(), id)
	for _, name := range []string{"photo.jpg", "copy.jpg", "IMG_0001.JPG"} {
		res, _ := h.post(t, "rana", [][2]string{{name, jpeg}})
		if again := h.wait(t, "rana", res.Header.Get("Location")); again.Summary.Added+again.Summary.Updated != 0 || again.Files[0].State != "done" {
			t.Errorf("%s again: %+v, %+v", name, again.Summary, again.Files[0])
		}
	}
	res, _ = h.tusUpload(t, "omar", "by-tus.jpg", jpeg)
	if again := h.wait(t, "omar", res.Header.Get("Location")); again.Summary.Added+again.Summary.Updated != 0 {
		t.Errorf("by tus again: %+v", again.Summary)
	}
	after, _ := h.a.CustodyOf(context.Background(), id)
	if len(after) != len(before) {
		for _, r := range after[len(before):] {
			t.Errorf("a custody record for bytes already held: %s %s %s", r.Actor, r.Action, r.Detail)
		}
	}
}

// TestSameBytesAgainRecordNothing (issue 65, fault 10): a file whose
// bytes were imported before, sent again under another name, changes
// nothing: no custody record, its photos listed as unchanged.
func TestSameBytesAgainRecordNothing(t *testing.T) {
	for _, c := range []struct{ first, again, body string }{
		{"captions.csv", "copy of captions.csv", caption("Douma")},
		{"photo.jpg", "IMG_0001.JPG", readFixture(t)},
	} {
		t.Run(c.first, func(t *testing.T) {
			h := newHarness(t, DefaultLimits, true)
			res, _ := h.post(t, "rana", [][2]string{{c.first, c.body}})
			job := h.wait(t, "rana", res.Header.Get("Location"))
			if len(job.Photos) != 1 {
				t.Fatalf("the first upload: %+v", job)
			}
			id := job.Photos[0].ID
			before, _ := h.a.CustodyOf(context.Background(), id)
			res, _ = h.post(t, "omar", [][2]string{{c.again, c.body}})
			again := h.wait(t, "omar", res.Header.Get("Location"))
			if again.Summary.Added+again.Summary.Updated != 0 || again.Summary.Unchanged != 1 || len(again.Photos) != 1 || again.Photos[0].ID != id {
				t.Errorf("again as %s: %+v, photos %+v", c.again, again.Summary, again.Photos)
			}
			if after, _ := h.a.CustodyOf(context.Background(), id); len(after) != len(before) {
				t.Errorf("again as %s: %d custody records, %d before", c.again, len(after), len(before))
			}
		})
	}
}
