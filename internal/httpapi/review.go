package httpapi

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/gazetteer"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/pagemodel"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/session"
	"github.com/syriamap/syriamap/internal/web"
	"github.com/syriamap/syriamap/views"
)

// The review: pages where an editor checks the photos no person has yet,
// group by group, and the write API other tools use. Every change goes
// through store.Apply, which records it as an event.

// maxGroups bounds the groups the review page lists.
const maxGroups = 500

// reviewStore is what the review handlers ask of the archive's storage.
type reviewStore interface {
	Apply(ctx context.Context, ids []string, c photo.Change) (int, error)
	ApplyBatch(ctx context.Context, ids []string, c photo.Change) (n int, batch int64, err error)
	Undo(ctx context.Context, batch int64, author, note string) (int, error)
	History(ctx context.Context, id string) ([]photo.Event, error)
	RecentEvents(ctx context.Context, limit int) ([]photo.Event, error)
	ReviewGroups(ctx context.Context, f photo.Filter, limit int) ([]photo.ReviewGroup, error)
	ReviewIDs(ctx context.Context, f photo.Filter, mention string) ([]string, error)
	ReviewSplit(ctx context.Context, f photo.Filter, mention string) ([]photo.GroupPart, error)
}

// reviewQueue lists the groups of photos to check.
func (s *Server) reviewQueue(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := s.parseFilter(q)
	if err != nil {
		s.error(w, r, err)
		return
	}
	ctx := r.Context()
	facetsOf := s.pageFacets(ctx, f)
	groups, err := s.db.ReviewGroups(ctx, f, maxGroups)
	if err != nil {
		s.error(w, r, err)
		return
	}
	facets, err := facetsOf()
	if err != nil {
		s.error(w, r, err)
		return
	}
	l := i18n.From(ctx)
	m := views.ReviewQueue{Page: s.page(r, l.T("review.title"), "review"), LogURL: s.url("review.log"), WhyNot: s.whyNot(r), Flash: s.doneMessage(l, q.Get("done")),
		Undo: s.undoOf(r, q.Get("done"))}
	s.withScript(&m.Page) // the filters' lists to search
	m.Filters = s.filtersView(i18n.From(r.Context()), s.url("review"), q, f, facets)
	filters := filterQuery(q)
	for _, g := range groups {
		m.Unchecked += g.Photos
		m.Groups = append(m.Groups, views.ReviewGroup{Mention: g.Mention, AlsoWritten: slices.DeleteFunc(slices.Clone(g.Spellings), func(s string) bool { return s == g.Mention }), Photos: g.Photos, Unplaced: g.Unplaced,
			Fallback: g.Fallback, Low: g.Low, Disagrees: g.Disagrees, PlaceName: pagemodel.NameOf(l, s.archive.Gazetteer(), g.PlaceID, g.PlaceName), URL: s.reviewURL(g.Example, g.Mention, filters)})
	}
	if m.Marked, err = s.markedView(r, m.Page); err != nil {
		s.error(w, r, err)
		return
	}
	if len(m.Marked) > 0 {
		w.Header().Set("Cache-Control", "private, no-store") // withheld photos' captions
	}
	s.render(w, r, http.StatusOK, views.ReviewQueuePage(m))
}

// whyNot says why the visitor cannot correct photos, or "".
func (s *Server) whyNot(r *http.Request) string {
	l := i18n.From(r.Context())
	if err := s.guard.Writable(r.Context()); err != nil {
		if l.Lang != i18n.English {
			return l.T("review.read-only", "why", photo.ErrorMessage(err))
		}
		return photo.ErrorMessage(err) + "."
	}
	ed, err := s.guard.EditorOf(r)
	if err != nil || ed == nil {
		return l.T("review.sign-in-to-correct")
	}
	return ""
}

// reviewURL is the review page of a photo within its group, keeping the
// filters.
func (s *Server) reviewURL(id, group string, filters url.Values) string {
	q := url.Values{}
	for k, v := range filters {
		q[k] = v
	}
	q.Set("group", group)
	return s.url("review.photo", "id", id) + "?" + q.Encode()
}

