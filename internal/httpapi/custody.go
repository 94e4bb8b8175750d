package httpapi

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/views"
)

// custodyRows are a photo's custody records for its page: when, what,
// by whom (a command by its name: the system user it ran as stays in
// the archive and its exports), the file's SHA-256 where the record
// names one, and the record's own hash, which chains it to the one
// before (syriamap verify walks the chain).
func (s *Server) custodyRows(r *http.Request, id string) ([]views.CustodyRow, error) {
	recs, err := s.archive.DB.CustodyOf(r.Context(), id)
	if err != nil {
		return nil, err
	}
	l := i18n.From(r.Context())
	var out []views.CustodyRow
	for _, c := range recs {
		at, _ := time.Parse(time.RFC3339Nano, c.At)
		at = at.UTC()
		by, _, _ := strings.Cut(c.Actor, ", system user ")
		action := c.Action
		if i18n.Has("custody.action." + action) {
			action = l.T("custody.action." + action)
		}
		var d struct {
			Source string `json:"source"`
			File   struct {
				SHA256 string `json:"sha256"`
			} `json:"file"`
			Note string `json:"note"`
		}
		json.Unmarshal(c.Detail, &d)
		row := views.CustodyRow{At: l.T("history.at", "date", l.Date(at.Year(), at.Month(), at.Day()), "time", l.Number(at.Format("15:04"))),
			By: by, Action: action, Hash: c.Hash[:16], Note: d.Note}
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
