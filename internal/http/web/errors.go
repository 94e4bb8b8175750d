package web

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// Errors are photo.Errors: a code, a message fit to show, and for a bad
// query parameter its name. BadParam, NotFound and EMethod build the ones
// only HTTP has; Errors.Write is the one place errors become responses.

// BadParam reports a bad query parameter.
func BadParam(name, format string, args ...any) error {
	return photo.ParamErrorf(name, format, args...)
}

// NotFound reports something the request names that is not there.
func NotFound(format string, args ...any) error {
	return photo.Errorf(photo.ENotFound, format, args...)
}

// EMethod is the code of a request with a method the route does not take.
const EMethod = "method_not_allowed"

// EBodyTooLarge is the code of a request body past its route's limit
// (an upload): 413, said before the body is read when it is declared.
const EBodyTooLarge = "body_too_large"

// statuses maps error codes to HTTP statuses.
var statuses = map[string]int{
	photo.EInvalid:      http.StatusBadRequest,
	photo.ENotFound:     http.StatusNotFound,
	photo.EConflict:     http.StatusConflict,
	photo.EStale:        http.StatusPreconditionFailed,
	photo.EForbidden:    http.StatusForbidden,
	photo.EUnauthorized: http.StatusUnauthorized,
	photo.ETooMany:      http.StatusTooManyRequests,
	photo.ETooLarge:     http.StatusUnprocessableEntity,
	photo.EDiskFull:     http.StatusInsufficientStorage,
	photo.EUnsupported:  http.StatusUnsupportedMediaType,
	photo.EUndecodable:  http.StatusUnprocessableEntity,
	photo.EUnavailable:  http.StatusServiceUnavailable,
	photo.ECorrupt:      http.StatusServiceUnavailable,
	photo.EInternal:     http.StatusInternalServerError,
	EMethod:             http.StatusMethodNotAllowed,
	EBodyTooLarge:       http.StatusRequestEntityTooLarge,
}

// Status is the HTTP status err is answered with (Errors.Write): its
// code's, a full disk's 507 for ENOSPC, 500 for any other error.
func Status(err error) int {
	if status := statuses[photo.ErrorCode(photo.DiskFull(err))]; status != 0 {
		return status
	}
	return http.StatusInternalServerError
}

// retryAfter is the Retry-After of a 503: the archive was busy, and a
// few seconds later it may not be.
const retryAfter = "5"

// wantsPage reports whether the request is a browser's for a page (not
// the API or a file), which gets its error as a page.
func wantsPage(r *http.Request) bool {
	p := r.URL.Path
	return !strings.HasPrefix(p, "/api/") && !strings.HasPrefix(p, "/media/") && !strings.HasPrefix(p, "/assets/") &&
		p != "/healthz" && strings.Contains(r.Header.Get("Accept"), "text/html")
}

// Errors turns errors into responses: JSON for the API and scripts, a
// page for a browser.
type Errors struct {
	Log *slog.Logger
	// Page answers a browser's request with a page saying message.
	Page func(w http.ResponseWriter, r *http.Request, status int, message string)
}

// Write answers err as JSON, {"error": message, "parameter": name}, or as
// a page for a browser. It is the one place errors become responses:
// internal errors are logged and shown to users only as "internal error";
// a damaged archive is logged in full and shown without its path.
func (e *Errors) Write(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		// The client went away; there is no one to answer and nothing wrong.
		e.Log.Debug("request abandoned", "method", r.Method, "path", LogPath(r.URL.Path), "err", err)
		return
	}
	// A write the disk had no room for says so (507), whichever write
	// it was.
	err = photo.DiskFull(err)
	code := photo.ErrorCode(err)
	status, body := statuses[code], map[string]any{"error": photo.ErrorMessage(err)}
	if status == 0 {
		status = http.StatusInternalServerError
	}
	var pe *photo.Error
	if errors.As(err, &pe) && pe.Parameter != "" {
		body["parameter"] = pe.Parameter
	}
	if errors.As(err, &pe) && pe.Current != nil {
		body["current"] = pe.Current
	}
	switch code {
	case photo.EInternal:
		e.Log.Error("internal error", "method", r.Method, "path", LogPath(r.URL.Path), "err", err)
	case photo.ECorrupt:
		e.Log.Error("the archive is damaged", "method", r.Method, "path", LogPath(r.URL.Path), "err", err)
		body["error"] = "the archive is damaged; the server's log says how (see README: Operating it)"
	}
	h := w.Header()
	if status == http.StatusServiceUnavailable {
		h.Set("Retry-After", retryAfter)
	}
	if wantsPage(r) {
		e.Page(w, r, status, body["error"].(string))
		return
	}
	h.Del("Content-Disposition")
	h.Del("ETag")
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

// privatePaths are the routes whose next segment is an id that gives
// access to what it names (a resumable upload's, an import job's): a log
// says the route, not the id.
var privatePaths = []string{"/api/uploads/", "/api/imports/"}

// LogPath is a request's path as logs write it: an upload's or a job's
// id REDACTED.
func LogPath(path string) string {
	for _, p := range privatePaths {
		if rest, ok := strings.CutPrefix(path, p); ok && rest != "" {
			return p + "REDACTED"
		}
	}
	return path
}