// reviewPhoto shows one photo under review.
func (s *Server) reviewPhoto(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	ctx := r.Context()
	p, err := s.photoFor(w, r, id)
	if err != nil {
		s.error(w, r, err)
		return
	}
	q := r.URL.Query()
	f, err := s.parseFilter(q)
	if err != nil {
		s.error(w, r, err)
		return
	}
	group := q.Get("group")
	_, inGroup := q["group"]
	if !inGroup {
		group = p.Place.Mention
	}
	l := i18n.From(ctx)
	m := views.ReviewPhoto{Page: s.page(r, l.T("review.photo-title", "photo", s.titleOf(l, p)), "review"), ID: p.ID, PhotoURL: s.url("photo", "id", p.ID),
		Caption: captionParts(p.Caption, p.Place.Mention), Date: p.Date.String(), DateShown: pagemodel.Date(l, p.Date), DatePrecision: p.Date.Precision,
		Photographer: p.Photographer, Agency: p.Agency, Placement: pagemodel.Placement(l, p.Place), Mention: p.Place.Mention, Note: p.Place.Note,
		Action: s.url("review.photo", "id", p.ID), CSRF: s.csrfOf(r), WhyNot: s.whyNot(r), Group: group,
		QueueURL: s.url("review") + withOffset(filterQuery(q), 0), SearchURL: s.url("places.search"), BasemapURL: s.url("basemap"), LabelsURL: s.url("labels"), Tiles: s.tiles,
		Flash: s.doneMessage(l, q.Get("done")), Undo: s.undoOf(r, q.Get("done")), Draft: map[string]string{}}
	// The evidence the placement is judged by: the picture and what its
	// file says (the GPS point to whoever may see it).
	if p.ImageFile != "" {
		m.ImageURL = s.url("image.large", "sha", p.ImageFile)
		gps := s.showsGPS(r)
		m.File = s.imageFileView(r.Context(), l, p, gps)
		if gps && p.Check.HasGPS {
			m.GPSLon, m.GPSLat = strconv.FormatFloat(p.Check.GPSLon, 'f', 6, 64), strconv.FormatFloat(p.Check.GPSLat, 'f', 6, 64)
		}
		if p.Check.IPTCCity != "" {
			if pl := s.archive.PlaceOfIPTC(p.Check.IPTCCity, p.Check.IPTCCountry); pl.Located {
				m.IPTCLon, m.IPTCLat = strconv.FormatFloat(pl.Lon, 'f', 6, 64), strconv.FormatFloat(pl.Lat, 'f', 6, 64)
				m.IPTCLabel = l.T("review.iptc-pin", "place", p.Check.IPTCCity)
			}
		}
		if gps && !s.publicGPS {
			w.Header().Set("Cache-Control", "private, no-store")
		}
	} else if p.ImageURL != "" {
		m.ImageURL = p.ImageURL
	}
	for name, v := range q {
		if field, ok := strings.CutPrefix(name, "draft_"); ok && len(v) > 0 {
			m.Draft[field] = v[0]
		}
	}
	s.withMapAssets(&m.Page)
	for _, k := range []gazetteer.Kind{gazetteer.Camp, gazetteer.Neighbourhood, gazetteer.Village, gazetteer.Town, gazetteer.Landmark, gazetteer.Crossing, gazetteer.Region} {
		m.AddKinds = append(m.AddKinds, views.Option{Value: string(k), Label: l.Named("kind.", string(k))})
	}
	if p.Place.Located {
		m.Chosen = &views.ReviewChoice{PlaceID: p.Place.ID, Name: orPoint(l, pagemodel.NameOf(l, s.archive.Gazetteer(), p.Place.ID, p.Place.Name)), Kind: l.Named("kind.", p.Place.Kind),
			Lon: strconv.FormatFloat(p.Place.Lon, 'f', 6, 64), Lat: strconv.FormatFloat(p.Place.Lat, 'f', 6, 64)}
	}
	for _, a := range p.Place.Alternatives {
		c := views.ReviewChoice{N: len(m.Alternatives) + 1, PlaceID: a.ID, Name: a.Name, Score: l.Decimal(a.Score, 2)}
		if pl := s.archive.Gazetteer().ByID(a.ID); pl != nil {
			c.Name, c.Kind = pagemodel.GazetteerName(l, pl), l.Named("kind.", string(pl.Kind))
			if pl.Located {
				c.Lon, c.Lat = strconv.FormatFloat(pl.Point.Lon(), 'f', 6, 64), strconv.FormatFloat(pl.Point.Lat(), 'f', 6, 64)
			}
		}
		if len(m.Alternatives) < 3 {
			m.Alternatives = append(m.Alternatives, c)
		}
	}
	// Where this photo stands in its group, and where to go next.
	ids, err := s.db.ReviewIDs(ctx, f, group)
	if err != nil {
		s.error(w, r, err)
		return
	}
	filters := filterQuery(q)
	pos := indexOf(ids, p.ID)
	if pos >= 0 {
		m.Position, m.Of = pos+1, len(ids)
		if pos > 0 {
			m.PrevURL = s.reviewURL(ids[pos-1], group, filters)
		}
		if pos+1 < len(ids) {
			m.NextURL = s.reviewURL(ids[pos+1], group, filters)
		}
	} else if len(ids) > 0 {
		m.NextURL = s.reviewURL(ids[0], group, filters)
	}
	// How the group splits by the place assigned, so that "apply to all"
	// says which part it decides (the part this photo is in).
	if group != "" {
		parts, err := s.db.ReviewSplit(ctx, f, group)
		if err != nil {
			s.error(w, r, err)
			return
		}
		m.Split, m.Same, m.SameAt = groupParts(l, s.archive.Gazetteer(), parts, p.Place, func(id, name string) string { return pagemodel.NameOf(l, s.archive.Gazetteer(), id, name) })
	}
	m.Next = m.NextURL
	if m.Next == "" {
		m.Next = m.QueueURL
	}
	if m.History, err = s.eventRows(r, p.ID); err == nil {
		m.Graphic = p.Harm == photo.HarmGraphic
		m.Harm, err = s.harmView(r, m.Page, p)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, views.ReviewPhotoPage(m))
}

