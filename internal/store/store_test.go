package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/pgtest"
	"github.com/syriamap/syriamap/internal/photo"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// onPostgres: the tests run on PostgreSQL (SYRIAMAP_TEST_ENGINE=postgres,
// as make test's second run of the store's tests sets it), else on SQLite.
var onPostgres = os.Getenv("SYRIAMAP_TEST_ENGINE") == "postgres"

// archivePath is where a test keeps a new archive: a file in a new
// folder on SQLite, a new database on PostgreSQL (name is then unused).
func archivePath(t testing.TB, name string) string {
	t.Helper()
	if onPostgres {
		return pgtest.Database(t)
	}
	return filepath.Join(t.TempDir(), name)
}

// sqliteOnly skips a test of SQLite's file itself (its pages, its locks,
// its pragmas) on PostgreSQL.
func sqliteOnly(t testing.TB) {
	t.Helper()
	if onPostgres {
		t.Skip("a test of the SQLite file")
	}
}

// olderSchema reports whether the test may go on to replay a step of
// SQLite's migration history on an archive as written before it. On
// PostgreSQL it may not: that history starts at the whole schema
// (migrations_postgres/0001_archive.sql), so no PostgreSQL archive was
// ever written before the step, and there is no step to replay.
func olderSchema(t testing.TB) bool {
	t.Helper()
	if onPostgres {
		t.Log("PostgreSQL's migration history starts at the whole schema: no older archive to migrate")
		return false
	}
	return true
}

func open(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), archivePath(t, "sub/test.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.Now = func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	t.Cleanup(func() { db.Close() })
	return db
}

func date(s string) photo.Date {
	d, err := photo.ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

// mk makes a photo placed at a named place, or unplaced when name is "".
func mk(caption, d, agency, photographer, placeID, name, gov string, lon, lat, conf float64) *photo.Photo {
	p := &photo.Photo{ID: photo.ID(caption), Caption: caption, Agency: agency, Photographer: photographer}
	if d != "" {
		p.Date = date(d)
	}
	p.Geocoded = photo.Place{Precision: "none"}
	if name != "" {
		p.Geocoded = photo.Place{ID: placeID, Name: name, Kind: "city", Governorate: gov, GovPCode: map[string]string{"Aleppo": "SY02", "Damascus": "SY01", "Idlib": "SY07"}[gov],
			Country: "SY", Lon: lon, Lat: lat, Located: true, Precision: "exact", Confidence: conf, Mention: name,
			Alternatives: []photo.Alternative{{ID: "x", Name: "X", Score: 0.1}}}
	}
	return p
}

var fixture = []*photo.Photo{
	mk("Boys play in Aleppo.", "2016-07-12", "AFP", "Karam Al-Masri", "gn:1", "Aleppo", "Aleppo", 37.16, 36.20, 0.95),
	mk("A man in Aleppo's old city.", "2016-07", "Reuters", "Hosam Katan", "gn:1", "Aleppo", "Aleppo", 37.16, 36.20, 0.8),
	mk("Smoke over Aleppo in 2016.", "2016", "Reuters", "Hosam Katan", "gn:1", "Aleppo", "Aleppo", 37.16, 36.20, 0.5),
	mk("A market in Damascus.", "2016-08-01", "Reuters", "Omar Sanadiki", "gn:2", "Damascus", "Damascus", 36.29, 33.51, 0.9),
	mk("A shop in Idlib.", "2015-11-07", "Reuters", "Ammar Abdullah", "gn:3", "Idlib", "Idlib", 36.63, 35.93, 0.95),
	mk("A rebel in Bishqatin.", "2012-12-08", "AFP", "Herve Bar", "", "", "", 0, 0, 0),
	mk("An undated view of Damascus.", "", "SANA", "", "gn:2", "Damascus", "Damascus", 36.29, 33.51, 0.7),
}

func importFixture(t *testing.T, db *DB) {
	t.Helper()
	var recs []Record
	for i, p := range fixture {
		cp := *p
		recs = append(recs, Record{Photo: &cp, Line: i + 1})
	}
	sum, err := db.ImportFile(context.Background(), "fixture.txt", Records(recs), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Added != len(fixture) || sum.Unplaced != 1 {
		t.Fatalf("first import: %+v", sum)
	}
}

func ids(ps []photo.Photo) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Caption)
	}
	sort.Strings(out)
	return out
}

