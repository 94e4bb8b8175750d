package importapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/sitepage"
	"github.com/syriamap/syriamap/internal/pgtest"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

var bundled = sync.OnceValues(func() (*gazetteer.Gazetteer, error) { return gazetteer.Load(geodata.Gazetteer) })

// fixtureJPEG is a JPEG with a caption in its IPTC metadata.
const fixtureJPEG = "../../evidence/imagemeta/testdata/check-arabic.jpg"

// harness is an archive taking uploads over HTTP through the server's
// handlers (Handlers) and guard: a request comes from an editor by their
// bearer token, and errors are answered as the server answers them
// (sitepage.Kit, web.Errors).
type harness struct {
	a    *archive.Archive
	im   *Imports
	ts   *httptest.Server
	base string // the temporary folder everything is under
	logs *syncBuffer
	// tokens are the editors' bearer tokens, each editor added to the
	// archive (httpapitest.AddEditor) the first time a request is theirs.
	tokens map[string]string
	// stop stops the uploads' workers, as a server dying does.
	stop context.CancelFunc
}

// syncBuffer is a log buffer written by the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newHarness opens an empty archive under a new folder, with a store of
// originals when kept says, and takes uploads in base/srv/uploads.
func newHarness(t *testing.T, limits Limits, kept bool) *harness {
	t.Helper()
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	a := openArchive(t, g, filepath.Join(base, "srv", "a.db"))
	if kept {
		s, err := originals.NewDir(filepath.Join(base, "srv", "originals"))
		if err != nil {
			t.Fatal(err)
		}
		a.Originals = s
	}
	h := &harness{a: a, base: base, logs: &syncBuffer{}, tokens: map[string]string{}}
	h.start(t, limits)
	return h
}

// openArchive opens an empty archive at path, with the gazetteer g.
// On PostgreSQL (pgtest.Engine) it is a new database.
func openArchive(t *testing.T, g *gazetteer.Gazetteer, path string) *archive.Archive {
	t.Helper()
	if pgtest.Engine() == "postgres" {
		path = pgtest.Database(t)
	}
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return archive.New(db, g)
}

// newArchive is an empty archive in a new folder.
func newArchive(t *testing.T) *archive.Archive {
	t.Helper()
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	return openArchive(t, g, filepath.Join(t.TempDir(), "a.db"))
}

// start starts the uploads (again) in base/srv/uploads, as a server
// starting does, and serves them.
func (h *harness) start(t *testing.T, limits Limits) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	h.stop = cancel
	log := slog.New(slog.NewTextHandler(h.logs, nil))
	im, err := New(ctx, h.a, filepath.Join(h.base, "srv", "uploads"), limits, log)
	if err != nil {
		t.Fatal(err)
	}
	tus, err := im.Resumable("/api/uploads/")
	if err != nil {
		t.Fatal(err)
	}
	// The server's own handlers and guard, on a router of their own.
	router := mux.NewRouter()
	kit := sitepage.New(router, log)
	guard := session.New(h.a, false, kit.Error)
	kit.Guard = guard
	handlers := &Handlers{Kit: kit, Guard: guard, Imports: im, Resumable: tus}
	handlers.Routes(router, func(name, path string, hf http.HandlerFunc) {
		router.Handle(path, guard.Viewing(hf)).Methods(http.MethodGet, http.MethodHead).Name(name)
	})
	ts := httptest.NewServer(router)
	t.Cleanup(ts.Close)
	h.im, h.ts = im, ts
}