// groupParts are a group's parts as the review page lists them, with
// how many photos share this photo's reading (the ones "apply to all"
// decides) and where they are shown. A bare point is a part of its own.
func groupParts(l i18n.Locale, gz *gazetteer.Gazetteer, parts []photo.GroupPart, here photo.Place, name func(id, name string) string) (out []views.GroupPart, same int, at string) {
	same, at = 1, orPoint(l, name(here.ID, here.Name))
	for _, part := range parts {
		v := views.GroupPart{Name: name(part.PlaceID, part.PlaceName), Photos: part.Photos}
		switch {
		case !part.Located:
			v.Name = l.T("review.not-placed")
		case part.PlaceID == "":
			v.Name = l.T("review.own-points")
		default:
			v.PlaceID, v.Where = part.PlaceID, partWhere(l, gz, part.PlaceID)
		}
		if part.Located == here.Located && part.PlaceID == here.ID {
			v.Here, at = true, v.Name
			if here.ID != "" || !here.Located {
				same = part.Photos
			}
		}
		out = append(out, v)
	}
	return out, same, at
}

// partWhere tells a group's parts of one name apart ("Judaydah: village,
// Idlib" and "village, Hama"): the place's kind and its governorate, or
// its country abroad.
func partWhere(l i18n.Locale, gz *gazetteer.Gazetteer, id string) string {
	pl := gz.ByID(id)
	if pl == nil {
		return ""
	}
	kind := l.Named("kind.", string(pl.Kind))
	if gov := gz.GovernorateOf(pl); gov != nil && gov != pl {
		return l.T("review.part-where", "kind", kind, "area", pagemodel.GazetteerName(l, gov))
	}
	if pl.Country != "SY" && pl.Country != "" {
		return l.T("review.part-where", "kind", kind, "area", pagemodel.CountryName(l, pl.Country))
	}
	return kind
}

// csrfOf is the session's CSRF token for a page's forms, or "".
func (s *Server) csrfOf(r *http.Request) string {
	if ed, err := s.guard.EditorOf(r); err == nil && ed != nil {
		return ed.CSRF
	}
	return ""
}

func indexOf(ids []string, id string) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}

func orPoint(l i18n.Locale, name string) string {
	if name == "" {
		return l.T("review.a-point")
	}
	return name
}

