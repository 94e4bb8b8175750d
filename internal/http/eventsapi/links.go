package eventsapi

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// EventJSON is one event a photo may document or documents, as
// /api/photos/{id}/events answers it.
type EventJSON struct {
	Dataset string  `json:"dataset"`
	Version string  `json:"version"`
	ID      string  `json:"id"`
	Score   float64 `json:"score"`
	Likely  bool    `json:"likely"`
	Why     string  `json:"why"`
	// Decision is an editor's: confirmed (among links), rejected, or
	// absent; By and At who decided and when.
	Decision string     `json:"decision,omitempty"`
	By       string     `json:"by,omitempty"`
	At       *time.Time `json:"at,omitempty"`
	// Retired names the dataset's version that dropped the event.
	Retired string `json:"retired,omitempty"`
	URL     string `json:"url,omitempty"`
	// Group are the ids of the dataset's rows of the candidate's
	// incident, its own first (conflict.Candidate.Group): a decision
	// sent with them decides them all.
	Group []string `json:"group,omitempty"`
}

// maxEventCandidates bounds a photo's list of candidates.
const maxEventCandidates = 20

// PhotoEventsJSON is /api/photos/{id}/events' answer: {"candidates": […],
// "links": […]}.
type PhotoEventsJSON struct {
	Candidates []EventJSON `json:"candidates"`
	Links      []EventJSON `json:"links"`
}

// photoEvents answers the events photo {id} documents (links an editor
// confirmed) and may document (candidates, best first: conflict.Rank).
// The route is editorial: an editor's answer holds ACLED's events and
// every decision, a reader's only UCDP GED's confirmed links and
// candidates.
func (a *API) photoEvents(w http.ResponseWriter, r *http.Request) {
	pe, err := a.DB.EventsOf(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		a.Error(w, r, err)
		return
	}
	a.Kit.WriteJSON(w, r, "application/json", a.photoEventsOf(pe))
}

func (a *API) photoEventsOf(pe archive.PhotoEvents) PhotoEventsJSON {
	out := PhotoEventsJSON{Candidates: []EventJSON{}, Links: []EventJSON{}}
	for _, l := range pe.Links {
		out.Links = append(out.Links, a.eventJSONOf(l))
	}
	for i, c := range pe.Candidates {
		if i == maxEventCandidates {
			break
		}
		out.Candidates = append(out.Candidates, a.eventJSONOf(c))
	}
	return out
}

func (a *API) eventJSONOf(c archive.LinkedEvent) EventJSON {
	e := c.Event
	j := EventJSON{Dataset: e.Dataset, Version: e.Version, ID: e.ID, Score: c.Score, Likely: c.Likely, Why: c.Why,
		Decision: c.Link.Decision, Retired: c.Retired, URL: a.Kit.URL("event", "dataset", e.Dataset, "event", e.ID), Group: c.Group}
	if c.Link.Decision != "" {
		j.By, j.At = c.Link.By, &c.Link.At
	}
	return j
}

// putEventLink records an editor's decision on whether photo {id}
// documents event {dataset}/{event}: PUT {"decision": "confirmed" |
// "rejected"}, DELETE to take it back; it answers the photo's events as
// GET does. An event not among the candidates may be linked by its id.
// A candidate's incident of several rows is decided whole with "group":
// [its ids] (EventJSON.Group), in one transaction.
func (a *API) putEventLink(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	v := mux.Vars(r)
	var b struct {
		Decision string   `json:"decision"`
		Group    []string `json:"group"`
	}
	if r.Method == http.MethodPut {
		if err := web.DecodeWrite(r, &b); err != nil {
			a.Error(w, r, err)
			return
		}
		if b.Decision == "" {
			a.Error(w, r, photo.ParamErrorf("decision", "say %q or %q (DELETE takes a decision back)", photo.LinkConfirmed, photo.LinkRejected))
			return
		}
	}
	if _, err := a.DB.SetEventLinks(r.Context(), v["id"], v["dataset"], incidentRows(v["event"], b.Group), b.Decision, "editor "+ed.Name); err != nil {
		a.Error(w, r, err)
		return
	}
	a.TagPhoto(w, r, v["id"])
	a.photoEvents(w, r)
}

// postEventLink is putEventLink for the photo page's forms: dataset and
// event (or an event key "ucdp-ged:270123", or a bare GED id, as an
// editor types it), decision ("" takes it back), and the other rows of
// its incident (group, one field each), then back to the page.
func (a *API) postEventLink(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	id := mux.Vars(r)["id"]
	if err := r.ParseForm(); err != nil {
		a.Error(w, r, photo.Errorf(photo.EInvalid, "reading the form: %v", err))
		return
	}
	dataset, event := r.PostFormValue("dataset"), strings.TrimSpace(r.PostFormValue("event"))
	if d, e, ok := photo.SplitEventKey(event); ok {
		dataset, event = d, e
	}
	if dataset == "" {
		dataset = conflict.GED
	}
	if event == "" {
		a.Error(w, r, photo.ParamErrorf("event", "name the event by its id (a UCDP GED id such as 270123, or acled:SYR1234)"))
		return
	}
	if _, err := a.DB.SetEventLinks(r.Context(), id, dataset, incidentRows(event, r.PostForm["group"]), r.PostFormValue("decision"), "editor "+ed.Name); err != nil {
		a.Error(w, r, err)
		return
	}
	next := session.SafeNext(r.PostFormValue("next"))
	if next == "" {
		next = a.Kit.URL("photo", "id", id)
	}
	http.Redirect(w, r, next+"#events", http.StatusSeeOther)
}

// incidentRows are event and the other rows of its incident an editor
// decides with it, once each, event first.
func incidentRows(event string, group []string) []string {
	out := []string{event}
	for _, g := range group {
		if g = strings.TrimSpace(g); g != "" && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}
