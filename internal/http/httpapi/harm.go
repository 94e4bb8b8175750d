package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// harmStore is what the harm marks and the custody records ask of the
// archive's storage.
type harmStore interface {
	WithheldFile(ctx context.Context, sha, path string) (bool, error)
	MarkedPhotos(ctx context.Context, limit int) ([]photo.Photo, error)
	CustodyOf(ctx context.Context, photoID string) ([]photo.Custody, error)
}

// maxMarked bounds the review queue's list of marked photos.
const maxMarked = 500

// markedView lists the marked photos for an editor's review queue; none
// for a reader.
func (s *Server) markedView(r *http.Request, page views.Page) ([]views.MarkedPhoto, error) {
	if page.Editor == "" {
		return nil, nil
	}
	marked, err := s.db.MarkedPhotos(r.Context(), maxMarked) // the review queue is editorial: ctx reads as the editor
	var out []views.MarkedPhoto
	for _, p := range marked {
		out = append(out, views.MarkedPhoto{Mark: p.Harm, Caption: p.Caption, URL: s.URL("photo", "id", p.ID)})
	}
	return out, err
}

// isEditor reports whether the request is an editor's (signed in, or
// with a token).
func (s *Server) isEditor(r *http.Request) bool {
	ed, err := s.guard.EditorOf(r)
	return err == nil && ed != nil
}

// photoFor reads photo id for the request, as its viewer may see it: a
// withheld photo is found on editorial routes by an editor alone (see
// session.Guard.Viewing), and what an editor is answered about it no cache
// keeps.
func (s *Server) photoFor(w http.ResponseWriter, r *http.Request, id string) (*photo.Photo, error) {
	p, err := s.db.Photo(r.Context(), id)
	if err == nil && p.Harm == photo.HarmWithheld {
		w.Header().Set("Cache-Control", "private, no-store")
	}
	return p, err
}

// imageWithheld tells the image handlers whether an image (an imported
// file by its hash, or a media file by its path) is only withheld
// photos': hidden then from all but editors, and private to them.
func (s *Server) imageWithheld(r *http.Request, sha, path string) (hidden, private bool, err error) {
	withheld, err := s.db.WithheldFile(r.Context(), sha, path)
	if err != nil || !withheld {
		return false, false, err
	}
	editor := s.isEditor(r)
	return !editor, editor, nil
}

// putHarm marks a photo graphic or withheld, or takes the mark off, with
// the reason its custody record keeps: a JSON body {"harm", "reason"}
// (PUT, answered with the photo), or the photo page's form (POST, sent
// back to the page it came from).
func (s *Server) putHarm(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
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
		err = decodeBody(r, &b)
	}
	if err == nil {
		_, err = s.archive.SetHarm(r.Context(), id, b.Harm, "editor "+ed.Name, b.Reason)
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
		next = s.URL("photo", "id", id)
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// harmView is the mark on photo p as its page shows it, with the form
// for an editor (page is the page's shared model: who is signed in); nil
// for a reader of an unmarked photo.
func (s *Server) harmView(r *http.Request, page views.Page, p *photo.Photo) (*views.Harm, error) {
	editor := page.Editor != "" && s.guard.Writable(r.Context()) == nil
	if p.Harm == "" && !editor {
		return nil, nil
	}
	h := &views.Harm{Mark: p.Harm}
	if editor {
		h.Action, h.CSRF, h.Next, h.Version = s.URL("harm", "id", p.ID), page.CSRF, r.URL.RequestURI(), strconv.FormatInt(p.Rev, 10)
	}
	if p.Harm == "" {
		return h, nil
	}
	recs, err := s.db.CustodyOf(r.Context(), p.ID)
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
		h.By, h.At, h.Reason = pagemodel.ByWhom(l, actorName(c.Actor)), l.Date(at.Year(), at.Month(), at.Day()), d.Reason
		break
	}
	return h, nil
}
