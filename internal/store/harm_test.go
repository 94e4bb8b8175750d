package store

import (
	"context"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestWithheldFile: an image path that only withheld photos name is
// withheld; one a shown photo also names, or that no photo names, is not
// (on PostgreSQL the check once took min() of a boolean, which it has not).
func TestWithheldFile(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	hidden, shared, shown := mk("A family in Douma.", "2018-02-20", "", "", "", "", "", 0, 0, 0),
		mk("A family in Douma, again.", "2018-02-21", "", "", "", "", "", 0, 0, 0), mk("A street in Douma.", "2018-02-22", "", "", "", "", "", 0, 0, 0)
	hidden.ImagePath, shared.ImagePath, shown.ImagePath = "media/only.jpg", "media/both.jpg", "media/both.jpg"
	recs := []Record{{Photo: hidden, Line: 1}, {Photo: shared, Line: 2}, {Photo: shown, Line: 3}}
	if _, err := db.ImportFile(ctx, "f.csv", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{hidden.ID, shared.ID} {
		if _, err := db.SetHarm(photo.AsEditor(ctx, "rana"), id, photo.HarmWithheld, "rana", "the family asked"); err != nil {
			t.Fatal(err)
		}
	}
	for path, want := range map[string]bool{"media/only.jpg": true, "media/both.jpg": false, "media/none.jpg": false} {
		if got, err := db.WithheldFile(ctx, "", path); err != nil || got != want {
			t.Errorf("WithheldFile(%q) = %v, %v; want %v", path, got, err, want)
		}
	}
}
