package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gorilla/mux"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// Errors are photo.Errors: a code, a message fit to show, and for a bad
// query parameter its name. These build the ones only HTTP has.

// eMethod is the code of a request with a method the route does not take.
const eMethod = "method_not_allowed"

// statuses maps error codes to HTTP statuses.
var statuses = map[string]int{
	photo.EInvalid:      http.StatusBadRequest,
	photo.ENotFound:     http.StatusNotFound,
	photo.EConflict:     http.StatusConflict,
	photo.EForbidden:    http.StatusForbidden,
	photo.EUnauthorized: http.StatusUnauthorized,
	photo.ETooMany:      http.StatusTooManyRequests,
	photo.ETooLarge:     http.StatusUnprocessableEntity,
	photo.EDiskFull:     http.StatusInsufficientStorage,
	photo.EUnsupported:  http.StatusUnsupportedMediaType,
	photo.EUnavailable:  http.StatusServiceUnavailable,
	photo.ECorrupt:      http.StatusServiceUnavailable,
	photo.EInternal:     http.StatusInternalServerError,
	eMethod:             http.StatusMethodNotAllowed,
}

// retryAfter is the Retry-After of a 503: the archive was busy, and a
// few seconds later it may not be.
const retryAfter = "5"

// error answers err as JSON, {"error": message, "parameter": name}, or as
// a page for a browser. It is the one place errors become responses:
// internal errors are logged and shown to users only as "internal error";
// a damaged archive is logged in full and shown without its path.
func (s *Server) error(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		// The client went away; there is no one to answer and nothing wrong.
		s.log.Debug("request abandoned", "method", r.Method, "path", r.URL.Path, "err", err)
		return
	}
	// A write the disk had no room for says so (507), whichever write
	// it was.
	err = photo.DiskFull(err)
	code := photo.ErrorCode(err)
	status, body := statuses[code], map[string]string{"error": photo.ErrorMessage(err)}
	if status == 0 {
		status = http.StatusInternalServerError
	}
	var pe *photo.Error
	if errors.As(err, &pe) && pe.Parameter != "" {
		body["parameter"] = pe.Parameter
	}
	switch code {
	case photo.EInternal:
		s.log.Error("internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	case photo.ECorrupt:
		s.log.Error("the archive is damaged", "method", r.Method, "path", r.URL.Path, "err", err)
		body["error"] = "the archive is damaged; the server's log says how (see README: Operating it)"
	}
	h := w.Header()
	if status == http.StatusServiceUnavailable {
		h.Set("Retry-After", retryAfter)
	}
	if wantsPage(r) {
		title := http.StatusText(status)
		s.render(w, r, status, views.ErrorPage(s.page(r, title, ""), body["error"]))
		return
	}
	h.Del("Content-Disposition")
	h.Del("ETag")
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

// wantsPage reports whether the request is a browser's for a page (not
// the API or a file), which gets its error as a page.
func wantsPage(r *http.Request) bool {
	p := r.URL.Path
	return !strings.HasPrefix(p, "/api/") && !strings.HasPrefix(p, "/media/") && !strings.HasPrefix(p, "/assets/") &&
		p != "/healthz" && strings.Contains(r.Header.Get("Accept"), "text/html")
}

// methodNotAllowed answers a method a route does not take, naming the
// ones it does (in Allow, and in the message), as the router has them.
func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	allow := s.allowedMethods(r)
	w.Header().Set("Allow", strings.Join(allow, ", "))
	s.error(w, r, &photo.Error{Code: eMethod, Message: fmt.Sprintf("%s is not allowed here: %s takes %s", r.Method, r.URL.Path, strings.Join(allow, ", "))})
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
