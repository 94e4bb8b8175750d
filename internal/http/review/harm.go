package review

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// maxMarked bounds the review queue's list of marked photos.
const maxMarked = 500

// markedView lists the marked photos for an editor's review queue; none
// for a reader.
func (s *API) markedView(r *http.Request, page views.Page) ([]views.MarkedPhoto, error) {
	if page.Editor == "" {
		return nil, nil
	}
	marked, err := s.Store.MarkedPhotos(r.Context(), maxMarked) // the review queue is editorial: ctx reads as the editor
	var out []views.MarkedPhoto
	for _, p := range marked {
		out = append(out, views.MarkedPhoto{Mark: p.Harm, Caption: p.Caption, URL: s.Kit.URL("photo", "id", p.ID)})
	}
	return out, err
}

// putHarm marks a photo graphic or withheld, or takes the mark off, with
// the reason its custody record keeps: a JSON body {"harm", "reason"}
// (PUT, answered with the photo), or the photo page's form (POST, sent
// back to the page it came from).
func (s *API) putHarm(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	id := mux.Vars(r)["id"]
	var b struct {
		Harm   string `json:"harm"`
		Reason string `json:"reason"`
	}
	form := r.Method == http.MethodPost
	var err error
	if form {
		if err = r.ParseForm(); err == nil {
			b.Harm, b.Reason = r.PostFormValue("harm"), r.PostFormValue("reason")
		}
	} else {
		err = web.DecodeWrite(r, &b)
	}
	if err == nil {
		_, err = s.Store.SetHarm(r.Context(), id, b.Harm, "editor "+ed.Name, b.Reason)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if !form {
		s.answerPhoto(w, r, id)
		return
	}
	// Back to the page the form was on, which says the mark as it now is.
	next := session.SafeNext(r.PostFormValue("next"))
	if next == "" {
		next = s.Kit.URL("photo", "id", id)
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// HarmView is the mark on photo p as its page shows it, with the form
// for an editor (page is the page's shared model: who is signed in); nil
// for a reader of an unmarked photo.
func (s *API) HarmView(r *http.Request, page views.Page, p *photo.Photo) (*views.Harm, error) {
	editor := page.Editor != "" && s.Guard.Writable(r.Context()) == nil
	if p.Harm == "" && !editor {
		return nil, nil
	}
	h := &views.Harm{Mark: p.Harm}
	if editor {
		h.Action, h.CSRF, h.Next, h.Version = s.Kit.URL("harm", "id", p.ID), page.CSRF, r.URL.RequestURI(), strconv.FormatInt(p.Rev, 10)
	}
	if p.Harm == "" {
		return h, nil
	}
	recs, err := s.Store.CustodyOf(r.Context(), p.ID)
	if err != nil {
		return nil, err
	}
	for _, c := range slices.Backward(recs) {
		if c.Action != "harm" {
			continue
		}
		var d struct{ Reason string }
		json.Unmarshal(c.Detail, &d)
		l := i18n.From(r.Context())
		at, _ := time.Parse(time.RFC3339Nano, c.At)
		at = at.UTC()
		h.By, h.At, h.Reason = pagemodel.ByWhom(l, pagemodel.ActorName(c.Actor)), l.Date(at.Year(), at.Month(), at.Day()), d.Reason
		break
	}
	return h, nil
}
