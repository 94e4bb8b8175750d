package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/pgtest"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// openAt opens a new archive at path (a file or a PostgreSQL URL).
func openAt(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	db.Now = func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	t.Cleanup(func() { db.Close() })
	return db
}

// fullArchive fills db with something of every kind an archive holds:
// photos (one Arabic caption, one withheld, one flagged as re-use),
// corrections, a fix of the credit, events and a photo's links to them, an
// added place moved, a second look answered, a story, editors with a token,
// frames and a confidence model.
func fullArchive(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	importFixture(t, db)
	ar := mk("أطفال يلعبون في حلب", "2016-07-13", "AFP", "", "gn:1", "Aleppo", "Aleppo", 37.16, 36.20, 0.9)
	if _, err := db.ImportFile(ctx, "arabic.txt", Records([]Record{{Photo: ar, Line: 1}}), nil); err != nil {
		t.Fatal(err)
	}
	first, second, third, market, shop := fixture[0].ID, fixture[1].ID, fixture[2].ID, fixture[3].ID, fixture[4].ID
	step := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	step("adding an editor", db.AddUser(ctx, "rana", "hash-of-rana"))
	step("adding an editor", db.AddUser(ctx, "omar", "hash-of-omar"))
	step("adding a token", db.AddToken(ctx, "rana", "script", "token-hash"))
	_, err := db.SetHarm(ctx, third, photo.HarmWithheld, "rana", "the family asked")
	step("withholding", err)
	_, err = db.SetReuse(ctx, "test", map[string]Reuse{second: {Kind: photo.ReuseConflict, Of: first, Why: []string{"date"}}})
	step("flagging re-use", err)
	evs := gedSample(t)
	_, err = db.ImportEvents(ctx, conflict.GED, "19.1", evs, "test")
	step("importing events", err)
	_, err = db.SetEventLink(ctx, first, conflict.GED, evs[0].ID, photo.LinkConfirmed, "rana")
	step("linking an event", err)
	_, err = db.SetEventLink(ctx, market, conflict.GED, evs[1].ID, photo.LinkRejected, "rana")
	step("rejecting an event", err)
	who := "Karam al-Masri"
	_, err = db.Apply(ctx, []string{first}, photo.Change{Author: "rana", Photographer: &who})
	step("fixing a credit", err)
	step("adding a place", db.AddPlaces(ctx, []photo.AddedPlace{{ID: "arc:camp", Name: "Camp", Kind: "camp", Lon: 36.7, Lat: 36.1, Country: "SY", AddedBy: "rana"}}))
	lon, lat := 36.8, 36.2
	_, err = db.ChangePlace(ctx, photo.PlaceChange{ID: "arc:camp", Author: "rana", Reason: "surveyed", Lon: &lon, Lat: &lat})
	step("moving the place", err)
	step("correcting a place", db.SetCorrection(ctx, fixture[5].ID, photo.Correction{PlaceID: "arc:camp", Lon: 36.8, Lat: 36.2, Note: "seen"},
		photo.Place{ID: "arc:camp", Name: "Camp", Kind: "camp", Country: "SY"}))
	step("two-person rule", db.SetTwoPerson(ctx, true, "lead"))
	place := photo.Place{ID: "gn:9", Name: "Qaryat", Kind: "village", Lon: 38.7771, Lat: 35.1117, Located: true}
	_, err = db.Apply(ctx, []string{shop}, photo.Change{Author: "rana", Place: &place})
	step("a placement for a second look", err)
	rounds, err := db.LookRounds(ctx, LookWaiting, "", "", 10)
	if err != nil || len(rounds) != 1 {
		t.Fatalf("waiting rounds: %+v, %v", rounds, err)
	}
	_, err = db.AnswerLook(ctx, rounds[0].ID, LookAnswer{By: "omar", Decision: agreement.Correct, PlaceID: place.ID}, agreement.Judgement{SamePlace: true, Agreed: true})
	step("the second look", err)
	st := story.Story{Title: "Eastern Aleppo, 2016", Status: story.Draft, Steps: []story.Step{
		{Heading: "Before", Text: "The **siege** begins.", Photos: []story.PhotoRef{{ID: first, Caption: "A street"}}, Highlight: first},
	}}
	step("the story's check", st.Validate())
	saved, err := db.SaveStory(ctx, st, "", "rana", "")
	step("a story", err)
	saved.Summary, saved.Status = "Again.", story.Published
	_, err = db.SaveStory(ctx, saved, saved.Slug, "omar", "")
	step("the story saved again", err)
	step("a confidence model", db.SaveConfidenceModel(ctx, []byte(`{"w":[1,2]}`), 3))
}

