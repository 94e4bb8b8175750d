package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestOneAgencyInBothScripts: a photo credited "الدفاع المدني" and one
// credited "Syrian Civil Defence" are one agency of the archive — one
// facet value, labelled by its English name (the pages name it in
// Arabic: lexicon.AgencyName) — selected by either name, and a
// correction typed under another of its names files it the same
// (issue 66, item 4).
func TestOneAgencyInBothScripts(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	recs := []Record{
		{Photo: mk("رجال الدفاع المدني في إدلب", "2019-08-21", "الدفاع المدني", "", "gn:3", "Idlib", "Idlib", 36.63, 35.93, 0.9), Line: 1},
		{Photo: mk("Rescuers in Idlib.", "2019-08-22", "Syrian Civil Defence", "", "gn:3", "Idlib", "Idlib", 36.63, 35.93, 0.9), Line: 2},
		{Photo: mk("A boy in Idlib.", "2019-08-23", "AFP", "", "gn:3", "Idlib", "Idlib", 36.63, 35.93, 0.9), Line: 3},
	}
	if _, err := db.ImportFile(ctx, "f.txt", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	f, err := db.Facets(ctx, photo.Filter{}, 10, photo.FacetAgency)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(f.Agencies); got != "[{Syrian Civil Defence Syrian Civil Defence (White Helmets) 2} {AFP AFP 1}]" {
		t.Errorf("agencies = %s", got)
	}
	for _, name := range []string{"Syrian Civil Defence", "الخوذ البيضاء"} {
		ps, err := db.Photos(ctx, photo.Filter{Agencies: []string{name}})
		if err != nil || len(ps) != 2 {
			t.Errorf("agency=%s: %d photos (%v), want 2", name, len(ps), err)
		}
	}
	// An OGC filter (agency = 'الدفاع المدني') too.
	if ps, err := db.Photos(ctx, photo.Filter{Conds: []photo.Cond{{Property: "agency", Op: "=", Value: "الدفاع المدني"}}}); err != nil || len(ps) != 2 {
		t.Errorf("agency = 'الدفاع المدني': %d photos (%v), want 2", len(ps), err)
	}
	// A search for a source's name, in either script, finds its photos
	// whatever script their captions are in.
	for _, q := range []string{"الدفاع المدني", "White Helmets"} {
		ps, err := db.Photos(ctx, photo.Filter{Query: q})
		if err != nil || len(ps) != 2 {
			t.Errorf("q=%s: %d photos (%v), want 2", q, len(ps), err)
		}
	}
	typed := "فيس بوك"
	if _, err := db.Apply(ctx, []string{photo.ID("A boy in Idlib.")}, photo.Change{Author: "ed", Agency: &typed}); err != nil {
		t.Fatal(err)
	}
	if p, err := db.Photo(ctx, photo.ID("A boy in Idlib.")); err != nil || p.Agency != "Facebook" {
		t.Errorf("corrected agency %q (%v), want Facebook", p.Agency, err)
	}
}

// TestAgencyIDsMigrate: an archive written before the table of sources
// holds a source under the names captions gave it; opening it files them
// under one ID.
func TestAgencyIDsMigrate(t *testing.T) {
	if !olderSchema(t) {
		t.SkipNow() // the whole test is of the migration
	}
	path := archivePath(t, "a.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	recs := []Record{{Photo: mk("Rescuers in Idlib.", "2019-08-22", "Syrian Civil Defence", "", "", "", "", 0, 0, 0), Line: 1}}
	if _, err := db.ImportFile(ctx, "f.txt", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	// As an older archive holds it, and the migration not yet applied.
	if _, err := db.write.ExecContext(ctx, `UPDATE photos SET agency = 'مركز الغوطة الإعلامي'`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.write.ExecContext(ctx, `DELETE FROM schema_migrations WHERE name = '0033_agency_ids.sql'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if p, err := db.Photo(ctx, photo.ID("Rescuers in Idlib.")); err != nil || p.Agency != "Ghouta Media Center" {
		t.Errorf("agency after the migration %q (%v), want Ghouta Media Center", p.Agency, err)
	}
}
