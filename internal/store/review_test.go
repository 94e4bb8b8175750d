package store

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestUndo: a change made to a group is undone as one — every photo back
// at the geocoder's place, unchecked, with an "undo" event — and a batch
// a photo of which has changed since is not undone at all (issue 26).
func TestUndo(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		change photo.Change
	}{
		{"confirm", photo.Change{Author: "rana", Confirm: true}},
		{"correct", photo.Change{Author: "rana", Place: &photo.Place{ID: "gn:2", Name: "Damascus", Lon: 36.29, Lat: 33.51, Located: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := open(t)
			importFixture(t, db)
			ids := []string{fixture[0].ID, fixture[1].ID}
			n, batch, err := db.ApplyBatch(ctx, ids, tc.change)
			if err != nil || n != 2 || batch == 0 {
				t.Fatalf("apply: %d photos, batch %d, %v", n, batch, err)
			}
			if n, err := db.Undo(ctx, batch, "rana", ""); err != nil || n != 2 {
				t.Fatalf("undo: %d photos, %v", n, err)
			}
			for _, id := range ids {
				p, err := db.Photo(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if p.Review != photo.ReviewAutomatic || p.Place.ID != "gn:1" || p.Place.Precision != "exact" || p.Correction != nil {
					t.Errorf("%s after undo: review %q, at %s (%s), correction %v", id, p.Review, p.Place.ID, p.Place.Precision, p.Correction)
				}
				h, _ := db.History(ctx, id)
				if len(h) != 2 || (h[0].Action != "undo" && h[1].Action != "undo") {
					t.Errorf("%s history: %+v", id, h)
				}
			}
			if _, err := db.Undo(ctx, batch, "rana", ""); photo.ErrorCode(err) != photo.EConflict {
				t.Errorf("undoing twice: %v, want a conflict", err)
			}
		})
	}
	t.Run("changed since", func(t *testing.T) {
		db := open(t)
		importFixture(t, db)
		ids := []string{fixture[0].ID, fixture[1].ID}
		_, batch, _ := db.ApplyBatch(ctx, ids, photo.Change{Author: "rana", Confirm: true})
		if _, err := db.Apply(ctx, ids[1:], photo.Change{Author: "sami", Place: &photo.Place{ID: "gn:2", Name: "Damascus", Lon: 36.29, Lat: 33.51, Located: true}}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Undo(ctx, batch, "rana", ""); photo.ErrorCode(err) != photo.EConflict {
			t.Errorf("undo over a later change: %v, want a conflict", err)
		}
		if p, _ := db.Photo(ctx, ids[0]); p.Review != photo.ReviewConfirmed {
			t.Errorf("a refused undo changed photo %s: %s", ids[0], p.Review)
		}
	})
}

// TestFillMentionKeys: photos written before the archive kept its place
// texts folded get their keys on FillMentionKeys, once; the review groups
// then join their spellings.
func TestFillMentionKeys(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	importFixture(t, db)
	// As an archive written before migration 0008 reads.
	if _, err := db.write.ExecContext(ctx, `UPDATE photos SET mention_key = ''`); err != nil {
		t.Fatal(err)
	}
	db.MentionKey = func(m string) string { return strings.TrimPrefix(strings.ToLower(m), "al ") }
	n, err := db.FillMentionKeys(ctx)
	if err != nil || n != 6 {
		t.Fatalf("filled %d photos (%v), want the 6 with a place text", n, err)
	}
	if n, err := db.FillMentionKeys(ctx); err != nil || n != 0 {
		t.Errorf("a second fill wrote %d (%v), want none", n, err)
	}
	ids, err := db.ReviewIDs(ctx, photo.Filter{}, "Al Aleppo")
	if err != nil || len(ids) != 3 {
		t.Errorf("the Aleppo group by another spelling: %v %v", ids, err)
	}
}

// TestArabicSearch: an Arabic search finds its words folded (hamza,
// marks, ة) and written with particles and the article ("حلب" finds
// "بحلب", "الرقة" finds "وبالرقة"), beside the English index.
func TestArabicSearch(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	var recs []Record
	for i, c := range []string{"أطفال يلعبون بحلب (أ ف ب)", "دمار وبالرقة", "طفل في بلدة «دُومَا»", "Boys play in Aleppo."} {
		recs = append(recs, Record{Photo: mk(c, "2016-07-12", "AFP", "", "", "", "", 0, 0, 0), Line: i + 1})
	}
	if _, err := db.ImportFile(ctx, "ar.txt", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q    string
		want int
	}{{"حلب", 1}, {"الرقة", 1}, {"دوما", 1}, {"ابو", 0}, {"Aleppo", 1}, {"حلب OR دوما", 2}, {"اطفال", 1}} {
		ps, err := db.Photos(ctx, photo.Filter{Query: c.q})
		if err != nil || len(ps) != c.want {
			t.Errorf("search %q: %d photos (%v), want %d", c.q, len(ps), err, c.want)
		}
	}
}

// TestReviewTouchedNamesTheGroupsChanged (issue 65, 9): ReviewTouched
// names the review groups (mention keys) of the unchecked photos each
// write changed, whatever the write, and only those: a correction takes
// its photo out of its group, a re-geocoding moves it from one group to
// another, a change to a checked photo touches none; the numbers it
// returns rise in the order the changes commit.
func TestReviewTouchedNamesTheGroupsChanged(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	importFixture(t, db)
	mark, err := db.ReviewMark(ctx)
	if err != nil || mark == 0 {
		t.Fatalf("after an import: mark %d, %v; want the import's changes counted", mark, err)
	}
	idOf := func(caption string) string { return photo.ID(caption) }
	step := func(what string, change func() error, want ...string) {
		t.Helper()
		if err := change(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		keys, last, err := db.ReviewTouched(ctx, mark)
		slices.Sort(keys)
		slices.Sort(want)
		if err != nil || !slices.Equal(keys, want) || (len(want) > 0) != (last > mark) {
			t.Errorf("%s: touched %q (to %d from %d), %v; want %q", what, keys, last, mark, err, want)
		}
		mark = last
	}
	aleppo := idOf("A man in Aleppo's old city.")
	step("a correction", func() error {
		_, err := db.Apply(ctx, []string{aleppo}, photo.Change{Author: "rana", Place: &photo.Place{ID: "gn:2", Name: "Damascus", Lon: 36.29, Lat: 33.51, Located: true}})
		return err
	}, "aleppo")
	step("a change to the photo checked", func() error {
		d := date("2016-07-13")
		_, err := db.Apply(ctx, []string{aleppo}, photo.Change{Author: "rana", Date: &d})
		return err
	})
	step("a re-geocoding to other words", func() error {
		_, _, err := db.RegeocodePhotos(ctx, []string{idOf("A shop in Idlib.")}, func(string) photo.Place {
			return photo.Place{ID: "gn:1", Name: "Aleppo", Kind: "city", Lon: 37.16, Lat: 36.2, Located: true, Precision: "exact", Confidence: 0.5, Mention: "Halab"}
		})
		return err
	}, "idlib", "halab")
	step("withheld", func() error {
		_, err := db.SetHarm(ctx, idOf("A market in Damascus."), photo.HarmWithheld, "rana", "the test")
		return err
	}, "damascus")
	step("nothing", func() error { return nil })
}
