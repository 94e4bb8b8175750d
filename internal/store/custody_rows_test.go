package store

import (
	"context"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// tampered copies the archive at path, runs the statements on the copy
// as someone with the file or the database would (no syriamap, no
// custody) and opens it.
func tampered(t *testing.T, path string, stmts ...string) *DB {
	t.Helper()
	copyPath := copyArchive(t, path)
	raw := rawArchive(t, copyPath)
	for _, s := range stmts {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	raw.Close()
	db, err := Open(context.Background(), copyPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestRowsAreCheckedAgainstTheirCustody: a photo's caption, date,
// placement by a person and harm mark, each changed in its row without
// syriamap, are named by CheckRows; the untouched archive has no problem
// (issue 52, fault 2b: an edited caption or date passed verify).
func TestRowsAreCheckedAgainstTheirCustody(t *testing.T) {
	ctx := context.Background()
	path := archivePath(t, "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	importFixture(t, db)
	first, second, third := fixture[0].ID, fixture[1].ID, fixture[3].ID
	place := photo.Place{ID: "gn:2", Name: "Damascus", Lon: 36.29, Lat: 33.51, Located: true, Precision: "corrected"}
	if _, err := db.Apply(ctx, []string{second}, photo.Change{Author: "rana", Place: &place}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetHarm(ctx, third, photo.HarmWithheld, "rana", "the family asked"); err != nil {
		t.Fatal(err)
	}
	if n, problems, err := db.CheckRows(ctx, nil); err != nil || len(problems) != 0 || n != int64(len(fixture)) {
		t.Fatalf("an untouched archive: %d rows, %+v, %v", n, problems, err)
	}
	db.Close()
	for _, tc := range []struct {
		name, sql, photo, want string
	}{
		{"caption", `UPDATE photos SET caption = 'Boys play in Homs.' WHERE id = '` + first + `'`, first, "its caption is not the one"},
		{"date", `UPDATE photos SET date_from = 20170101, date_to = 20170101 WHERE id = '` + first + `'`, first, "its date is"},
		{"placement", `UPDATE photos SET lon = 36.5, lat = 34.0 WHERE id = '` + second + `'`, second, "it is placed at"},
		{"review", `UPDATE photos SET review = '' WHERE id = '` + second + `'`, second, "its review is"},
		{"harm taken off", `UPDATE photos SET harm = '' WHERE id = '` + third + `'`, third, "its harm mark is"},
		{"harm put on", `UPDATE photos SET harm = 'withheld' WHERE id = '` + first + `'`, first, "no custody record marks it"},
		{"verified", `UPDATE photos SET verified = 1 WHERE id = '` + second + `'`, second, "marked verified"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, problems, err := tampered(t, path, tc.sql).CheckRows(ctx, nil)
			if err != nil || len(problems) != 1 || problems[0].PhotoID != tc.photo || !strings.Contains(problems[0].What, tc.want) {
				t.Errorf("%s edited: %+v, %v; want one problem of %s saying %q", tc.name, problems, err, tc.photo, tc.want)
			}
		})
	}
}

// TestCheckpointCatchesAShortenedChain: the newest records deleted and
// the head moved to the new last record (both in the archive's file)
// pass VerifyCustody, but not a checkpoint taken before, kept elsewhere;
// nor does a rewritten record (issue 52, fault 2a).
func TestCheckpointCatchesAShortenedChain(t *testing.T) {
	ctx := context.Background()
	path := archivePath(t, "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	importFixture(t, db)
	if _, err := db.SetHarm(ctx, fixture[0].ID, photo.HarmGraphic, "rana", "a body"); err != nil {
		t.Fatal(err)
	}
	cp, err := db.Head(ctx)
	if err != nil || cp.Seq != int64(len(fixture)+1) || len(cp.Hash) != 64 {
		t.Fatalf("head %+v, %v", cp, err)
	}
	if problems, err := db.CheckSince(ctx, cp); err != nil || len(problems) != 0 {
		t.Fatalf("the chain as it was: %+v, %v", problems, err)
	}
	db.Close()
	short := tampered(t, path, `DELETE FROM custody WHERE seq > 5`,
		`UPDATE custody_head SET seq = 5, hash = (SELECT hash FROM custody WHERE seq = 5)`, `UPDATE photos SET harm = ''`)
	if _, problems, err := short.VerifyCustody(ctx, nil); err != nil || len(problems) != 0 {
		t.Fatalf("the shortened chain is whole to VerifyCustody alone (the fault): %+v, %v", problems, err)
	}
	problems, err := short.CheckSince(ctx, cp)
	if err != nil || len(problems) != 1 || !strings.Contains(problems[0].What, "records 6 to 8 were removed") {
		t.Errorf("the shortened chain against the checkpoint: %+v, %v", problems, err)
	}
	rewritten := tampered(t, path, `UPDATE custody SET hash = 'x' WHERE seq = 8`)
	if problems, err := rewritten.CheckSince(ctx, cp); err != nil || len(problems) != 1 || !strings.Contains(problems[0].What, "removed or rewritten") {
		t.Errorf("a rewritten head against the checkpoint: %+v, %v", problems, err)
	}
}

// TestChangesToWithheldPhotosAreHiddenFromReaders: a correction or export
// of a withheld photo moves the editors' count of changes, not the
// readers' (their ETags name it), nor the photos' version; withholding a
// photo moves both (issue 52, fault 4: an edit of a withheld photo
// changed every public ETag).
func TestChangesToWithheldPhotosAreHiddenFromReaders(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, archivePath(t, "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	importFixture(t, db)
	id := fixture[0].ID
	versions := func() (photos, reader, editor int64) {
		t.Helper()
		db.versions = versionMemo{} // read afresh
		p, r, err := db.VersionsFor(ctx, false)
		if err != nil {
			t.Fatal(err)
		}
		_, e, _ := db.VersionsFor(ctx, true)
		return p, r, e
	}
	p0, r0, e0 := versions()
	if _, err := db.SetHarm(ctx, id, photo.HarmWithheld, "rana", "the family asked"); err != nil {
		t.Fatal(err)
	}
	p1, r1, e1 := versions()
	if p1 == p0 || r1 == r0 || e1 == e0 {
		t.Fatalf("withholding a photo: versions %d→%d, reader %d→%d, editor %d→%d; readers must see it go", p0, p1, r0, r1, e0, e1)
	}
	place := photo.Place{ID: "gn:2", Name: "Damascus", Lon: 36.29, Lat: 33.51, Located: true, Precision: "corrected"}
	if _, err := db.Apply(ctx, []string{id}, photo.Change{Author: "rana", Place: &place}); err != nil {
		t.Fatal(err)
	}
	if err := db.AddCustody(ctx, "rana", "export", map[string]any{id: map[string]any{"bag": "x"}}); err != nil {
		t.Fatal(err)
	}
	p2, r2, e2 := versions()
	if p2 != p1 || r2 != r1 || e2 != e1+2 {
		t.Errorf("a withheld photo corrected and exported: versions %d→%d, reader %d→%d, editor %d→%d; want only the editor's to move, by 2", p1, p2, r1, r2, e1, e2)
	}
	if _, err := db.Apply(ctx, []string{fixture[1].ID}, photo.Change{Author: "rana", Place: &place}); err != nil {
		t.Fatal(err)
	}
	if _, r3, _ := versions(); r3 == r2 {
		t.Errorf("a public photo corrected: the readers' count did not move")
	}
}
