package store

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestWaitingAnswerIsBlind (issue 65, 5): while rana's placement of the
// shop in Idlib waits for its second look, every read of the store shows
// the public and omar (who is to give the second look) nothing of it —
// not its point, place, note, nor a count by place or window of the map
// that gives it away — and shows rana, who gave it, her answer. Once omar
// agrees, everyone reads it.
func TestWaitingAnswerIsBlind(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	if err := db.SetTwoPerson(ctx, true, "lead"); err != nil {
		t.Fatal(err)
	}
	shop := fixture[4] // A shop in Idlib, gn:3 at 36.63, 35.93
	note := "NOTE-blind-the-silo-behind-the-shop"
	answer := photo.Place{ID: "gn:9", Name: "Qaryat Blindiyya", Kind: "village", Lon: 38.7771, Lat: 35.1117, Located: true}
	if _, err := db.Apply(ctx, []string{shop.ID}, photo.Change{Author: "rana", Note: note, Place: &answer}); err != nil {
		t.Fatal(err)
	}
	leaks := []string{answer.ID, answer.Name, note, "38.777", "35.111"}
	around := orb.Bound{Min: orb.Point{38.7, 35.0}, Max: orb.Point{38.9, 35.2}}
	reads := blindReads(db, shop.ID, around, answer.ID)
	for _, v := range []struct {
		who  string
		ctx  context.Context
		sees bool
	}{
		{"the public", ctx, false},
		{"omar", photo.AsEditor(ctx, "omar"), false},
		{"rana", photo.AsEditor(ctx, "Rana"), true}, // names compare without case
	} {
		for _, r := range reads {
			got, err := r.read(v.ctx)
			if err != nil {
				t.Errorf("%s for %s: %v", r.name, v.who, err)
				continue
			}
			shown := ""
			for _, leak := range leaks {
				if strings.Contains(got, leak) {
					shown = leak
				}
			}
			switch {
			case !v.sees && shown != "":
				t.Errorf("%s for %s shows %q of rana's waiting answer: %.300s", r.name, v.who, shown, got)
			case v.sees && r.own && shown == "":
				t.Errorf("%s for %s does not show her own answer: %.300s", r.name, v.who, got)
			}
		}
	}
	// The photo itself is still there, unplaced, its wait said.
	p, err := db.Photo(ctx, shop.ID)
	if err != nil || p.Caption != shop.Caption || p.Place.Located || p.SecondLook != "waiting" {
		t.Errorf("the public's photo: %+v, %v", p, err)
	}
	// omar agrees: the placement shows to everyone.
	rounds, err := db.LookRounds(ctx, "waiting", "", "", 10)
	if err != nil || len(rounds) != 1 {
		t.Fatalf("rounds: %v, %v", rounds, err)
	}
	if _, err := db.AnswerLook(ctx, rounds[0].ID, LookAnswer{By: "omar", Decision: "correct", PlaceID: answer.ID, Lon: answer.Lon, Lat: answer.Lat, Located: true},
		agreement.Judgement{SamePlace: true, Agreed: true}); err != nil {
		t.Fatal(err)
	}
	for _, r := range reads {
		if got, err := r.read(ctx); err != nil || (r.own && !strings.Contains(got, answer.ID) && !strings.Contains(got, "38.777")) {
			t.Errorf("%s for the public once the look agreed: %.300s, %v", r.name, got, err)
		}
	}
}

// blindRead is one read of the store, written out as text to look into;
// own says the read shows the answer to its first editor (the others
// show it by what they count).
type blindRead struct {
	name string
	own  bool
	read func(ctx context.Context) (string, error)
}

