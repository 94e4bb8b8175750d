package importapi_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
	"github.com/syriamap/syriamap/internal/http/importapi"
)

// upload posts files (name, body pairs) to /api/imports with headers.
func upload(t *testing.T, url string, files [][2]string, header ...string) (*http.Response, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range files {
		w, _ := mw.CreateFormFile("files", f[0])
		w.Write([]byte(f[1]))
	}
	mw.Close()
	return httpapitest.Do(t, nil, "POST", url+"/api/imports", body.String(), append([]string{"Content-Type", mw.FormDataContentType()}, header...)...)
}

// keepOriginals gives e's archive a store of originals, as serve does:
// a server takes pictures only when it can keep them.
func keepOriginals(t *testing.T, e *servertest.Server) {
	t.Helper()
	httpapitest.KeepOriginals(t, e.A)
}

// waitJob polls an import's address until it is done.
func waitJob(t *testing.T, e *servertest.Server, location string) importapi.Job {
	t.Helper()
	var job importapi.Job
	httpapitest.Eventually(t, func() bool {
		res, body := httpapitest.Get(t, e.TS, location, "Authorization", "Bearer "+e.Token)
		if res.StatusCode != http.StatusOK || !strings.Contains(res.Header.Get("Cache-Control"), "no-store") {
			t.Fatalf("GET %s: %d %s", location, res.StatusCode, body)
		}
		if err := json.Unmarshal(body, &job); err != nil {
			t.Fatal(err)
		}
		return job.State == "done"
	})
	if job.State != "done" {
		t.Fatalf("the import did not finish: %+v", job)
	}
	return job
}

