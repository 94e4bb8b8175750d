package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/geoparse/gen"
	"github.com/syriamap/syriamap/internal/pgtest"
	"github.com/syriamap/syriamap/internal/store"
)

// replicaJob is what the test reads of GET /api/imports/{id}.
type replicaJob struct {
	State   string
	Error   string
	Summary *struct{ Added, Unchanged int }
	Photos  []struct{ ID string }
	Files   []struct{ Name, State, Error string }
	Counts  struct{ Imported, Refused int }
}

// editorAt is one `syriamap serve` of the test's archive, as an editor
// reaches it.
type editorAt struct {
	t     *testing.T
	base  string // its URL, ending in /
	token string
}

// do sends a request to the replica as the editor; header is pairs.
func (r editorAt) do(method, path string, body io.Reader, header ...string) (*http.Response, []byte) {
	r.t.Helper()
	req, err := http.NewRequest(method, strings.TrimSuffix(r.base, "/")+path, body)
	if err != nil {
		r.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+r.token)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// job reads an import job through the replica.
func (r editorAt) job(location string) replicaJob {
	r.t.Helper()
	res, body := r.do("GET", location, nil)
	var j replicaJob
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &j) != nil {
		r.t.Fatalf("GET %s: %s %s", location, res.Status, body)
	}
	return j
}

// waitFor reads a job through the replica until its state is one of
// states, under a deadline.
func (r editorAt) waitFor(location string, states ...string) replicaJob {
	r.t.Helper()
	var j replicaJob
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		j = r.job(location)
		for _, s := range states {
			if j.State == s {
				return j
			}
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the job at %s is still %s, want %v", location, j.State, states)
		}
	}
}

