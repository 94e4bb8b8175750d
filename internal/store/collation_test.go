package store

import (
	"context"
	"slices"
	"testing"
)

// TestTextInTheOrderOfBytes: text comes in the order of its bytes, as
// SQLite orders it, whatever the order of the PostgreSQL database's
// language (its collation, here a language's where a test cluster has
// one): "Zabadani" before "aleppo", "/a/b" before "/a-b".
func TestTextInTheOrderOfBytes(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	if onPostgres {
		var icu string
		err := db.read.QueryRowContext(ctx, `SELECT collname FROM pg_collation WHERE collname IN ('en-x-icu', 'en_US.utf8', 'en_US') ORDER BY collname LIMIT 1`).Scan(&icu)
		if err != nil {
			t.Skipf("the test cluster has no language's collation to order by: %v", err)
		}
		if _, err := db.write.ExecContext(ctx, `ALTER TABLE media_roots ALTER COLUMN path TYPE text COLLATE "`+icu+`"`); err != nil {
			t.Fatal(err)
		}
	}
	roots := []string{"/srv/aleppo", "/srv/Zabadani", "/srv/a-b", "/srv/a/b", "/srv/ab"}
	if err := db.AddMediaRoots(ctx, roots); err != nil {
		t.Fatal(err)
	}
	got, err := db.MediaRoots(ctx)
	want := slices.Clone(roots)
	slices.Sort(want)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("MediaRoots %q, %v; want %q", got, err, want)
	}
}