// TestServerUploadImports (issue 58, 2 and 3): an editor's caption files and a
// JPEG, posted as multipart, are accepted (202, Location) and imported
// as `import` imports them, the custody naming the editor; the same
// files again add nothing; a reader cannot upload; a file type import
// does not read is refused (415), and a file or an upload past its
// limit (413), before anything is imported.
func TestServerUploadImports(t *testing.T) {
	// The originals beside the uploads, on one disk, as the server has
	// them: an upload's image is kept by a link, not written again.
	dir := t.TempDir()
	e := servertest.Sample(t, httpapi.Options{Uploads: filepath.Join(dir, "uploads"), UploadLimits: importapi.Limits{FileBytes: 1 << 20, UploadBytes: 4 << 20}})
	store, err := originals.NewDir(filepath.Join(dir, "originals"))
	if err != nil {
		t.Fatal(err)
	}
	e.A.Originals = store
	jpeg, err := os.ReadFile("../../evidence/imagemeta/testdata/check-arabic.jpg")
	if err != nil {
		t.Fatal(err)
	}
	jpegSum := sha256.Sum256(jpeg)
	files := [][2]string{
		{"captions.jsonl", `{"text": "A man walks past a damaged building in Saraqeb, Idlib province, Syria January 15, 2018. REUTERS/Ammar Abdullah"}` + "\n"},
		{"more.csv", "Description,byline\n\"Children play in Douma, Syria March 3, 2016.\",Bassam Khabieh\n"},
		{"folder/photo.jpg", string(jpeg)},
	}
	bearer := []string{"Authorization", "Bearer " + e.Token}
	if res, _ := upload(t, e.TS.URL, files); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a reader's upload: %d, want 401", res.StatusCode)
	}
	res, body := upload(t, e.TS.URL, files, bearer...)
	if res.StatusCode != http.StatusAccepted || !strings.HasPrefix(res.Header.Get("Location"), "/api/imports/") {
		t.Fatalf("upload: %d %s %s", res.StatusCode, res.Header.Get("Location"), body)
	}
	job := waitJob(t, e, res.Header.Get("Location"))
	if job.Summary == nil || job.Summary.Added != 3 || job.NewPhotos != 3 || len(job.Files) != 3 || job.Files[2].Name != "photo.jpg" || len(job.Files[0].SHA256) != 64 {
		t.Fatalf("the import: %+v", job)
	}
	for _, f := range job.Files {
		if f.State != "done" {
			t.Errorf("%s: %s %s", f.Name, f.State, f.Error)
		}
	}
	if kept, err := os.ReadFile(store.Path(hex.EncodeToString(jpegSum[:]))); err != nil || !bytes.Equal(kept, jpeg) {
		t.Errorf("the JPEG's original is not kept as it was sent: %v", err)
	}
	// The upload's copy is gone: the picture is served from its original.
	if res, _ := httpapitest.Get(t, e.TS, "/images/"+hex.EncodeToString(jpegSum[:])+"/320.jpg"); res.StatusCode != http.StatusOK {
		t.Errorf("the uploaded picture: %d, want 200", res.StatusCode)
	}
	id := httpapitest.PhotoID(t, e.TS, "?q=Saraqeb")
	recs, err := e.A.CustodyOf(context.Background(), id)
	if err != nil || len(recs) == 0 || recs[0].Actor != "editor rana" {
		t.Errorf("the photo's first custody record: %+v, %v; want it by editor rana", recs, err)
	}
	res, _ = upload(t, e.TS.URL, files, bearer...)
	if again := waitJob(t, e, res.Header.Get("Location")); again.Summary.Added != 0 || again.Summary.Unchanged != 3 {
		t.Errorf("the same files again: %+v", again.Summary)
	}
	for _, c := range []struct {
		name   string
		files  [][2]string
		header []string
		status int
		want   string
	}{
		{"a file import does not read", [][2]string{{"notes.docx", "x"}}, nil, http.StatusUnsupportedMediaType, "notes.docx: not a file syriamap imports"},
		{"a file past its limit", [][2]string{{"big.txt", strings.Repeat("A caption. ", 100_000)}}, nil, http.StatusRequestEntityTooLarge, "big.txt is larger than 1 MB"},
		{"no file", nil, nil, http.StatusBadRequest, "the upload holds no file"},
	} {
		res, body := upload(t, e.TS.URL, c.files, append(bearer, c.header...)...)
		if res.StatusCode != c.status || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %s; want %d %q", c.name, res.StatusCode, body, c.status, c.want)
		}
	}
	// A declared body past the upload's limit is refused before it is read.
	req, _ := http.NewRequest("POST", e.TS.URL+"/api/imports", strings.NewReader(strings.Repeat("x", 5<<20)))
	req.Header.Set("Authorization", "Bearer "+e.Token)
	req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("a declared 5 MiB upload: %d, want 413", res.StatusCode)
		}
	}
	left := 0
	filepath.WalkDir(filepath.Join(dir, "uploads"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left++
		}
		return nil
	})
	if left != 0 {
		t.Errorf("%d uploaded files left behind", left)
	}
}

