package review

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// reviewSubmit takes a review form: confirm, a reading (choice), a
// gazetteer place, a point, or a date and credit; for all the photos of
// the group when asked. It then goes on to the next photo.
func (s *API) reviewSubmit(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.Error(w, r, photo.Errorf(photo.EInvalid, "the form could not be read: %v", err))
		return
	}
	id := mux.Vars(r)["id"]
	action, ch, err := s.formChange(r, ed)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	ids := []string{id}
	all := r.PostFormValue("all") == "1" && action != "fix"
	var decided photo.Place // the photo's placement before the decision
	var to string           // the place it is decided to be at
	if all {
		var p *photo.Photo
		if p, err = s.Store.Photo(r.Context(), id); err == nil {
			decided, to = p.Place, decidedPlace(ch, p.Place)
			ids, err = s.Store.SameReading(r.Context(), id, to)
		}
		if err != nil {
			s.Error(w, r, err)
			return
		}
		// Under the low line the geocoder was guessing: a decision about
		// all of them is taken only once the editor has seen the list.
		if action == "confirm" && len(ids) > 1 && decided.Confidence < lowConfidence && r.PostFormValue("sure") != "1" {
			s.confirmAllStep(w, r, id, ids, decided)
			return
		}
	}
	// The other parts of the group the editor ticked, each confirmed at
	// its own place ("Judaydah" read as the village in Idlib and the one
	// in Hama, both right).
	if parts := r.PostForm["parts"]; len(parts) > 0 && action == "confirm" {
		more, err := s.partsToConfirm(r, id, parts)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		ids = append(ids, more...)
	}
	n, batch, err := s.Store.ApplyBatch(r.Context(), ids, ch)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	// What the decision left of the group, counted once it is made.
	var left archive.LeftForReview
	if all {
		if left, err = s.Store.LeftOf(r.Context(), decided, to); err != nil {
			s.Error(w, r, err)
			return
		}
	}
	done := fmt.Sprintf("%d:%s", n, action)
	if action == "add-place" && ch.Place != nil {
		// Say what was added, and how many more of the group's captions
		// name it (the page offers to place them there too).
		others, err := s.namingOthers(r, cmp.Or(r.PostFormValue("group"), decided.Mention), ch.Place.ID)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		done = fmt.Sprintf("%d:added:%d:%d:%s", n, batch, len(others), ch.Place.ID)
	} else if len(ids) > 1 || left != (archive.LeftForReview{}) {
		done += fmt.Sprintf(":%d", batch) // the page it goes on to offers to undo it
	}
	if left != (archive.LeftForReview{}) {
		// and says what it left: less sure, read elsewhere (where), not
		// named by the caption (the id last, as it may hold colons).
		done += fmt.Sprintf(":%d:%d:%d:%s", left.LessSure, left.Elsewhere, left.Unnamed, left.ElsewhereID)
	}
	next := session.SafeNext(r.PostFormValue("next"))
	if next == "" || action == "fix" {
		next = s.Kit.URL("review.photo", "id", id) + "?group=" + url.QueryEscape(r.PostFormValue("group"))
	} else if len(ids) > 1 {
		if next, err = s.nextAfter(r, next, ids); err != nil {
			s.Error(w, r, err)
			return
		}
	}
	http.Redirect(w, r, withDone(next, done), http.StatusSeeOther)
}

// namingOthers returns the photos of the review group (its words) still
// unchecked whose captions name the place placeID in one of its
// spellings: after an editor adds the place one of them names (that one
// placed, so checked), the ones to offer to place there too.
func (s *API) namingOthers(r *http.Request, group, placeID string) ([]string, error) {
	if group == "" {
		return nil, nil
	}
	ids, err := s.Store.ReviewIDs(r.Context(), photo.Filter{}, group)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, other := range ids {
		p, err := s.Store.Photo(r.Context(), other) // an editor's read: withheld photos too
		if err != nil {
			return nil, err
		}
		if s.Store.Names(p.Caption, placeID) {
			out = append(out, other)
		}
	}
	return out, nil
}

