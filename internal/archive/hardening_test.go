package archive

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/ingest"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestFileChangedWhileRead: a file that is cut (or grows) while it is
// imported is rolled back whole, with a message saying why, instead of
// being stored with its last caption cut off.
func TestFileChangedWhileRead(t *testing.T) {
	a := newArchive(t)
	var b strings.Builder
	for i := range 6000 {
		fmt.Fprintf(&b, "Caption number %d of a man in Aleppo, Syria, May 3, 2016. REUTERS/Abdalrhman Ismail\n\n", i)
	}
	path := write(t, "growing.txt", b.String())
	cut := false
	_, err := a.ImportFile(context.Background(), path, "", func(_ string, done, total int64) {
		if !cut {
			cut = true
			os.Truncate(path, total/2) // as a download that restarts, or an export rewritten
		}
	})
	if !cut {
		t.Fatal("the import never reported progress")
	}
	if err == nil || !strings.Contains(err.Error(), "changed while it was read") {
		t.Fatalf("err = %v", err)
	}
	if n, _ := a.db.Count(context.Background()); n != 0 {
		t.Errorf("%d photos stored from a file that changed", n)
	}
}

// fuzzImport imports doc as a file of the format into the archive and
// checks the import is all or nothing: a rejected file adds no photo and
// changes no version; an accepted one adds what it read. Nothing panics.
func fuzzImport(t *testing.T, a *Archive, format, doc string) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "f."+format)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := a.db.Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := a.db.Version(ctx)
	res, err := a.ImportFile(ctx, path, format, nil)
	after, _ := a.db.Count(ctx)
	if err != nil {
		if !strings.Contains(err.Error(), "f."+format+":") || photo.ErrorCode(err) != photo.EInvalid {
			t.Fatalf("an error that does not name file and line, or is not the input's: %v", err)
		}
		if v2, _ := a.db.Version(ctx); after != before || v2 != v {
			t.Fatalf("a rejected file changed the archive: %d → %d photos (%v)", before, after, err)
		}
		return
	}
	if after-before != res.Added || res.Added+res.Updated+res.Unchanged < res.Read {
		t.Fatalf("result %+v, but %d → %d photos", res, before, after)
	}
}

func fuzzArchive(f *testing.F) *Archive {
	g, err := bundled()
	if err != nil {
		f.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "syriamap-fuzz-")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(dir) })
	a := newArchiveAt(f, filepath.Join(dir, "a.db"), g)
	return a
}

func FuzzCSV(f *testing.F) {
	for _, s := range []string{
		"caption,lat,lon,date\nA man in Aleppo.,36.2,37.1,2016\n\"b\"\"c\",,,\n",
		"\ufeff\"caption\",\"image_url\"\n\"Smoke over Homs\",http://x/1.jpg\n",
		"caption,lat,lon\nA,95,36\n",
		"id,caption,photographer,agency\n1,\"=cmd in Idlib\",@x,+y\n",
	} {
		f.Add(s)
	}
	a := fuzzArchive(f)
	f.Fuzz(func(t *testing.T, doc string) { fuzzImport(t, a, ingest.CSV, doc) })
}

func FuzzJSONL(f *testing.F) {
	for _, s := range []string{
		`{"caption": "A man in Aleppo, Syria, May 2, 2016.", "lat": 36.2, "lon": "37.1"}` + "\n\n" + `{"caption": "B", "id": 7}` + "\n",
		"\ufeff{\"caption\": \"x\"}\n",
		`{"caption": "A", "lat": [1]}` + "\n",
	} {
		f.Add(s)
	}
	a := fuzzArchive(f)
	f.Fuzz(func(t *testing.T, doc string) { fuzzImport(t, a, ingest.JSONL, doc) })
}

func FuzzTXT(f *testing.F) {
	for _, s := range []string{
		"A man in Aleppo, Syria, May 2, 2016. REUTERS/Abdalrhman Ismail\n\nSecond in Homs. (Photo by C D/Reuters)Third in Idlib. (Photo by E F/AFP)\n",
		"\ufeffOne caption.\n",
		"bad \xff line\n",
	} {
		f.Add(s)
	}
	a := fuzzArchive(f)
	f.Fuzz(func(t *testing.T, doc string) { fuzzImport(t, a, ingest.Text, doc) })
}
