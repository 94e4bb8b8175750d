package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestRegeocodeWithGivenPoints: a photo whose file gave its point is
// re-geocoded (its geocoder place kept aside), and its point stays.
func TestRegeocodeWithGivenPoints(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	p := mk("Fighters in Idlib, Syria", "", "", "", "gn:3", "Idlib", "Idlib", 36.63, 35.93, 0.9)
	p.Given = photo.GivenPoint
	p.Geocoded.Precision = "given"
	if _, err := db.ImportFile(ctx, "p.csv", Records([]Record{{Photo: p, Line: 2}}), nil); err != nil {
		t.Fatal(err)
	}
	changed, moved, err := db.Regeocode(ctx, func(string) photo.Place {
		return photo.Place{ID: "gn:2", Name: "Damascus", Located: true, Lon: 36.29, Lat: 33.51, Precision: "exact"}
	}, nil)
	if err != nil || changed != 0 || moved != 0 {
		t.Fatalf("regeocode: %d changed, %d moved, %v", changed, moved, err)
	}
	got, _ := db.Photo(ctx, p.ID)
	if got.Place.Lon != 36.63 {
		t.Errorf("the file's point moved: %+v", got.Place)
	}
}

// blockingRecords yields one record, then waits for release: an import
// that holds the write lock for as long as a test wants.
func blockingRecords(p *photo.Photo, started chan<- struct{}, release <-chan struct{}) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		if !yield(Record{Photo: p, Line: 1}, nil) {
			return
		}
		close(started)
		<-release
	}
}

// TestConcurrentWritersWait: a second writer (another process, here
// another handle) waits for the first instead of failing with "database
// is locked", and both files are imported whole.
func TestConcurrentWritersWait(t *testing.T) {
	path := archivePath(t, "a.db")
	ctx := context.Background()
	first, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	started, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 2)
	go func() {
		p := *fixture[0]
		_, err := first.ImportFile(ctx, "a.txt", blockingRecords(&p, started, release), nil)
		done <- err
	}()
	<-started
	go func() {
		var recs []Record
		for i, p := range fixture[1:] {
			cp := *p
			recs = append(recs, Record{Photo: &cp, Line: i + 1})
		}
		_, err := second.ImportFile(ctx, "b.txt", Records(recs), nil)
		done <- err
	}()
	go func() {
		// A correction waits too.
		time.Sleep(300 * time.Millisecond)
		close(release)
	}()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatalf("a writer failed instead of waiting: %v", err)
		}
	}
	if n, _ := second.Count(ctx); n != len(fixture) {
		t.Errorf("%d photos, want %d", n, len(fixture))
	}
}

// TestBusyIsNotTheInputsFault: a writer that waited past the busy timeout
// is told the archive is busy, not that its file is bad.
func TestBusyIsNotTheInputsFault(t *testing.T) {
	path := archivePath(t, "a.db")
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Another process holding the lock, with a writer of ours that waits
	// only briefly.
	tx, err := rawArchive(t, path).Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`UPDATE archive_version SET version = version`); err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	shortenBusyWait(t, db)
	p := *fixture[0]
	_, err = db.ImportFile(ctx, "a.txt", Records([]Record{{Photo: &p, Line: 1}}), nil)
	if !errors.Is(err, ErrBusy) || photo.ErrorCode(err) != photo.EUnavailable || strings.Contains(err.Error(), "a.txt") {
		t.Errorf("err = %v (%s), want ErrBusy", err, photo.ErrorCode(err))
	}
}

// TestOpenRefusesOtherFiles: another application's SQLite file, or a file
// that is not SQLite, is refused and left byte for byte as it was.
func TestOpenRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db")
	odb, err := sql.Open("sqlite", "file:"+other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := odb.Exec(`CREATE TABLE users (id INTEGER, name TEXT)`); err != nil {
		t.Fatal(err)
	}
	odb.Close()
	text := filepath.Join(dir, "notes.db")
	os.WriteFile(text, []byte("not a database at all\n"), 0o644)
	for _, path := range []string{other, text} {
		before, _ := os.ReadFile(path)
		for _, open := range []func(context.Context, string) (*DB, error){Open, OpenReadOnly} {
			db, err := open(context.Background(), path)
			if err == nil {
				db.Close()
				t.Fatalf("%s was opened as an archive", path)
			}
			if !strings.Contains(err.Error(), "not a syriamap archive") {
				t.Errorf("%s: %v", path, err)
			}
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("%s was changed", path)
		}
		if _, err := os.Stat(path + "-wal"); err == nil {
			t.Errorf("%s got a -wal file", path)
		}
	}
}

