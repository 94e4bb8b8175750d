package archive

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
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
	lookAgreed(t, a, photo.ID(one), aleppo.ID, quarter)
	lookDisagreed(t, a, photo.ID(two), aleppo.ID, quarter)
}

// lookAgreed: rana confirms photo id at Aleppo; nobody checks their own,
// nor confirms what waits for a blind look; omar places it at Aleppo,
// blind: they agree, and it is verified as she placed it.
func lookAgreed(t *testing.T, a *Archive, id, aleppo, quarter string) {
	t.Helper()
	ctx := context.Background()
	one := id
	// rana confirms the first photo at Aleppo: it waits for a second look.
	if _, err := a.db.Apply(ctx, []string{one}, photo.Change{Confirm: true, Author: "rana"}); err != nil {
		t.Fatal(err)
	}
	waiting, err := a.LookRounds(ctx, store.LookWaiting, "", "", 10)
	if err != nil || len(waiting) != 1 || waiting[0].First.By != "rana" || waiting[0].First.Decision != agreement.Confirm {
		t.Fatalf("waiting: %+v, %v", waiting, err)
	}
	round := waiting[0].ID
	// Nobody confirms or second-checks their own placement.
	if _, err := a.db.Apply(ctx, []string{one}, photo.Change{Confirm: true, Author: "rana"}); photo.ErrorCode(err) != photo.EForbidden {
		t.Errorf("rana confirming her own placement: %v, want forbidden", err)
	}
	if _, err := a.AnswerSecondLook(ctx, round, "rana", aleppo, nil, false, ""); photo.ErrorCode(err) != photo.EForbidden {
		t.Errorf("rana second-checking herself: %v, want forbidden", err)
	}
	// Nor does another editor confirm it by what they are shown.
	if _, err := a.db.Apply(ctx, []string{one}, photo.Change{Confirm: true, Author: "omar"}); photo.ErrorCode(err) != photo.EConflict {
		t.Errorf("omar confirming a photo waiting for a blind look: %v, want conflict", err)
	}
	// omar places it, blind, at Aleppo: the same place, agreed.
	r, err := a.AnswerSecondLook(ctx, round, "omar", aleppo, nil, false, "the caption says Aleppo")
	if err != nil {
		t.Fatal(err)
	}
	if r.State != store.LookAgreed || !r.Judgement.SamePlace || r.Judgement.Nested || r.Judgement.WithinSize || r.Second.Decision != agreement.Confirm {
		t.Errorf("agreed round: %+v", r)
	}
	p, _ := a.db.Photo(ctx, one)
	if !p.Verified || p.Place.ID != aleppo {
		t.Errorf("after agreement: verified %v at %s, want verified at Aleppo, as rana placed it", p.Verified, p.Place.ID)
	}
	if _, err := a.AnswerSecondLook(ctx, round, "lina", aleppo, nil, false, ""); photo.ErrorCode(err) != photo.EConflict {
		t.Errorf("a second answer to an agreed round: %v, want conflict", err)
	}

}