// TestReplicaKilledDuringImport (issue 71, 4 and 6): two `syriamap serve`
// on one PostgreSQL archive, sharing their uploads' folder (SYRIAMAP_DATA)
// and originals. An editor uploads a caption file through A and starts a
// resumable upload of a picture there; A is killed with SIGKILL while the
// job runs. B takes the job over once A's lease ran out and finishes it,
// the rest of the picture is sent through B and imported; the job reads
// done through B, every photo is imported once (one import in its
// custody), and verify passes.
func TestReplicaKilledDuringImport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two servers and PostgreSQL")
	}
	db := pgtest.Database(t)
	data, kept := t.TempDir(), t.TempDir()
	if _, _, err := runCmd(t, "a long enough password\n", "users", "add", "--db", db, "--password-stdin", "rana"); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "", "tokens", "create", "--db", db, "rana")
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(out)

	// A file of captions long enough that its import is under way when A
	// is killed.
	g, err := bundledGazetteer()
	if err != nil {
		t.Fatal(err)
	}
	gn := gen.New(g, 71)
	const n = 5000
	var captions strings.Builder
	for range n {
		fmt.Fprintf(&captions, "%s\n\n", gn.Caption())
	}
	jpeg, err := os.ReadFile("../../internal/evidence/imagemeta/testdata/check-arabic.jpg")
	if err != nil {
		t.Fatal(err)
	}

	env := []string{"SYRIAMAP_DATA=" + data}
	args := []string{"--db", db, "--originals", kept, "--job-lease", "2s"}
	baseA, procA, stopA := serveProcess(t, env, args...)
	baseB, _, stopB := serveProcess(t, env, args...)
	a, b := editorAt{t, baseA, token}, editorAt{t, baseB, token}
	before := photoCount(t, db) // the samples a new archive's server imports

	// Half of the picture through A, by tus.
	meta := "filename " + base64.StdEncoding.EncodeToString([]byte("photo.jpg"))
	res, body := a.do("POST", "/api/uploads/", nil, "Tus-Resumable", "1.0.0", "Upload-Length", strconv.Itoa(len(jpeg)), "Upload-Metadata", meta)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("the resumable upload through A: %s %s", res.Status, body)
	}
	upload := res.Header.Get("Location")
	upload = upload[strings.Index(upload, "/api/uploads/"):]
	half := len(jpeg) / 2
	tus := []string{"Tus-Resumable", "1.0.0", "Content-Type", "application/offset+octet-stream"}
	if res, body := a.do("PATCH", upload, bytes.NewReader(jpeg[:half]), append(tus, "Upload-Offset", "0")...); res.StatusCode != http.StatusNoContent {
		t.Fatalf("the first half through A: %s %s", res.Status, body)
	}

	// The captions through A; A killed while their job runs.
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	w, _ := mw.CreateFormFile("files", "captions.txt")
	io.WriteString(w, captions.String())
	mw.Close()
	res, body = a.do("POST", "/api/imports", &form, "Content-Type", mw.FormDataContentType())
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("the upload through A: %s %s\n%s", res.Status, body, stopA())
	}
	job, sent := res.Header.Get("Location"), time.Now()
	if j := a.waitFor(job, "running", "done"); j.State != "running" {
		t.Fatalf("the job was done before A could be killed (make the file longer): %+v", j)
	}
	if err := procA.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	logsA, killed := stopA(), time.Now()
	t.Logf("A killed %v after the upload was queued", killed.Sub(sent).Round(time.Millisecond))

	// B: the job, the rest of the picture.
	done := b.waitFor(job, "done", "failed")
	if done.State != "done" || done.Counts.Imported != 1 || len(done.Files) != 1 || done.Files[0].State != "done" {
		t.Fatalf("the job through B: %+v\nA's log:\n%s\nB's log:\n%s", done, logsA, stopB())
	}
	t.Logf("B finished the job %v after A was killed (lease 2 s)", time.Since(killed).Round(time.Millisecond))
	if res, _ := b.do("HEAD", upload, nil, "Tus-Resumable", "1.0.0"); res.Header.Get("Upload-Offset") != strconv.Itoa(half) {
		t.Fatalf("the resumable upload through B: %s, offset %q, want %d", res.Status, res.Header.Get("Upload-Offset"), half)
	}
	if res, body := b.do("PATCH", upload, bytes.NewReader(jpeg[half:]), append(tus, "Upload-Offset", strconv.Itoa(half))...); res.StatusCode != http.StatusNoContent {
		t.Fatalf("the rest through B: %s %s", res.Status, body)
	}
	res, body = b.do("POST", "/api/imports", strings.NewReader(`{"uploads": ["`+filepath.Base(upload)+`"]}`), "Content-Type", "application/json")
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("importing the picture through B: %s %s", res.Status, body)
	}
	if pic := b.waitFor(res.Header.Get("Location"), "done", "failed"); pic.State != "done" || pic.Counts.Imported != 1 || len(pic.Photos) != 1 {
		t.Errorf("the picture's job through B: %+v", pic)
	}
	logsB := stopB()
	if !strings.Contains(logsB, "running again a job") {
		t.Errorf("B does not say it ran A's job again:\n%s", logsB)
	}

	if got := photoCount(t, db); got != before+n+1 {
		t.Errorf("%d photos, want %d: the %d before, the file's %d and the picture", got, before+n+1, before, n)
	}
	importedOnce(t, db, done.Photos) // the first 500
	if out, errOut, err := runCmd(t, "", "verify", "--db", db, "--originals", kept); err != nil {
		t.Errorf("verify: %v\n%s%s", err, out, errOut)
	}
}

// importedOnce checks that each photo's custody holds one import.
func importedOnce(t *testing.T, db string, photos []struct{ ID string }) {
	t.Helper()
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(photos) == 0 {
		t.Fatal("the job lists no photo")
	}
	for _, p := range photos {
		recs, err := s.CustodyOf(context.Background(), p.ID)
		imports := 0
		for _, r := range recs {
			if r.Action == "import" {
				imports++
			}
		}
		if err != nil || imports != 1 {
			t.Fatalf("photo %s: %d imports in its custody (%v), want 1", p.ID, imports, err)
		}
	}
}

// photoCount is how many photos the archive at db holds.
func photoCount(t *testing.T, db string) int {
	t.Helper()
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n, err := s.Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}
