package archive

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// TestTwoPersonConfirmation walks the rule (issue 57, 1): with the
// setting on, a placement waits for a second editor; nobody checks their
// own; two answers that agree verify it; two that do not wait for a third
// editor, whose decision places and verifies it; every step is a custody
// record that verify finds the rows agree with.
func TestTwoPersonConfirmation(t *testing.T) {
	ctx := context.Background()
	a := openTest(t, filepath.Join(t.TempDir(), "archive.db"))
	g := a.Gazetteer()
	aleppo := g.ByID("gn:170063")
	var quarter string
	for _, p := range g.Places() {
		if p.Kind == "neighbourhood" && p.Parent == aleppo.ID && p.Located {
			quarter = p.ID
			break
		}
	}
	one := "Residents inspect damage in Aleppo, Syria, May 3, 2016. (Photo by A. Person/Reuters)"
	two := "A boy stands in Qurmuziyat, Syria, April 1, 2017. (Photo by C. Person/AFP)"
	file := filepath.Join(t.TempDir(), "captions.txt")
	os.WriteFile(file, []byte(one+"\n\n"+two+"\n"), 0o644)
	if _, err := a.ImportFile(ctx, file, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := a.db.SetTwoPerson(ctx, true, "lead"); err != nil {
		t.Fatal(err)
	}
	// rana confirms the first photo at Aleppo: it waits for a second look.
	if _, err := a.db.Apply(ctx, []string{photo.ID(one)}, photo.Change{Confirm: true, Author: "rana"}); err != nil {
		t.Fatal(err)
	}
	waiting, err := a.LookRounds(ctx, store.LookWaiting, "", "", 10)
	if err != nil || len(waiting) != 1 || waiting[0].First.By != "rana" || waiting[0].First.Decision != agreement.Confirm {
		t.Fatalf("waiting: %+v, %v", waiting, err)
	}
	round := waiting[0].ID
	// Nobody confirms or second-checks their own placement.
	if _, err := a.db.Apply(ctx, []string{photo.ID(one)}, photo.Change{Confirm: true, Author: "rana"}); photo.ErrorCode(err) != photo.EForbidden {
		t.Errorf("rana confirming her own placement: %v, want forbidden", err)
	}
	if _, err := a.AnswerSecondLook(ctx, round, "rana", aleppo.ID, nil, false, ""); photo.ErrorCode(err) != photo.EForbidden {
		t.Errorf("rana second-checking herself: %v, want forbidden", err)
	}
	// Nor does another editor confirm it by what they are shown.
	if _, err := a.db.Apply(ctx, []string{photo.ID(one)}, photo.Change{Confirm: true, Author: "omar"}); photo.ErrorCode(err) != photo.EConflict {
		t.Errorf("omar confirming a photo waiting for a blind look: %v, want conflict", err)
	}
	// omar places it, blind, in a quarter of Aleppo: nested, within the
	// city's size, agreed.
	r, err := a.AnswerSecondLook(ctx, round, "omar", quarter, nil, false, "the caption says Aleppo")
	if err != nil {
		t.Fatal(err)
	}
	if r.State != store.LookAgreed || r.Judgement.SamePlace || !r.Judgement.Nested || !r.Judgement.WithinSize || r.Second.Decision != agreement.Correct {
		t.Errorf("agreed round: %+v", r)
	}
	p, _ := a.db.Photo(ctx, photo.ID(one))
	if !p.Verified || p.Place.ID != aleppo.ID {
		t.Errorf("after agreement: verified %v at %s, want verified at Aleppo, as rana placed it", p.Verified, p.Place.ID)
	}
	if _, err := a.AnswerSecondLook(ctx, round, "lina", aleppo.ID, nil, false, ""); photo.ErrorCode(err) != photo.EConflict {
		t.Errorf("a second answer to an agreed round: %v, want conflict", err)
	}

	// The second photo: rana puts it at Aleppo, omar finds it
	// unplaceable. They disagree; neither may decide; lina does.
	toAleppo, _ := a.PlaceOf(aleppo.ID, nil)
	if _, err := a.db.Apply(ctx, []string{photo.ID(two)}, photo.Change{Place: &toAleppo, Author: "rana", Note: "I think Aleppo"}); err != nil {
		t.Fatal(err)
	}
	waiting, _ = a.LookRounds(ctx, store.LookWaiting, "", "", 10)
	if len(waiting) != 1 {
		t.Fatalf("waiting: %d rounds", len(waiting))
	}
	round = waiting[0].ID
	r, err = a.AnswerSecondLook(ctx, round, "omar", "", nil, true, "no place I can find")
	if err != nil || r.State != store.LookDisagreed {
		t.Fatalf("disagreement: %+v, %v", r, err)
	}
	if p, _ := a.db.Photo(ctx, photo.ID(two)); p.Verified {
		t.Error("a photo two editors disagree on is verified")
	}
	for _, who := range []string{"rana", "omar"} {
		if _, err := a.Adjudicate(ctx, round, who, store.ThirdFirst, "", nil, ""); photo.ErrorCode(err) != photo.EForbidden {
			t.Errorf("%s adjudicating her own disagreement: %v, want forbidden", who, err)
		}
	}
	if _, err := a.Adjudicate(ctx, round, "lina", store.ThirdSecond, "", nil, ""); photo.ErrorCode(err) != photo.EInvalid {
		t.Errorf("keeping an unplaceable answer: %v, want invalid", err)
	}
	r, err = a.Adjudicate(ctx, round, "lina", store.ThirdOther, quarter, nil, "the quarter named in the file")
	if err != nil || r.State != store.LookAdjudicated || r.Third.By != "lina" {
		t.Fatalf("adjudication: %+v, %v", r, err)
	}
	p, _ = a.db.Photo(ctx, photo.ID(two))
	if !p.Verified || p.Place.ID != quarter || p.ReviewedBy != "lina" {
		t.Errorf("after adjudication: verified %v at %s by %s, want verified at %s by lina", p.Verified, p.Place.ID, p.ReviewedBy, quarter)
	}
	// A later placement takes the verification away and asks again.
	if _, err := a.db.Apply(ctx, []string{photo.ID(two)}, photo.Change{Place: &toAleppo, Author: "omar"}); err != nil {
		t.Fatal(err)
	}
	if p, _ := a.db.Photo(ctx, photo.ID(two)); p.Verified || p.SecondLook != store.LookWaiting {
		t.Errorf("after a new placement: verified %v, second look %q", p.Verified, p.SecondLook)
	}
	// Every step is in the chain, and the rows agree with it.
	if _, problems, err := a.db.VerifyCustody(ctx, nil); err != nil || len(problems) != 0 {
		t.Errorf("the custody chain: %+v, %v", problems, err)
	}
	if _, problems, err := a.db.CheckRows(ctx, nil); err != nil || len(problems) != 0 {
		t.Errorf("the rows against their custody: %+v, %v", problems, err)
	}
	recs, err := a.db.CustodyOf(ctx, photo.ID(two))
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, c := range recs {
		actions = append(actions, c.Action)
	}
	want := []string{"correct", "second-look", "second-look", "adjudicate", "correct", "second-look"}
	if got := actions[len(actions)-len(want):]; !equal(got, want) {
		t.Errorf("custody of the second photo ends %v, want %v", actions, want)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