func blindReads(db *DB, id string, around orb.Bound, place string) []blindRead {
	text := func(v any, err error) (string, error) {
		b, _ := json.Marshal(v)
		return string(b), err
	}
	features := func(ctx context.Context, f photo.Filter) (string, error) {
		var all []photo.Feature
		err := db.EachFeature(ctx, f, func(ft *photo.Feature) error { all = append(all, *ft); return nil })
		return text(all, err)
	}
	near := photo.Filter{BBox: &around}
	at := photo.Filter{PlaceIDs: []string{place}}
	return []blindRead{
		{"Photo", true, func(ctx context.Context) (string, error) { return text(db.Photo(ctx, id)) }},
		{"Photos", true, func(ctx context.Context) (string, error) {
			return text(db.Photos(ctx, photo.Filter{IDs: []string{id}}))
		}},
		{"Photos near", true, func(ctx context.Context) (string, error) { return text(db.Photos(ctx, near)) }},
		{"EachFeature", true, func(ctx context.Context) (string, error) { return features(ctx, photo.Filter{IDs: []string{id}}) }},
		{"EachFeature at", true, func(ctx context.Context) (string, error) { return features(ctx, at) }},
		{"EachFeatureBulk", true, func(ctx context.Context) (string, error) {
			var all []photo.Feature
			err := db.EachFeatureBulk(ctx, 0, 1<<40, func(ft *photo.Feature) error { all = append(all, *ft); return nil })
			return text(all, err)
		}},
		{"CountPhotos near", false, func(ctx context.Context) (string, error) {
			n, err := db.CountPhotos(ctx, near)
			return strings.Repeat(" 38.777", n), err // each photo counted gives its point away
		}},
		{"SelectIDs at", false, func(ctx context.Context) (string, error) {
			ids, err := db.SelectIDs(ctx, at)
			return strings.Repeat(place+" ", len(ids)), err
		}},
		{"Facets", true, func(ctx context.Context) (string, error) { return text(db.Facets(ctx, photo.Filter{}, 100)) }},
		{"PlacesWithPhotos", true, func(ctx context.Context) (string, error) { return text(db.PlacesWithPhotos(ctx, photo.Filter{})) }},
		{"Clusters", true, func(ctx context.Context) (string, error) { return text(db.Clusters(ctx, near, 1)) }},
		{"Extent", false, func(ctx context.Context) (string, error) { return text(db.Extent(ctx)) }},
		{"History", true, func(ctx context.Context) (string, error) { return text(db.History(ctx, id)) }},
		{"RecentEvents", true, func(ctx context.Context) (string, error) { return text(db.RecentEvents(ctx, 100)) }},
		{"CustodyOf", true, func(ctx context.Context) (string, error) { return text(db.CustodyOf(ctx, id)) }},
	}
}

// TestBlindLookAtAPhotoWithAFile (issue 67, 4e): a photo with an image
// file, whose file's agreement is measured against the place rana gave
// it, stays blind while it waits: omar reads the file's own metadata and
// nothing of how it agrees with her place — not the note naming it, the
// agreement, its parts, nor a count selected by agreement.
func TestBlindLookAtAPhotoWithAFile(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	p := mk("A shop in Idlib with its file.", "2015-11-07", "Reuters", "Ammar Abdullah", "gn:3", "Idlib", "Idlib", 36.63, 35.93, 0.95)
	p.ImageFile = "cafe01"
	p.File = &photo.File{Path: "/in/shop.jpg", SHA256: "cafe01", Size: 10, Meta: `{"city":"Idlib"}`}
	p.Check = photo.Check{IPTCCity: "Idlib", IPTCCountry: "Syria", Agreement: "agrees", Note: "the file's city agrees with Idlib"}
	if _, err := db.ImportFile(ctx, "shop.txt", Records([]Record{{Photo: p, Line: 1}}), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.SetTwoPerson(ctx, true, "lead"); err != nil {
		t.Fatal(err)
	}
	answer := photo.Place{ID: "gn:9", Name: "Qaryat Blindiyya", Kind: "village", Lon: 38.7771, Lat: 35.1117, Located: true}
	if _, err := db.Apply(ctx, []string{p.ID}, photo.Change{Author: "rana", Place: &answer}); err != nil {
		t.Fatal(err)
	}
	// The archive checks the file again against rana's place.
	if _, err := db.SetChecks(ctx, map[string]photo.Check{p.ID: {Agreement: "near", Parts: "place", Note: "the file's city is 60 km from Qaryat Blindiyya"}}); err != nil {
		t.Fatal(err)
	}
	for _, v := range []struct {
		who  string
		ctx  context.Context
		sees bool
	}{{"the public", ctx, false}, {"omar", photo.AsEditor(ctx, "omar"), false}, {"rana", photo.AsEditor(ctx, "rana"), true}} {
		got, err := db.Photo(v.ctx, p.ID)
		if err != nil {
			t.Fatalf("%s: %v", v.who, err)
		}
		shown := got.Check.Agreement != "" || got.Check.Note != "" || got.Check.Parts != ""
		if shown != v.sees || got.ImageFile != "cafe01" || got.Check.IPTCCity != "Idlib" {
			t.Errorf("%s reads the file's check %+v (image %q); want the agreement shown %v, the file's metadata always", v.who, got.Check, got.ImageFile, v.sees)
		}
		var feature photo.Feature
		if err := db.EachFeature(v.ctx, photo.Filter{IDs: []string{p.ID}}, func(f *photo.Feature) error { feature = *f; return nil }); err != nil {
			t.Fatal(err)
		}
		if (feature.Check.Agreement != "" || feature.Check.Note != "") != v.sees {
			t.Errorf("%s reads the feature's check %+v", v.who, feature.Check)
		}
		n, err := db.CountPhotos(v.ctx, photo.Filter{Agreements: []string{"near"}})
		if err != nil || (n == 1) != v.sees {
			t.Errorf("%s counts %d photos whose file is near their place (%v)", v.who, n, err)
		}
	}
}
