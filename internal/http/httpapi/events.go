package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/photo"
)

// eventJSON is one event a photo may document or documents, as
// /api/photos/{id}/events answers it.
type eventJSON struct {
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
}

// maxEventCandidates bounds a photo's list of candidates.
const maxEventCandidates = 20

// photoEventsJSON is /api/photos/{id}/events' answer: {"candidates": […],
// "links": […]}.
type photoEventsJSON struct {
	Candidates []eventJSON `json:"candidates"`
	Links      []eventJSON `json:"links"`
}

// photoEvents answers the events photo {id} documents (links an editor
// confirmed) and may document (candidates, best first: conflict.Rank).
// The route is editorial: an editor's answer holds ACLED's events and
// every decision, a reader's only UCDP GED's confirmed links and
// candidates.
func (s *Server) photoEvents(w http.ResponseWriter, r *http.Request) {
	pe, err := s.archive.EventsOf(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.WriteJSON(w, r, "application/json", s.photoEventsOf(pe))
}

func (s *Server) photoEventsOf(pe archive.PhotoEvents) photoEventsJSON {
	out := photoEventsJSON{Candidates: []eventJSON{}, Links: []eventJSON{}}
	for _, l := range pe.Links {
		out.Links = append(out.Links, s.eventJSONOf(l))
	}
	for i, c := range pe.Candidates {
		if i == maxEventCandidates {
			break
		}
		out.Candidates = append(out.Candidates, s.eventJSONOf(c))
	}
	return out
}

func (s *Server) eventJSONOf(c archive.LinkedEvent) eventJSON {
	e := c.Event
	j := eventJSON{Dataset: e.Dataset, Version: e.Version, ID: e.ID, Score: c.Score, Likely: c.Likely, Why: c.Why,
		Decision: c.Link.Decision, Retired: c.Retired, URL: s.URL("event", "dataset", e.Dataset, "event", e.ID)}
	if c.Link.Decision != "" {
		j.By, j.At = c.Link.By, &c.Link.At
	}
	return j
}

// putEventLink records an editor's decision on whether photo {id}
// documents event {dataset}/{event}: PUT {"decision": "confirmed" |
// "rejected"}, DELETE to take it back; it answers the photo's events as
// GET does. An event not among the candidates may be linked by its id.
func (s *Server) putEventLink(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	v := mux.Vars(r)
	var b struct {
		Decision string `json:"decision"`
	}
	if r.Method == http.MethodPut {
		if err := decodeBody(r, &b); err != nil {
			s.Error(w, r, err)
			return
		}
		if b.Decision == "" {
			s.Error(w, r, photo.ParamErrorf("decision", "say %q or %q (DELETE takes a decision back)", photo.LinkConfirmed, photo.LinkRejected))
			return
		}
	}
	if _, err := s.archive.SetEventLink(r.Context(), v["id"], v["dataset"], v["event"], b.Decision, "editor "+ed.Name); err != nil {
		s.Error(w, r, err)
		return
	}
	s.tagPhoto(w, r, v["id"])
	s.photoEvents(w, r)
}

// postEventLink is putEventLink for the photo page's forms: dataset and
// event (or an event key "ucdp-ged:270123", or a bare GED id, as an
// editor types it), decision ("" takes it back), then back to the page.
func (s *Server) postEventLink(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	id := mux.Vars(r)["id"]
	if err := r.ParseForm(); err != nil {
		s.Error(w, r, photo.Errorf(photo.EInvalid, "reading the form: %v", err))
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
		s.Error(w, r, photo.ParamErrorf("event", "name the event by its id (a UCDP GED id such as 270123, or acled:SYR1234)"))
		return
	}
	if _, err := s.archive.SetEventLink(r.Context(), id, dataset, event, r.PostFormValue("decision"), "editor "+ed.Name); err != nil {
		s.Error(w, r, err)
		return
	}
	next := session.SafeNext(r.PostFormValue("next"))
	if next == "" {
		next = s.URL("photo", "id", id)
	}
	http.Redirect(w, r, next+"#events", http.StatusSeeOther)
}