// TestUploadRefusesAsImportDoes (issue 58, target): every bad caption
// file `import` refuses is refused through an upload with the same
// message, file and line.
func TestUploadRefusesAsImportDoes(t *testing.T) {
	e := servertest.Sample(t, httpapi.Options{Uploads: t.TempDir()})
	keepOriginals(t, e)
	for _, c := range [][2]string{
		{"no-caption.csv", "id,url\n1,x\n"},
		{"no-caption.jsonl", `{"id": "x", "body": "y"}` + "\n"},
		{"bad.jsonl", `{"caption": "A"}` + "\n" + `{"caption": ` + "\n"},
		{"bad-lat.csv", "caption,lat,lon\nA man in Aleppo,91,36\n"},
		{"bad-date.csv", "caption,date\nA man in Aleppo,2016-02-30\n"},
		{"nul.txt", "A man\x00 in Aleppo\n"},
		{"empty.csv", ""},
		{"cut.csv", "caption,lat,lon\nA man in Aleppo,36.2,37."},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, c[0])
		os.WriteFile(path, []byte(c[1]), 0o644)
		_, err := e.A.ImportFile(context.Background(), path, "", nil)
		if err == nil {
			t.Fatalf("%s: import takes it", c[0])
		}
		want := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
		res, _ := upload(t, e.TS.URL, [][2]string{c}, "Authorization", "Bearer "+e.Token)
		job := waitJob(t, e, res.Header.Get("Location"))
		if f := job.Files[0]; f.State != "refused" || f.Error != want {
			t.Errorf("%s: the upload says %s %q; import says %q", c[0], f.State, f.Error, want)
		}
	}
	// Bad JPEGs: skipped by import with a reason, refused by the upload
	// with the same one.
	for _, name := range []string{"bad-notjpeg.jpg", "bad-segment.jpg", "bad-truncated.jpg"} {
		b, err := os.ReadFile(filepath.Join("../../evidence/imagemeta/testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
		res, err := e.A.ImportImages(context.Background(), []string{dir}, nil, nil)
		if err != nil || len(res.Skipped) != 1 {
			t.Fatalf("%s: import skips %d: %v", name, len(res.Skipped), err)
		}
		want := name + ": " + res.Skipped[0].Reason
		up, _ := upload(t, e.TS.URL, [][2]string{{name, string(b)}}, "Authorization", "Bearer "+e.Token)
		job := waitJob(t, e, up.Header.Get("Location"))
		if f := job.Files[0]; f.State != "refused" || f.Error != want {
			t.Errorf("%s: the upload says %s %q; import says %q", name, f.State, f.Error, want)
		}
	}
}

// TestResumableUpload (issue 58, 2): a JPEG sent by tus (tus.io's
// protocol, tusd's handler) whose connection drops halfway resumes from
// where the server says it got, without sending again what arrived, and
// is then imported by naming it; a file past the limit is refused when
// it is declared, before a byte is sent; an unfinished upload is not
// imported.
func TestResumableUpload(t *testing.T) {
	uploads := t.TempDir()
	e := servertest.Sample(t, httpapi.Options{Uploads: uploads, UploadLimits: importapi.Limits{FileBytes: 1 << 20, UploadBytes: 4 << 20}})
	keepOriginals(t, e)
	jpeg, err := os.ReadFile("../../evidence/imagemeta/testdata/check-arabic.jpg")
	if err != nil {
		t.Fatal(err)
	}
	bearer := []string{"Authorization", "Bearer " + e.Token}
	tus := func(method, path string, body string, header ...string) *http.Response {
		t.Helper()
		res, _ := httpapitest.Do(t, nil, method, e.TS.URL+path, body, append(append([]string{"Tus-Resumable", "1.0.0"}, bearer...), header...)...)
		return res
	}
	meta := "filename " + base64.StdEncoding.EncodeToString([]byte("resumed.jpg"))
	if res := tus("POST", "/api/uploads/", "", "Upload-Length", "5000000", "Upload-Metadata", meta); res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a file declared past the limit: %d, want 413", res.StatusCode)
	}
	if res := tus("POST", "/api/uploads/", "", "Upload-Length", "10", "Upload-Metadata", "filename "+base64.StdEncoding.EncodeToString([]byte("a.exe"))); res.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a file import does not read: %d, want 415", res.StatusCode)
	}
	res := tus("POST", "/api/uploads/", "", "Upload-Length", strconv.Itoa(len(jpeg)), "Upload-Metadata", meta)
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusCreated || loc == "" {
		t.Fatalf("create: %d %q", res.StatusCode, loc)
	}
	path := loc[strings.Index(loc, "/api/uploads/"):]
	id := strings.TrimPrefix(path, "/api/uploads/")
	// Half the file, then the connection drops.
	half := len(jpeg) / 2
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.TS.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "PATCH %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: %d\r\n\r\n", path, e.Token, len(jpeg))
	conn.Write(jpeg[:half])
	// The half is on the server's disk (tusd's file store) before the
	// connection drops.
	httpapitest.Eventually(t, func() bool {
		fi, err := os.Stat(filepath.Join(uploads, "resumable", id))
		return err == nil && fi.Size() == int64(half)
	})
	conn.Close()
	// Not finished: not imported.
	if res, body := httpapitest.Do(t, nil, "POST", e.TS.URL+"/api/imports", `{"uploads": ["`+id+`"]}`, append(bearer, "Content-Type", "application/json")...); res.StatusCode != http.StatusConflict {
		t.Errorf("an unfinished upload imported: %d %s", res.StatusCode, body)
	}
	var offset int
	httpapitest.Eventually(t, func() bool {
		offset, _ = strconv.Atoi(tus("HEAD", path, "").Header.Get("Upload-Offset"))
		return offset == half
	})
	if offset != half {
		t.Fatalf("after the drop the server has %d bytes, want %d", offset, half)
	}
	if res := tus("PATCH", path, string(jpeg[offset:]), "Upload-Offset", strconv.Itoa(offset), "Content-Type", "application/offset+octet-stream"); res.StatusCode != http.StatusNoContent {
		t.Fatalf("the rest: %d", res.StatusCode)
	}
	res, body := httpapitest.Do(t, nil, "POST", e.TS.URL+"/api/imports", `{"uploads": ["`+id+`"]}`, append(bearer, "Content-Type", "application/json")...)
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("import the upload: %d %s", res.StatusCode, body)
	}
	job := waitJob(t, e, res.Header.Get("Location"))
	want := sha256.Sum256(jpeg)
	if f := job.Files[0]; f.State != "done" || f.SHA256 != hex.EncodeToString(want[:]) || job.Summary.Added != 1 {
		t.Errorf("the resumed upload's import: %+v", job)
	}
}

