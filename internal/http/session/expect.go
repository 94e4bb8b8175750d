package session

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// EditorHandler is a write's handler, as Guard.Editing takes it.
type EditorHandler func(w http.ResponseWriter, r *http.Request, ed *Editor)

// Expecting wraps a write of kind's thing named by the route's variable
// idVar: its handler's context carries the version the request expects
// (photo.Expect), read by web.ExpectedVersion (If-Match, or a page form's
// version field). Every feature that writes a versioned thing wraps its
// route in it, so that no edit is lost to another made since.
func Expecting(kind, idVar string, h EditorHandler) EditorHandler {
	return func(w http.ResponseWriter, r *http.Request, ed *Editor) {
		if v, ok := web.ExpectedVersion(r, kind); ok {
			r = r.WithContext(photo.Expect(r.Context(), kind, mux.Vars(r)[idVar], v))
		}
		h(w, r, ed)
	}
}
