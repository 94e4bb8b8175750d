package review

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
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
		m.Message = l.T("stale.message", "by", pagemodel.ByWhom(l, st.By), "did", pagemodel.ChangeDone(l, st.Action, st.Step), "at", at)
	}
	if change := s.refusedChange(l, r.PostForm, r.URL.Path); change != "" {
		m.Message += " " + l.T("stale.refused", "change", change)
	} else {
		m.Message += " " + l.T("stale.not-saved")
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

// refusedChange is the change a stale form asked for, in words ("placing
// it at Zamalka", "fixing its date and credit"); "" for a form it cannot
// tell. The review form says it in its action; the other forms that
// carry a version by their address (path): a harm mark, an event's
// link, a second look's request.
func (s *API) refusedChange(l i18n.Locale, form url.Values, path string) string {
	placeName := func(id string) string {
		if pl, err := s.Store.PlaceOf(id, nil); err == nil {
			return pagemodel.NameOf(l, s.Store.Gazetteer(), pl.ID, pl.Name)
		}
		return id
	}
	point := func(lon, lat string) string {
		x, errX := strconv.ParseFloat(lon, 64)
		y, errY := strconv.ParseFloat(lat, 64)
		if errX != nil || errY != nil {
			return ""
		}
		return l.T("history.at-point", "place", l.T("review.a-point"), "lon", l.Decimal(x, 5), "lat", l.Decimal(y, 5))
	}
	action := form.Get("action")
	if c := form.Get("choice"); c != "" {
		action = "place"
		form = url.Values{"place_id": {c}}
	}
	switch action {
	case "confirm":
		where := point(form.Get("shown_lon"), form.Get("shown_lat"))
		if id := form.Get("shown_place_id"); id != "" {
			where = placeName(id)
		}
		if where != "" {
			return l.T("stale.refused.confirm", "place", where)
		}
	case "place":
		return l.T("stale.refused.place", "place", placeName(web.TypedPlaceID(form.Get("place_id"))))
	case "point":
		if where := point(form.Get("lon"), form.Get("lat")); where != "" {
			return l.T("stale.refused.place", "place", where)
		}
	case "add-place":
		return l.T("stale.refused.add-place", "name", form.Get("new_name"))
	case "fix":
		return l.T("stale.refused.fix")
	}
	switch {
	case form.Has("harm"):
		return l.T("stale.refused.harm")
	case form.Get("event") != "":
		return l.T("stale.refused.event", "event", strings.TrimSpace(form.Get("dataset")+" "+form.Get("event")))
	case strings.HasSuffix(path, "/second-look"):
		return l.T("stale.refused.look")
	}
	return ""
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
