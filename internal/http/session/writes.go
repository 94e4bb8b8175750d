package session

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// Write is a write's handler, as Guard.Editing takes it.
type Write = func(w http.ResponseWriter, r *http.Request, ed *Editor)

// Expecting wraps a write of kind's thing named by the route's variable
// idVar: its handler's context carries the version the request expects
// (photo.Expect), from If-Match or a page form's version field
// (web.ExpectedVersion). Every feature's writes of a photo or a place
// are wrapped by it, inside Guard.Editing (which has read the form under
// its size limit by then).
func Expecting(kind, idVar string, h Write) Write {
	return func(w http.ResponseWriter, r *http.Request, ed *Editor) {
		if v, ok := web.ExpectedVersion(r, kind); ok {
			r = r.WithContext(photo.Expect(r.Context(), kind, mux.Vars(r)[idVar], v))
		}
		h(w, r, ed)
	}
}

// IsEditor reports whether the request is an editor's (signed in, or
// with a good bearer token).
func (g *Guard) IsEditor(r *http.Request) bool {
	ed, err := g.EditorOf(r)
	return err == nil && ed != nil
}

// CSRFOf is the request's session's CSRF token, for a page's forms; ""
// for a reader or a bearer token (which needs none).
func (g *Guard) CSRFOf(r *http.Request) string {
	if ed, err := g.EditorOf(r); err == nil && ed != nil {
		return ed.CSRF
	}
	return ""
}
