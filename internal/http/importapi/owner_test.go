package importapi

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// TestUploadsBelongToTheirEditor (issue 65, 3): another editor's HEAD,
// PATCH, DELETE or import of a resumable upload, and read of a job, are
// answered 404 (no upload of theirs), the upload left as it was, and the
// import names the editor who sent the bytes.
func TestUploadsBelongToTheirEditor(t *testing.T) {
	h := newHarness(t, DefaultLimits, true)
	body := caption("Douma")
	res, path := h.tusCreate(t, "omar", "omar.csv", len(body))
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", res.StatusCode)
	}
	tus := []string{"Tus-Resumable", "1.0.0"}
	patch := append(tus, "Upload-Offset", "0", "Content-Type", "application/offset+octet-stream")
	for _, c := range []struct {
		method, body string
		header       []string
	}{
		{"HEAD", "", tus},
		{"PATCH", caption("Aleppo"), patch},
		{"DELETE", "", tus},
	} {
		if res, text := h.do(t, "rana", c.method, path, strings.NewReader(c.body), c.header...); res.StatusCode != http.StatusNotFound {
			t.Errorf("rana's %s of omar's upload: %d %s, want 404", c.method, res.StatusCode, text)
		}
	}
	id := strings.TrimPrefix(path, "/api/uploads/")
	if res, _ := h.do(t, "omar", "HEAD", path, nil, tus...); res.StatusCode != http.StatusOK || res.Header.Get("Upload-Offset") != "0" {
		t.Fatalf("omar's upload after rana's tries: %d, offset %q", res.StatusCode, res.Header.Get("Upload-Offset"))
	}
	if res := h.tusSend(t, "omar", path, body); res.StatusCode != http.StatusNoContent {
		t.Fatalf("omar's PATCH: %d", res.StatusCode)
	}
	if res, text := h.importUploads(t, "rana", id); res.StatusCode != http.StatusNotFound {
		t.Errorf("rana's import of omar's upload: %d %s, want 404", res.StatusCode, text)
	}
	for _, bad := range []string{"../" + id, id + "/x", "../../a", strings.ToUpper(id)} {
		if res, text := h.importUploads(t, "omar", bad); res.StatusCode != http.StatusNotFound {
			t.Errorf("the import of upload %q: %d %s, want 404", bad, res.StatusCode, text)
		}
	}
	res, text := h.importUploads(t, "omar", id)
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("omar's import: %d %s", res.StatusCode, text)
	}
	loc := res.Header.Get("Location")
	if res, text := h.do(t, "rana", "GET", loc, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("rana's read of omar's job: %d %s, want 404", res.StatusCode, text)
	}
	job := h.wait(t, "omar", loc)
	if len(job.Photos) != 1 {
		t.Fatalf("omar's job: %+v", job)
	}
	recs, err := h.a.CustodyOf(context.Background(), job.Photos[0].ID)
	if err != nil || len(recs) == 0 || recs[0].Actor != "editor omar" {
		t.Errorf("the photo's custody: %+v, %v; want it imported by editor omar", recs, err)
	}
}
