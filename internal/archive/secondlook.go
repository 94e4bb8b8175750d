package archive

import (
	"context"
	"strings"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/secondlook"
)

// A second look is given blind: the second editor places the photo from
// its caption, its file's evidence and the map, and is shown nothing of
// the first editor's pin, place or note — nor the geocoder's reading,
// which is most often what the first editor confirmed. The archive then
// judges the two answers (agreement.Judge) against the gazetteer.

// LookRound returns a round with its answers' places named from the
// gazetteer.
func (a *Archive) LookRound(ctx context.Context, id int64) (secondlook.Round, error) {
	r, err := a.db.LookRound(ctx, id)
	if err == nil {
		a.nameLook(&r)
	}
	return r, err
}

// LookRounds is secondlook.Rounds with the answers' places named.
func (a *Archive) LookRounds(ctx context.Context, state, from, to string, limit int) ([]secondlook.Round, error) {
	rs, err := a.db.LookRounds(ctx, state, from, to, limit)
	for i := range rs {
		a.nameLook(&rs[i])
	}
	return rs, err
}

// LastLook is store.LastLook with the answers' places named.
func (a *Archive) LastLook(ctx context.Context, photoID string) (secondlook.Round, bool, error) {
	r, ok, err := a.db.LastLook(ctx, photoID)
	if ok {
		a.nameLook(&r)
	}
	return r, ok, err
}

func (a *Archive) nameLook(r *secondlook.Round) {
	for _, ans := range []*secondlook.Answer{&r.First, &r.Second, &r.Third} {
		if p := a.Gazetteer().ByID(ans.PlaceID); ans.PlaceID != "" && p != nil {
			ans.PlaceName, ans.Kind, ans.GovPCode = p.Name, string(p.Kind), p.Governorate.PCode
		}
	}
}

// AnswerSecondLook records editor by's blind answer to round id: a place
// (placeID, or a bare point), or, with unplaceable, that the caption and
// file do not say where. It is judged against the first answer; agreed,
// the photo is verified.
func (a *Archive) AnswerSecondLook(ctx context.Context, id int64, by, placeID string, point *[2]float64, unplaceable bool, note string) (secondlook.Round, error) {
	r, err := a.db.LookRound(ctx, id)
	if err != nil {
		return r, err
	}
	ans := secondlook.Answer{By: by, Decision: agreement.Unplaceable, Note: strings.TrimSpace(note)}
	if !unplaceable {
		pl, err := a.PlaceOf(placeID, point)
		if err != nil {
			return r, err
		}
		ans.PlaceID, ans.Lon, ans.Lat, ans.Located = pl.ID, pl.Lon, pl.Lat, true
		ans.Decision = agreement.Correct
		if pl.ID != "" && pl.ID == r.AutoPlaceID {
			ans.Decision = agreement.Confirm // the geocoder's reading, found without being shown it
		}
	}
	r, err = a.db.AnswerLook(ctx, id, ans, agreement.Judge(a.answer(r.First), a.answer(ans)))
	a.nameLook(&r)
	return r, err
}

// answer is an editor's answer as agreement.Judge weighs it.
func (a *Archive) answer(l secondlook.Answer) agreement.Answer {
	out := agreement.Answer{Decision: l.Decision, PlaceID: l.PlaceID, Lon: l.Lon, Lat: l.Lat}
	if l.Decision != agreement.Unplaceable && !l.Located {
		out.Decision = agreement.Unplaceable
	}
	g := a.Gazetteer()
	p := g.ByID(l.PlaceID)
	if p == nil {
		return out
	}
	out.Kind, out.District, out.Governorate = string(p.Kind), p.District.PCode, p.Governorate.PCode
	for up := g.ByID(p.Parent); up != nil && len(out.Ancestors) < 8; up = g.ByID(up.Parent) {
		out.Ancestors = append(out.Ancestors, up.ID)
	}
	// The areas it lies in, by their gazetteer ids: a village nests in
	// its subdistrict, district and governorate.
	for _, area := range []string{p.Subdistrict.PCode, p.District.PCode, p.Governorate.PCode} {
		if area != "" && "ocha:"+area != p.ID {
			out.Ancestors = append(out.Ancestors, "ocha:"+area)
		}
	}
	return out
}

// Adjudicate records third editor by's decision on a round the two
// answers disagreed on: choice secondlook.ThirdFirst or ThirdSecond keeps that
// answer; ThirdOther places the photo at placeID or point. The photo is
// then verified where the decision puts it.
func (a *Archive) Adjudicate(ctx context.Context, id int64, by, choice, placeID string, point *[2]float64, note string) (secondlook.Round, error) {
	r, err := a.db.LookRound(ctx, id)
	if err != nil {
		return r, err
	}
	var from secondlook.Answer
	switch choice {
	case secondlook.ThirdFirst:
		from = r.First
	case secondlook.ThirdSecond:
		from = r.Second
	case secondlook.ThirdOther:
		from = secondlook.Answer{PlaceID: placeID, Located: placeID == "" && point != nil}
		if point != nil {
			from.Lon, from.Lat = point[0], point[1]
		}
	default:
		return r, photo.ParamErrorf("choice", "a decision is %q, %q or %q", secondlook.ThirdFirst, secondlook.ThirdSecond, secondlook.ThirdOther)
	}
	if from.PlaceID == "" && !from.Located {
		if choice == secondlook.ThirdSecond {
			return r, photo.Errorf(photo.EInvalid, "the second editor found photo %s unplaceable: keep the first answer, or give another place", r.PhotoID)
		}
		return r, photo.ParamErrorf("place_id", "give a place or point")
	}
	var at *[2]float64
	if from.PlaceID == "" {
		at = &[2]float64{from.Lon, from.Lat}
	}
	to, err := a.PlaceOf(from.PlaceID, at)
	if err != nil {
		return r, err
	}
	r, err = a.db.Adjudicate(ctx, id, secondlook.Answer{By: by, Choice: choice, Note: strings.TrimSpace(note)}, to)
	a.nameLook(&r)
	return r, err
}
