package store

import (
	"context"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestTaughtSpellingCountsEachEditorOnce (issue 67, 4f): rana's
// correction teaches the spelling "Bishqatin" a place; her own
// confirmation of a photo it placed is still one editor behind it, in
// whatever case she signs her name; omar's confirmation makes two.
func TestTaughtSpellingCountsEachEditorOnce(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	unread := mk("A rebel in Bishqatin, first.", "2012-12-08", "AFP", "Herve Bar", "", "", "", 0, 0, 0)
	unread.Geocoded.Mention = "Bishqatin" // words the geocoder could not read as a place
	byTaught := func(caption string) *photo.Photo {
		p := mk(caption, "2013-01-02", "AFP", "Herve Bar", "gn:7", "Bishqatin", "Aleppo", 37.0, 36.3, 0.4)
		return p
	}
	second, third := byTaught("A street in Bishqatin, second."), byTaught("A school in Bishqatin, third.")
	if _, err := db.ImportFile(ctx, "b.txt", Records([]Record{{Photo: unread, Line: 1}, {Photo: second, Line: 2}, {Photo: third, Line: 3}}), nil); err != nil {
		t.Fatal(err)
	}
	to := photo.Place{ID: "gn:7", Name: "Bishqatin", Kind: "village", Governorate: "Aleppo", Lon: 37.0, Lat: 36.3, Located: true}
	editors := func(when string, want int) {
		t.Helper()
		names, err := db.TaughtNames(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := names["gn:7"]; len(got) != 1 || got[0].Name != "Bishqatin" || got[0].Editors != want {
			t.Errorf("%s: taught %+v; want Bishqatin with %d editor(s) behind it", when, got, want)
		}
	}
	if _, err := db.Apply(ctx, []string{unread.ID}, photo.Change{Author: "rana", Place: &to}); err != nil {
		t.Fatal(err)
	}
	editors("taught by rana", 1)
	if _, err := db.Apply(ctx, []string{second.ID}, photo.Change{Author: "rana", Confirm: true}); err != nil {
		t.Fatal(err)
	}
	editors("rana confirms a photo it placed", 1)
	if _, err := db.Apply(ctx, []string{third.ID}, photo.Change{Author: "Rana ", Confirm: true}); err != nil {
		t.Fatal(err)
	}
	editors("Rana confirms another", 1)
	if _, err := db.Apply(ctx, []string{second.ID}, photo.Change{Author: "omar", Confirm: true}); err != nil {
		t.Fatal(err)
	}
	editors("omar confirms", 2)
}
