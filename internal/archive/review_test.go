package archive

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

const (
	doumaCaption = "A boy walks in Douma, Syria, March 3, 2016. REUTERS/Bassam Khabieh"
	homsCaption  = "A man walks in Homs, Syria, May 5, 2015. REUTERS/Ali Said"
	idlibCaption = "Smoke rises over Idlib, Syria, June 6, 2016. REUTERS/Ammar Abdullah"
)

// reviewed imports three photos and has an editor correct one, confirm
// one and fix the third's date and credit.
func reviewed(t *testing.T, a *Archive) (douma, homs, idlib string) {
	t.Helper()
	ctx := context.Background()
	path := write(t, "c.txt", doumaCaption+"\n\n"+homsCaption+"\n\n"+idlibCaption+"\n")
	if _, err := a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	douma, homs, idlib = photo.ID(doumaCaption), photo.ID(homsCaption), photo.ID(idlibCaption)
	harasta, err := a.PlaceOf("gn:169897", nil) // a nearby town: the editor knows better
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.db.Apply(ctx, []string{douma}, photo.Change{Author: "rana", Note: "the agency's page says Harasta", Place: &harasta}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.db.Apply(ctx, []string{homs}, photo.Change{Author: "omar", Confirm: true}); err != nil {
		t.Fatal(err)
	}
	d, _ := photo.ParseDate("2016-06-07")
	agency := "AFP"
	if _, err := a.db.Apply(ctx, []string{idlib}, photo.Change{Author: "rana", Note: "EXIF", Date: &d, Agency: &agency, Photographer: nil}); err != nil {
		t.Fatal(err)
	}
	return douma, homs, idlib
}

func TestReviewChangesAndHistory(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	douma, homs, idlib := reviewed(t, a)
	p, _ := a.db.Photo(ctx, douma)
	if p.Place.ID != "gn:169897" || p.Review != photo.ReviewCorrected || p.ReviewedBy != "rana" || p.Geocoded.Name != "Douma" {
		t.Errorf("corrected: place %s, review %s by %q, geocoded %s", p.Place.ID, p.Review, p.ReviewedBy, p.Geocoded.Name)
	}
	p, _ = a.db.Photo(ctx, homs)
	if p.Place.Name != "Homs" || p.Review != photo.ReviewConfirmed || p.Correction == nil || !p.Correction.Confirmed {
		t.Errorf("confirmed: %s %s %+v", p.Place.Name, p.Review, p.Correction)
	}
	p, _ = a.db.Photo(ctx, idlib)
	if p.Date.String() != "2016-06-07" || p.Agency != "AFP" || p.Photographer != "Ammar Abdullah" {
		t.Errorf("fixed: %s %q %q", p.Date, p.Photographer, p.Agency)
	}
	h, err := a.db.History(ctx, douma)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 1 || h[0].By != "rana" || h[0].Action != "correct" || h[0].Before["place_name"] != "Douma" ||
		h[0].After["place_id"] != "gn:169897" || h[0].Note != "the agency's page says Harasta" {
		t.Errorf("history %+v", h)
	}
	// Nothing to confirm on an unplaced photo; an unknown photo changes
	// nothing, even beside a known one.
	if _, err := a.db.Apply(ctx, []string{homs, "nope"}, photo.Change{Author: "omar", Confirm: true}); photo.ErrorCode(err) != photo.ENotFound {
		t.Errorf("unknown photo: %v", err)
	}
	if h, _ := a.db.History(ctx, homs); len(h) != 1 {
		t.Errorf("a failed change left %d events", len(h))
	}
}

// TestReviewSurvives re-geocodes and re-imports an archive, and moves its
// corrections into a fresh one: every decision stands.
func TestReviewSurvives(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	douma, homs, idlib := reviewed(t, a)
	check := func(a *Archive, when string) {
		t.Helper()
		if p, _ := a.db.Photo(ctx, douma); p.Place.ID != "gn:169897" || p.Review != photo.ReviewCorrected {
			t.Errorf("%s: the correction of Douma is gone: %s %s", when, p.Place.ID, p.Review)
		}
		if p, _ := a.db.Photo(ctx, homs); p.Review != photo.ReviewConfirmed {
			t.Errorf("%s: the confirmation of Homs is gone: %s", when, p.Review)
		}
		if p, _ := a.db.Photo(ctx, idlib); p.Date.String() != "2016-06-07" || p.Agency != "AFP" {
			t.Errorf("%s: the fix of Idlib's date and agency is gone: %s %q", when, p.Date, p.Agency)
		}
	}
	if _, _, err := a.Regeocode(ctx, nil); err != nil {
		t.Fatal(err)
	}
	check(a, "after regeocode")
	// The same captions again, from a file that gives a date and credit.
	again := write(t, "again.csv", "caption,date,agency\n\""+idlibCaption+"\",2016-06-06,Reuters\n\""+doumaCaption+"\",,\n")
	if _, err := a.ImportFile(ctx, again, "", nil); err != nil {
		t.Fatal(err)
	}
	check(a, "after a re-import")

	var buf bytes.Buffer
	n, err := a.ExportCorrections(ctx, &buf)
	if err != nil || n != 3 {
		t.Fatalf("export: %d, %v", n, err)
	}
	g, _ := bundled()
	fresh := newArchiveAt(t, filepath.Join(t.TempDir(), "b.db"), g)
	path := write(t, "c.txt", doumaCaption+"\n\n"+homsCaption+"\n\n"+idlibCaption+"\n")
	if _, err := fresh.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	exported := buf.String() + `{"photo_id":"0000000000000000","placement":"confirmed","by":"x","at":"2026-01-01T00:00:00Z"}` + "\n"
	rep, err := fresh.ImportCorrections(ctx, strings.NewReader(exported), "team.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Applied != 3 || rep.Skipped != 1 || rep.Conflicts != 0 {
		t.Errorf("import: %+v", rep)
	}
	check(fresh, "after export and import")
	if h, _ := fresh.db.History(ctx, douma); len(h) != 1 || h[0].By != "rana" {
		t.Errorf("the imported correction's event: %+v", h)
	}
	// Again: all already so. A different decision here is a conflict.
	harasta, _ := fresh.PlaceOf("", &[2]float64{36.3, 33.5})
	if _, err := fresh.db.Apply(ctx, []string{homs}, photo.Change{Author: "local", Place: &harasta}); err != nil {
		t.Fatal(err)
	}
	rep, err = fresh.ImportCorrections(ctx, strings.NewReader(buf.String()), "team.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Conflicts != 1 || rep.Skipped != 1 || !strings.Contains(strings.Join(rep.Lines, "\n"), "conflict: a person here placed it") {
		t.Errorf("second import: %+v", rep)
	}
	// A malformed line names its line and applies nothing.
	if _, err := fresh.ImportCorrections(ctx, strings.NewReader(buf.String()+"{\"photo_id\": 3}\n"), "bad.jsonl"); err == nil || !strings.Contains(err.Error(), "bad.jsonl:4") {
		t.Errorf("malformed: %v", err)
	}
}
