package importapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/photo"
)

// heldImports is an archive whose imports of pictures wait until let
// is closed, counting how many wait at once.
type heldImports struct {
	Queue   // a real archive's
	let     chan struct{}
	mu      sync.Mutex
	waiting int
}

func (h *heldImports) ImportImages(ctx context.Context, paths, include []string, progress func(done, total int)) (archive.ImageResult, error) {
	h.mu.Lock()
	h.waiting++
	h.mu.Unlock()
	select {
	case <-h.let:
	case <-ctx.Done():
	}
	return archive.ImageResult{Files: len(paths), Read: len(paths)}, nil
}

func (h *heldImports) ImportFile(context.Context, string, string, archive.Progress) (archive.Result, error) {
	return archive.Result{}, nil
}

func (h *heldImports) PhotosOfFiles(context.Context, []string, int) ([]photo.Photo, error) {
	return nil, nil
}

func (h *heldImports) FileOf(context.Context, string) (string, photo.FileState, error) {
	return "", photo.FileState{}, errors.New("not held")
}

func (h *heldImports) ImportedUnder(context.Context, string) (map[string]int, error) {
	return nil, nil
}

func (h *heldImports) OpenOriginal(context.Context, string) (io.ReadCloser, error) {
	return nil, originals.ErrNotFound
}

func (h *heldImports) OriginalsStore() originals.Store { return nil }

func (h *heldImports) HashAhead(context.Context, string, string) {}

func (h *heldImports) Forget(string) {}

func (h *heldImports) atOnce() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.waiting
}

// Jobs run side by side: while one upload's pictures are imported (here
// held), the next upload's import starts rather than waits in the queue
// (the archive bounds the decodes across them), and both finish.
func TestJobsRunSideBySide(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := &heldImports{Queue: newArchive(t), let: make(chan struct{})}
	dir := t.TempDir()
	im, err := New(ctx, a, dir, DefaultLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, name := range []string{"a.jpg", "b.jpg"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("jpeg"), 0o600); err != nil {
			t.Fatal(err)
		}
		job := &Job{ID: newID(), Editor: "rana", State: "queued",
			Files: []File{{Name: name, Size: 4, SHA256: string(rune('a' + i)), Kind: "image", State: "queued", path: path}}}
		if _, err := im.enqueue(ctx, job); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, job.ID)
	}
	states := func() []string {
		var out []string
		for _, id := range ids {
			j, _ := im.Job(ctx, id, "rana")
			out = append(out, j.State)
		}
		return out
	}
	for deadline := time.Now().Add(5 * time.Second); a.atOnce() < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d import running, the jobs %v: the second waits for the first", a.atOnce(), states())
		}
	}
	close(a.let)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if s := states(); s[0] == "done" && s[1] == "done" {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the jobs did not finish: %v", s)
		}
	}
}

// TestImportOfAThousandUploads: the upload page names every finished
// resumable upload in one POST /api/imports, a thousand files' ids (35
// bytes each) more than a form's 16 KB: the body is read, and each id
// answered for (here none is an upload: not found), not refused whole as
// too large.
func TestImportOfAThousandUploads(t *testing.T) {
	h := newHarness(t, DefaultLimits, true)
	var ids []string
	for i := range 1000 {
		ids = append(ids, fmt.Sprintf("%032x", i+1))
	}
	res, body := h.importUploads(t, "rana", ids...)
	if res.StatusCode != http.StatusNotFound || !strings.Contains(body, ids[0]) {
		t.Errorf("a thousand uploads' import: %d %s; want 404 naming the first id", res.StatusCode, body)
	}
}
