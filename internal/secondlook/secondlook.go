// Package secondlook holds the rules of two-person confirmation: a
// placement is verified when a second editor, shown nothing of the first
// editor's answer, places the photo the same, or a third editor decides
// between them. Who may answer, decide and confirm, what a blind look
// shows and what the answers' agreement makes of a round are pure
// functions of a round and the editor who acts; the store loads and saves
// rounds (see store's secondlook.go) and asks these rules before each
// step.
package secondlook

import (
	"time"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/photo"
)

// The states of a round.
const (
	Waiting     = photo.LookWaiting   // for a second editor
	Agreed      = "agreed"            // the two agreed: verified
	Disagreed   = photo.LookDisagreed // waiting for a third editor
	Adjudicated = "adjudicated"       // a third decided: verified
	Superseded  = "superseded"        // a later placement replaced it
	// Requested is a photo's state (never a round's) when a second look
	// was asked before any editor placed it.
	Requested = "requested"
)

// Third editors' choices.
const (
	ThirdFirst  = "first"  // the first editor's answer stands
	ThirdSecond = "second" // the second editor's
	ThirdOther  = "other"  // neither: the third's own place
)

// Answer is one editor's answer in a round: a decision
// (agreement.Confirm, Correct or Unplaceable), a gazetteer place or a
// bare point, a note, who and when.
type Answer struct {
	By, Decision string
	PlaceID      string
	Lon, Lat     float64
	Located      bool
	Note         string
	At           time.Time
	Choice       string // a third editor's: ThirdFirst, ThirdSecond or ThirdOther
	// PlaceName, Kind and GovPCode are the place's, named by the archive
	// for pages and the agreement's tables; not stored.
	PlaceName, Kind, GovPCode string
}

// Round is one round of a second look at a photo.
type Round struct {
	ID       int64
	PhotoID  string
	State    string
	OpenedAt time.Time
	// AutoPlaceID is the geocoder's reading when the round opened.
	AutoPlaceID   string
	First, Second Answer // Second.By is "" until answered
	Third         Answer // By is "" until adjudicated
	// Judgement compares First and Second once answered.
	Judgement agreement.Judgement
	// Caption is the photo's, for the queues.
	Caption string
}

// Open reports whether the round waits for an editor: a second
// (Waiting) or a third (Disagreed).
func (r Round) Open() bool { return r.State == Waiting || r.State == Disagreed }

// ToAnswer reports whether editor by is one who may give round r its
// blind second answer now (MayAnswer says why not).
func (r Round) ToAnswer(by string) bool { return r.MayAnswer(by) == nil }

// ToDecide reports whether editor by is one who may decide round r now
// (the adjudication queue), whatever the choice.
func (r Round) ToDecide(by string) bool {
	return r.State == Disagreed && !photo.SameEditor(by, r.First.By) && !photo.SameEditor(by, r.Second.By)
}

// MayAnswer refuses a second answer to r by editor by: the first
// editor's own (EForbidden: nobody checks their own placement), or any
// answer to a round that no longer waits for one (EConflict: answered,
// or a later placement replaced it). Names compare without case.
func (r Round) MayAnswer(by string) error {
	switch {
	case photo.SameEditor(by, r.First.By):
		return photo.Errorf(photo.EForbidden, "you placed photo %s: a second look must be another editor's", r.PhotoID)
	case r.State != Waiting:
		return photo.Errorf(photo.EConflict, "the second look at photo %s is %s: it no longer waits for an answer", r.PhotoID, r.State)
	}
	return nil
}

// MayDecide refuses third editor a's decision on r: by either of the two
// editors who answered (EForbidden), on a round that does not wait for a
// third (EConflict), with a choice that is none of ThirdFirst,
// ThirdSecond, ThirdOther, or without a place to put the photo
// (EInvalid).
func (r Round) MayDecide(a Answer, placed bool) error {
	switch {
	case photo.SameEditor(a.By, r.First.By) || photo.SameEditor(a.By, r.Second.By):
		return photo.Errorf(photo.EForbidden, "you gave one of the two answers on photo %s: a third editor decides between them", r.PhotoID)
	case r.State != Disagreed:
		return photo.Errorf(photo.EConflict, "the second look at photo %s is %s: it does not wait for a third editor", r.PhotoID, r.State)
	case a.Choice != ThirdFirst && a.Choice != ThirdSecond && a.Choice != ThirdOther:
		return photo.ParamErrorf("choice", "a decision is %q, %q or %q", ThirdFirst, ThirdSecond, ThirdOther)
	case !placed:
		return photo.Errorf(photo.EInvalid, "an adjudication places the photo: give a place or point")
	}
	return nil
}

