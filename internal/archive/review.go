package archive

import (
	"context"
	"fmt"

	"github.com/syriamap/syriamap/internal/photo"
)

// PlaceOf returns where a correction puts a photo: the gazetteer place
// placeID (which must have a point), or, with placeID "", the bare point.
func (a *Archive) PlaceOf(placeID string, point *[2]float64) (photo.Place, error) {
	var pl photo.Place
	switch {
	case placeID != "":
		p := a.Gazetteer().ByID(placeID)
		if p == nil {
			return pl, &photo.Error{Code: photo.ENotFound, Message: fmt.Sprintf("no place has id %q (syriamap places search NAME lists ids)", placeID), Parameter: "place_id"}
		}
		if !p.Located {
			return pl, &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("%s (%s) has no point in the gazetteer; give a point (lon, lat) instead", p.Name, p.ID), Parameter: "place_id"}
		}
		fillPlace(&pl, p)
	case point != nil:
		if !photo.ValidPoint(point[0], point[1]) {
			return pl, &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("point %v,%v is out of range (lon −180…180, lat −90…90)", point[0], point[1]), Parameter: "lon"}
		}
		pl = photo.Place{Lon: point[0], Lat: point[1], Located: true}
	default:
		return pl, photo.Errorf(photo.EInvalid, "give a place id or a point")
	}
	return pl, nil
}

// LeftForReview says which photos of a group a decision about all of it
// left for a person, and why.
type LeftForReview struct {
	// LessSure counts the photos of the same reading the geocoder was
	// clearly less sure of than of the photo decided on (by lessSure).
	LessSure int
	// Elsewhere counts the photos whose caption's words (the same, folded)
	// were read as another place; ElsewhereID is the place most of them
	// were read as ("" for unplaced ones or bare points).
	Elsewhere   int
	ElsewhereID string
	// Unnamed counts the photos of the same reading whose caption names
	// the decided place in none of its spellings ("Al Masaddah" read as
	// Mashhad): a decision about all confirms no photo there.
	Unnamed int
}

// lessSure is how much less sure than the photo decided on the geocoder
// may have been of another photo of the same reading for a decision about
// all of them to take it: 0.97 and 0.93 are one answer; 0.9 and 0.33 are
// not.
const lessSure = 0.1

// SameReading returns the ids of the photos a person has not yet checked
// whose place was read from the same words as photo id's and that are
// shown at the same place ("apply to all 37 photos whose caption names Ain
// Tarma, shown at Ain Tarma"), id first. It leaves out what a decision
// about this one says nothing of (LeftOf counts them): the same words read
// as another place, and answers the geocoder was clearly less sure of. A
// photo at a bare point shares its reading with no other.
//
// to is the gazetteer place the decision puts them at (the photo's own
// for a confirmation, "" for a bare point): a photo whose caption does
// not name it, in any of its spellings, is left out too (LeftOf counts
// it), so that "apply to all" never confirms a place no caption of the
// group says.
func (a *Archive) SameReading(ctx context.Context, id, to string) ([]string, error) {
	p, err := a.db.Photo(ownRead(ctx), id)
	if err != nil {
		return nil, err
	}
	if p.Place.Located && p.Place.ID == "" {
		return []string{id}, nil
	}
	out := []string{id}
	err = a.eachOfReading(ctx, p.Place, func(q photo.Photo, sure bool) {
		if q.ID != id && sure && a.Names(q.Caption, to) {
			out = append(out, q.ID)
		}
	})
	return out, err
}

// Names reports whether caption names the gazetteer place placeID in one
// of its spellings (the gazetteer's or an editor's), as closely as a
// review group is keyed (MentionKey): the gazetteer's own folding reads
// "Mas‘adah" as "Meshed", a spelling of Mashhad, which no editor would. A
// place of "" (a bare point) is named by every caption.
func (a *Archive) Names(caption, placeID string) bool {
	if placeID == "" {
		return true
	}
	g := a.Gazetteer()
	p := g.ByID(placeID)
	if p == nil {
		return false
	}
	for _, h := range g.ScanNames(caption, nil) {
		if h.Place.ID != placeID {
			continue
		}
		said := MentionKey(caption[h.Start:h.End])
		for _, n := range p.AllNames() {
			if MentionKey(n) == said {
				return true
			}
		}
	}
	return false
}

// LeftOf says what a decision about all of a group left for a person, once
// made: place is the decided photo's placement as it was before, to the
// place it was decided to be at (see SameReading).
func (a *Archive) LeftOf(ctx context.Context, place photo.Place, to string) (LeftForReview, error) {
	var left LeftForReview
	if place.Located && place.ID == "" {
		return left, nil // a bare point shares its reading with no other
	}
	err := a.eachOfReading(ctx, place, func(q photo.Photo, sure bool) {
		switch {
		case !sure:
			left.LessSure++
		case !a.Names(q.Caption, to):
			left.Unnamed++
		}
	})
	if err != nil {
		return left, err
	}
	left.Elsewhere, left.ElsewhereID, err = a.readElsewhere(ctx, place)
	return left, err
}

// eachOfReading calls fn with each unchecked photo whose place was read
// from the same words as place's and is shown at the same place, and
// whether the geocoder was about as sure of it (within lessSure).
func (a *Archive) eachOfReading(ctx context.Context, place photo.Place, fn func(q photo.Photo, sure bool)) error {
	var f photo.Filter
	if place.Located {
		f.PlaceIDs = []string{place.ID}
	} else {
		f.Unplaced = true
	}
	key := MentionKey(place.Mention)
	f.Unreviewed, f.MentionKey = true, &key
	same, err := a.db.Photos(ctx, f)
	if err != nil {
		return err
	}
	for _, q := range same {
		fn(q, q.Place.Confidence >= place.Confidence-lessSure)
	}
	return nil
}

// readElsewhere counts the unchecked photos whose caption's words (folded
// alike) were read as another place than place, and names the place most
// of them were read as.
func (a *Archive) readElsewhere(ctx context.Context, place photo.Place) (n int, mostID string, err error) {
	parts, err := a.db.ReviewSplit(ctx, photo.Filter{}, place.Mention)
	if err != nil {
		return 0, "", err
	}
	most := 0
	for _, part := range parts {
		if part.PlaceID == place.ID && part.Located == place.Located {
			continue
		}
		n += part.Photos
		if part.Photos > most {
			most, mostID = part.Photos, part.PlaceID
		}
	}
	return n, mostID, nil
}