// captionParts marks, in a caption, the text its place was read from.
func captionParts(caption, mention string) []views.CaptionPart {
	if mention == "" {
		return []views.CaptionPart{{Text: caption}}
	}
	i := strings.Index(caption, mention)
	if i < 0 {
		i = strings.Index(strings.ToLower(caption), strings.ToLower(mention))
	}
	if i < 0 {
		return []views.CaptionPart{{Text: caption}}
	}
	return []views.CaptionPart{{Text: caption[:i]}, {Text: caption[i : i+len(mention)], Mark: true}, {Text: caption[i+len(mention):]}}
}

// reviewSubmit takes a review form: confirm, a reading (choice), a
// gazetteer place, a point, or a date and credit; for all the photos of
// the group when asked. It then goes on to the next photo.
func (s *Server) reviewSubmit(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.error(w, r, photo.Errorf(photo.EInvalid, "the form could not be read: %v", err))
		return
	}
	id := mux.Vars(r)["id"]
	action := r.PostFormValue("action")
	placeID := typedPlaceID(r.PostFormValue("place_id"))
	if c := r.PostFormValue("choice"); c != "" {
		action, placeID = "place", c
	}
	ch := photo.Change{Author: ed.Name, Note: strings.TrimSpace(r.PostFormValue("note"))}
	var err error
	switch action {
	case "confirm":
		ch.Confirm = true
	case "place":
		var pl photo.Place
		if placeID == "" {
			err = &photo.Error{Code: photo.EInvalid, Message: "choose a place first", Parameter: "place_id"}
		} else if pl, err = s.archive.PlaceOf(placeID, nil); err == nil {
			ch.Place = &pl
		}
	case "point":
		var pt [2]float64
		if pt, err = formPoint(r.PostFormValue("lon"), r.PostFormValue("lat")); err == nil {
			var pl photo.Place
			if pl, err = s.archive.PlaceOf("", &pt); err == nil {
				ch.Place = &pl
			}
		}
	case "add-place":
		var pl photo.Place
		if pl, err = s.formAddedPlace(r, ed); err == nil {
			ch.Place = &pl
		}
	case "fix":
		ch, err = s.fixChange(ch, r.PostForm)
	default:
		err = &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("action %q: want confirm, place, point, add-place or fix", action), Parameter: "action"}
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	ids := []string{id}
	all := r.PostFormValue("all") == "1" && action != "fix"
	var decided photo.Place // the photo's placement before the decision
	if all {
		if ids, err = s.archive.SameReading(r.Context(), id); err == nil {
			var p *photo.Photo
			if p, err = s.db.Photo(r.Context(), id); err == nil {
				decided = p.Place
			}
		}
		if err != nil {
			s.error(w, r, err)
			return
		}
	}
	// The other parts of the group the editor ticked, each confirmed at
	// its own place ("Judaydah" read as the village in Idlib and the one
	// in Hama, both right).
	if parts := r.PostForm["parts"]; len(parts) > 0 && action == "confirm" {
		more, err := s.partsToConfirm(r, id, parts)
		if err != nil {
			s.error(w, r, err)
			return
		}
		ids = append(ids, more...)
	}
	n, batch, err := s.db.ApplyBatch(r.Context(), ids, ch)
	if err != nil {
		s.error(w, r, err)
		return
	}
	// What the decision left of the group, counted once it is made.
	var left archive.LeftForReview
	if all {
		if left, err = s.archive.LeftOf(r.Context(), decided); err != nil {
			s.error(w, r, err)
			return
		}
	}
	done := fmt.Sprintf("%d:%s", n, action)
	if len(ids) > 1 || left != (archive.LeftForReview{}) {
		done += fmt.Sprintf(":%d", batch) // the page it goes on to offers to undo it
	}
	if left != (archive.LeftForReview{}) {
		done += fmt.Sprintf(":%d:%d:%s", left.LessSure, left.Elsewhere, left.ElsewhereID) // and says what it left
	}
	next := session.SafeNext(r.PostFormValue("next"))
	if next == "" || action == "fix" {
		next = s.url("review.photo", "id", id) + "?group=" + url.QueryEscape(r.PostFormValue("group"))
	} else if len(ids) > 1 {
		if next, err = s.nextAfter(r, next, ids); err != nil {
			s.error(w, r, err)
			return
		}
	}
	http.Redirect(w, r, withDone(next, done), http.StatusSeeOther)
}

