package review

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// No lost edits: every write of a photo, a story or an added place
// carries the version its editor saw — as HTTP says, the ETag they read,
// sent back as If-Match; a page's form sends it as its "version" field —
// and the store refuses it (412, with what the thing is now) when it is
// no longer the current one. A write without either keeps working, for
// scripts.

// maxStaleChanges bounds the changes the stale page lists.
const maxStaleChanges = 3

// StalePage answers a form's stale write of photo st.ID (412).
func (s *API) StalePage(w http.ResponseWriter, r *http.Request, st photo.Stale) {
	l := i18n.From(r.Context())
	m := views.Stale{Page: s.Kit.Page(r, l.T("stale.title"), "review"), Action: r.URL.Path, Version: strconv.FormatInt(st.Version, 10),
		CSRF: s.Guard.CSRFOf(r), RedoURL: s.Kit.URL("review.photo", "id", st.ID), Message: l.T("stale.message-unknown")}
	if st.By != "" {
		at := st.At
		if t, err := time.Parse(time.RFC3339Nano, st.At); err == nil {
			at = pagemodel.DateTime(l, t)
		}
		m.Message = l.T("stale.message", "by", st.By, "action", l.Named("history.action.", st.Action), "at", at)
	}
	if rows, err := s.EventRows(r, st.ID); err == nil {
		m.Changes = rows[max(0, len(rows)-maxStaleChanges):]
	}
	form := keptForm(r.PostForm)
	for _, name := range slices.Sorted(maps.Keys(form)) {
		if name == "csrf" || name == "version" {
			continue
		}
		for _, v := range form[name] {
			m.Fields = append(m.Fields, views.Field{Name: name, Value: v})
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	s.Kit.Render(w, r, http.StatusPreconditionFailed, views.StalePage(m))
}

// keptForm is a stale form as "keep my change" sends it again. A
// confirmation confirms the place as it stands, which is no longer what
// its editor saw: it is sent as a placement at what they saw (the review
// form's shown_* fields), so that keeping theirs keeps what they meant.
func keptForm(form url.Values) url.Values {
	out := maps.Clone(form)
	if form.Get("action") != "confirm" {
		return out
	}
	switch {
	case form.Get("shown_place_id") != "":
		out.Set("action", "place")
		out.Set("place_id", form.Get("shown_place_id"))
	case form.Get("shown_lon") != "":
		out.Set("action", "point")
		out.Set("lon", form.Get("shown_lon"))
		out.Set("lat", form.Get("shown_lat"))
	}
	return out
}
