package review

import (
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/views"
)

// reviewLog lists the latest changes.
func (s *API) reviewLog(w http.ResponseWriter, r *http.Request) {
	events, err := s.Store.RecentEvents(r.Context(), 200)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	m := views.ReviewLog{Page: s.Kit.Page(r, i18n.T(r.Context(), "review.log-title"), "review")}
	for _, e := range events {
		m.Events = append(m.Events, pagemodel.EventRow(i18n.From(r.Context()), s.Store.Gazetteer(), e, s.PageURLs()))
	}
	s.Kit.Render(w, r, http.StatusOK, views.ReviewLogPage(m))
}

// EventRows is a photo's history for its pages.
func (s *API) EventRows(r *http.Request, id string) ([]views.EventRow, error) {
	events, err := s.Store.History(r.Context(), id)
	if err != nil {
		return nil, err
	}
	var out []views.EventRow
	for _, e := range events {
		out = append(out, pagemodel.EventRow(i18n.From(r.Context()), s.Store.Gazetteer(), e, s.PageURLs()))
	}
	return out, nil
}

// historyJSON answers a photo's events, oldest first.
func (s *API) historyJSON(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	if _, err := web.ReadPhoto(w, r, s.Store, id); err != nil {
		s.Error(w, r, err)
		return
	}
	events, err := s.Store.History(r.Context(), id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	type event struct {
		At     string         `json:"at"`
		By     string         `json:"by"`
		Action string         `json:"action"`
		Before map[string]any `json:"before"`
		After  map[string]any `json:"after"`
		Note   string         `json:"note"`
	}
	out := []event{}
	for _, e := range events {
		out = append(out, event{e.At.UTC().Format(time.RFC3339), e.By, e.Action, e.Before, e.After, e.Note})
	}
	s.Kit.WriteJSON(w, r, "application/json", out)
}