// partsToConfirm returns the unchecked photos of photo id's group shown
// at the places parts, which must be parts of that group.
func (s *Server) partsToConfirm(r *http.Request, id string, parts []string) ([]string, error) {
	p, err := s.db.Photo(r.Context(), id)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, placeID := range parts {
		if placeID == p.Place.ID {
			continue // this photo's own part: "apply to all" decides it
		}
		ids, err := s.db.ReviewIDs(r.Context(), photo.Filter{PlaceIDs: []string{placeID}}, p.Place.Mention)
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("no photo of this group still to check is shown at %s", placeID), Parameter: "parts"}
		}
		out = append(out, ids...)
	}
	return out, nil
}

// nextAfter is where the review goes after a decision about the photos
// ids: next, the page the form named, unless that is one of the photos
// just decided, which the form could not know when it was drawn; then the
// first photo of next's group still to check, or the queue.
func (s *Server) nextAfter(r *http.Request, next string, ids []string) (string, error) {
	u, err := url.Parse(next)
	if err != nil {
		return next, nil
	}
	prefix := strings.TrimSuffix(s.url("review.photo", "id", "x"), "x")
	id, ok := strings.CutPrefix(u.Path, prefix)
	if !ok || !slices.Contains(ids, id) {
		return next, nil
	}
	q := u.Query()
	f, err := s.parseFilter(q)
	if err != nil {
		return "", err
	}
	filters := filterQuery(q)
	left, err := s.db.ReviewIDs(r.Context(), f, q.Get("group"))
	if err != nil {
		return "", err
	}
	for _, other := range left {
		if !slices.Contains(ids, other) {
			return s.reviewURL(other, q.Get("group"), filters), nil
		}
	}
	return s.url("review") + withOffset(filters, 0), nil
}

// withDone is the local address next with its done parameter (what the
// form did, see doneMessage) set to done, replacing any it had.
func withDone(next, done string) string {
	path, query, _ := strings.Cut(next, "?")
	q, err := url.ParseQuery(query)
	if err != nil {
		q = url.Values{}
	}
	q.Set("done", done)
	return path + "?" + q.Encode()
}

// reviewUndo takes the undo form of a change made to a group: the photos
// go back to the geocoder's places, unchecked, and the editor back to the
// page they were on.
func (s *Server) reviewUndo(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.error(w, r, photo.Errorf(photo.EInvalid, "the form could not be read: %v", err))
		return
	}
	batch, err := strconv.ParseInt(r.PostFormValue("batch"), 10, 64)
	if err != nil || batch <= 0 {
		s.error(w, r, &photo.Error{Code: photo.EInvalid, Message: "which change to undo: want its number", Parameter: "batch"})
		return
	}
	n, err := s.db.Undo(r.Context(), batch, ed.Name, strings.TrimSpace(r.PostFormValue("note")))
	if err != nil {
		s.error(w, r, err)
		return
	}
	next := cmp.Or(session.SafeNext(r.PostFormValue("next")), s.url("review"))
	http.Redirect(w, r, withDone(next, fmt.Sprintf("%d:undo", n)), http.StatusSeeOther)
}

// undoOf is the undo form for the change a done parameter names
// ("24:confirm:812"), nil when it names none or the visitor cannot edit.
func (s *Server) undoOf(r *http.Request, done string) *views.Undo {
	parts := strings.SplitN(done, ":", 6)
	csrf := s.csrfOf(r)
	if len(parts) != 3 && len(parts) != 6 || csrf == "" {
		return nil
	}
	if _, err := strconv.ParseInt(parts[2], 10, 64); err != nil || parts[1] == "fix" {
		return nil
	}
	return &views.Undo{Action: s.url("review.undo"), CSRF: csrf, Batch: parts[2], Next: r.URL.RequestURI()}
}

// doneActions are the review forms' actions a done parameter may name.
var doneActions = map[string]bool{"confirm": true, "place": true, "point": true, "fix": true, "undo": true}

