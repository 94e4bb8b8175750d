package httpapi

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/pagemodel"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// reviewLog lists the latest changes.
func (s *Server) reviewLog(w http.ResponseWriter, r *http.Request) {
	events, err := s.db.RecentEvents(r.Context(), 200)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	m := views.ReviewLog{Page: s.Page(r, i18n.T(r.Context(), "review.log-title"), "review")}
	for _, e := range events {
		m.Events = append(m.Events, s.eventRow(i18n.From(r.Context()), e))
	}
	s.Render(w, r, http.StatusOK, views.ReviewLogPage(m))
}

// eventRows is a photo's history for its pages.
func (s *Server) eventRows(r *http.Request, id string) ([]views.EventRow, error) {
	events, err := s.db.History(r.Context(), id)
	if err != nil {
		return nil, err
	}
	var out []views.EventRow
	for _, e := range events {
		out = append(out, s.eventRow(i18n.From(r.Context()), e))
	}
	return out, nil
}

func (s *Server) eventRow(l i18n.Locale, e photo.Event) views.EventRow {
	at := e.At.UTC()
	action := e.Action
	if i18n.Has("history.action." + action) {
		action = l.T("history.action." + action)
	}
	row := views.EventRow{At: l.T("history.at", "date", l.Date(at.Year(), at.Month(), at.Day()), "time", l.Number(at.Format("15:04"))),
		By: e.By, Action: action, Note: e.Note}
	// The store's own note of an undo, in the reader's language.
	var batch int64
	if _, err := fmt.Sscanf(e.Note, "undoes change %d", &batch); err == nil && e.Action == "undo" && e.Note == fmt.Sprintf("undoes change %d", batch) {
		row.Note = l.T("history.undoes", "n", l.Number(strconv.FormatInt(batch, 10)))
	}
	if e.PhotoID != "" {
		row.PhotoID, row.PhotoURL = e.PhotoID, s.URL("photo", "id", e.PhotoID)
		row.Before, row.After = s.describeState(l, e.Before), s.describeState(l, e.After)
	}
	if e.Action == "add-place" { // of no photo: the place added, and where
		id, _ := e.After["id"].(string)
		name, _ := e.After["name"].(string)
		lon, _ := e.After["lon"].(float64)
		lat, _ := e.After["lat"].(float64)
		row.PhotoID, row.PhotoURL = id, s.URL("place", "id", id)
		row.After = l.T("history.at-point", "place", name, "lat", l.Decimal(lat, 5), "lon", l.Decimal(lon, 5))
	}
	return row
}

// describeState writes an event's before or after for people, the place
// by its name in the reader's language, at longitude, latitude as every
// page writes a point.
func (s *Server) describeState(l i18n.Locale, m map[string]any) string {
	if _, ok := m["place_id"]; ok {
		id, _ := m["place_id"].(string)
		name, _ := m["place_name"].(string)
		name = pagemodel.NameOf(l, s.archive.Gazetteer(), id, name)
		lon, lonOK := m["lon"].(float64)
		lat, _ := m["lat"].(float64)
		where := l.T("review.not-placed")
		if lonOK {
			where = l.T("history.at-point", "place", orPoint(l, name), "lat", l.Number(fmt.Sprintf("%.5f", lat)), "lon", l.Number(fmt.Sprintf("%.5f", lon)))
		}
		if review, _ := m["review"].(string); review != "" && review != string(photo.ReviewAutomatic) {
			where += l.T("common.list-sep") + l.T("history.review."+review)
		}
		return where
	}
	var parts []string
	for _, k := range []string{"date", "photographer", "agency"} {
		v, _ := m[k].(string)
		if v == "" {
			v = l.T("history.none")
		}
		parts = append(parts, l.T("history.field."+k, "value", v))
	}
	return strings.Join(parts, l.T("common.list-sep"))
}

// historyJSON answers a photo's events, oldest first.
func (s *Server) historyJSON(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	if _, err := s.photoFor(w, r, id); err != nil {
		s.Error(w, r, err)
		return
	}
	events, err := s.db.History(r.Context(), id)
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
	s.WriteJSON(w, r, "application/json", out)
}
