package httpapi

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// No lost edits: every write of a photo, a story or an added place
// carries the version its editor saw — as HTTP says, the ETag they read,
// sent back as If-Match; a page's form sends it as its "version" field —
// and the store refuses it (412, with what the thing is now) when it is
// no longer the current one. A write without either keeps working, for
// scripts. Writes are wrapped in session.Expecting.

// tagPhoto sets a write's answer's ETag to photo id's version now, for
// the next write to send back.
func (s *Server) tagPhoto(w http.ResponseWriter, r *http.Request, id string) {
	if p, err := s.db.Photo(r.Context(), id); err == nil {
		w.Header().Set("ETag", photo.ETag(photo.VersionPhoto, p.Rev))
	}
}

// versionStore reads the versions a write's answer names.
type versionStore interface {
	PlaceVersion(ctx context.Context, id string) (int64, error)
}

// tagPlace sets a write's answer's ETag to the added place id's version.
func (s *Server) tagPlace(w http.ResponseWriter, r *http.Request, id string) {
	if v, err := s.db.PlaceVersion(r.Context(), id); err == nil {
		w.Header().Set("ETag", photo.ETag(photo.VersionPlace, v))
	}
}

// Error is the Kit's, but for a page's form whose write met a newer
// version: its answer is a page that shows what changed since, and offers
// to keep the editor's change or redo it.
func (s *Server) Error(w http.ResponseWriter, r *http.Request, err error) {
	var pe *photo.Error
	if errors.As(err, &pe) && pe.Code == photo.EStale && web.IsForm(r) {
		if st, ok := pe.Current.(photo.Stale); ok && st.Kind == photo.VersionPhoto {
			s.stalePage(w, r, st)
			return
		}
	}
	s.Kit.Error(w, r, err)
}

// maxStaleChanges bounds the changes the stale page lists.
const maxStaleChanges = 3

// stalePage answers a form's stale write of photo st.ID (412).
func (s *Server) stalePage(w http.ResponseWriter, r *http.Request, st photo.Stale) {
	l := i18n.From(r.Context())
	m := views.Stale{Page: s.Page(r, l.T("stale.title"), "review"), Action: r.URL.Path, Version: strconv.FormatInt(st.Version, 10),
		CSRF: s.csrfOf(r), RedoURL: s.URL("review.photo", "id", st.ID), Message: l.T("stale.message-unknown")}
	if st.By != "" {
		at := st.At
		if t, err := time.Parse(time.RFC3339Nano, st.At); err == nil {
			at = pagemodel.DateTime(l, t)
		}
		m.Message = l.T("stale.message", "by", st.By, "action", l.Named("history.action.", st.Action), "at", at)
	}
	if rows, err := s.eventRows(r, st.ID); err == nil {
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
	s.Render(w, r, http.StatusPreconditionFailed, views.StalePage(m))
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
