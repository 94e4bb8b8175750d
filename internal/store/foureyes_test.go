package store

import (
	"context"
	"testing"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestFourEyes walks the store's steps of a second look through the
// rules of package secondlook, so that a break of a rule fails the
// store's own suite: nobody answers, confirms or decides their own
// placement (names compare without case); a waiting placement is not
// confirmed by anyone; only agreement verifies; a third editor decides
// what two did not agree on.
func TestFourEyes(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	if err := db.SetTwoPerson(ctx, true, "lead"); err != nil {
		t.Fatal(err)
	}
	shop, market := fixture[4].ID, fixture[3].ID
	place := photo.Place{ID: "gn:9", Name: "Qaryat", Kind: "village", Lon: 38.7771, Lat: 35.1117, Located: true}
	for _, id := range []string{shop, market} {
		if _, err := db.Apply(ctx, []string{id}, photo.Change{Author: "rana", Place: &place}); err != nil {
			t.Fatal(err)
		}
	}
	rounds, err := db.LookRounds(ctx, LookWaiting, "", "", 10)
	if err != nil || len(rounds) != 2 {
		t.Fatalf("waiting rounds: %+v, %v", rounds, err)
	}
	roundOf := map[string]int64{}
	for _, r := range rounds {
		roundOf[r.PhotoID] = r.ID
	}
	agree := agreement.Judgement{SamePlace: true, Agreed: true}
	differ := agreement.Judgement{SameGovernorate: true}
	refused := func(step string, err error, code string) {
		t.Helper()
		if photo.ErrorCode(err) != code {
			t.Errorf("%s: %v; want %s", step, err, code)
		}
	}
	_, err = db.AnswerLook(ctx, roundOf[shop], LookAnswer{By: "rana", Decision: agreement.Correct, PlaceID: place.ID}, agree)
	refused("rana answers her own", err, photo.EForbidden)
	_, err = db.AnswerLook(ctx, roundOf[shop], LookAnswer{By: "RANA", Decision: agreement.Correct, PlaceID: place.ID}, agree)
	refused("RANA answers her own", err, photo.EForbidden)
	_, err = db.Apply(ctx, []string{shop}, photo.Change{Author: "Rana", Confirm: true})
	refused("rana confirms her own waiting placement", err, photo.EForbidden)
	_, err = db.Apply(ctx, []string{shop}, photo.Change{Author: "omar", Confirm: true})
	refused("omar confirms what waits for his blind look", err, photo.EConflict)
	if p, _ := db.Photo(photo.AsEditor(ctx, "rana"), shop); p.Verified || p.SecondLook != LookWaiting {
		t.Errorf("refusals changed the photo: verified %v, %q", p.Verified, p.SecondLook)
	}

	// omar agrees on the shop: verified; lina's answer after is refused.
	r, err := db.AnswerLook(ctx, roundOf[shop], LookAnswer{By: "omar", Decision: agreement.Correct, PlaceID: place.ID}, agree)
	if err != nil || r.State != LookAgreed {
		t.Fatalf("omar's agreeing answer: %+v, %v", r, err)
	}
	if p, _ := db.Photo(ctx, shop); !p.Verified || p.SecondLook != LookAgreed {
		t.Errorf("agreed: verified %v, %q", p.Verified, p.SecondLook)
	}
	_, err = db.AnswerLook(ctx, roundOf[shop], LookAnswer{By: "lina", Decision: agreement.Correct, PlaceID: place.ID}, agree)
	refused("a second answer to an agreed round", err, photo.EConflict)
	_, err = db.Apply(ctx, []string{shop}, photo.Change{Author: "RANA", Confirm: true})
	refused("rana confirms her own verified placement", err, photo.EForbidden)

	// omar disagrees on the market: not verified; a third decides.
	r, err = db.AnswerLook(ctx, roundOf[market], LookAnswer{By: "omar", Decision: agreement.Correct, PlaceID: "gn:2"}, differ)
	if err != nil || r.State != LookDisagreed {
		t.Fatalf("omar's other answer: %+v, %v", r, err)
	}
	if p, _ := db.Photo(photo.AsEditor(ctx, "lina"), market); p.Verified {
		t.Errorf("two answers that differ verified the market")
	}
	_, err = db.Apply(ctx, []string{market}, photo.Change{Author: "lina", Confirm: true})
	refused("lina confirms what waits for a third editor", err, photo.EConflict)
	to := photo.Place{ID: "gn:2", Name: "Damascus", Lon: 36.29, Lat: 33.51, Located: true}
	for _, by := range []string{"rana", "Omar"} {
		_, err = db.Adjudicate(ctx, roundOf[market], LookAnswer{By: by, Choice: ThirdSecond}, to)
		refused(by+" decides a round they answered", err, photo.EForbidden)
	}
	_, err = db.Adjudicate(ctx, roundOf[market], LookAnswer{By: "lina", Choice: "both"}, to)
	refused("a choice that is none", err, photo.EInvalid)
	_, err = db.Adjudicate(ctx, roundOf[shop], LookAnswer{By: "lina", Choice: ThirdFirst}, to)
	refused("deciding an agreed round", err, photo.EConflict)
	if r, err = db.Adjudicate(ctx, roundOf[market], LookAnswer{By: "lina", Choice: ThirdSecond}, to); err != nil || r.State != LookAdjudicated {
		t.Fatalf("lina decides: %+v, %v", r, err)
	}
	if p, _ := db.Photo(ctx, market); !p.Verified || p.Place.ID != "gn:2" {
		t.Errorf("adjudicated: verified %v at %q", p.Verified, p.Place.ID)
	}
}