func TestOpenTwiceMigratesOnce(t *testing.T) {
	path := archivePath(t, "a.db")
	for i := 0; i < 2; i++ {
		db, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		db.read.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n)
		files, _ := fs.Glob(migrations, db.migrationDir()+"/*.sql")
		if want := len(files); n != want || want < 1 {
			t.Errorf("open %d: %d migrations recorded, want %d", i, n, want)
		}
		// Each engine is opened deliberately: SQLite's file with foreign
		// keys and WAL; PostgreSQL's readers on one snapshot a
		// transaction, its writer waiting a minute for the write lock.
		settings := []struct {
			pool        *sql.DB
			query, want string
		}{{db.read, `PRAGMA foreign_keys`, "1"}, {db.read, `PRAGMA journal_mode`, "wal"}}
		if onPostgres {
			settings = []struct {
				pool        *sql.DB
				query, want string
			}{{db.read, `SHOW default_transaction_isolation`, "repeatable read"}, {db.write, `SHOW lock_timeout`, "1min"}}
		}
		for _, set := range settings {
			var got string
			if err := set.pool.QueryRow(set.query).Scan(&got); err != nil || got != set.want {
				t.Errorf("open %d: %s = %s (%v), want %s", i, set.query, got, err, set.want)
			}
		}
		db.Close()
	}
}

