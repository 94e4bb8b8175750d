package bag_test

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
)

// TestEvidenceZip (issue 42, part 3, the button): an editor's POST of a
// photo, or of the explorer's filters, gets the bag zipped — its manifests
// naming every payload file with its SHA-256 — and the export is in the
// photo's custody under the editor's name; a reader's is refused.
func TestEvidenceZip(t *testing.T) {
	e := servertest.Sample(t, httpapi.Options{})
	id := httpapitest.PhotoID(t, e.TS, "?place=gn:170063")
	res, body := httpapitest.Do(t, http.DefaultClient, http.MethodPost, e.TS.URL+"/evidence.zip", "id="+id, "Authorization", "Bearer "+e.Token,
		"Content-Type", "application/x-www-form-urlencoded")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/zip" {
		t.Fatalf("an editor's export: %d %s", res.StatusCode, body)
	}
	zr, err := zip.NewReader(strings.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name[strings.Index(f.Name, "/")+1:]] = b
	}
	manifest := string(files["manifest-sha256.txt"])
	if string(files["bagit.txt"]) != "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n" || !strings.Contains(manifest, "data/"+id+"/record.json") {
		t.Fatalf("the bag: %d files, manifest %q", len(files), manifest)
	}
	for _, line := range strings.Split(strings.TrimSpace(manifest), "\n") {
		sum, name, _ := strings.Cut(line, "  ")
		h := sha256.Sum256(files[name])
		if hex.EncodeToString(h[:]) != sum {
			t.Errorf("%s does not hash to its manifest's %s", name, sum)
		}
	}
	recs, _ := e.A.CustodyOf(context.Background(), id)
	if last := recs[len(recs)-1]; last.Action != "export" || last.Actor != "editor rana" {
		t.Errorf("the export's custody record: %+v", last)
	}
	// The explorer's filters select as the API does.
	res, body = httpapitest.Do(t, http.DefaultClient, http.MethodPost, e.TS.URL+"/evidence.zip", "agency=Reuters&from=2016-01&to=2016-12", "Authorization", "Bearer "+e.Token,
		"Content-Type", "application/x-www-form-urlencoded")
	if res.StatusCode != 200 {
		t.Errorf("a selection: %d %s", res.StatusCode, body)
	}
	if res, _ := httpapitest.Do(t, http.DefaultClient, http.MethodPost, e.TS.URL+"/evidence.zip", "id="+id, "Content-Type", "application/x-www-form-urlencoded"); res.StatusCode < 400 {
		t.Errorf("a reader's export: %d", res.StatusCode)
	}
}