// doneMessage writes the done parameter of the page a form went on to
// ("2:confirm"): "2 photos confirmed." Only the server's own words are
// shown, whatever a link says.
func (s *Server) doneMessage(l i18n.Locale, v string) string {
	// n:action, then for a group the batch (for the undo form) and what
	// the decision left for a person: less sure, read elsewhere, where.
	parts := strings.SplitN(v, ":", 6)
	count, err := strconv.Atoi(parts[0])
	if len(parts) < 2 || err != nil || count < 0 || !doneActions[parts[1]] {
		return ""
	}
	action := parts[1]
	if action == "point" {
		action = "place"
	}
	msg := l.T("review.done."+action, "n", count)
	if len(parts) < 6 {
		return msg
	}
	lessSure, err1 := strconv.Atoi(parts[3])
	elsewhere, err2 := strconv.Atoi(parts[4])
	if err1 != nil || err2 != nil || lessSure < 0 || elsewhere < 0 {
		return msg
	}
	if lessSure > 0 {
		msg += " " + l.T("review.left.less-sure", "n", lessSure)
	}
	if elsewhere > 0 {
		where := l.T("review.left.unplaced")
		if pl := s.archive.Gazetteer().ByID(parts[5]); pl != nil {
			where = pagemodel.GazetteerName(l, pl)
		}
		msg += " " + l.T("review.left.elsewhere", "n", elsewhere, "place", where)
	}
	return msg
}

// typedPlaceID reads the place field: an id, or a name the search
// offered, "Zamalka — town, Rif Dimashq [ocha:C2320]".
func typedPlaceID(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasSuffix(v, "]") {
		if i := strings.LastIndexByte(v, '['); i >= 0 {
			return strings.TrimSpace(v[i+1 : len(v)-1])
		}
	}
	return v
}

// formPoint reads a point typed in a form.
func formPoint(lon, lat string) ([2]float64, error) {
	x, err1 := photo.ParseDecimal(strings.TrimSpace(lon))
	y, err2 := photo.ParseDecimal(strings.TrimSpace(lat))
	switch {
	case err1 != nil:
		return [2]float64{}, &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("lon %q is not a number of degrees", lon), Parameter: "lon"}
	case err2 != nil:
		return [2]float64{}, &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("lat %q is not a number of degrees", lat), Parameter: "lat"}
	}
	return [2]float64{x, y}, nil
}

// formAddedPlace adds the place a review form describes (one the
// gazetteer lacks, at the point the map gave) to the archive, and returns
// it as the photo's new place.
func (s *Server) formAddedPlace(r *http.Request, ed *session.Editor) (photo.Place, error) {
	pt, err := formPoint(r.PostFormValue("lon"), r.PostFormValue("lat"))
	if err != nil {
		return photo.Place{}, err
	}
	kept, err := s.archive.AddPlaces(r.Context(), []photo.AddedPlace{{Name: r.PostFormValue("new_name"), Kind: r.PostFormValue("new_kind"),
		Lon: pt[0], Lat: pt[1], Source: r.PostFormValue("new_source")}}, ed.Name)
	if err != nil {
		return photo.Place{}, err
	}
	return s.archive.PlaceOf(kept[0].ID, nil)
}

// fixChange reads a date and credit: each field present is a fix (an
// empty date is undated, an empty credit none).
func (s *Server) fixChange(ch photo.Change, form url.Values) (photo.Change, error) {
	if _, ok := form["date"]; ok {
		v := strings.TrimSpace(form.Get("date"))
		var d photo.Date
		if v != "" {
			var err error
			if d, err = photo.ParseDate(v); err != nil {
				return ch, &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("date %q: use YYYY, YYYY-MM or YYYY-MM-DD", v), Parameter: "date"}
			}
		}
		ch.Date = &d
	}
	for _, f := range []struct {
		name string
		dst  **string
	}{{"photographer", &ch.Photographer}, {"agency", &ch.Agency}} {
		if _, ok := form[f.name]; ok {
			v := strings.TrimSpace(form.Get(f.name))
			*f.dst = &v
		}
	}
	return ch, nil
}

