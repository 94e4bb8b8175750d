package httpapi

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// custodyRows are a photo's custody records for its page: when, what,
// by whom (a command by its name: the system user it ran as stays in
// the archive and its exports), the file's SHA-256 where the record
// names one, and the record's own hash, which chains it to the one
// before (syriamap verify walks the chain).
func (s *Server) custodyRows(r *http.Request, id string) ([]views.CustodyRow, error) {
	recs, err := s.archive.CustodyFor(r.Context(), id)
	if err != nil {
		return nil, err
	}
	l := i18n.From(r.Context())
	var out []views.CustodyRow
	for _, c := range recs {
		at, _ := time.Parse(time.RFC3339Nano, c.At)
		at = at.UTC()
		var d struct {
			Source string `json:"source"`
			File   struct {
				SHA256 string `json:"sha256"`
			} `json:"file"`
			Note   string `json:"note"`
			After  string `json:"after"`  // of a harm mark, or an event's link
			Reason string `json:"reason"` // why it was marked
			eventLinkDetail
		}
		json.Unmarshal(c.Detail, &d)
		action := c.Action
		if action == "harm" {
			action += "-" + views.HarmKey(d.After)
		}
		if i18n.Has("custody.action." + action) {
			action = l.T("custody.action." + action)
		}
		if d.Note == "" {
			d.Note = d.Reason
		}
		if c.Action == "event-link" {
			d.Note = d.eventLinkDetail.say(l, d.After)
		}
		row := views.CustodyRow{At: l.T("history.at", "date", l.Date(at.Year(), at.Month(), at.Day()), "time", l.Number(at.Format("15:04"))),
			By: pagemodel.ByWhom(l, actorName(c.Actor)), Action: action, Hash: c.Hash[:16], Note: d.Note}
		if d.File.SHA256 != "" {
			row.FileSHA256 = d.File.SHA256
		}
		if d.Source != "" {
			row.Source = filepath.Base(d.Source)
		}
		out = append(out, row)
	}
	return out, nil
}

// eventLinkDetail is what an event link's custody record holds beside
// the decision after it (store.DB.SetEventLink).
type eventLinkDetail struct {
	Dataset string `json:"dataset"`
	Version string `json:"version"`
	Event   string `json:"event"`
	Before  string `json:"before"`
}

// say is the record in words: the dataset, the event and the decision
// ("Linked as documenting GED event 243931 (version 25.1)"; unlinked,
// rejected, or a rejection taken back).
func (d eventLinkDetail) say(l i18n.Locale, after string) string {
	what := after
	if after == "" {
		what = map[bool]string{true: "unrejected", false: "unlinked"}[d.Before == photo.LinkRejected]
	}
	event := l.T("events.named-version", "dataset", cmp.Or(conflict.DatasetName(d.Dataset), d.Dataset), "id", d.Event, "version", d.Version)
	return l.T("custody.event-link."+what, "event", event)
}

// actorName is pagemodel.ActorName, as this package's pages spell it.
var actorName = pagemodel.ActorName

// reuseLine says where else a photo's frame is in the archive: "This frame
// is also in the archive as Aleppo, 12 May 2013 (AP); this caption says
// Idlib, 3 March 2016." — nil when it is not, or the other is gone.
func (s *Server) reuseLine(ctx context.Context, l i18n.Locale, p *photo.Photo) *views.ReuseLine {
	if p.Reuse == "" || p.ReuseOf == "" {
		return nil
	}
	of, err := s.db.Photo(ctx, p.ReuseOf)
	if err != nil {
		return nil
	}
	g := s.archive.Gazetteer()
	say := func(q *photo.Photo) (place, date, credit string) {
		place = pagemodel.PlaceName(l, g, q.Place)
		if place == "" {
			place = l.T("common.unknown")
		}
		date = pagemodel.Date(l, q.Date)
		if date == "" {
			date = l.T("common.undated")
		}
		return place, date, strings.Trim(q.Photographer+"/"+q.Agency, "/")
	}
	place, date, credit := say(of)
	text := l.T("reuse.also", "place", place, "date", date, "credit", credit)
	if p.Reuse == photo.ReuseConflict {
		here, hereDate, _ := say(p)
		text = l.T("reuse.conflict", "place", place, "date", date, "credit", credit, "here", here, "heredate", hereDate)
		// Dated before the event its caption names.
		if n := archive.OlderBy(of.Date, p.Date); n > 0 {
			text += " " + l.T("reuse.older", "n", n)
		}
	}
	return &views.ReuseLine{Conflict: p.Reuse == photo.ReuseConflict, Text: text, URL: s.URL("photo", "id", of.ID)}
}
