package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// apiError is an error with the HTTP status it is answered with and, for a
// bad query parameter, the parameter's name.
type apiError struct {
	Status    int
	Message   string
	Parameter string
}

func (e *apiError) Error() string { return e.Message }

// badParam reports a bad query parameter.
func badParam(name, format string, args ...any) error {
	return &apiError{Status: http.StatusBadRequest, Parameter: name, Message: name + ": " + fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) error {
	return &apiError{Status: http.StatusNotFound, Message: fmt.Sprintf(format, args...)}
}

// statuses maps application error codes to HTTP statuses.
var statuses = map[string]int{
	photo.EInvalid:  http.StatusBadRequest,
	photo.ENotFound: http.StatusNotFound,
	photo.EConflict: http.StatusConflict,
	photo.EInternal: http.StatusInternalServerError,
}

// error answers err as JSON: {"error": message, "parameter": name}. It is
// the one place errors become responses: internal errors are logged and
// shown to users only as "internal error".
func (s *Server) error(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		// The client went away; there is no one to answer and nothing wrong.
		s.log.Debug("request abandoned", "method", r.Method, "path", r.URL.Path, "err", err)
		return
	}
	status, body := http.StatusInternalServerError, map[string]string{}
	var ae *apiError
	switch {
	case asAPIError(err, &ae):
		status, body["error"] = ae.Status, ae.Message
		if ae.Parameter != "" {
			body["parameter"] = ae.Parameter
		}
	default:
		code := photo.ErrorCode(err)
		status, body["error"] = statuses[code], photo.ErrorMessage(err)
		if code == photo.EInternal {
			s.log.Error("internal error", "method", r.Method, "path", r.URL.Path, "err", err)
		}
		if code == photo.EInvalid && r.URL.Query().Has("q") {
			body["parameter"] = "q" // the store rejects only a bad full-text search
		}
	}
	if wantsPage(r) {
		title := http.StatusText(status)
		s.render(w, r, status, views.ErrorPage(s.page(title, ""), body["error"]))
		return
	}
	h := w.Header()
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

func asAPIError(err error, target **apiError) bool {
	for err != nil {
		if ae, ok := err.(*apiError); ok {
			*target = ae
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}