// Outcome is the state a round's second answer leaves it in, given how
// the two answers compare (agreement.Judge): Agreed, which verifies the
// photo as the first editor placed it, or Disagreed, which waits for a
// third editor. Only agreement verifies: both editors named the place
// (or gave two points near each other). Answers that nest — a quarter
// and its city — share only the coarser place; the finer is the first
// editor's alone, so a third editor decides, never the distance.
func Outcome(j agreement.Judgement) (state string, verified bool) {
	if j.Agreed && !j.Nested {
		return Agreed, true
	}
	return Disagreed, false
}

// Nesting orders the two answers of a round whose answers nest
// (Judgement.Nested): coarser is the place both editors named (the city,
// the district, the place a point lies in), finer the answer one editor
// gave alone (the quarter, the village, the point), which a third editor
// decides on. Between two places the one that reaches further
// (photo.PlaceRadiusKm) is the coarser.
func Nesting(r Round) (coarser, finer Answer) {
	a, b := r.First, r.Second
	switch {
	case a.PlaceID == "":
		return b, a
	case b.PlaceID == "":
		return a, b
	case photo.PlaceRadiusKm(a.Kind) >= photo.PlaceRadiusKm(b.Kind):
		return a, b
	}
	return b, a
}

// MayConfirm refuses editor author's confirmation of photo p where it
// would check nothing. open is p's open round, if any (zero when none):
// a placement waiting for a blind second look is checked from the
// second looks, not by confirming what one is shown (EForbidden for its
// first editor, EConflict for others); one two editors placed
// differently waits for a third (EConflict); and a placement the author
// made, once a second look was asked of it, is not confirmed by its own
// author (EForbidden).
func MayConfirm(open Round, p *photo.Photo, author string) error {
	switch {
	case open.State == Waiting && photo.SameEditor(open.First.By, author):
		return photo.Errorf(photo.EForbidden, "you placed photo %s: a second editor checks it, without seeing your answer, from the second looks", p.ID)
	case open.State == Waiting:
		return photo.Errorf(photo.EConflict, "photo %s waits for a blind second look: check it from the second looks, where the first answer is not shown", p.ID)
	case open.State == Disagreed:
		return photo.Errorf(photo.EConflict, "two editors placed photo %s differently: a third decides from the adjudication page", p.ID)
	case p.Review == photo.ReviewCorrected && photo.SameEditor(p.ReviewedBy, author) && p.SecondLook != "":
		return photo.Errorf(photo.EForbidden, "you placed photo %s: confirming your own placement checks nothing", p.ID)
	}
	return nil
}

// Wanted reports whether a person's placement opens a round: when the
// archive asks a second look of every placement (twoPerson), or one was
// asked of this photo (its SecondLook state is not "").
func Wanted(twoPerson bool, secondLook string) bool { return twoPerson || secondLook != "" }

// FirstOf is the first answer of a round opened on a placement that
// stands (a second look asked of a photo already placed): its placement,
// by the editor who made it, a confirmation or a correction as it was.
func FirstOf(p *photo.Photo) Answer {
	decision := agreement.Correct
	if p.Review == photo.ReviewConfirmed {
		decision = agreement.Confirm
	}
	a := Answer{By: p.ReviewedBy, Decision: decision, PlaceID: p.Place.ID, Lon: p.Place.Lon, Lat: p.Place.Lat,
		Located: p.Place.Located, At: p.ReviewedAt}
	if p.Correction != nil {
		a.Note = p.Correction.Note
	}
	return a
}

// AutoPlace is the geocoder's reading of p when a round opens: the one
// kept apart once a person placed it, else its place.
func AutoPlace(p *photo.Photo) string {
	if p.Geocoded.Precision != "" {
		return p.Geocoded.ID
	}
	return p.Place.ID
}

// Blind returns what a second editor is shown of photo p, whose
// placement waits for their answer: its caption, date, credit, image and
// the image file's own metadata, and nothing of any answer — not the
// first editor's place, point, note or name, nor the geocoder's reading
// (most often what the first editor confirmed), nor the file's agreement
// with the place (measured against the place the photo is shown at, it
// would tell that place). p is left as it was.
func Blind(p *photo.Photo) *photo.Photo {
	b := *p
	b.WithoutPlacement()
	b.Check.Agreement, b.Check.Note, b.Check.Parts, b.Check.Findings = "", "", "", nil
	return &b
}