// reviewLog lists the latest changes.
func (s *Server) reviewLog(w http.ResponseWriter, r *http.Request) {
	events, err := s.db.RecentEvents(r.Context(), 200)
	if err != nil {
		s.error(w, r, err)
		return
	}
	m := views.ReviewLog{Page: s.page(r, i18n.T(r.Context(), "review.log-title"), "review")}
	for _, e := range events {
		m.Events = append(m.Events, s.eventRow(i18n.From(r.Context()), e))
	}
	s.render(w, r, http.StatusOK, views.ReviewLogPage(m))
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
		row.PhotoID, row.PhotoURL = e.PhotoID, s.url("photo", "id", e.PhotoID)
		row.Before, row.After = s.describeState(l, e.Before), s.describeState(l, e.After)
	}
	if e.Action == "add-place" { // of no photo: the place added, and where
		id, _ := e.After["id"].(string)
		name, _ := e.After["name"].(string)
		lon, _ := e.After["lon"].(float64)
		lat, _ := e.After["lat"].(float64)
		row.PhotoID, row.PhotoURL = id, s.url("place", "id", id)
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

// placementBody is PUT /api/photos/{id}/placement's body.
type placementBody struct {
	PlaceID *string  `json:"place_id"`
	Lon     *float64 `json:"lon"`
	Lat     *float64 `json:"lat"`
	Confirm bool     `json:"confirm"`
	Note    string   `json:"note"`
	// AllWithMention applies the change to every photo no person has
	// checked whose place was read from the same text and that is shown
	// at the same place.
	AllWithMention bool `json:"all_with_mention"`
}

// sizeText writes a byte count for people: "16 KB", "4 MB".
func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// maxBodyBytes bounds a JSON body of the write API.
const maxBodyBytes = 16 << 10

// decodeBody reads a JSON object into v, naming the field at fault. The
// body must say it is JSON and hold the one object and nothing after it:
// a body that is something else is a client's mistake to report, not to
// read around.
func decodeBody(r *http.Request, v any) error { return decodeBodyUpTo(r, v, maxBodyBytes) }

// decodeBodyUpTo is decodeBody for a body of up to limit bytes.
func decodeBodyUpTo(r *http.Request, v any, limit int64) error {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return photo.Errorf(photo.EUnsupported, "the body must be JSON, sent with Content-Type: application/json (not %q)", r.Header.Get("Content-Type"))
	}
	body := &io.LimitedReader{R: r.Body, N: limit + 1}
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if body.N == 0 { // it went on past the limit: say so, not "unexpected EOF"
		return photo.Errorf(photo.ETooLarge, "the body is larger than %s; send at most that", sizeText(limit))
	}
	if err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			return &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("%s: want a %s", te.Field, te.Type), Parameter: te.Field}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("%s: no such field", field), Parameter: field}
		}
		return photo.Errorf(photo.EInvalid, "the body is not a JSON object: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return photo.Errorf(photo.EInvalid, "the body has more after its JSON object; send one object")
	}
	return nil
}

