package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/store"
)

// serveChild starts `syriamap serve` with args in a child process, the
// binary as it runs (the test binary is syriamap with
// SYRIAMAP_TEST_MAIN), with env added to a copy of the environment
// without SYRIAMAP_ORIGINALS; it returns the URL it serves and a
// function that stops it with SIGINT, as Ctrl-C does, and returns its
// log.
func serveChild(t *testing.T, env []string, args ...string) (string, func() string) {
	t.Helper()
	u, _, stop := serveProcess(t, env, args...)
	return u, stop
}

// serveProcess is serveChild, with the child's process (to kill it).
func serveProcess(t *testing.T, env []string, args ...string) (string, *os.Process, func() string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SYRIAMAP_ORIGINALS=") && !strings.HasPrefix(kv, "SYRIAMAP_TEST_MAIN=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(append(cmd.Env, env...), "SYRIAMAP_TEST_MAIN="+strings.Join(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), "\x1f"))
	var logs bytes.Buffer
	cmd.Stderr = &logs
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() string {
		if !stopped {
			stopped = true
			cmd.Process.Signal(syscall.SIGINT)
			cmd.Wait()
		}
		return logs.String()
	}
	t.Cleanup(func() { stop() })
	line, err := bufio.NewReader(out).ReadString('\n')
	u := regexp.MustCompile(`http://\S+/`).FindString(line)
	if err != nil || u == "" {
		t.Fatalf("no start-up line (%v): %q\n%s", err, line, stop())
	}
	go io.Copy(io.Discard, out)
	return u, cmd.Process, stop
}

// TestServeKeepsUploadedOriginals (issue 65, 1): through the binary as
// the README runs it — `syriamap serve` on a fresh archive, no flag
// about originals — a JPEG an editor uploads is kept in the store of
// originals beside the archive: its picture answers once its job is
// done, `verify` passes, and the evidence bag the server exports holds
// the original, recorded in custody by the bag's name, not the server's
// temporary folder.
func TestServeKeepsUploadedOriginals(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the server")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "archive.db")
	if _, _, err := runCmd(t, "a long enough password\n", "users", "add", "--db", db, "--password-stdin", "rana"); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "", "tokens", "create", "--db", db, "rana")
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(out)
	jpeg, err := os.ReadFile("../../internal/evidence/imagemeta/testdata/check-arabic.jpg")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(jpeg)
	sha := hex.EncodeToString(sum[:])

	base, stop := serveChild(t, nil, "--db", db)
	bearer := func(req *http.Request) *http.Response {
		t.Helper()
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("files", "photo.jpg")
	w.Write(jpeg)
	mw.Close()
	req, _ := http.NewRequest("POST", base+"api/imports", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res := bearer(req)
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("upload: %s\n%s", res.Status, stop())
	}
	var job struct {
		State  string
		Photos []struct{ ID string }
		Files  []struct{ State, Error string }
	}
	for deadline := time.Now().Add(30 * time.Second); job.State != "done"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the job never finished: %+v", job)
		}
		req, _ := http.NewRequest("GET", strings.TrimSuffix(base, "/")+res.Header.Get("Location"), nil)
		r := bearer(req)
		json.NewDecoder(r.Body).Decode(&job)
		r.Body.Close()
	}
	if len(job.Photos) != 1 || len(job.Files) != 1 || job.Files[0].State != "done" {
		t.Fatalf("the job: %+v", job)
	}
	id := job.Photos[0].ID
	if res, err := http.Get(base + "images/" + sha + "/320.jpg"); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("the picture: %v %v", res.Status, err)
	}
	req, _ = http.NewRequest("POST", base+"evidence.zip", strings.NewReader(url.Values{"id": {id}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res = bearer(req)
	zipped, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the evidence bag: %s %s", res.Status, zipped)
	}
	if !zipHolds(t, zipped, jpeg) {
		t.Error("the evidence bag holds no original of the uploaded picture")
	}
	stop()

	if out, errOut, err := runCmd(t, "", "verify", "--db", db); err != nil {
		t.Errorf("verify: %v\n%s%s", err, out, errOut)
	}
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recs, err := s.CustodyOf(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	exported := false
	for _, r := range recs {
		if r.Action == "export" {
			exported = true
			if strings.Contains(string(r.Detail), os.TempDir()) || !strings.Contains(string(r.Detail), ".zip") {
				t.Errorf("the export's custody names the server's folder: %s", r.Detail)
			}
		}
	}
	if !exported {
		t.Error("no export in the photo's custody")
	}
}

// zipHolds reports whether a file of the zip has want's bytes.
func zipHolds(t *testing.T, zipped, want []byte) bool {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		if bytes.Equal(b, want) {
			return true
		}
	}
	return false
}

// TestVerifyLooksInUploads (issue 65, fault 6): files waiting in the
// uploads' folder beside the archive for longer than an import takes
// (what a stopped server left) are named by verify, with the folder and
// what removes them; a fresh one (an import under way) is not.
func TestVerifyLooksInUploads(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if _, _, err := runCmd(t, "", "import", "--db", db, "testdata/samples.golden.jsonl"); err != nil {
		t.Skip("no samples to import:", err)
	}
	left := filepath.Join(dir, "uploads", "files", strings.Repeat("ab", 32), "photo.jpg")
	os.MkdirAll(filepath.Dir(left), 0o700)
	os.WriteFile(left, []byte("left by a stopped server"), 0o600)
	fresh := filepath.Join(dir, "uploads", "resumable", "0123")
	os.MkdirAll(filepath.Dir(fresh), 0o700)
	os.WriteFile(fresh, []byte("arriving"), 0o600)
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(left, old, old)
	out, _, err := runCmd(t, "", "verify", "--db", db)
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	if !strings.Contains(out, "1 file in "+filepath.Join(dir, "uploads")) || !strings.Contains(out, "removes the others") {
		t.Errorf("verify does not name the uploads left:\n%s", out)
	}
}

// TestPublishReadsKeptOriginals: a picture whose imported copy is gone
// (an upload's always is, once its job is done) is published from the
// archive's store of originals, as the server serves it.
func TestPublishReadsKeptOriginals(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	jpeg, err := os.ReadFile("../../internal/evidence/imagemeta/testdata/check-arabic.jpg")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(jpeg)
	sha := hex.EncodeToString(sum[:])
	pic := filepath.Join(dir, "photo.jpg")
	os.WriteFile(pic, jpeg, 0o600)
	if out, _, err := runCmd(t, "", "import", "--db", db, pic); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	os.Remove(pic)
	site := filepath.Join(dir, "site")
	out, _, err := runCmd(t, "", "publish", "--db", db, "--include-unplaced", site)
	if err != nil {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(site, "images", sha, "320.jpg")); err != nil || !strings.Contains(out, "(0 files missing)") {
		t.Errorf("the kept original is not published: %v\n%s", err, out)
	}
}
