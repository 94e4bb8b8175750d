package httpapi

import (
	"net/http"

	"github.com/gorilla/mux"
)

// eventCandidateJSON is one event a photo may document, as
// /api/photos/{id}/events answers it.
type eventCandidateJSON struct {
	Dataset string  `json:"dataset"`
	Version string  `json:"version"`
	ID      string  `json:"id"`
	Score   float64 `json:"score"`
	Likely  bool    `json:"likely"`
	Why     string  `json:"why"`
}

// maxEventCandidates bounds a photo's list of candidates.
const maxEventCandidates = 20

// photoEvents answers the events photo {id} may document, best first
// (conflict.Rank): {"candidates": […], "links": […]}. The route is
// editorial: an editor's answer holds ACLED's events too, a reader's only
// UCDP GED's.
func (s *Server) photoEvents(w http.ResponseWriter, r *http.Request) {
	cands, err := s.archive.EventCandidates(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := struct {
		Candidates []eventCandidateJSON `json:"candidates"`
		Links      []eventCandidateJSON `json:"links"` // confirmed by an editor: not yet kept (issue 56, 3)
	}{Candidates: []eventCandidateJSON{}, Links: []eventCandidateJSON{}}
	for i, c := range cands {
		if i == maxEventCandidates {
			break
		}
		out.Candidates = append(out.Candidates, eventCandidateJSON{Dataset: c.Event.Dataset, Version: c.Event.Version, ID: c.Event.ID,
			Score: c.Score, Likely: c.Likely, Why: c.Why})
	}
	s.WriteJSON(w, r, "application/json", out)
}
