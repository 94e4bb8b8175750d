package archive

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/pgtest"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

var bundled = sync.OnceValues(func() (*gazetteer.Gazetteer, error) { return gazetteer.Load(geodata.Gazetteer) })

func newArchive(t testing.TB) *Archive {
	t.Helper()
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	return newArchiveAt(t, pgtest.ArchivePath(t, "a.db"), g)
}

// TestMain stops the PostgreSQL cluster the tests started, if they ran on
// it (SYRIAMAP_TEST_ENGINE=postgres).
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// archiveWithOriginals is a new archive with a store of originals in a
// folder of its own, and that folder (for the test's own files).
func archiveWithOriginals(t testing.TB) (*Archive, string) {
	t.Helper()
	a := newArchive(t)
	dir := t.TempDir()
	var err error
	if a.Originals, err = originals.NewDir(filepath.Join(dir, "originals")); err != nil {
		t.Fatal(err)
	}
	return a, dir
}

func newArchiveAt(t testing.TB, path string, g *gazetteer.Gazetteer) *Archive {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return New(db, g)
}

func write(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestImportFormats(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	csv := write(t, "photos.csv", "id,caption,image_url,date,photographer,agency,lat,lon,source\n"+
		"r1,\"A boy walks in Douma, Syria, March 3, 2016. REUTERS/Bassam Khabieh\",http://img/1.jpg,,,,,,Reuters archive\n"+
		"r2,A woman in an unnamed village.,,2014-05,Jane Roe,Local Agency,35.5,37.0,\n")
	jsonl := write(t, "photos.jsonl", `{"caption": "A boy walks in Douma, Syria, March 3, 2016. REUTERS/Bassam Khabieh", "id": "dup"}`+"\n"+
		`{"caption": "Children in Kafranbel town, Idlib governorate, January 17, 2015. (Photo by Khalil Ashawi/Reuters)"}`+"\n")
	res, err := a.ImportFile(ctx, csv, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 2 || res.Read != 2 {
		t.Errorf("csv: %+v", res)
	}
	res, err = a.ImportFile(ctx, jsonl, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 1 || res.Updated != 1 {
		t.Errorf("jsonl: %+v (the Douma caption is already there)", res)
	}
	douma, err := a.db.Photo(ctx, photo.ID("A boy walks in Douma, Syria, March 3, 2016. REUTERS/Bassam Khabieh"))
	if err != nil {
		t.Fatal(err)
	}
	if douma.Place.Name != "Douma" || douma.Date.String() != "2016-03-03" || douma.Agency != "Reuters" || douma.ImageURL != "http://img/1.jpg" || len(douma.Sources) != 2 {
		t.Errorf("Douma photo: %+v", douma)
	}
	if douma.Sources[0].Ref != "r1" || douma.Sources[0].Label != "Reuters archive" || !strings.HasSuffix(douma.Sources[0].File, "photos.csv") {
		t.Errorf("sources: %+v", douma.Sources)
	}
	// The same caption from a file that gives nothing keeps what the first
	// file gave.
	if res, err := a.ImportFile(ctx, write(t, "plain.txt", "A woman in an unnamed village.\n"), "", nil); err != nil || res.Updated != 1 {
		t.Fatalf("plain: %+v, %v", res, err)
	}
	given, _ := a.db.Photo(ctx, photo.ID("A woman in an unnamed village."))
	if !given.Placed() || given.Place.Lon != 37.0 || given.Place.Precision != "given" || given.Date.String() != "2014-05" ||
		given.Photographer != "Jane Roe" || given.Agency != "Local Agency" {
		t.Errorf("overrides: %+v", given)
	}
}

func TestImportIsAllOrNothing(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	bad := write(t, "bad.csv", "caption,lat,lon\nA man in Aleppo.,36.2,37.1\nA man in Homs.,95,36\n")
	res, err := a.ImportFile(ctx, bad, "", nil)
	if err == nil || !strings.Contains(err.Error(), "bad.csv:3: lat 95 is out of range") {
		t.Fatalf("err = %v", err)
	}
	if res.Read != 1 {
		t.Errorf("read %d records before the bad one, want 1", res.Read)
	}
	if n, _ := a.db.Count(ctx); n != 0 {
		t.Errorf("%d photos after a rejected file", n)
	}
	if _, err := a.ImportFile(ctx, filepath.Join(t.TempDir(), "missing.txt"), "", nil); err == nil || !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := a.ImportFile(ctx, write(t, "x.xlsx", "a"), "", nil); photo.ErrorCode(err) != photo.EInvalid {
		t.Errorf("unknown format: %v", err)
	}
}

func TestSamplesAndCorrections(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	res, err := a.ImportSamples(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Read != 16 || res.Added != 15 || res.Unplaced != 0 {
		t.Errorf("samples: %+v", res)
	}
	found, _ := a.db.Photos(ctx, photo.Filter{Query: "Bishqatin"})
	if len(found) != 1 || found[0].Place.ID != "ocha:C1145" {
		t.Fatalf("Bishqatin: %v", found)
	}
	id := found[0].ID
	if err := a.SetPlace(ctx, id, "gn:170063", nil, "near Aleppo; no better point"); err != nil {
		t.Fatal(err)
	}
	if err := a.SetPlace(ctx, id, "nope", nil, ""); photo.ErrorCode(err) != photo.ENotFound {
		t.Errorf("unknown place: %v", err)
	}
	if err := a.SetPlace(ctx, id, "cur:castello-road", nil, ""); photo.ErrorCode(err) != photo.EInvalid {
		t.Errorf("a place without a point: %v", err)
	}
	again, err := a.ImportSamples(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if again.Unchanged != 16 {
		t.Errorf("re-import: %+v", again)
	}
	changed, moved, err := a.Regeocode(ctx, nil)
	if err != nil || changed != 0 || moved != 0 {
		t.Errorf("regeocode with no change: %d, %d, %v", changed, moved, err)
	}
	p, _ := a.db.Photo(ctx, id)
	if p.Place.ID != "gn:170063" || p.Place.Precision != "corrected" || p.Correction.Note != "near Aleppo; no better point" || p.Geocoded.ID != "ocha:C1145" {
		t.Errorf("corrected photo: place %+v, geocoded %+v", p.Place, p.Geocoded)
	}
}

func TestSearchPlaces(t *testing.T) {
	a := newArchive(t)
	for q, want := range map[string]string{"Bustan Pasha": "ocha:N0130", "Bustan Pa": "ocha:N0130", "kafr nabl": "gn:168661"} {
		found := a.SearchPlaces(q, 10, nil)
		ok := false
		for _, p := range found {
			ok = ok || p.ID == want
		}
		if !ok {
			t.Errorf("SearchPlaces(%q) = %v, want %s among them", q, found, want)
		}
	}
}

// TestSearchPutsTheNameTypedFirst searches 400 places (every 50th) by
// their display name: each is found, and only namesakes (a name folding
// to the same form) come before it — never a more prominent place that a
// loose spelling or a shared beginning brought in ('Mhardeh' once gave
// Mardin first, 'Al-Qaim' Damascus).
func TestSearchPutsTheNameTypedFirst(t *testing.T) {
	a := newArchive(t)
	places := a.Gazetteer().Places()
	tried, bad := 0, 0
	for i := 0; i < len(places) && tried < 400; i += 50 {
		p := &places[i]
		tried++
		k := gazetteer.Fold(p.Name)
		found := a.SearchPlaces(p.Name, 50, nil)
		folded := a.places.Load().folded()
		at := slices.Index(found, p)
		if at < 0 {
			bad++
			t.Errorf("SearchPlaces(%q) does not find %s", p.Name, p.ID)
			continue
		}
		for _, q := range found[:at] {
			if !sameFine(folded[q], k) {
				bad++
				t.Errorf("SearchPlaces(%q) puts %s (%s) before %s", p.Name, q.Name, q.ID, p.ID)
				break
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d searches wrong", bad, tried)
	}
}