// tableRows is every row of table t, each as its columns' names and
// values, sorted: the same on either engine for the same rows (columns may
// stand in another order; text keys sort otherwise in PostgreSQL).
func tableRows(t *testing.T, db *DB, table copyTable) []string {
	t.Helper()
	rows, err := db.read.Query(`SELECT * FROM ` + table.name)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var fields []string
		for i, c := range cols {
			fields = append(fields, c+"="+sqlValue(vals[i]))
		}
		sort.Strings(fields)
		out = append(out, strings.Join(fields, " "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func sqlValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return strconv.Quote(string(v))
	case string:
		return strconv.Quote(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// sameArchive fails unless b holds every row of a, as a holds them, and
// verifies: its custody chain holds, each photo's row is as its custody
// says, its head is a's, its search indexes hold as many rows as a's.
func sameArchive(t *testing.T, a, b *DB) {
	t.Helper()
	ctx := context.Background()
	for _, table := range copyTables {
		ra, rb := tableRows(t, a, table), tableRows(t, b, table)
		if len(ra) == 0 && !slices.Contains([]string{"corrections", "images", "files", "media_roots", "sessions", "devices", "signin_codes",
			"taught_names", "frames", "fixes", "archive_tasks"}, table.name) {
			t.Errorf("%s: no rows in the archive copied (the test's archive should have some)", table.name)
		}
		if !slices.Equal(ra, rb) {
			t.Errorf("%s: %d rows, %d in the copy; first difference:\n%s", table.name, len(ra), len(rb), firstDifference(ra, rb))
		}
	}
	if n, problems, err := b.VerifyCustody(ctx, nil); err != nil || len(problems) != 0 || n == 0 {
		t.Errorf("the copy's custody chain: %d records, %+v, %v", n, problems, err)
	}
	if n, problems, err := b.CheckRows(ctx, nil); err != nil || len(problems) != 0 || n == 0 {
		t.Errorf("the copy's rows against their custody: %d rows, %+v, %v", n, problems, err)
	}
	ha, err := a.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if hb, err := b.Head(ctx); err != nil || hb != ha || ha.Seq == 0 {
		t.Errorf("the copy's custody head: %+v, %v; want %+v", hb, err, ha)
	}
	for _, index := range []string{"photos_fts", "photos_fts_ar"} {
		var na, nb int
		if err := a.read.QueryRow(`SELECT count(*) FROM ` + index).Scan(&na); err != nil {
			t.Fatal(err)
		}
		if err := b.read.QueryRow(`SELECT count(*) FROM ` + index).Scan(&nb); err != nil || na != nb || na == 0 {
			t.Errorf("%s: %d rows in the copy, %d in the original (%v)", index, nb, na, err)
		}
	}
}

// sameSearches fails unless a search answers alike in a and b.
func sameSearches(t *testing.T, a, b *DB) {
	t.Helper()
	ctx := context.Background()
	for _, q := range []string{"Aleppo", "حلب", "market"} {
		pa, err := a.Photos(ctx, photo.Filter{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		pb, err := b.Photos(ctx, photo.Filter{Query: q})
		if err != nil || len(pa) == 0 || !slices.Equal(ids(pa), ids(pb)) {
			t.Errorf("a search for %q: %v in the copy, %v in the original (%v)", q, ids(pb), ids(pa), err)
		}
	}
}

func firstDifference(a, b []string) string {
	for i := range max(len(a), len(b)) {
		x, y := "(none)", "(none)"
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return "  " + x + "\n  " + y
		}
	}
	return ""
}

// TestCopyThereAndBack (issue 71, item 5): an archive of every kind of
// row, copied from SQLite to PostgreSQL and from there to a new SQLite
// file, is the same archive at each step, row for row; each copy's
// custody chain verifies, with the same head; each copy goes on taking
// writes (its keys' generators are past the copied keys).
func TestCopyThereAndBack(t *testing.T) {
	ctx := context.Background()
	orig := openAt(t, filepath.Join(t.TempDir(), "a.db"))
	fullArchive(t, orig)
	pg := openAt(t, pgtest.Database(t))
	var progressed []string
	sum, err := Copy(ctx, orig, pg, func(table string, rows int64) { progressed = append(progressed, table) })
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Tables) != len(copyTables) || sum.Tables[0].Table != "photos" || sum.Tables[0].Rows != int64(len(fixture)+1) {
		t.Errorf("summary: %+v", sum)
	}
	if !slices.Contains(progressed, "custody") {
		t.Errorf("progress named %v, not custody", progressed)
	}
	sameArchive(t, orig, pg)
	back := openAt(t, filepath.Join(t.TempDir(), "back.db"))
	if _, err := Copy(ctx, pg, back, nil); err != nil {
		t.Fatal(err)
	}
	sameArchive(t, orig, back)
	// The search indexes were built again from the captions. (PostgreSQL's
	// own search is held to SQLite's by the search's conformance tests.)
	sameSearches(t, orig, back)
	for name, db := range map[string]*DB{"PostgreSQL": pg, "SQLite": back} {
		p := mk("A new photo after the copy.", "2020-01-01", "AFP", "", "", "", "", 0, 0, 0)
		if _, err := db.ImportFile(ctx, "after.txt", Records([]Record{{Photo: p, Line: 1}}), nil); err != nil {
			t.Errorf("%s: an import after the copy: %v", name, err)
		}
		st := story.Story{Title: "After the copy", Status: story.Draft, Steps: []story.Step{{Heading: "One"}}}
		if err := st.Validate(); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SaveStory(ctx, st, "", "rana", ""); err != nil {
			t.Errorf("%s: a story after the copy: %v", name, err)
		}
		if _, problems, err := db.VerifyCustody(ctx, nil); err != nil || len(problems) != 0 {
			t.Errorf("%s: custody after a write to the copy: %+v, %v", name, problems, err)
		}
	}
}

// TestCopyRefusesAnArchive: a copy into a database that holds an archive
// (an editor is enough) is refused, naming it, and writes nothing there.
func TestCopyRefusesAnArchive(t *testing.T) {
	ctx := context.Background()
	src := openAt(t, filepath.Join(t.TempDir(), "a.db"))
	importFixture(t, src)
	for _, path := range []string{pgtest.Database(t), filepath.Join(t.TempDir(), "b.db")} {
		dst := openAt(t, path)
		if err := dst.AddUser(ctx, "lina", "hash"); err != nil {
			t.Fatal(err)
		}
		before := tableRows(t, dst, copyTable{name: "archive_version"})
		_, err := Copy(ctx, src, dst, nil)
		if photo.ErrorCode(err) != photo.EInvalid || !strings.Contains(err.Error(), dst.path) || !strings.Contains(err.Error(), "users") {
			t.Errorf("a copy into %s, which has an editor: %v; want it refused, naming it", dst.path, err)
		}
		if n, err := dst.Count(ctx); err != nil || n != 0 {
			t.Errorf("%s after the refused copy: %d photos, %v", dst.path, n, err)
		}
		if after := tableRows(t, dst, copyTable{name: "archive_version"}); !slices.Equal(before, after) {
			t.Errorf("%s: the refused copy changed its version: %v, then %v", dst.path, before, after)
		}
	}
	if _, err := Copy(ctx, src, src, nil); photo.ErrorCode(err) != photo.EInvalid {
		t.Errorf("a copy onto itself: %v", err)
	}
}

// TestCopyTablesAreTheSchema: every table of either engine's schema is
// copied or left out for a reason; every generated column is skipped,
// every identity column's sequence moved. A table a later migration adds
// fails here until Copy knows of it.
func TestCopyTablesAreTheSchema(t *testing.T) {
	lite := openAt(t, filepath.Join(t.TempDir(), "a.db"))
	pg := openAt(t, pgtest.Database(t))
	copied := map[string]bool{}
	var generated []string
	for _, c := range copyTables {
		copied[c.name] = true
		for _, g := range c.generated {
			generated = append(generated, c.name+"."+g)
		}
	}
	schemas := map[string][]string{
		"SQLite":     names(t, lite.read, `SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`),
		"PostgreSQL": names(t, pg.read, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`),
	}
	for engine, tables := range schemas {
		for _, name := range tables {
			if !copied[name] && copyLeftOut[name] == "" {
				t.Errorf("%s's table %s is neither copied (copyTables) nor left out for a reason (copyLeftOut)", engine, name)
			}
		}
		for name := range copied {
			if !slices.Contains(tables, name) {
				t.Errorf("copyTables names %s, which %s's schema lacks", name, engine)
			}
		}
	}
	gens := map[string][]string{
		"SQLite":     names(t, lite.read, `SELECT t.name || '.' || c.name FROM pragma_table_list AS t, pragma_table_xinfo(t.name) AS c WHERE t.schema = 'main' AND c.hidden IN (2, 3)`),
		"PostgreSQL": names(t, pg.read, `SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_generated = 'ALWAYS'`),
	}
	for engine, cols := range gens {
		if sort.Strings(cols); !slices.Equal(cols, generated) {
			t.Errorf("%s's generated columns: %v; copyTables skips %v", engine, cols, generated)
		}
	}
	var identities []string
	for _, c := range pgIdentities {
		identities = append(identities, c[0]+"."+c[1])
	}
	sort.Strings(identities)
	have := names(t, pg.read, `SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES' ORDER BY 1`)
	sort.Strings(have)
	if !slices.Equal(have, identities) {
		t.Errorf("PostgreSQL's identity columns: %v; pgIdentities: %v", have, identities)
	}
}

func names(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}