// putPlacement sets or confirms a photo's place and answers with the
// photo's Feature.
func (s *Server) putPlacement(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	id := mux.Vars(r)["id"]
	var b placementBody
	if err := decodeBody(r, &b); err != nil {
		s.error(w, r, err)
		return
	}
	ch := photo.Change{Author: ed.Name, Note: strings.TrimSpace(b.Note), Confirm: b.Confirm}
	given := 0
	if b.PlaceID != nil {
		given++
	}
	if b.Lon != nil || b.Lat != nil {
		given++
	}
	if b.Confirm {
		given++
	}
	var err error
	switch {
	case given != 1:
		err = &photo.Error{Code: photo.EInvalid, Message: `give one of place_id, lon and lat, or "confirm": true`, Parameter: "place_id"}
	case b.PlaceID != nil:
		var pl photo.Place
		if *b.PlaceID == "" {
			err = &photo.Error{Code: photo.EInvalid, Message: "place_id: empty", Parameter: "place_id"}
		} else if pl, err = s.archive.PlaceOf(*b.PlaceID, nil); err == nil {
			ch.Place = &pl
		}
	case b.Confirm:
	case b.Lon == nil || b.Lat == nil:
		missing := "lat"
		if b.Lon == nil {
			missing = "lon"
		}
		err = &photo.Error{Code: photo.EInvalid, Message: missing + ": a point needs lon and lat", Parameter: missing}
	default:
		var pl photo.Place
		if pl, err = s.archive.PlaceOf("", &[2]float64{*b.Lon, *b.Lat}); err == nil {
			ch.Place = &pl
		}
	}
	if err == nil {
		_, err = s.db.AnyPhoto(r.Context(), id) // 404 before anything else is said
	}
	ids := []string{id}
	if err == nil && b.AllWithMention {
		ids, err = s.archive.SameReading(r.Context(), id)
	}
	if err == nil {
		_, err = s.db.Apply(r.Context(), ids, ch)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.answerPhoto(w, r, id)
}

// putDetails fixes a photo's date or credit: {"date": "2016-03",
// "photographer": "…", "agency": "…", "note": "…"}, each optional.
func (s *Server) putDetails(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	id := mux.Vars(r)["id"]
	var b struct {
		Date         *string `json:"date"`
		Photographer *string `json:"photographer"`
		Agency       *string `json:"agency"`
		Note         string  `json:"note"`
	}
	if err := decodeBody(r, &b); err != nil {
		s.error(w, r, err)
		return
	}
	form := url.Values{}
	for k, v := range map[string]*string{"date": b.Date, "photographer": b.Photographer, "agency": b.Agency} {
		if v != nil {
			form.Set(k, *v)
		}
	}
	ch, err := s.fixChange(photo.Change{Author: ed.Name, Note: strings.TrimSpace(b.Note)}, form)
	if err == nil {
		_, err = s.db.Apply(r.Context(), []string{id}, ch)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.answerPhoto(w, r, id)
}

// answerPhoto answers a write with the photo as it now is.
func (s *Server) answerPhoto(w http.ResponseWriter, r *http.Request, id string) {
	p, err := s.photoFor(w, r, id)
	if err == nil {
		var body []byte
		if body, err = s.photoFeature(r, p, true); err == nil { // an editor's write
			w.Header().Set("Content-Type", "application/geo+json")
			w.Header().Set("Cache-Control", "no-store")
			w.Write(append(body, '\n'))
			return
		}
	}
	s.error(w, r, err)
}

// historyJSON answers a photo's events, oldest first.
func (s *Server) historyJSON(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	if _, err := s.photoFor(w, r, id); err != nil {
		s.error(w, r, err)
		return
	}
	events, err := s.db.History(r.Context(), id)
	if err != nil {
		s.error(w, r, err)
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
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, "application/json", out)
}

// searchPlaces finds gazetteer places by any spelling, English or
// Arabic, for the review page's place field.
func (s *Server) searchPlaces(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name := strings.TrimSpace(q.Get("q"))
	if name == "" || len(name) > 100 {
		s.error(w, r, web.BadParam("q", "give a name of 1 to 100 bytes"))
		return
	}
	limit, err := web.IntParam(q, "limit", 10, 1, 50)
	if err != nil {
		s.error(w, r, err)
		return
	}
	type place struct {
		ID     string   `json:"id"`
		Name   string   `json:"name"`
		NameAr string   `json:"name_ar,omitempty"`
		Kind   string   `json:"kind"`
		In     string   `json:"in"`
		Lon    *float64 `json:"lon"`
		Lat    *float64 `json:"lat"`
	}
	out := []place{}
	for _, p := range s.archive.SearchPlaces(name, limit) {
		pl := place{ID: p.ID, Name: p.Name, NameAr: p.NameAr, Kind: string(p.Kind), In: placeChain(s.archive.Gazetteer(), p)}
		if p.Located {
			lon, lat := p.Point.Lon(), p.Point.Lat()
			pl.Lon, pl.Lat = &lon, &lat
		}
		out = append(out, pl)
	}
	w.Header().Set("Cache-Control", "public, max-age=60") // editors add places
	s.writeJSON(w, r, "application/json", out)
}

// placeChain names what holds a place, smallest first: "Douma, Rif
// Dimashq".
func placeChain(g *gazetteer.Gazetteer, p *gazetteer.Place) string {
	var parts []string
	if p.Country != "SY" {
		return p.Country
	}
	for _, a := range []gazetteer.AdminRef{p.Subdistrict, p.District, p.Governorate} {
		if a.Name != "" && (len(parts) == 0 || parts[len(parts)-1] != a.Name) {
			parts = append(parts, a.Name)
		}
	}
	return strings.Join(parts, ", ")
}
