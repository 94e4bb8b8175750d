package session

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestExpecting: inside Editing, a write's context carries the version
// it expects of the route's thing — from If-Match (a strong tag of its
// kind), else a page form's version field — and none without either, or
// with a tag of another kind's (-1: it matches no version).
func TestExpecting(t *testing.T) {
	tag := photo.ETag(photo.VersionPhoto, 7)
	for _, tt := range []struct {
		name, body string
		header     []string
		want       int64
		ok         bool
	}{
		{"If-Match", "", []string{"If-Match", tag}, 7, true},
		{"a form's version", url.Values{"version": {"5"}, CSRFField: {"c5rf"}}.Encode(), []string{"Content-Type", "application/x-www-form-urlencoded"}, 5, true},
		{"If-Match before the form", url.Values{"version": {"5"}, CSRFField: {"c5rf"}}.Encode(), []string{"Content-Type", "application/x-www-form-urlencoded", "If-Match", tag}, 7, true},
		{"a place's tag", "", []string{"If-Match", photo.ETag(photo.VersionPlace, 7)}, -1, true},
		{"neither", "", nil, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got int64
			var ok, ran bool
			g := New(fakeStore{true}, false, func(w http.ResponseWriter, r *http.Request, err error) { t.Errorf("refused: %v", err) })
			r := mux.NewRouter()
			r.Handle("/photos/{id}", g.Editing(Expecting(photo.VersionPhoto, "id", func(w http.ResponseWriter, r *http.Request, ed *Editor) {
				ran = true
				got, ok = photo.Expected(r.Context(), photo.VersionPhoto, "p1")
			})))
			req := httptest.NewRequest(http.MethodPost, "/photos/p1", strings.NewReader(tt.body))
			req.Header.Set("Cookie", Cookie+"=s3cret")
			req.Header.Set(CSRFHeader, "c5rf")
			for i := 0; i+1 < len(tt.header); i += 2 {
				req.Header.Set(tt.header[i], tt.header[i+1])
			}
			r.ServeHTTP(httptest.NewRecorder(), req)
			if !ran || got != tt.want || ok != tt.ok {
				t.Errorf("ran %v, expected %d %v; want %d %v", ran, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestIsEditorAndCSRF: a session is an editor's with its CSRF token for
// the forms; a bearer token an editor's with none; anyone else neither.
func TestIsEditorAndCSRF(t *testing.T) {
	g := New(fakeStore{true}, false, nil)
	for _, tt := range []struct {
		name, header, value string
		editor              bool
		csrf                string
	}{
		{"a session", "Cookie", Cookie + "=s3cret", true, "c5rf"},
		{"a token", "Authorization", "Bearer t0ken", true, ""},
		{"a cookie of no session", "Cookie", Cookie + "=gone", false, ""},
		{"a token that is not valid", "Authorization", "Bearer nope", false, ""},
		{"nobody", "", "", false, ""},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if tt.header != "" {
			r.Header.Set(tt.header, tt.value)
		}
		if got := g.IsEditor(r); got != tt.editor {
			t.Errorf("%s: IsEditor %v, want %v", tt.name, got, tt.editor)
		}
		if got := g.CSRFOf(r); got != tt.csrf {
			t.Errorf("%s: CSRFOf %q, want %q", tt.name, got, tt.csrf)
		}
	}
}