// TestUploadPageSaysWhatWasLost (issue 65, 3 and fault 6): the files of a
// job a stopped server had queued are removed when it starts again, and
// its editor's upload page says which were never imported and when they
// were sent; another editor's page says nothing of them.
func TestUploadPageSaysWhatWasLost(t *testing.T) {
	up := t.TempDir()
	// What a server killed during the job left: its manifest and a file.
	os.MkdirAll(filepath.Join(up, "jobs"), 0o700)
	os.WriteFile(filepath.Join(up, "jobs", "0123456789abcdef.json"), []byte(`{"editor":"rana","created":"2026-03-01T10:00:00Z","names":["a.csv","b.jpg","c.csv"]}`), 0o600)
	os.MkdirAll(filepath.Join(up, "files", "ab"), 0o700)
	os.WriteFile(filepath.Join(up, "files", "ab", "a.csv"), []byte("caption\nx\n"), 0o600)
	e := servertest.Sample(t, httpapi.Options{Uploads: up})
	res, body := httpapitest.Get(t, e.TS, "/upload", "Authorization", "Bearer "+e.Token)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/upload: %d", res.StatusCode)
	}
	want := "3 files you sent on 1 March 2026, 10:00 UTC were never imported (the server stopped first): send them again. a.csv, b.jpg, c.csv"
	if !strings.Contains(string(body), want) {
		t.Errorf("the upload page does not say %q:\n%s", want, body)
	}
	if _, err := os.Stat(filepath.Join(up, "files", "ab", "a.csv")); err == nil {
		t.Error("the stopped job's file is still there")
	}
}

// TestReadOnlyServerRefusesUploads (issue 65, 1): a read-only server
// answers an upload, by multipart or by tus, that it is read-only,
// rather than "no such page".
func TestReadOnlyServerRefusesUploads(t *testing.T) {
	e := servertest.Sample(t, httpapi.Options{Uploads: t.TempDir(), ReadOnly: true})
	bearer := []string{"Authorization", "Bearer " + e.Token}
	res, body := upload(t, e.TS.URL, [][2]string{{"photo.jpg", "x"}}, bearer...)
	if res.StatusCode != http.StatusForbidden || !strings.Contains(body, "read-only") {
		t.Errorf("multipart: %d %s; want 403 saying read-only", res.StatusCode, body)
	}
	res, body = httpapitest.Do(t, nil, "POST", e.TS.URL+"/api/uploads/", "", append(bearer, "Tus-Resumable", "1.0.0", "Upload-Length", "10")...)
	if res.StatusCode != http.StatusForbidden || !strings.Contains(body, "read-only") {
		t.Errorf("tus: %d %s; want 403 saying read-only", res.StatusCode, body)
	}
}
