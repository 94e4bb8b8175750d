package archive

import (
	"context"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestImportDateFromEverySource: a photo's date is the caption's own
// first (a relative one read against the day the page was published is
// still the caption's); the file's date column when the caption has none,
// or when it is a day of the caption's month; else the day the page was
// published — those two the import's. Each is stored with its source
// (issue 69, item 1).
func TestImportDateFromEverySource(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	rows := []struct{ caption, date, published, want, source string }{
		{"Rescuers dig in the rubble in Douma, Syria, March 3, 2016. REUTERS/Bassam Khabieh", "2016-03-05", "", "2016-03-03", photo.DateCaption},
		{"Rescuers dig in the rubble in Douma in March 2016.", "2016-03-05", "", "2016-03-05", photo.DateImport},
		// The file's date the caption's own day: the caption's (an outside
		// trial saw "the date the import gives" and the import's wider window).
		{"A boy walks in the rubble in Douma, Syria March 14, 2017. REUTERS/Bassam Khabieh", "2017-03-14", "", "2017-03-14", photo.DateCaption},
		{"Rescuers dig in the rubble in Douma.", "2016-03-05", "", "2016-03-05", photo.DateImport},
		{"Smoke rises over Douma.", "", "2016-03-07", "2016-03-07", photo.DateImport},
		{"Smoke rises over Douma on Sunday.", "", "2016-03-08", "2016-03-06", photo.DateCaption},
		{"سوريون أثناء دخولهم إلى مدينة حمص أمس.", "", "2016-03-08", "2016-03-07", photo.DateCaption},
		{"Smoke rises over Harasta.", "", "", "", ""},
	}
	csv := "caption,date,published\n"
	for _, r := range rows {
		csv += "\"" + r.caption + "\"," + r.date + "," + r.published + "\n"
	}
	if _, err := a.ImportFile(ctx, write(t, "sources.csv", csv), "", nil); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		p, err := a.db.Photo(ctx, photo.ID(r.caption))
		if err != nil {
			t.Fatal(err)
		}
		if p.Date.String() != r.want || p.DateSource != r.source {
			t.Errorf("%s: date %q from %q, want %q from %q", r.caption, p.Date, p.DateSource, r.want, r.source)
		}
	}
	// A later file with the same caption and no date keeps the import's
	// date and its source; an editor's fix is the editor's.
	undated := "Rescuers dig in the rubble in Douma."
	if _, err := a.ImportFile(ctx, write(t, "again.txt", undated+"\n"), "", nil); err != nil {
		t.Fatal(err)
	}
	if p, _ := a.db.Photo(ctx, photo.ID(undated)); p.Date.String() != "2016-03-05" || p.DateSource != photo.DateImport {
		t.Errorf("after a file without a date: %s from %q, want 2016-03-05 from import", p.Date, p.DateSource)
	}
	fixed := photo.Date{Year: 2016, Month: 3, Day: 4, Precision: "day"}
	if _, err := a.Apply(ctx, []string{photo.ID(undated)}, photo.Change{Author: "rana", Date: &fixed}); err != nil {
		t.Fatal(err)
	}
	for _, when := range []string{"after the fix", "after a re-import"} {
		if p, _ := a.db.Photo(ctx, photo.ID(undated)); p.Date != fixed || p.DateSource != photo.DateEditor {
			t.Errorf("%s: %s from %q, want 2016-03-04 from editor", when, p.Date, p.DateSource)
		}
		if _, err := a.ImportFile(ctx, write(t, "sources.csv", csv), "", nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestImageDateFromTheFile: an image's IPTC date created, else its EXIF
// DateTimeOriginal, is the photo's date when the caption gives none
// (source file), and the reference its caption's relative dates are read
// against (issue 69, item 1).
func TestImageDateFromTheFile(t *testing.T) {
	a := newArchive(t)
	exif := imagemeta.Metadata{EXIF: imagemeta.EXIF{Time: time.Date(2018, 7, 17, 14, 3, 0, 0, time.UTC), HasTime: true}}
	iptc := imagemeta.Metadata{Created: "2018-07-12T09:00:00+03:00", EXIF: exif.EXIF}
	for _, c := range []struct {
		name, caption string
		md            imagemeta.Metadata
		want, source  string
	}{
		{"EXIF alone", "Smoke rises over Daraa.", exif, "2018-07-17", photo.DateFile},
		{"IPTC over EXIF", "Smoke rises over Daraa.", iptc, "2018-07-12", photo.DateFile},
		{"a weekday read against the file's day", "Smoke rises over Daraa on Sunday.", exif, "2018-07-15", photo.DateCaption},
		{"the caption's own date", "Smoke rises over Daraa, July 1, 2018.", exif, "2018-07-01", photo.DateCaption},
		{"no date anywhere", "Smoke rises over Daraa on Sunday.", imagemeta.Metadata{}, "", ""},
	} {
		p := a.buildFromImage(c.caption, c.md, photo.Date{})
		if p.Date.String() != c.want || p.DateSource != c.source {
			t.Errorf("%s: date %q from %q, want %q from %q", c.name, p.Date, p.DateSource, c.want, c.source)
		}
	}
	// The upload form's date comes after the file's, and is the reference
	// when the file gives none.
	form := photo.Date{Year: 2018, Month: 7, Day: 20, Precision: "day"}
	for _, c := range []struct {
		name, caption string
		md            imagemeta.Metadata
		want, source  string
	}{
		{"the file's over the form's", "Smoke rises over Daraa.", exif, "2018-07-17", photo.DateFile},
		{"the form's when the file gives none", "Smoke rises over Daraa.", imagemeta.Metadata{}, "2018-07-20", photo.DateEditor},
		{"a weekday read against the form's", "Smoke rises over Daraa on Sunday.", imagemeta.Metadata{}, "2018-07-15", photo.DateCaption},
	} {
		p := a.buildFromImage(c.caption, c.md, form)
		if p.Date.String() != c.want || p.DateSource != c.source {
			t.Errorf("%s: date %q from %q, want %q from %q", c.name, p.Date, p.DateSource, c.want, c.source)
		}
	}
}

// TestImportWithTheFormDate: the date an editor gives an upload's photos
// on its form dates those whose caption and file give none, as the
// editor's, and is the reference of their relative dates (issue 69,
// item 1).
func TestImportWithTheFormDate(t *testing.T) {
	a := newArchive(t)
	ctx := WithFormDate(context.Background(), photo.Date{Year: 2018, Month: 7, Day: 20, Precision: "day"})
	rows := []struct{ caption, date, want, source string }{
		{"Smoke rises over Daraa, July 1, 2018.", "", "2018-07-01", photo.DateCaption},
		{"Smoke rises over Daraa on Sunday.", "", "2018-07-15", photo.DateCaption},
		{"Smoke rises over Busra.", "2018-07-18", "2018-07-18", photo.DateImport},
		{"Smoke rises over Nawa.", "", "2018-07-20", photo.DateEditor},
	}
	csv := "caption,date\n"
	for _, r := range rows {
		csv += "\"" + r.caption + "\"," + r.date + "\n"
	}
	if _, err := a.ImportFile(ctx, write(t, "form.csv", csv), "", nil); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if p, err := a.db.Photo(ctx, photo.ID(r.caption)); err != nil || p.Date.String() != r.want || p.DateSource != r.source {
			t.Errorf("%s: date %q from %q (%v), want %q from %q", r.caption, p.Date, p.DateSource, err, r.want, r.source)
		}
	}
}

// TestPageDateLooksBackFurther: the linker looks two days further back
// from an import's date (a page's) than from the caption's: a photo of
// GED 214797 (Teir Maaleh, 1 January 2016) on a page of 4 January is
// offered it; one whose caption says 4 January is not (issue 69, item 1).
func TestPageDateLooksBackFurther(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	if _, _, err := a.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	page := "Smoke rises over Teir Maaleh village near Homs after shelling."
	own := "Smoke rises over Teir Maaleh village near Homs after shelling, January 4, 2016."
	if _, err := a.ImportFile(ctx, write(t, "page.csv", "caption,date\n"+page+",2016-01-04\n\""+own+"\",\n"), "", nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		caption string
		want    bool
	}{{page, true}, {own, false}} {
		pe, err := a.EventsOf(ctx, photo.ID(c.caption))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, cand := range pe.Candidates {
			found = found || cand.Event.ID == "214797"
		}
		if found != c.want {
			t.Errorf("%s: GED 214797 among %d candidates %v, want %v", c.caption, len(pe.Candidates), found, c.want)
		}
	}
}
