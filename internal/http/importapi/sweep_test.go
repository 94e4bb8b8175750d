package importapi

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tusd "github.com/tus/tusd/v2/pkg/handler"
)

// TestBudgets (issue 65, 3): the bytes declared and not yet imported are
// bounded per editor and in all; past either, an upload is refused with
// 507 naming the budget, by tus and by multipart, and another editor
// still has theirs until the total is reached.
func TestBudgets(t *testing.T) {
	h := newHarness(t, Limits{FileBytes: 1 << 20, UploadBytes: 4 << 20, EditorBytes: 3 << 20, TotalBytes: 5 << 20}, true)
	for i := range 3 {
		if res, body := h.tusCreate(t, "rana", "a.csv", 1<<20); res.StatusCode != http.StatusCreated {
			t.Fatalf("rana's upload %d: %d %s", i+1, res.StatusCode, body)
		}
	}
	for _, c := range []struct {
		name, editor string
		want         int
		says         string
	}{
		{"rana's fourth", "rana", http.StatusInsufficientStorage, "--upload-budget)"},
		{"omar's first", "omar", http.StatusCreated, ""},
		{"omar's second", "omar", http.StatusCreated, ""},
		{"omar's third", "omar", http.StatusInsufficientStorage, "--upload-budget-total"},
	} {
		res, body := h.tusCreate(t, c.editor, "b.csv", 1<<20)
		if res.StatusCode != c.want || !strings.Contains(body, c.says) {
			t.Errorf("%s: %d %s; want %d saying %q", c.name, res.StatusCode, body, c.want, c.says)
		}
	}
	if res, body := h.post(t, "rana", [][2]string{{"c.csv", caption("Douma")}}); res.StatusCode != http.StatusInsufficientStorage || !strings.Contains(body, "upload budget") {
		t.Errorf("rana's multipart past her budget: %d %s", res.StatusCode, body)
	}
}

// TestSweepExpires (issue 65, 3): a resumable upload untouched for a day
// is removed by the sweep (the clock injected), one touched within the
// day is not; its editor then finds no upload.
func TestSweepExpires(t *testing.T) {
	h := newHarness(t, DefaultLimits, true)
	now := time.Now()
	h.im.now = func() time.Time { return now }
	res, path := h.tusCreate(t, "rana", "old.csv", 100)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", res.StatusCode)
	}
	for _, c := range []struct {
		after   time.Duration
		removed int
	}{{23 * time.Hour, 0}, {25 * time.Hour, 1}} {
		now = time.Now().Add(c.after)
		if n := h.im.Sweep(); n != c.removed {
			t.Errorf("untouched for %v: the sweep removed %d, want %d", c.after, n, c.removed)
		}
	}
	if res, _ := h.do(t, "rana", "HEAD", path, nil, "Tus-Resumable", "1.0.0"); res.StatusCode != http.StatusNotFound {
		t.Errorf("an expired upload: HEAD %d, want 404", res.StatusCode)
	}
	if left := files(filepath.Join(h.im.Dir(), tusDir)); len(left) != 0 {
		t.Errorf("left of the expired upload: %v", left)
	}
}

// TestRestartKeepsResumableUploads (issue 71, 4): a resumable upload
// half sent when its server stopped is still there when it (or another
// server of the archive) starts: its editor asks how far it got, sends
// the rest, and imports it.
func TestRestartKeepsResumableUploads(t *testing.T) {
	h := newHarness(t, DefaultLimits, true)
	body := caption("Douma")
	res, path := h.tusCreate(t, "omar", "half.csv", len(body))
	if res.StatusCode != http.StatusCreated || path == "" {
		t.Fatalf("create: %d", res.StatusCode)
	}
	half := len(body) / 2
	tusHead := []string{"Tus-Resumable", "1.0.0", "Content-Type", "application/offset+octet-stream"}
	if res, _ := h.do(t, "omar", "PATCH", path, strings.NewReader(body[:half]), append(tusHead, "Upload-Offset", "0")...); res.StatusCode != http.StatusNoContent {
		t.Fatalf("the first half: %d", res.StatusCode)
	}
	h.stop()
	h.start(t, DefaultLimits) // the server started again
	res, _ = h.do(t, "omar", "HEAD", path, nil, "Tus-Resumable", "1.0.0")
	if res.StatusCode != http.StatusOK || res.Header.Get("Upload-Offset") != strconv.Itoa(half) {
		t.Fatalf("after the restart: HEAD %d, offset %q, want %d", res.StatusCode, res.Header.Get("Upload-Offset"), half)
	}
	if res, _ := h.do(t, "omar", "PATCH", path, strings.NewReader(body[half:]), append(tusHead, "Upload-Offset", strconv.Itoa(half))...); res.StatusCode != http.StatusNoContent {
		t.Fatalf("the rest: %d", res.StatusCode)
	}
	res, text := h.importUploads(t, "omar", filepath.Base(path))
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("import: %d %s", res.StatusCode, text)
	}
	if job := h.wait(t, "omar", res.Header.Get("Location")); job.Summary == nil || job.Summary.Added != 1 {
		t.Errorf("the resumed upload's import: %+v", job)
	}
}

// failingUpload is an upload whose disk is full.
type failingUpload struct{ tusd.Upload }

func (failingUpload) WriteChunk(context.Context, int64, io.Reader) (int64, error) {
	return 0, &os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}
}

// TestResumableDiskFull (issue 65, 3): a tus PATCH on a full disk is a
// 507, as everywhere else; another write error stays what it was.
func TestResumableDiskFull(t *testing.T) {
	_, err := roomyUpload{failingUpload{}}.WriteChunk(context.Background(), 0, strings.NewReader("x"))
	var te tusd.Error
	if !errors.As(err, &te) || te.HTTPResponse.StatusCode != http.StatusInsufficientStorage {
		t.Errorf("a full disk: %v, want a 507", err)
	}
	other := errors.New("other")
	if got := diskFull(other); got != other {
		t.Errorf("another error: %v", got)
	}
}

// TestImportFailureLogged (issue 65, fault 10): an upload's import that
// fails for want of disk is told to its editor as a full disk and logged
// in full; an error that is the file's own (a bad line) is not logged.
func TestImportFailureLogged(t *testing.T) {
	h := newHarness(t, DefaultLimits, true)
	job := &Job{ID: "0123456789abcdef", Editor: "rana"}
	full := &os.PathError{Op: "write", Path: "/srv/uploads/x", Err: syscall.ENOSPC}
	if err := h.im.failed(job, "captions.csv", full); !strings.Contains(err.Error(), "disk holding the archive is full") {
		t.Errorf("a full disk is told as %q", err)
	}
	if logs := h.logs.String(); !strings.Contains(logs, "no space left on device") || !strings.Contains(logs, "captions.csv") {
		t.Errorf("the log does not hold the failure:\n%s", logs)
	}
	before := h.logs.String()
	h.im.failed(job, "bad.csv", photoInvalid())
	if h.logs.String() != before {
		t.Errorf("a bad file's own error is logged:\n%s", h.logs.String())
	}
}