// lookDisagreed: rana puts photo id at Aleppo, omar finds it
// unplaceable; neither decides, lina does; a later placement takes the
// verification away; every step is a custody record the rows agree with.
func lookDisagreed(t *testing.T, a *Archive, id, aleppo, quarter string) {
	t.Helper()
	ctx := context.Background()
	two := id
	// The second photo: rana puts it at Aleppo, omar finds it
	// unplaceable. They disagree; neither may decide; lina does.
	toAleppo, _ := a.PlaceOf(aleppo, nil)
	if _, err := a.db.Apply(ctx, []string{two}, photo.Change{Place: &toAleppo, Author: "rana", Note: "I think Aleppo"}); err != nil {
		t.Fatal(err)
	}
	waiting, _ := a.LookRounds(ctx, store.LookWaiting, "", "", 10)
	if len(waiting) != 1 {
		t.Fatalf("waiting: %d rounds", len(waiting))
	}
	round := waiting[0].ID
	r, err := a.AnswerSecondLook(ctx, round, "omar", "", nil, true, "no place I can find")
	if err != nil || r.State != store.LookDisagreed {
		t.Fatalf("disagreement: %+v, %v", r, err)
	}
	if p, _ := a.db.Photo(ctx, two); p.Verified {
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
	p, _ := a.db.Photo(ctx, two)
	if !p.Verified || p.Place.ID != quarter || p.ReviewedBy != "lina" {
		t.Errorf("after adjudication: verified %v at %s by %s, want verified at %s by lina", p.Verified, p.Place.ID, p.ReviewedBy, quarter)
	}
	// A later placement takes the verification away and asks again.
	if _, err := a.db.Apply(ctx, []string{two}, photo.Change{Place: &toAleppo, Author: "omar"}); err != nil {
		t.Fatal(err)
	}
	if p, _ := a.db.Photo(ctx, two); p.Verified || p.SecondLook != store.LookWaiting {
		t.Errorf("after a new placement: verified %v, second look %q", p.Verified, p.SecondLook)
	}
	// Every step is in the chain, and the rows agree with it.
	if _, problems, err := a.db.VerifyCustody(ctx, nil); err != nil || len(problems) != 0 {
		t.Errorf("the custody chain: %+v, %v", problems, err)
	}
	if _, problems, err := a.db.CheckRows(ctx, nil); err != nil || len(problems) != 0 {
		t.Errorf("the rows against their custody: %+v, %v", problems, err)
	}
	recs, err := a.db.CustodyOf(ownRead(ctx), two) // the whole chain, omar's waiting answer too
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

// TestNestedAnswersAreNotVerified (issue 68, 1): rana places a photo at a
// quarter of Aleppo, omar, blind, answers "Aleppo". The quarter is within
// the city's 12 km, but omar never named it: the answers nest, the photo
// is not verified, and a third editor decides.
func TestNestedAnswersAreNotVerified(t *testing.T) {
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
	caption := "Residents inspect damage in Aleppo, Syria, May 3, 2016. (Photo by A. Person/Reuters)"
	file := filepath.Join(t.TempDir(), "captions.txt")
	os.WriteFile(file, []byte(caption+"\n"), 0o644)
	if _, err := a.ImportFile(ctx, file, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := a.db.SetTwoPerson(ctx, true, "lead"); err != nil {
		t.Fatal(err)
	}
	toQuarter, _ := a.PlaceOf(quarter, nil)
	if _, err := a.db.Apply(ctx, []string{photo.ID(caption)}, photo.Change{Place: &toQuarter, Author: "rana"}); err != nil {
		t.Fatal(err)
	}
	waiting, err := a.LookRounds(ctx, store.LookWaiting, "", "", 10)
	if err != nil || len(waiting) != 1 {
		t.Fatalf("waiting: %+v, %v", waiting, err)
	}
	r, err := a.AnswerSecondLook(ctx, waiting[0].ID, "omar", aleppo.ID, nil, false, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.State != store.LookDisagreed || !r.Judgement.Nested || r.Judgement.Agreed || r.Judgement.WithinSize {
		t.Errorf("a quarter answered by its city: %s, %+v; want disagreed, nested, not agreed", r.State, r.Judgement)
	}
	if p, _ := a.db.Photo(ctx, photo.ID(caption)); p.Verified {
		t.Error("the quarter is verified by an editor who named only the city")
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

// TestAgreementBetween measures a known table of second looks (issue 57,
// 2): rana gave every first answer, omar and lina two second ones each.
// The decisions, first → second: confirm → confirm, confirm → correct
// (omar); correct → correct, confirm → unplaceable (lina). Worked by hand:
//   - rana·omar: agree on 1 of 2; rana always confirms, so κ = (½ − ½)/(1 − ½) = 0;
//   - lina·rana: po = ½, pe = ½·½ (both correct once) = ¼, κ = (½ − ¼)/(¾) = ⅓;
//   - the team as two raters: po = ½, pe = ¾·¼ + ¼·½ = 0.3125, κ = 0.1875/0.6875 = 0.2727;
//   - α: values confirm 4, correct 3, unplaceable 1 (n = 8), 4 pairs of
//     disagreement within units, De = 2(4·3 + 4·1 + 3·1) = 38, α = 1 − 7·4/38 = 0.2632.
func TestAgreementBetween(t *testing.T) {
	ctx := context.Background()
	a := openTest(t, filepath.Join(t.TempDir(), "archive.db"))
	captions := []string{
		"Smoke rises over Aleppo, Syria, May 3, 2016. (Photo by A. Person/Reuters)",
		"Children play in Homs, Syria, May 3, 2016. (Photo by A. Person/Reuters)",
		"A market in Idlib, Syria, May 3, 2016. (Photo by A. Person/Reuters)",
		"A street in Damascus, Syria, May 3, 2016. (Photo by A. Person/Reuters)",
	}
	file := filepath.Join(t.TempDir(), "captions.txt")
	os.WriteFile(file, []byte(strings.Join(captions, "\n\n")+"\n"), 0o644)
	if _, err := a.ImportFile(ctx, file, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := a.db.SetTwoPerson(ctx, true, "lead"); err != nil {
		t.Fatal(err)
	}
	g := a.Gazetteer()
	raqqa := g.ByID("gn:163915")
	if raqqa == nil || !raqqa.Located {
		t.Fatal("no Raqqa in the gazetteer")
	}
	toRaqqa, _ := a.PlaceOf(raqqa.ID, nil)
	for i, c := range captions {
		ch := photo.Change{Confirm: true, Author: "rana"}
		if i == 2 {
			ch = photo.Change{Place: &toRaqqa, Author: "rana"}
		}
		if _, err := a.db.Apply(ctx, []string{photo.ID(c)}, ch); err != nil {
			t.Fatal(err)
		}
	}
	looks, err := a.LookRounds(ctx, store.LookWaiting, "", "", 10)
	if err != nil || len(looks) != 4 {
		t.Fatalf("looks: %d, %v", len(looks), err)
	}
	byPhoto := map[string]store.LookRound{}
	for _, l := range looks {
		byPhoto[l.PhotoID] = l
	}
	answer := func(i int, by, placeID string, unplaceable bool) {
		t.Helper()
		if _, err := a.AnswerSecondLook(ctx, byPhoto[photo.ID(captions[i])].ID, by, placeID, nil, unplaceable, ""); err != nil {
			t.Fatal(err)
		}
	}
	answer(0, "omar", byPhoto[photo.ID(captions[0])].AutoPlaceID, false) // confirm: the reading, unseen
	answer(1, "omar", raqqa.ID, false)                                   // correct
	answer(2, "lina", raqqa.ID, false)                                   // correct, as rana did
	answer(3, "lina", "", true)                                          // unplaceable
	ag, err := a.AgreementBetween(ctx, "", "")
	if err != nil {
		t.Fatal(err)
	}
	near := func(got, want float64) bool { return math.Abs(got-want) < 0.0005 }
	if ag.Team.Looks != 4 || ag.Team.Agreed != 2 || ag.Team.SamePlace != 2 || !ag.Team.KappaOK || !near(ag.Team.Kappa, 0.2727) {
		t.Errorf("the team: %+v; want 4 looks, 2 agreed, κ 0.2727", ag.Team)
	}
	if !ag.AlphaOK || !near(ag.Alpha, 10.0/38) || ag.Raters != 3 {
		t.Errorf("α %.4f (%v), %d raters; want 0.2632, 3", ag.Alpha, ag.AlphaOK, ag.Raters)
	}
	want := map[string]float64{"omar·rana": 0, "lina·rana": 1.0 / 3}
	for _, p := range ag.Pairs {
		k, ok := want[p.A+"·"+p.B]
		if !ok || p.Looks != 2 || !p.KappaOK || !near(p.Kappa, k) {
			t.Errorf("pair %s·%s: %d looks, κ %.4f (%v); want 2, %.4f", p.A, p.B, p.Looks, p.Kappa, p.KappaOK, k)
		}
	}
	// A window before the looks holds none.
	if ag, err := a.AgreementBetween(ctx, "2000-01-01", "2000-02-01"); err != nil || ag.Team.Looks != 0 || ag.AlphaOK {
		t.Errorf("an empty window: %+v, %v", ag.Team, err)
	}
}