// TestOpenReadOnly: a read-only archive answers reads and refuses writes,
// and its file is not touched.
func TestOpenReadOnly(t *testing.T) {
	path := archivePath(t, "a.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	importFixture(t, db)
	db.Close()
	before, _ := os.ReadFile(path)
	ro, err := OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	ctx := context.Background()
	if n, err := ro.Count(ctx); err != nil || n != len(fixture) {
		t.Errorf("count %d, %v", n, err)
	}
	if err := ro.SetCorrection(ctx, fixture[0].ID, photo.Correction{Lon: 1, Lat: 1}, photo.Place{}); photo.ErrorCode(err) != photo.EConflict {
		t.Errorf("a write to a read-only archive: %v", err)
	}
	if _, err := ro.ImportFile(ctx, "x.txt", Records(nil), nil); err == nil {
		t.Error("an import into a read-only archive worked")
	}
	if err := ro.Health(ctx); err != nil {
		t.Error(err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the read-only archive's file changed")
	}
	if _, err := OpenReadOnly(ctx, filepath.Join(t.TempDir(), "missing.db")); err == nil {
		t.Error("a missing archive opened read-only")
	}
}

// TestQuickCheckFindsDamage: a damaged page is found by the integrity
// probe and reported as such.
func TestQuickCheckFindsDamage(t *testing.T) {
	sqliteOnly(t) // damaged pages of SQLite's file; PostgreSQL's pages are its server's (TestChecksFindAMismatchedArchive)
	path := archivePath(t, "a.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []Record
	for i := range 3000 {
		p := mk(strings.Repeat("word ", 20)+string(rune('a'+i%26))+strings.Repeat("x", i%50)+" in Aleppo.", "2016-01-02", "AFP", "A B", "gn:1", "Aleppo", "Aleppo", 37.16, 36.2, 0.9)
		p.ID = photo.ID(p.Caption + string(rune(i)))
		recs = append(recs, Record{Photo: p, Line: i + 1})
	}
	if _, err := db.ImportFile(context.Background(), "a.txt", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.QuickCheck(context.Background()); err != nil {
		t.Fatalf("a sound archive: %v", err)
	}
	db.write.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	db.Close()
	f, _ := os.OpenFile(path, os.O_RDWR, 0)
	st, _ := f.Stat()
	f.WriteAt(bytes.Repeat([]byte{0xff}, 8192), st.Size()/2)
	f.Close()
	db, err = Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.QuickCheck(context.Background())
	if photo.ErrorCode(err) != photo.ECorrupt {
		t.Fatalf("a damaged archive: %v", err)
	}
	if len(err.Error()) > 600 {
		t.Errorf("the report is %d bytes long", len(err.Error()))
	}
}

// TestDeadline: a read that runs past the archive's deadline is stopped
// and reported as unavailable, not as a fault.
func TestDeadline(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	db.Timeout = time.Nanosecond
	_, err := db.Photos(context.Background(), photo.Filter{})
	if photo.ErrorCode(err) != photo.EUnavailable {
		t.Errorf("err = %v (%s), want unavailable", err, photo.ErrorCode(err))
	}
}

// TestSearchLimits checks the limits on full-text searches.
func TestSearchLimits(t *testing.T) {
	tests := []struct {
		q  string
		ok bool
	}{
		{"Aleppo", true},
		{`"old city" OR souk*`, true},
		{"al* OR sy* OR fi* OR re*", true},
		{"al* OR sy* OR fi* OR re* OR ho*", false}, // five prefixes
		{"a*", false},                              // a one-letter prefix
		{`"a"*`, false},
		{"caption:a*", false},
		{"(ab* OR cd*) AND NOT ef*", true},
		{strings.Repeat("word ", 16), true},
		{strings.Repeat("word ", 17), false},
		{strings.Repeat("x", 301), false},
		{"NEAR(fighters rebels, 5)", true},
	}
	for _, tt := range tests {
		err := CheckSearch(tt.q)
		if (err == nil) != tt.ok {
			t.Errorf("CheckSearch(%q) = %v, want ok %v", tt.q, err, tt.ok)
		}
		if err != nil {
			var pe *photo.Error
			if !errors.As(err, &pe) || pe.Parameter != "q" {
				t.Errorf("CheckSearch(%q): %v does not name q", tt.q, err)
			}
		}
	}
}

// TestSelectIDsThenFeatures: reading a selection in chunks gives what one
// query gives, in the same order, and leaves out a photo changed since so
// that the filter no longer selects it.
func TestSelectIDsThenFeatures(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	for _, f := range []photo.Filter{{}, {Agencies: []string{"Reuters"}}, {Newest: true, Limit: 3, Offset: 1}, {Query: "Aleppo"}, {From: date("2016"), To: date("2016")}} {
		var one, chunked []string
		if err := db.EachFeature(ctx, f, func(ft *photo.Feature) error { one = append(one, ft.ID); return nil }); err != nil {
			t.Fatal(err)
		}
		ids, err := db.SelectIDs(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for len(ids) > 0 {
			n := min(2, len(ids))
			if err := db.EachFeatureOf(ctx, f, ids[:n], func(ft *photo.Feature) error { chunked = append(chunked, ft.ID); return nil }); err != nil {
				t.Fatal(err)
			}
			ids = ids[n:]
		}
		if strings.Join(one, ",") != strings.Join(chunked, ",") || len(one) == 0 {
			t.Errorf("%+v: one query %v, chunks %v", f, one, chunked)
		}
	}
	f := photo.Filter{Agencies: []string{"AFP"}}
	ids, _ := db.SelectIDs(ctx, f)
	db.write.Exec(`UPDATE photos SET agency = 'Reuters' WHERE rowid = ?`, ids[0])
	n := 0
	db.EachFeatureOf(ctx, f, ids, func(*photo.Feature) error { n++; return nil })
	if n != len(ids)-1 {
		t.Errorf("%d of %d photos, after one left the selection", n, len(ids))
	}
}

// TestImagesOfOneCaption: a second image for a caption is kept beside the
// first, which stays the photo's image.
func TestImagesOfOneCaption(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	a, b := *fixture[0], *fixture[0]
	a.ImageURL, b.ImageURL = "https://example.org/1.jpg", "https://example.org/2.jpg"
	sum, err := db.ImportFile(ctx, "a.csv", Records([]Record{{Photo: &a, Line: 2}, {Photo: &b, Line: 3}}), nil)
	if err != nil || sum.Added != 1 || sum.Updated != 1 {
		t.Fatalf("%+v %v", sum, err)
	}
	p, _ := db.Photo(ctx, a.ID)
	if p.ImageURL != a.ImageURL || len(p.Images) != 2 || p.Images[1].URL != b.ImageURL {
		t.Errorf("image %s, images %v", p.ImageURL, p.Images)
	}
	sum, _ = db.ImportFile(ctx, "a.csv", Records([]Record{{Photo: &a, Line: 2}, {Photo: &b, Line: 3}}), nil)
	if sum.Unchanged != 2 {
		t.Errorf("a re-import changed something: %+v", sum)
	}
}

// TestBackup copies a live archive into a file that opens as one.
func TestBackup(t *testing.T) {
	sqliteOnly(t) // a copy of SQLite's file (VACUUM INTO); PostgreSQL's refusal is TestBackupOfPostgresSaysHow
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "copy.db")
	if err := db.Backup(ctx, path); err != nil {
		t.Fatal(err)
	}
	if err := db.Backup(ctx, path); err == nil {
		t.Error("a backup overwrote a file")
	}
	cp, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if n, _ := cp.Count(ctx); n != len(fixture) {
		t.Errorf("the copy has %d photos", n)
	}
}

// A full disk is named: writes that fail for want of space are EDiskFull
// (whatever wrapped them), and Health reports a disk nearly full.
func TestDiskFull(t *testing.T) {
	for _, err := range []error{
		fmt.Errorf("store: changing x: %w", errors.New("database or disk is full (13)")),
		fmt.Errorf("store: %w", &os.PathError{Op: "write", Path: "a.db-wal", Err: syscall.ENOSPC}),
	} {
		if got := photo.DiskFull(err); photo.ErrorCode(got) != photo.EDiskFull || !strings.Contains(got.Error(), "disk holding the archive is full") {
			t.Errorf("photo.DiskFull(%v) = %v", err, got)
		}
	}
	if err := errors.New("something else"); photo.DiskFull(err) != err {
		t.Error("another error was taken for a full disk")
	}
	db, err := Open(context.Background(), archivePath(t, "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Health(context.Background()); err != nil {
		t.Fatalf("health: %v", err)
	}
	db.freeSpace = func(string) (uint64, error) { return 5 << 20, nil }
	if err := db.Health(context.Background()); photo.ErrorCode(err) != photo.EDiskFull || !strings.Contains(err.Error(), "5 MB free") {
		t.Errorf("health with 5 MB free: %v", err)
	}
}

// TestFTSQueryReadsPunctuationAsSpaces: a search pasted from a caption
// finds the captions with its words; the search syntax keeps its meaning
// (issue 54, defect 2).
func TestFTSQueryReadsPunctuationAsSpaces(t *testing.T) {
	for _, tt := range []struct{ q, want string }{
		{"Aleppo, Syria, December 13", "Aleppo Syria December 13"},
		{"al-Bab: Sha'aar/Jobar.", "al Bab Sha aar Jobar"},
		{`"rebel fighter" OR Douma*`, `"rebel fighter" OR Douma*`},
		{"“I Love Damascus”", `"I Love Damascus"`},
		{"«حلب الشهباء»، دوما", `"حلب الشهباء" دوما`},
		{"(Douma OR Harasta) NOT Jobar", "(Douma OR Harasta) NOT Jobar"},
		{"Ḩumaymīm", "Ḩumaymīm"},
	} {
		if got := ftsQuery(tt.q); got != tt.want {
			t.Errorf("ftsQuery(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

// TestSearchReadsNumbersAsItsIndexDoes (issue 67, 5): FTS5's tokenizer
// keeps every number in a word (2½, 3², Ⅻ are words of the index), so a
// search reads them so too: "2½" finds the caption that says 2½, not
// every caption with a 2; "½" alone is a word, never the empty search
// that answers every photo; a prefix counts its numbers as letters.
func TestSearchReadsNumbersAsItsIndexDoes(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	var recs []Record
	for i, c := range []string{"Smoke rises 2½ hours after the strike", "Refugees 2 km from the border", "A crater 3² metres wide"} {
		recs = append(recs, Record{Photo: mk(c, "2016-07-12", "AFP", "", "", "", "", 0, 0, 0), Line: i + 1})
	}
	if _, err := db.ImportFile(ctx, "numbers.txt", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q    string
		want []string
	}{{"2½", []string{"Smoke rises 2½ hours after the strike"}}, {"2", []string{"Refugees 2 km from the border"}}, {"½", nil},
		{"3²", []string{"A crater 3² metres wide"}}, {"2½*", []string{"Smoke rises 2½ hours after the strike"}}} {
		ps, err := db.Photos(ctx, photo.Filter{Query: c.q})
		var got []string
		for _, p := range ps {
			got = append(got, p.Caption)
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("search %q: %q (%v), want %q", c.q, got, err, c.want)
		}
	}
}

// TestSearchReadsDigitsOfEitherScript (issue 67, 5): a number is the same
// search in Latin and Arabic-Indic digits, as the Arabic index and the
// published site fold them: "2016" finds the Arabic caption dated ٢٠١٦,
// "١٢" the English one that says 12, "۲۰۱۶" both.
func TestSearchReadsDigitsOfEitherScript(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	var recs []Record
	for i, c := range []string{"دخان فوق حلب ٢٠١٦", "Smoke over Aleppo, 12 March 2016", "Boys play in Homs"} {
		recs = append(recs, Record{Photo: mk(c, "2016-07-12", "AFP", "", "", "", "", 0, 0, 0), Line: i + 1})
	}
	if _, err := db.ImportFile(ctx, "digits.txt", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q    string
		want int
	}{{"2016", 2}, {"٢٠١٦", 2}, {"۲۰۱۶", 2}, {"١٢", 1}, {"12", 1}, {"١٢ OR Homs", 2}, {"٢٠١٦ AND Aleppo", 1}, {"٢٠١٦ NOT smoke", 1}} {
		ps, err := db.Photos(ctx, photo.Filter{Query: c.q})
		if err != nil || len(ps) != c.want {
			t.Errorf("search %q: %d photos (%v), want %d", c.q, len(ps), err, c.want)
		}
	}
}
