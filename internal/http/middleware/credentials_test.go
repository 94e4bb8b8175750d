package middleware

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A credential in an address is refused with 400 before any handler runs,
// and its value never reaches the log (issue 52, fault 6: ?access_token=
// was ignored and logged whole).
func TestCredentialsInTheAddressAreRefusedAndNeverLogged(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ran := false
	h := LogRequests(RefuseCredentialsInQuery(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ran = true }),
		func(w http.ResponseWriter, r *http.Request, err error) {
			http.Error(w, err.Error(), http.StatusBadRequest)
		}),
		log, func() time.Duration { return time.Second })
	for _, q := range []string{"access_token=s3cr3t-value", "q=aleppo&Token=s3cr3t-value", "api%5Fkey=s3cr3t-value", "password=s3cr3t-value&x=1"} {
		ran = false
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/photos.geojson?"+q, nil))
		if rec.Code != http.StatusBadRequest || ran || !strings.Contains(rec.Body.String(), "Authorization: Bearer") {
			t.Errorf("?%s: %d, handler ran %v: %s", q, rec.Code, ran, rec.Body.String())
		}
	}
	if strings.Contains(logs.String(), "s3cr3t") || !strings.Contains(logs.String(), "REDACTED") {
		t.Errorf("the log holds a credential, or did not say it was redacted:\n%s", logs.String())
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/photos.geojson?q=token+of+peace&place=gn:1", nil))
	if rec.Code != http.StatusOK || !ran {
		t.Errorf("an ordinary query that holds the word token: %d", rec.Code)
	}
}

// TestUploadIDsAreNeverLogged (issue 65, 3): the id in a resumable
// upload's address, or an import job's, is left out of the request log
// (whoever reads the log could otherwise name it); the route is kept.
func TestUploadIDsAreNeverLogged(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	h := LogRequests(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), log, func() time.Duration { return time.Second })
	for _, c := range []struct{ method, path, logged string }{
		{"PATCH", "/api/uploads/0f1e2d3c4b5a69788796a5b4c3d2e1f0", "path=/api/uploads/REDACTED"},
		{"HEAD", "/api/uploads/0f1e2d3c4b5a69788796a5b4c3d2e1f0/", "path=/api/uploads/REDACTED"},
		{"GET", "/api/imports/0f1e2d3c4b5a6978", "path=/api/imports/REDACTED"},
		{"POST", "/api/uploads/", "path=/api/uploads/ "},
		{"POST", "/api/imports", "path=/api/imports "},
		{"GET", "/api/photos/0f1e2d3c4b5a6978", "path=/api/photos/0f1e2d3c4b5a6978"},
	} {
		logs.Reset()
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(c.method, c.path, nil))
		if got := logs.String(); !strings.Contains(got, c.logged) {
			t.Errorf("%s %s logged as %s; want %s", c.method, c.path, got, c.logged)
		}
	}
}