// reviewPlaceNamed places, on the editor's word, the photos of a group
// whose captions name a place an editor added from one of them (see
// namingOthers), each with a custody record; the same set is found again,
// not taken from the form.
func (s *API) reviewPlaceNamed(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.Error(w, r, photo.Errorf(photo.EInvalid, "the form could not be read: %v", err))
		return
	}
	pl, err := s.Store.PlaceOf(r.PostFormValue("place_id"), nil)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	ids, err := s.namingOthers(r, r.PostFormValue("group"), pl.ID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if len(ids) == 0 {
		s.Error(w, r, &photo.Error{Code: photo.EConflict, Message: fmt.Sprintf("no photo of this group still to check names %s", pl.Name), Parameter: "place_id"})
		return
	}
	n, batch, err := s.Store.ApplyBatch(r.Context(), ids, photo.Change{Author: ed.Name, Place: &pl, Note: strings.TrimSpace(r.PostFormValue("note"))})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	next := cmp.Or(session.SafeNext(r.PostFormValue("next")), s.Kit.URL("review"))
	http.Redirect(w, r, withDone(next, fmt.Sprintf("%d:place:%d", n, batch)), http.StatusSeeOther)
}

// offerOf is the form that places the photos a done parameter of an added
// place counts ("1:added:812:2:added:qutaybat-al-ward-camp"), nil when it
// counts none or the visitor cannot edit.
func (s *API) offerOf(r *http.Request, id, group, done string) *views.Offer {
	parts := strings.SplitN(done, ":", 5)
	csrf := s.Guard.CSRFOf(r)
	if len(parts) != 5 || parts[1] != "added" || csrf == "" || id == "" {
		return nil
	}
	if n, err := strconv.Atoi(parts[3]); err != nil || n <= 0 {
		return nil
	}
	return &views.Offer{Action: s.Kit.URL("review.place-named", "id", id), CSRF: csrf, PlaceID: parts[4], Group: group, Next: r.URL.RequestURI()}
}

// lowConfidence is the low line: answers under it are drawn as low
// confidence (web.PlacedLow), and "apply to all" from one of them asks
// again with the list of the photos (confirmAllStep).
const lowConfidence = 0.5

// confirmAllStep answers "apply to all" from an answer under the low line
// with the list of the photos it would confirm at the photo's place, and
// the form that confirms them: nothing is decided until it is sent.
func (s *API) confirmAllStep(w http.ResponseWriter, r *http.Request, id string, ids []string, decided photo.Place) {
	l := i18n.From(r.Context())
	place := pagemodel.NameOf(l, s.Store.Gazetteer(), decided.ID, decided.Name)
	m := views.ReviewConfirmAll{Page: s.Kit.Page(r, l.T("review.confirm-all.title", "n", len(ids), "place", place), "review"),
		Place: place, Action: s.Kit.URL("review.photo", "id", id), CSRF: s.Guard.CSRFOf(r)}
	for _, pid := range ids {
		p, err := s.Store.Photo(r.Context(), pid)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		m.Photos = append(m.Photos, views.Link{Label: p.Caption, URL: s.Kit.URL("review.photo", "id", pid)})
	}
	for _, name := range []string{"action", "all", "note", "group", "next", "parts"} {
		for _, v := range r.PostForm[name] {
			m.Fields = append(m.Fields, views.Hidden{Name: name, Value: v})
		}
	}
	m.BackURL = s.Kit.URL("review.photo", "id", id) + "?group=" + url.QueryEscape(r.PostFormValue("group"))
	s.Kit.Render(w, r, http.StatusOK, views.ReviewConfirmAllPage(m))
}

// decidedPlace is the gazetteer place a decision puts a photo at: the
// place it chooses, or the photo's own (now) for a confirmation; "" for a
// bare point.
func decidedPlace(ch photo.Change, now photo.Place) string {
	if ch.Place != nil {
		return ch.Place.ID
	}
	return now.ID
}

