package archive

import (
	"cmp"
	"context"
	"slices"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/photo"
)

// PhotoEvents is what the archive says of the events a photo documents:
// the editors' confirmed links, and the linker's candidates, best first,
// with an editor's decision on each (a rejected candidate is never
// likely; a confirmed one is among Links, not here).
type PhotoEvents struct {
	Links      []LinkedEvent
	Candidates []LinkedEvent
}

// LinkedEvent is an event with how it meets the photo and what an editor
// decided of it.
type LinkedEvent struct {
	conflict.Candidate
	// Link is the editor's decision; its Decision is "" for none.
	Link photo.EventLink
	// Retired names the dataset's version that dropped the event.
	Retired string
}

// EventsOf gathers photo id's links and candidates as ctx's viewer may
// see them: a reader the confirmed links to UCDP GED events and GED's
// candidates; an editor ACLED's too, and every decision.
func (a *Archive) EventsOf(ctx context.Context, id string) (PhotoEvents, error) {
	out := PhotoEvents{Links: []LinkedEvent{}, Candidates: []LinkedEvent{}}
	p, err := a.db.Photo(ctx, id)
	if err != nil {
		return out, err
	}
	cands, err := a.candidatesOf(ctx, p)
	if err != nil {
		return out, err
	}
	links, err := a.db.EventLinks(ctx, id)
	if err != nil {
		return out, err
	}
	decided := map[string]photo.EventLink{}
	for _, l := range links {
		decided[l.Key()] = l
	}
	// A reader sees no decision but the confirmed links; a candidate
	// editors ruled out is then no candidate (never "likely" to anyone).
	rejected, err := a.db.RejectedEvents(ctx, id)
	if err != nil {
		return out, err
	}
	// A confirmed row of an incident the linker grouped keeps its group,
	// so that an undo takes back the rows confirmed together.
	groupOf := map[string][]string{}
	for _, c := range cands {
		for _, id := range c.Group {
			groupOf[photo.EventKey(c.Event.Dataset, id)] = c.Group
		}
	}
	s := SightingOf(p)
	for _, l := range links {
		if l.Decision != photo.LinkConfirmed {
			continue
		}
		e, retired, err := a.db.Event(ctx, l.Dataset, l.EventID)
		if err != nil {
			return out, err
		}
		c, ok := conflict.Match(s, e)
		if !ok {
			// Linked by an editor who knew more than the rule: it says
			// what the event was, not how it meets the photo.
			c = conflict.Candidate{Event: e, Why: conflict.Describe(e)}
		}
		c.Likely, c.Group = false, groupOf[l.Key()]
		out.Links = append(out.Links, LinkedEvent{Candidate: c, Link: l, Retired: retired})
	}
	for _, c := range cands {
		l := decided[photo.EventKey(c.Event.Dataset, c.Event.ID)]
		if l.Decision == photo.LinkConfirmed {
			continue
		}
		if l.Decision == "" && rejected[photo.EventKey(c.Event.Dataset, c.Event.ID)] {
			continue // ruled out by an editor, whose decision this viewer does not see
		}
		if l.Decision == photo.LinkRejected {
			c.Likely = false
		}
		out.Candidates = append(out.Candidates, LinkedEvent{Candidate: c, Link: l})
	}
	return out, nil
}

// SetEventLink records editor actor's decision on whether photo id
// documents event dataset/eventID (store.DB.SetEventLink).
func (a *Archive) SetEventLink(ctx context.Context, id, dataset, eventID, decision, actor string) (bool, error) {
	return a.db.SetEventLink(ctx, id, dataset, eventID, decision, actor)
}

// SetEventLinks records editor actor's decision on the rows dataset
// holds of one incident (a candidate's Group), together: all or none
// (store.DB.SetEventLinks).
func (a *Archive) SetEventLinks(ctx context.Context, id, dataset string, eventIDs []string, decision, actor string) (bool, error) {
	return a.db.SetEventLinks(ctx, id, dataset, eventIDs, decision, actor)
}

// EventWithPhotos is an event with the photos an editor linked to it and
// those near it in place and time that nobody linked, best first.
type EventWithPhotos struct {
	Event   conflict.Event
	Retired string
	Linked  []photo.Photo
	Nearby  []photo.Photo
}

// maxNearbyPhotos bounds an event's list of photos nobody linked.
const maxNearbyPhotos = 12

// EventPhotos reads event dataset/id with its photos, as ctx's viewer may
// see them: a reader is told of no ACLED event (ENotFound). The photos
// nearby are those the linking rule would offer for it (conflict.Match),
// not linked, best first.
func (a *Archive) EventPhotos(ctx context.Context, dataset, id string) (EventWithPhotos, error) {
	var out EventWithPhotos
	if !photo.ViewerOf(ctx).SeesDataset(dataset) {
		return out, photo.Errorf(photo.ENotFound, "no such event: only UCDP GED's are shown to readers (ACLED's terms keep its events to editors)")
	}
	e, retired, err := a.db.Event(ctx, dataset, id)
	if err != nil {
		return out, err
	}
	out.Event, out.Retired = e, retired
	links, err := a.db.LinksToEvent(ctx, dataset, id)
	if err != nil {
		return out, err
	}
	linked := map[string]bool{}
	var ids []string
	for _, l := range links {
		linked[l.PhotoID], ids = true, append(ids, l.PhotoID)
	}
	if len(ids) > 0 {
		if out.Linked, err = a.db.Photos(ctx, photo.Filter{IDs: ids}); err != nil {
			return out, err
		}
	}
	// The photos of the event's days and the aftermath, near it (and
	// those dated by a page a day or two later still): the rule then
	// says which it would offer.
	last := conflict.AddDays(e.DateEnd, conflict.AftermathDays+photo.DateLagDays(photo.DateImport))
	f := photo.Filter{From: photo.DateFromSpan(e.DateStart, e.DateStart, "day"), Limit: 2000,
		To: photo.DateFromSpan(last, last, "day")}
	if b, ok := conflict.Reach(e); ok {
		f.BBox = &b
	}
	near, err := a.db.Photos(ctx, f)
	if err != nil {
		return out, err
	}
	type scored struct {
		p     photo.Photo
		score float64
	}
	var hits []scored
	for _, p := range near {
		if linked[p.ID] {
			continue
		}
		if c, ok := conflict.Match(SightingOf(&p), e); ok {
			hits = append(hits, scored{p, c.Score})
		}
	}
	slices.SortStableFunc(hits, func(x, y scored) int { return cmp.Compare(y.score, x.score) })
	for i, h := range hits {
		if i == maxNearbyPhotos {
			break
		}
		out.Nearby = append(out.Nearby, h.p)
	}
	return out, nil
}

// Events lists the events q selects as ctx's viewer may see them (see
// store.DB.Events: UCDP GED's alone).
func (a *Archive) Events(ctx context.Context, q conflict.EventQuery) ([]conflict.EventRow, int, error) {
	return a.db.Events(ctx, q)
}

// EventsCitation is how the archive's UCDP GED events are cited: their
// dataset's citation at the latest version held; "" when it holds none.
func (a *Archive) EventsCitation(ctx context.Context) (string, error) {
	held, err := a.db.EventDatasets(ctx)
	citation := ""
	for _, h := range held {
		if h.Dataset == conflict.GED {
			citation = geodata.CiteGED(h.Version)
		}
	}
	return citation, err
}
