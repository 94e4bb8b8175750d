package store

import (
	"io/fs"
	"testing"
)

// TestMigrationVersionsAreOneEach: the migrations are numbered 1, 2, 3 …
// with no number twice. An archive records the numbers it has applied, so
// a second migration under a number it holds would never be applied to
// it (two branches that each add "the next one" do exactly this).
func TestMigrationVersionsAreOneEach(t *testing.T) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("no migrations: %v", err)
	}
	seen := map[int]string{}
	for _, name := range names {
		v := migrationVersion(name[len("migrations/"):])
		if other, ok := seen[v]; ok {
			t.Errorf("migrations %s and %s share the number %d", other, name, v)
		}
		seen[v] = name
	}
	for v := 1; v <= len(names); v++ {
		if seen[v] == "" {
			t.Errorf("no migration numbered %d (of %d): the numbers leave a gap", v, len(names))
		}
	}
}