// formChange reads the review form's decision: its action (confirm,
// place, point, add-place or fix; a chosen alternative is a place) and
// the change it makes, by the editor.
func (s *API) formChange(r *http.Request, ed *session.Editor) (action string, ch photo.Change, err error) {
	action = r.PostFormValue("action")
	placeID := web.TypedPlaceID(r.PostFormValue("place_id"))
	if c := r.PostFormValue("choice"); c != "" {
		action, placeID = "place", c
	}
	ch = photo.Change{Author: ed.Name, Note: strings.TrimSpace(r.PostFormValue("note"))}
	var pl photo.Place
	switch action {
	case "confirm":
		ch.Confirm = true
		return action, ch, nil
	case "place":
		if placeID == "" {
			return action, ch, &photo.Error{Code: photo.EInvalid, Message: "choose a place first", Parameter: "place_id"}
		}
		pl, err = s.Store.PlaceOf(placeID, nil)
	case "point":
		var pt [2]float64
		if pt, err = web.FormPoint(r.PostFormValue("lon"), r.PostFormValue("lat")); err == nil {
			pl, err = s.Store.PlaceOf("", &pt)
		}
	case "add-place":
		pl, err = s.formAddedPlace(r, ed)
	case "fix":
		ch, err = s.fixChange(ch, r.PostForm)
		return action, ch, err
	default:
		return action, ch, &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("action %q: want confirm, place, point, add-place or fix", action), Parameter: "action"}
	}
	if err == nil {
		ch.Place = &pl
	}
	return action, ch, err
}

