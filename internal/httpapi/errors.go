package httpapi

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gorilla/mux"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/web"
	"github.com/syriamap/syriamap/views"
)

// error answers err, as web.Errors does for every route.
func (s *Server) error(w http.ResponseWriter, r *http.Request, err error) { s.errors.Write(w, r, err) }

// errorPage answers a browser's request with a page saying message.
func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, status int, message string) {
	l := i18n.From(r.Context())
	title := l.T("error.title", "status", status)
	if key := "error." + strconv.Itoa(status); i18n.Has(key) {
		title = l.T(key)
	}
	s.render(w, r, status, views.ErrorPage(s.page(r, title, ""), message))
}

// methodNotAllowed answers a method a route does not take, naming the
// ones it does (in Allow, and in the message), as the router has them.
func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	allow := s.allowedMethods(r)
	w.Header().Set("Allow", strings.Join(allow, ", "))
	s.error(w, r, &photo.Error{Code: web.EMethod, Message: fmt.Sprintf("%s is not allowed here: %s takes %s", r.Method, r.URL.Path, strings.Join(allow, ", "))})
}

// allowedMethods lists the methods some route takes at r's path.
func (s *Server) allowedMethods(r *http.Request) []string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		req := r.Clone(r.Context())
		req.Method = m
		var match mux.RouteMatch
		if s.router.Match(req, &match) && match.MatchErr == nil {
			allow = append(allow, m)
		}
	}
	return allow
}
