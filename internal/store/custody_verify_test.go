package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestEveryRowIsCheckedAgainstItsCustody (issue 65, fault 8): verify
// passed after a photo's row was deleted (a withheld one too), after the
// geocoder's placement, the credit, the re-use flag or the event links
// were edited in the database, and crashed on a date stored as text.
// Each edit, made as someone with the file would, is named by CheckRows
// with its photo; the untouched archive has no problem.
func TestEveryRowIsCheckedAgainstItsCustody(t *testing.T) {
	ctx := context.Background()
	path := archivePath(t, "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	importFixture(t, db)
	first, second, third, fourth, fifth := fixture[0].ID, fixture[1].ID, fixture[2].ID, fixture[3].ID, fixture[4].ID
	if _, err := db.SetHarm(ctx, third, photo.HarmWithheld, "rana", "the family asked"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetReuse(ctx, "test", map[string]Reuse{second: {Kind: photo.ReuseConflict, Of: first, Why: []string{"date"}}}); err != nil {
		t.Fatal(err)
	}
	evs := gedSample(t)
	if _, err := db.ImportEvents(ctx, conflict.GED, "19.1", evs, "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetEventLink(ctx, first, conflict.GED, evs[0].ID, photo.LinkConfirmed, "rana"); err != nil {
		t.Fatal(err)
	}
	// A person's placement keeps the geocoder's beside it.
	place := photo.Place{ID: "gn:2", Name: "Damascus", Lon: 36.29, Lat: 33.51, Located: true, Precision: "corrected"}
	if _, err := db.Apply(ctx, []string{fifth}, photo.Change{Author: "rana", Place: &place}); err != nil {
		t.Fatal(err)
	}
	if n, problems, err := db.CheckRows(ctx, nil); err != nil || len(problems) != 0 || n != int64(len(fixture)) {
		t.Fatalf("an untouched archive: %d rows, %+v, %v", n, problems, err)
	}
	db.Close()
	q := func(s string) string { return "'" + s + "'" }
	// pgTamper is a tamper in PostgreSQL's spelling, where it differs;
	// "-" where PostgreSQL's types refuse it (text in an integer
	// column), so that it cannot happen there.
	pgTamper := map[string]string{
		"geocoder's choice beside a correction": `UPDATE photos SET geocoded = CAST(jsonb_set(CAST(geocoded AS jsonb), '{ID}', '"gn:1"') AS text) WHERE id = ` + q(fifth),
		"date stored as text":                   "-",
		"verified stored as text":               "-",
	}
	for _, tc := range []struct {
		name, sql, photo, want string
	}{
		{"photo deleted", `DELETE FROM photos WHERE id = ` + q(first), first, "its row is gone"},
		{"withheld photo deleted", `DELETE FROM photos WHERE id = ` + q(third), third, "its row is gone"},
		{"geocoder's place", `UPDATE photos SET place_id = 'gn:3', place_name = 'Idlib' WHERE id = ` + q(fourth), fourth, "the geocoder"},
		{"geocoder's point", `UPDATE photos SET lon = 36.63, lat = 35.93 WHERE id = ` + q(fourth), fourth, "the geocoder"},
		{"geocoder's choice beside a correction", `UPDATE photos SET geocoded = json_set(geocoded, '$.ID', 'gn:1') WHERE id = ` + q(fifth), fifth, "the geocoder"},
		{"photographer", `UPDATE photos SET photographer = 'Someone Else' WHERE id = ` + q(first), first, "its photographer is"},
		{"agency", `UPDATE photos SET agency = 'AP' WHERE id = ` + q(fourth), fourth, "its agency is"},
		{"re-use flag taken off", `UPDATE photos SET reuse = '', reuse_of = '' WHERE id = ` + q(second), second, "re-use"},
		{"re-use flag put on", `UPDATE photos SET reuse = 'conflict', reuse_of = ` + q(first) + ` WHERE id = ` + q(fourth), fourth, "re-use"},
		{"event link deleted", `DELETE FROM photo_event_links WHERE photo = ` + q(first), first, "event"},
		{"event link turned", `UPDATE photo_event_links SET decision = 'rejected' WHERE photo = ` + q(first), first, "event"},
		{"event link added", `INSERT INTO photo_event_links (photo, dataset, event, version, decision, by, at) VALUES (` +
			q(fourth) + `, 'ucdp-ged', ` + q(evs[1].ID) + `, '19.1', 'confirmed', 'rana', '2020-01-01T00:00:00Z')`, fourth, "event"},
		{"date stored as text", `UPDATE photos SET date_from = '2016-07-12' WHERE id = ` + q(first), first, "date_from"},
		{"verified stored as text", `UPDATE photos SET verified = 'yes' WHERE id = ` + q(fourth), fourth, "verified"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sql := tc.sql
			if pg := pgTamper[tc.name]; onPostgres && pg != "" {
				if sql = pg; sql == "-" {
					t.Skip("PostgreSQL's types refuse it")
				}
			}
			_, problems, err := tampered(t, path, sql).CheckRows(ctx, nil)
			if err != nil {
				t.Fatalf("%s: %v; want a problem naming photo %s", tc.name, err, tc.photo)
			}
			found := false
			for _, p := range problems {
				if p.PhotoID != tc.photo {
					t.Errorf("%s: a problem of another photo: %+v", tc.name, p)
				}
				found = found || strings.Contains(p.What, tc.want)
			}
			if !found {
				t.Errorf("%s: %+v; want a problem of %s saying %q", tc.name, problems, tc.photo, tc.want)
			}
		})
	}
}

// TestEveryWriterKeepsRowsAsTheirCustody: what syriamap itself writes —
// a fix of the credit, a reimport, the geocoder run again, a place moved
// with the photos the geocoder and a person put there, an event link
// made and taken back, a re-use flag set and cleared — leaves every row
// as its custody records say: CheckRows finds nothing.
func TestEveryWriterKeepsRowsAsTheirCustody(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	importFixture(t, db)
	first, fourth := fixture[0].ID, fixture[3].ID
	if err := db.AddPlaces(ctx, []photo.AddedPlace{{ID: "arc:camp", Name: "Camp", Kind: "camp", Lon: 36.7, Lat: 36.1, Country: "SY", AddedBy: "rana"}}); err != nil {
		t.Fatal(err)
	}
	camp := func(caption string) *photo.Photo {
		p := mk(caption, "2017-01-01", "AFP", "Someone", "arc:camp", "Camp", "Idlib", 36.7, 36.1, 0.9)
		return p
	}
	auto, corrected := camp("Tents in the camp."), camp("A school in the camp.")
	if _, err := db.ImportFile(ctx, "camp.txt", Records([]Record{{Photo: auto, Line: 1}, {Photo: corrected, Line: 2}}), nil); err != nil {
		t.Fatal(err)
	}
	at := photo.Place{ID: "arc:camp", Name: "Camp", Lon: 36.7, Lat: 36.1, Located: true, Precision: "corrected"}
	if _, err := db.Apply(ctx, []string{corrected.ID}, photo.Change{Author: "rana", Place: &at}); err != nil {
		t.Fatal(err)
	}
	lon, lat := 36.8, 36.2
	if _, err := db.ChangePlace(ctx, photo.PlaceChange{ID: "arc:camp", Author: "rana", Reason: "surveyed", Lon: &lon, Lat: &lat}); err != nil {
		t.Fatal(err)
	}
	who := "Karam al-Masri"
	if _, err := db.Apply(ctx, []string{first}, photo.Change{Author: "rana", Photographer: &who}); err != nil {
		t.Fatal(err)
	}
	// Again, with another agency given for the market.
	var recs []Record
	for i, p := range fixture {
		cp := *p
		if cp.ID == fourth {
			cp.Agency, cp.Given = "AFP", photo.GivenAgency
		}
		recs = append(recs, Record{Photo: &cp, Line: i + 1})
	}
	if _, err := db.ImportFile(ctx, "fixture.txt", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	idlib := fixture[4].Geocoded
	if _, _, err := db.Regeocode(ctx, func(caption string) photo.Place {
		if strings.Contains(caption, "market") || strings.Contains(caption, "Boys") {
			return idlib
		}
		for _, p := range fixture {
			if p.Caption == caption {
				return p.Geocoded
			}
		}
		return auto.Geocoded
	}, nil); err != nil {
		t.Fatal(err)
	}
	evs := gedSample(t)
	if _, err := db.ImportEvents(ctx, conflict.GED, "19.1", evs, "test"); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{photo.LinkConfirmed, photo.LinkRejected, ""} {
		if _, err := db.SetEventLink(ctx, first, conflict.GED, evs[0].ID, d, "rana"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.SetEventLink(ctx, fourth, conflict.GED, evs[1].ID, photo.LinkConfirmed, "rana"); err != nil {
		t.Fatal(err)
	}
	for _, r := range []map[string]Reuse{{fourth: {Kind: photo.ReuseCopy, Of: first}}, {}} {
		if _, err := db.SetReuse(ctx, "test", r); err != nil {
			t.Fatal(err)
		}
	}
	if n, problems, err := db.CheckRows(ctx, nil); err != nil || len(problems) != 0 || n != int64(len(fixture)+2) {
		t.Errorf("after syriamap's own writes: %d rows, %v; problems:", n, err)
		for _, p := range problems {
			t.Errorf("  %s: %s", p.PhotoID, p.What)
		}
	}
}

// TestFilesNameAMalformedRow: an image file's size stored as text is a
// problem of its photo in Files (which verify re-hashes the originals
// by), not a scan error that stops verify.
func TestFilesNameAMalformedRow(t *testing.T) {
	// A size stored as text is SQLite's loose typing; PostgreSQL's
	// bigint column refuses it.
	sqliteOnly(t)
	ctx := context.Background()
	path := archivePath(t, "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	p := *fixture[0]
	p.File = &photo.File{Path: "/photos/a.jpg", SHA256: strings.Repeat("ab", 32), Size: 1234, ModTime: time.Unix(1e9, 0).UTC(), Meta: "{}"}
	if _, err := db.ImportFile(ctx, "images", Records([]Record{{Photo: &p, Source: p.File.Path}}), nil); err != nil {
		t.Fatal(err)
	}
	db.Close()
	files, err := tampered(t, path, `UPDATE files SET size = 'big'`).Files(ctx)
	if err != nil || len(files) != 1 || files[0].PhotoID != p.ID || !strings.Contains(files[0].Problem, "size is stored as big") {
		t.Errorf("a size stored as text: %+v, %v; want its photo named with the problem", files, err)
	}
}

// TestOldImportRecordsLeaveTheGeocoderUnchecked: an import record
// written before the placement's digest was kept, followed by a
// `regeocode` that wrote no record (as it did then), is no problem — the
// geocoder's answer is checked from the next import or regeocode record
// that carries it; an archive upgraded after a regeocode does not fail
// verify for it.
func TestOldImportRecordsLeaveTheGeocoderUnchecked(t *testing.T) {
	ctx := context.Background()
	path := archivePath(t, "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	importFixture(t, db)
	db.Close()
	fourth := fixture[3].ID
	// The records as an older syriamap wrote them: JSON edited in each
	// engine's own spelling (the store has no json_remove to rewrite).
	oldRecords := `UPDATE custody SET detail = json_remove(detail, '$.placement.geo_digest', '$.placement.lon', '$.placement.lat', '$.photographer', '$.agency') WHERE action = 'import'`
	if onPostgres {
		oldRecords = `UPDATE custody SET detail = ((((detail::jsonb #- '{placement,geo_digest}') #- '{placement,lon}') #- '{placement,lat}') - 'photographer'::text - 'agency'::text)::text WHERE action = 'import'`
	}
	old := tampered(t, path, oldRecords,
		`UPDATE photos SET place_id = 'gn:3', place_name = 'Idlib', lon = 36.63, lat = 35.93, geo_digest = 'x' WHERE id = '`+fourth+`'`)
	if _, problems, err := old.CheckRows(ctx, nil); err != nil || len(problems) != 0 {
		t.Errorf("an old archive re-geocoded without records: %+v, %v", problems, err)
	}
	if _, _, err := old.Regeocode(ctx, func(string) photo.Place { return fixture[0].Geocoded }, nil); err != nil {
		t.Fatal(err)
	}
	if _, problems, err := old.CheckRows(ctx, nil); err != nil || len(problems) != 0 {
		t.Errorf("re-geocoded now, with records: %+v, %v", problems, err)
	}
	recs, err := old.CustodyOf(ctx, fourth)
	if err != nil || len(recs) != 2 || recs[1].Action != "regeocode" || !strings.Contains(string(recs[1].Detail), `"geo_digest"`) {
		t.Errorf("the regeocode's record: %+v, %v", recs, err)
	}
}

// TestAMalformedHeadIsAProblem: the chain's head with its sequence
// stored as text is a problem VerifyCustody names, not a scan error.
func TestAMalformedHeadIsAProblem(t *testing.T) {
	// A seq stored as text is SQLite's loose typing; PostgreSQL's bigint
	// column refuses it.
	sqliteOnly(t)
	ctx := context.Background()
	path := archivePath(t, "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	importFixture(t, db)
	db.Close()
	_, problems, err := tampered(t, path, `UPDATE custody_head SET seq = 'seven'`).VerifyCustody(ctx, nil)
	if err != nil || len(problems) != 1 || !strings.Contains(problems[0].What, "the chain's head is malformed (its seq is stored as seven") {
		t.Errorf("a head stored as text: %+v, %v", problems, err)
	}
}