// partsToConfirm returns the unchecked photos of photo id's group shown
// at the places parts, which must be parts of that group.
func (s *API) partsToConfirm(r *http.Request, id string, parts []string) ([]string, error) {
	p, err := s.Store.Photo(r.Context(), id)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, placeID := range parts {
		if placeID == p.Place.ID {
			continue // this photo's own part: "apply to all" decides it
		}
		ids, err := s.Store.ReviewIDs(r.Context(), photo.Filter{PlaceIDs: []string{placeID}}, p.Place.Mention)
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
func (s *API) nextAfter(r *http.Request, next string, ids []string) (string, error) {
	u, err := url.Parse(next)
	if err != nil {
		return next, nil
	}
	prefix := strings.TrimSuffix(s.Kit.URL("review.photo", "id", "x"), "x")
	id, ok := strings.CutPrefix(u.Path, prefix)
	if !ok || !slices.Contains(ids, id) {
		return next, nil
	}
	q := u.Query()
	f, err := s.Filter(q)
	if err != nil {
		return "", err
	}
	filters := web.FilterQuery(q)
	left, err := s.Store.ReviewIDs(r.Context(), f, q.Get("group"))
	if err != nil {
		return "", err
	}
	for _, other := range left {
		if !slices.Contains(ids, other) {
			return s.reviewURL(other, q.Get("group"), filters), nil
		}
	}
	return s.Kit.URL("review") + web.WithOffset(filters, 0), nil
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
func (s *API) reviewUndo(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.Error(w, r, photo.Errorf(photo.EInvalid, "the form could not be read: %v", err))
		return
	}
	batch, err := strconv.ParseInt(r.PostFormValue("batch"), 10, 64)
	if err != nil || batch <= 0 {
		s.Error(w, r, &photo.Error{Code: photo.EInvalid, Message: "which change to undo: want its number", Parameter: "batch"})
		return
	}
	n, err := s.Store.Undo(r.Context(), batch, ed.Name, strings.TrimSpace(r.PostFormValue("note")))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	next := cmp.Or(session.SafeNext(r.PostFormValue("next")), s.Kit.URL("review"))
	http.Redirect(w, r, withDone(next, fmt.Sprintf("%d:undo", n)), http.StatusSeeOther)
}

// undoOf is the undo form for the change a done parameter names
// ("24:confirm:812"), nil when it names none or the visitor cannot edit.
func (s *API) undoOf(r *http.Request, done string) *views.Undo {
	parts := strings.SplitN(done, ":", 7)
	csrf := s.Guard.CSRFOf(r)
	if len(parts) >= 3 && parts[1] == "added" {
		parts = parts[:3] // an added place's batch: its photo
	}
	if len(parts) != 3 && len(parts) != 7 || csrf == "" {
		return nil
	}
	if _, err := strconv.ParseInt(parts[2], 10, 64); err != nil || parts[1] == "fix" {
		return nil
	}
	return &views.Undo{Action: s.Kit.URL("review.undo"), CSRF: csrf, Batch: parts[2], Next: r.URL.RequestURI()}
}

// doneActions are the review forms' actions a done parameter may name.
var doneActions = map[string]bool{"confirm": true, "place": true, "point": true, "fix": true, "undo": true, "added": true}

// doneMessage writes the done parameter of the page a form went on to
// ("2:confirm"): "2 photos confirmed." Only the server's own words are
// shown, whatever a link says.
func (s *API) doneMessage(l i18n.Locale, v string) string {
	// n:action, then for a group the batch (for the undo form) and what
	// the decision left for a person: less sure, read elsewhere, not
	// named by the caption, where the ones elsewhere were read.
	parts := strings.SplitN(v, ":", 7)
	count, err := strconv.Atoi(parts[0])
	if len(parts) < 2 || err != nil || count < 0 || !doneActions[parts[1]] {
		return ""
	}
	action := parts[1]
	if action == "point" {
		action = "place"
	}
	if action == "added" {
		// n:added:batch:others:place — the place added, and how many more
		// of the group's captions name it.
		added := strings.SplitN(v, ":", 5)
		if len(added) != 5 {
			return l.T("review.done.place", "n", count)
		}
		others, err := strconv.Atoi(added[3])
		pl := s.Store.Gazetteer().ByID(added[4])
		if err != nil || others < 0 || pl == nil {
			return l.T("review.done.place", "n", count)
		}
		msg := l.T("review.done.added", "place", pagemodel.GazetteerName(l, pl))
		if others > 0 {
			msg += " " + l.T("review.added.others", "n", others)
		}
		return msg
	}
	msg := l.T("review.done."+action, "n", count)
	if len(parts) < 7 {
		return msg
	}
	lessSure, err1 := strconv.Atoi(parts[3])
	elsewhere, err2 := strconv.Atoi(parts[4])
	unnamed, err3 := strconv.Atoi(parts[5])
	if err1 != nil || err2 != nil || err3 != nil || lessSure < 0 || elsewhere < 0 || unnamed < 0 {
		return msg
	}
	if lessSure > 0 {
		msg += " " + l.T("review.left.less-sure", "n", lessSure)
	}
	if unnamed > 0 {
		msg += " " + l.T("review.left.unnamed", "n", unnamed)
	}
	if elsewhere > 0 {
		where := l.T("review.left.unplaced")
		if pl := s.Store.Gazetteer().ByID(parts[6]); pl != nil {
			where = pagemodel.GazetteerName(l, pl)
		}
		msg += " " + l.T("review.left.elsewhere", "n", elsewhere, "place", where)
	}
	return msg
}

// formAddedPlace adds the place a review form describes (one the
// gazetteer lacks, at the point the map gave) to the archive, and returns
// it as the photo's new place.
func (s *API) formAddedPlace(r *http.Request, ed *session.Editor) (photo.Place, error) {
	pt, err := web.FormPoint(r.PostFormValue("lon"), r.PostFormValue("lat"))
	if err != nil {
		return photo.Place{}, err
	}
	kept, err := s.Store.AddPlaces(r.Context(), []photo.AddedPlace{{Name: r.PostFormValue("new_name"), Kind: r.PostFormValue("new_kind"),
		Lon: pt[0], Lat: pt[1], Source: r.PostFormValue("new_source")}}, ed.Name)
	if err != nil {
		return photo.Place{}, err
	}
	return s.Store.PlaceOf(kept[0].ID, nil)
}

// fixChange reads a date and credit: each field present is a fix (an
// empty date is undated, an empty credit none).
func (s *API) fixChange(ch photo.Change, form url.Values) (photo.Change, error) {
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
