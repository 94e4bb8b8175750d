package web

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestUnavailableIs503WithRetryAfter: an archive that cannot be reached
// (its server restarting) or is busy answers 503 with Retry-After, to the
// API as JSON with its message and to a browser as a page; never a 200
// or a 500.
func TestUnavailableIs503WithRetryAfter(t *testing.T) {
	errs := &Errors{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Page: func(w http.ResponseWriter, r *http.Request, status int, message string) {
		w.WriteHeader(status)
		io.WriteString(w, message)
	}}
	const msg = "the archive postgres://syriamap@db/archive cannot be reached; try again in a few seconds"
	for _, accept := range []string{"application/json", "text/html"} {
		r := httptest.NewRequest("GET", "/photos?q=aleppo", nil)
		if accept == "application/json" {
			r = httptest.NewRequest("GET", "/api/photos", nil)
		}
		r.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		errs.Write(w, r, photo.Errorf(photo.EUnavailable, msg))
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
			t.Errorf("%s: %d, Retry-After %q; want 503 with Retry-After", accept, w.Code, w.Header().Get("Retry-After"))
		}
		body := w.Body.String()
		if accept == "application/json" {
			var v struct{ Error string }
			json.Unmarshal(w.Body.Bytes(), &v)
			body = v.Error
		}
		if body != msg {
			t.Errorf("%s: said %q, want %q", accept, body, msg)
		}
	}
}