// do sends a request as editor; header is pairs.
func (h *harness) do(t *testing.T, editor, method, path string, body io.Reader, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, h.ts.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := h.tokens[editor]; !ok {
		h.tokens[editor] = httpapitest.AddEditor(t, h.a, editor)
	}
	req.Header.Set("Authorization", "Bearer "+h.tokens[editor])
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// multipartBody is files (name as sent, raw, and body pairs) as
// multipart/form-data; it returns the body and its content type.
func multipartBody(files [][2]string) (io.Reader, string) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range files {
		hd := textproto.MIMEHeader{}
		// The name as a client may send it, any byte in it (RFC 2231's
		// encoding), not as Go's writer escapes it.
		hd.Set("Content-Disposition", `form-data; name="files"; filename*=UTF-8''`+url.PathEscape(f[0]))
		hd.Set("Content-Type", "application/octet-stream")
		w, _ := mw.CreatePart(hd)
		w.Write([]byte(f[1]))
	}
	mw.Close()
	return &body, mw.FormDataContentType()
}

// post uploads files as editor through the multipart route.
func (h *harness) post(t *testing.T, editor string, files [][2]string) (*http.Response, string) {
	t.Helper()
	body, ct := multipartBody(files)
	return h.do(t, editor, "POST", "/api/imports", body, "Content-Type", ct)
}

// tusCreate creates a resumable upload of size bytes named name, as
// editor; it returns the response and the upload's path (its body when
// it is refused).
func (h *harness) tusCreate(t *testing.T, editor, name string, size int) (*http.Response, string) {
	t.Helper()
	meta := "filename " + base64.StdEncoding.EncodeToString([]byte(name))
	res, body := h.do(t, editor, "POST", "/api/uploads/", nil, "Tus-Resumable", "1.0.0", "Upload-Length", strconv.Itoa(size), "Upload-Metadata", meta)
	if res.StatusCode != http.StatusCreated {
		return res, body
	}
	loc := res.Header.Get("Location")
	if i := strings.Index(loc, "/api/uploads/"); i >= 0 {
		loc = loc[i:]
	}
	return res, loc
}

// tusSend sends an upload's whole body from offset 0, as editor.
func (h *harness) tusSend(t *testing.T, editor, path, body string) *http.Response {
	t.Helper()
	res, _ := h.do(t, editor, "PATCH", path, strings.NewReader(body), "Tus-Resumable", "1.0.0", "Upload-Offset", "0", "Content-Type", "application/offset+octet-stream")
	return res
}

// tusUpload creates and sends a whole resumable upload, then imports it,
// as editor; it returns the import's response.
func (h *harness) tusUpload(t *testing.T, editor, name, body string) (*http.Response, string) {
	t.Helper()
	res, path := h.tusCreate(t, editor, name, len(body))
	if res.StatusCode != http.StatusCreated {
		return res, ""
	}
	if res := h.tusSend(t, editor, path, body); res.StatusCode != http.StatusNoContent {
		t.Fatalf("%s: PATCH %d", name, res.StatusCode)
	}
	return h.importUploads(t, editor, strings.TrimPrefix(path, "/api/uploads/"))
}

// importUploads asks for the import of finished resumable uploads.
func (h *harness) importUploads(t *testing.T, editor string, ids ...string) (*http.Response, string) {
	t.Helper()
	b, _ := json.Marshal(map[string][]string{"uploads": ids})
	return h.do(t, editor, "POST", "/api/imports", bytes.NewReader(b), "Content-Type", "application/json")
}

// wait polls a job's address as editor until it is done.
func (h *harness) wait(t *testing.T, editor, location string) Job {
	t.Helper()
	var job Job
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		res, body := h.do(t, editor, "GET", location, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", location, res.StatusCode, body)
		}
		if err := json.Unmarshal([]byte(body), &job); err != nil {
			t.Fatal(err)
		}
		if job.State == "done" {
			return job
		}
	}
	t.Fatalf("the import did not finish: %+v", job)
	return job
}

// files lists the files under dir, relative to it.
func files(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

func readFixture(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(fixtureJPEG)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func caption(place string) string {
	return fmt.Sprintf("caption\n\"A man walks past a damaged building in %s, Syria January 15, 2018. REUTERS/Ammar Abdullah\"\n", place)
}

func photoInvalid() error { return photo.Errorf(photo.EInvalid, "bad.csv:2: the caption is empty") }
