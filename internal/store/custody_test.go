package store

import (
	"context"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestCustodyChain: an import and a correction each leave a record of
// the photo's custody, chained; a record changed by hand, one deleted from
// the middle and one deleted from the end are each reported by
// VerifyCustody with the photo it was of (issue 42, part 2).
func TestCustodyChain(t *testing.T) {
	ctx := context.Background()
	path := archivePath(t, "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db.Actor = "syriamap import, user test"
	importFixture(t, db)
	id := fixture[0].ID
	place := photo.Place{ID: "gn:2", Name: "Damascus", Lon: 36.29, Lat: 33.51, Located: true, Precision: "corrected"}
	if _, err := db.Apply(ctx, []string{id}, photo.Change{Author: "rana", Note: "the agency's page says Damascus", Place: &place}); err != nil {
		t.Fatal(err)
	}
	recs, err := db.CustodyOf(ctx, id)
	if err != nil || len(recs) != 2 || recs[0].Action != "import" || recs[0].Actor != "syriamap import, user test" ||
		recs[1].Action != "correct" || recs[1].Actor != "rana" || !strings.Contains(string(recs[0].Detail), `"source":"fixture.txt"`) {
		t.Fatalf("custody of %s: %+v, %v", id, recs, err)
	}
	if n, problems, err := db.VerifyCustody(ctx, nil); err != nil || len(problems) != 0 || n != int64(len(fixture)+1) {
		t.Fatalf("an untouched chain: %d records, %v, %v", n, problems, err)
	}
	db.Close()

	for _, tc := range []struct {
		name, sql, want string
	}{
		{"a changed record", `UPDATE custody SET actor = 'someone else' WHERE seq = 2`, "changed after it was written"},
		{"a deleted record", `DELETE FROM custody WHERE seq = 3`, "records 3 to 3 are missing"},
		{"the last record deleted", `DELETE FROM custody WHERE seq = (SELECT max(seq) FROM custody)`, "records were deleted from its end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := tampered(t, path, tc.sql)
			_, problems, err := db.VerifyCustody(ctx, nil)
			if err != nil || len(problems) == 0 || !strings.Contains(problems[0].What, tc.want) {
				t.Errorf("%s: %+v, %v; want %q", tc.name, problems, err, tc.want)
			}
		})
	}
}
