package store

import (
	"context"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestDateSourceKept: a photo's date is stored with where it came from,
// read back by Photo, Photos and the features; an archive written before
// the column keeps its rows, its dated photos the caption's (or the
// import's, when a file gave the date; the editor's, when a person fixed
// it), its undated none (issue 69, item 1).
func TestDateSourceKept(t *testing.T) {
	ctx := context.Background()
	path := archivePath(t, "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	caption, page, undated, fixed := mk("Rescuers in Idlib, August 22, 2019.", "2019-08-22", "", "", "", "", "", 0, 0, 0),
		mk("Rescuers in Idlib.", "2019-08-23", "", "", "", "", "", 0, 0, 0), mk("Rescuers in Ariha.", "", "", "", "", "", "", 0, 0, 0),
		mk("Rescuers in Saraqib, August 2019.", "2019-08", "", "", "", "", "", 0, 0, 0)
	caption.DateSource = photo.DateCaption
	page.DateSource, page.Given = photo.DateImport, photo.GivenDate
	recs := []Record{{Photo: caption, Line: 1}, {Photo: page, Line: 2}, {Photo: undated, Line: 3}, {Photo: fixed, Line: 4}}
	if _, err := db.ImportFile(ctx, "f.csv", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	day := photo.Date{Year: 2019, Month: 8, Day: 20, Precision: "day"}
	if _, err := db.Apply(ctx, []string{fixed.ID}, photo.Change{Author: "rana", Date: &day}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{caption.ID: "caption", page.ID: "import", undated.ID: "", fixed.ID: "editor"}
	check := func(when string) {
		t.Helper()
		for id, src := range want {
			if p, err := db.Photo(ctx, id); err != nil {
				t.Errorf("%s: Photo %s: %v", when, id, err)
			} else if p.DateSource != src {
				t.Errorf("%s: Photo %s: date source %q, want %q", when, id, p.DateSource, src)
			}
		}
		list, err := db.Photos(ctx, photo.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range list {
			if p.DateSource != want[p.ID] {
				t.Errorf("%s: Photos %s: date source %q, want %q", when, p.ID, p.DateSource, want[p.ID])
			}
		}
		if err := db.EachFeature(ctx, photo.Filter{}, func(f *photo.Feature) error {
			if f.DateSource != want[f.ID] {
				t.Errorf("%s: feature %s: date source %q, want %q", when, f.ID, f.DateSource, want[f.ID])
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	check("as imported")
	// As an archive written before the column holds them.
	if !olderSchema(t) {
		return
	}
	for _, q := range []string{`ALTER TABLE photos DROP COLUMN date_source`, `DELETE FROM schema_migrations WHERE name = '0034_date_source.sql'`} {
		if _, err := db.write.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if db, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	check("after the migration")
}