func TestImportIsIdempotent(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	v1, _ := db.Version(ctx)
	var recs []Record
	for i, p := range fixture {
		cp := *p
		recs = append(recs, Record{Photo: &cp, Line: i + 1})
	}
	sum, err := db.ImportFile(ctx, "fixture.txt", Records(recs), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum != (Summary{Unchanged: len(fixture)}) {
		t.Errorf("re-import: %+v, want all unchanged", sum)
	}
	if v2, _ := db.Version(ctx); v1 == 0 || v2 != v1 {
		t.Errorf("version %d after the import, %d after an unchanged re-import; want it raised once", v1, v2)
	}
	// The same caption in another file is one photo with two sources.
	cp := *fixture[0]
	sum, err = db.ImportFile(ctx, "other.csv", Records([]Record{{Photo: &cp, Line: 7}}), nil)
	if err != nil || sum != (Summary{Updated: 1}) {
		t.Fatalf("second file: %+v, %v", sum, err)
	}
	p, err := db.Photo(ctx, fixture[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(p.Sources) != "[{fixture.txt 1  } {other.csv 7  }]" {
		t.Errorf("sources = %v", p.Sources)
	}
	if n, _ := db.Count(ctx); n != len(fixture) {
		t.Errorf("%d photos, want %d", n, len(fixture))
	}
	// A changed field updates the photo.
	cp = *fixture[1]
	cp.Photographer = "Someone Else"
	if sum, _ := db.ImportFile(ctx, "fixture.txt", Records([]Record{{Photo: &cp, Line: 2}}), nil); sum.Updated != 1 {
		t.Errorf("changed photographer: %+v", sum)
	}
}

func TestImportRollsBackAWholeFile(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	good := *fixture[0]
	bad := *fixture[1]
	bad.Geocoded.Located, bad.Geocoded.Lon = true, 500 // the CHECK constraint refuses it
	_, err := db.ImportFile(ctx, "bad.txt", Records([]Record{{Photo: &good, Line: 1}, {Photo: &bad, Line: 2}}), nil)
	if err == nil {
		t.Fatal("a bad record was accepted")
	}
	if got := err.Error(); !strings.Contains(got, "bad.txt:2") {
		t.Errorf("error %q does not name the file and line", got)
	}
	if n, _ := db.Count(ctx); n != 0 {
		t.Errorf("%d photos after a failed import, want 0", n)
	}
}

func TestFilters(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	aleppo := orb.Bound{Min: orb.Point{37, 36}, Max: orb.Point{37.5, 36.5}}
	tests := []struct {
		name string
		f    photo.Filter
		want []string
	}{
		{"all", photo.Filter{}, ids(deref(fixture))},
		{"a day window holds month and year dates that overlap it",
			photo.Filter{From: date("2016-07-12"), To: date("2016-07-12")},
			[]string{"A man in Aleppo's old city.", "Boys play in Aleppo.", "Smoke over Aleppo in 2016."}},
		{"a month window", photo.Filter{From: date("2016-08"), To: date("2016-08")},
			[]string{"A market in Damascus.", "Smoke over Aleppo in 2016."}},
		{"open-ended window", photo.Filter{To: date("2015")}, []string{"A rebel in Bishqatin.", "A shop in Idlib."}},
		{"bbox", photo.Filter{BBox: &aleppo}, []string{"A man in Aleppo's old city.", "Boys play in Aleppo.", "Smoke over Aleppo in 2016."}},
		{"window and bbox", photo.Filter{From: date("2016-07-01"), To: date("2016-07-31"), BBox: &aleppo},
			[]string{"A man in Aleppo's old city.", "Boys play in Aleppo.", "Smoke over Aleppo in 2016."}},
		{"full text", photo.Filter{Query: "market OR shop"}, []string{"A market in Damascus.", "A shop in Idlib."}},
		{"agency", photo.Filter{Agencies: []string{"AFP"}}, []string{"A rebel in Bishqatin.", "Boys play in Aleppo."}},
		{"photographer", photo.Filter{Photographers: []string{"Hosam Katan"}}, []string{"A man in Aleppo's old city.", "Smoke over Aleppo in 2016."}},
		{"place", photo.Filter{PlaceIDs: []string{"gn:2"}}, []string{"A market in Damascus.", "An undated view of Damascus."}},
		{"governorate by P-code", photo.Filter{Governorates: []string{"SY07"}}, []string{"A shop in Idlib."}},
		{"governorate by name", photo.Filter{Governorates: []string{"Idlib"}}, []string{"A shop in Idlib."}},
		{"minimum confidence", photo.Filter{MinConfidence: 0.9}, []string{"A market in Damascus.", "A shop in Idlib.", "Boys play in Aleppo."}},
		{"unplaced", photo.Filter{Unplaced: true}, []string{"A rebel in Bishqatin."}},
		{"any of two agencies", photo.Filter{Agencies: []string{"AFP", "Reuters"}, Governorates: []string{"SY07", "Aleppo"}},
			[]string{"A man in Aleppo's old city.", "A shop in Idlib.", "Boys play in Aleppo.", "Smoke over Aleppo in 2016."}},
		{"combined", photo.Filter{Agencies: []string{"Reuters"}, From: date("2016"), To: date("2016"), Query: "Aleppo"},
			[]string{"A man in Aleppo's old city.", "Smoke over Aleppo in 2016."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := db.Photos(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(ids(got)) != fmt.Sprint(tt.want) {
				t.Errorf("got %q\nwant %q", ids(got), tt.want)
			}
			n, err := db.CountPhotos(ctx, tt.f)
			if err != nil || n != len(tt.want) {
				t.Errorf("CountPhotos = %d, %v; want %d", n, err, len(tt.want))
			}
		})
	}
	// Paging and order: newest first, undated last.
	page, _ := db.Photos(ctx, photo.Filter{Limit: 2, Offset: 1})
	if len(page) != 2 || page[0].Caption != "Boys play in Aleppo." {
		t.Errorf("page 2 = %q", ids(page))
	}
	all, _ := db.Photos(ctx, photo.Filter{})
	if all[len(all)-1].Date.IsZero() == false {
		t.Errorf("undated photos are not last: %v", all[len(all)-1].Caption)
	}
}

func deref(ps []*photo.Photo) []photo.Photo {
	var out []photo.Photo
	for _, p := range ps {
		out = append(out, *p)
	}
	return out
}

func TestBadQueries(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	if _, err := db.Photos(ctx, photo.Filter{Query: `"unbalanced`}); photo.ErrorCode(err) != photo.EInvalid {
		t.Errorf("bad full-text query: %v (%s), want invalid", err, photo.ErrorCode(err))
	}
	if _, err := db.Photos(ctx, photo.Filter{From: date("2017"), To: date("2016")}); photo.ErrorCode(err) != photo.EInvalid {
		t.Errorf("reversed window: %v", err)
	}
	if _, err := db.Photo(ctx, "nope"); photo.ErrorCode(err) != photo.ENotFound {
		t.Errorf("unknown photo: %v", err)
	}
}

func TestHistogramAndFacets(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	h, err := db.Histogram(ctx, photo.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(h); got != "[{2012-12 1} {2015-11 1} {2016 1} {2016-07 2} {2016-08 1}]" {
		t.Errorf("histogram = %s", got)
	}
	h, _ = db.Histogram(ctx, photo.Filter{Agencies: []string{"Reuters"}})
	if got := fmt.Sprint(h); got != "[{2015-11 1} {2016 1} {2016-07 1} {2016-08 1}]" {
		t.Errorf("filtered histogram = %s", got)
	}
	f, err := db.Facets(ctx, photo.Filter{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(f.Agencies); got != "[{Reuters Reuters 4} {AFP AFP 2} {SANA SANA 1}]" {
		t.Errorf("agencies = %s", got)
	}
	if got := fmt.Sprint(f.Governorates); got != "[{SY02 Aleppo 3} {SY01 Damascus 2} {SY07 Idlib 1}]" {
		t.Errorf("governorates = %s", got)
	}
	if got := fmt.Sprint(f.Places[0]); got != "{gn:1 Aleppo 3}" {
		t.Errorf("places = %v", f.Places)
	}
	if got := fmt.Sprint(f.Photographers[0]); got != "{Hosam Katan Hosam Katan 2}" {
		t.Errorf("photographers = %v", f.Photographers)
	}
	// A facet is counted without its own selection, under the others:
	// choosing AFP still shows what Reuters would add, in Aleppo.
	f, err = db.Facets(ctx, photo.Filter{Agencies: []string{"AFP"}, Governorates: []string{"SY02"}}, 10, photo.FacetAgency)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(f.Agencies); got != "[{Reuters Reuters 2} {AFP AFP 1}]" || f.Places != nil {
		t.Errorf("agencies in Aleppo with AFP chosen = %s, places %v (not asked for)", got, f.Places)
	}
}

func TestCorrectionWins(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	id := fixture[5].ID // Bishqatin, unplaced
	fix := photo.Correction{Lon: 37.02, Lat: 36.26, Note: "Bishqatin, from a map"}
	if err := db.SetCorrection(ctx, id, fix, photo.Place{Name: "Bishqatin", Kind: "village", Country: "SY"}); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		p, err := db.Photo(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Place.Located || p.Place.Lon != 37.02 || p.Place.Precision != "corrected" || p.Correction == nil || p.Correction.Note != fix.Note {
			t.Errorf("%s: place %+v, correction %+v", when, p.Place, p.Correction)
		}
	}
	check("after the correction")
	// Re-import with a changed geocoder result: the correction stays.
	cp := *fixture[5]
	cp.Geocoded = photo.Place{ID: "gn:9", Name: "Elsewhere", Located: true, Lon: 40, Lat: 35, Precision: "exact", Confidence: 0.5}
	if _, err := db.ImportFile(ctx, "again.txt", Records([]Record{{Photo: &cp, Line: 1}}), nil); err != nil {
		t.Fatal(err)
	}
	check("after a re-import")
	// Re-geocoding moves the others, not the corrected one.
	changed, moved, err := db.Regeocode(ctx, func(caption string) photo.Place {
		if caption == fixture[0].Caption {
			return photo.Place{ID: "gn:2", Name: "Damascus", Located: true, Lon: 36.29, Lat: 33.51, Precision: "exact", Confidence: 0.9}
		}
		if caption == fixture[5].Caption {
			return photo.Place{Precision: "none"}
		}
		for _, p := range fixture {
			if p.Caption == caption {
				return p.Geocoded
			}
		}
		return photo.Place{}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if changed != 2 || moved != 1 {
		t.Errorf("regeocode changed %d, moved %d; want 2, 1", changed, moved)
	}
	check("after re-geocoding")
	if p, _ := db.Photo(ctx, fixture[0].ID); p.Place.Name != "Damascus" {
		t.Errorf("re-geocoded photo is at %s", p.Place.Name)
	}
	if err := db.SetCorrection(ctx, "nope", fix, photo.Place{}); photo.ErrorCode(err) != photo.ENotFound {
		t.Errorf("correcting an unknown photo: %v", err)
	}
	if err := db.SetCorrection(ctx, id, photo.Correction{Lon: 200}, photo.Place{}); photo.ErrorCode(err) != photo.EInvalid {
		t.Errorf("a point out of range: %v", err)
	}
	if err := db.Integrity(ctx); err != nil {
		t.Error(err)
	}
}

// TestReadersDuringImport reads while a long import writes: WAL lets both
// go on, and readers see the archive as it was until the import commits.
func TestReadersDuringImport(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	var recs []Record
	for i := 0; i < 20000; i++ {
		p := mk(fmt.Sprintf("Photo number %d in Aleppo.", i), "2016-01-02", "AFP", "A B", "gn:1", "Aleppo", "Aleppo", 37.16, 36.2, 0.9)
		recs = append(recs, Record{Photo: p, Line: i + 1})
	}
	started := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	var importErr error
	go func() {
		defer wg.Done()
		_, importErr = db.ImportFile(ctx, "big.txt", Records(recs), func(done int) {
			if done > 0 {
				select {
				case <-started:
				default:
					close(started)
				}
			}
		})
	}()
	<-started
	reads := 0
	for i := 0; i < 20; i++ {
		// The import adds AFP photos: a reader must see none of them
		// until the whole file is committed.
		n, err := db.CountPhotos(ctx, photo.Filter{Agencies: []string{"AFP"}})
		if err != nil {
			t.Fatalf("a read during the import failed: %v", err)
		}
		if n != 2 {
			t.Errorf("a reader saw %d AFP photos mid-import, want the fixture's 2", n)
		}
		reads++
	}
	wg.Wait()
	if importErr != nil {
		t.Fatal(importErr)
	}
	if n, _ := db.Count(ctx); n != len(fixture)+20000 {
		t.Errorf("%d photos after the import", n)
	}
}

// TestWindowMatchesOverlap checks the window query, with its index
// shortcuts, against the plain definition: the period a photo's date
// covers overlaps the window.
func TestWindowMatchesOverlap(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	var recs []Record
	var all []*photo.Photo
	randDate := func() photo.Date {
		y, m, d := 2012+rng.IntN(4), 1+rng.IntN(12), 1+rng.IntN(28)
		switch rng.IntN(3) {
		case 0:
			return photo.Date{Year: y, Month: m, Day: d, Precision: "day"}
		case 1:
			return photo.Date{Year: y, Month: m, Precision: "month"}
		}
		return photo.Date{Year: y, Precision: "year"}
	}
	for i := 0; i < 400; i++ {
		p := mk(fmt.Sprintf("Photo %d.", i), "", "AFP", "", "gn:1", "Aleppo", "Aleppo", 37, 36, 0.9)
		p.Date = randDate()
		all = append(all, p)
		recs = append(recs, Record{Photo: p, Line: i + 1})
	}
	if _, err := db.ImportFile(ctx, "random.txt", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		f := photo.Filter{From: randDate(), To: randDate()}
		a, _ := f.From.Span()
		_, b := f.To.Span()
		if a > b {
			f.From, f.To = f.To, f.From
			a, _ = f.From.Span()
			_, b = f.To.Span()
		}
		switch i % 3 {
		case 1:
			f.To, b = photo.Date{}, 99999999
		case 2:
			f.From, a = photo.Date{}, 0
		}
		want := 0
		for _, p := range all {
			first, last := p.Date.Span()
			if first <= b && last >= a {
				want++
			}
		}
		got, err := db.CountPhotos(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("window %s…%s: %d photos, want %d", f.From, f.To, got, want)
		}
	}
}

// TestPagingAfter pages one photo at a time by After, in each order, over
// photos that share a date and photos with none: every photo once, in
// the order a query without paging gives.
func TestPagingAfter(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	var recs []Record
	for i, c := range []string{"An undated street.", "An undated field.", "A shop, same day as Idlib's."} {
		p := mk(c, "", "AP", "", "", "", "", 0, 0, 0)
		if i == 2 {
			p.Date = date("2015-11-07")
		}
		recs = append(recs, Record{Photo: p, Line: i + 1})
	}
	if _, err := db.ImportFile(context.Background(), "more.txt", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, order := range []photo.Filter{{}, {Oldest: true}, {Newest: true}} {
		var whole []string
		db.EachFeature(ctx, order, func(f *photo.Feature) error { whole = append(whole, f.ID); return nil })
		var paged []string
		page := order
		page.Limit = 1
		for len(paged) <= len(whole) {
			var got []*photo.Feature
			if err := db.EachFeature(ctx, page, func(f *photo.Feature) error { c := *f; got = append(got, &c); return nil }); err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 {
				break
			}
			paged = append(paged, got[0].ID)
			page.After = got[0].Seq
		}
		if len(whole) != len(fixture)+3 || !slices.Equal(paged, whole) {
			t.Errorf("order %+v: paged %v, want %v", order, paged, whole)
		}
	}
}

// TestImportRollsBackOnAnInputError feeds a file whose reader fails after
// 5,000 good records (a line too long, a file cut while read): the error
// is returned as it is and nothing of the file is kept, while the photos
// of an earlier file stay.
func TestImportRollsBackOnAnInputError(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	bad := photo.ParamErrorf("file", "bad.txt:5001: the caption is longer than 65536 bytes")
	recs := func(yield func(Record, error) bool) {
		for i := range 5000 {
			p := mk(fmt.Sprintf("Photo number %d in Aleppo.", i), "2016-01-02", "AFP", "A B", "gn:1", "Aleppo", "Aleppo", 37.16, 36.2, 0.9)
			if !yield(Record{Photo: p, Line: i + 1}, nil) {
				return
			}
		}
		yield(Record{}, bad)
	}
	if _, err := db.ImportFile(ctx, "bad.txt", recs, nil); !errors.Is(err, bad) {
		t.Fatalf("ImportFile = %v, want the reader's error", err)
	}
	if n, _ := db.Count(ctx); n != len(fixture) {
		t.Errorf("%d photos after a file failed to read, want the %d before it", n, len(fixture))
	}
	if n, _ := db.CountPhotos(ctx, photo.Filter{Query: "number"}); n != 0 {
		t.Errorf("%d of the failed file's captions are searchable", n)
	}
}

// TestOpenRefusesAddresses: --db given a PostgreSQL server that cannot be
// reached, or an address of another kind, is refused, naming it without
// its password, and makes nothing in the working directory (a postgres://
// URL once made a folder named "postgres:").
func TestOpenRefusesAddresses(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		db, want string
		code     string
	}{
		{"postgres://archivist:s3cret@127.0.0.1:1/syriamap", "cannot be reached", photo.EUnavailable},
		{"postgresql://127.0.0.1:1/syriamap?sslmode=disable", "cannot be reached", photo.EUnavailable},
		{"postgres://archivist:s3cret@127.0.0.1:1/syriamap?sslmode=sometimes", "not a PostgreSQL address", photo.EInvalid},
		{"s3://bucket/archive.db", "s3 address", photo.EInvalid},
		{"postgres//archivist:s3cret@127.0.0.1:1/syriamap", "without its \"://\"", photo.EInvalid},
		{"postgresql:/archivist:s3cret@127.0.0.1:1/syriamap", "without its \"://\"", photo.EInvalid},
	} {
		for name, open := range map[string]func(context.Context, string) (*DB, error){"Open": Open, "OpenReadOnly": OpenReadOnly} {
			db, err := open(context.Background(), tc.db)
			if err == nil {
				db.Close()
				t.Errorf("%s(%s) opened it", name, tc.db)
				continue
			}
			if photo.ErrorCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "s3cret") {
				t.Errorf("%s(%s): %v; want %s saying %q, without the password", name, tc.db, err, tc.code, tc.want)
			}
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("the working directory holds %v; want nothing made", entries)
	}
}
