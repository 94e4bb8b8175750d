package sitepage

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/photo"
)

// newKit is a kit over the routes a page's frame links to, and a route
// that takes GET and PUT only.
func newKit() (*Kit, *mux.Router) {
	r := mux.NewRouter()
	ok := func(http.ResponseWriter, *http.Request) {}
	for name, path := range map[string]string{"explorer": "/", "stories": "/stories", "review": "/review", "about": "/about",
		"asset": "/assets/{file}", "signin": "/signin", "signout": "/signout"} {
		r.HandleFunc(path, ok).Name(name)
	}
	r.HandleFunc("/api/photos/{id}", ok).Methods(http.MethodGet, http.MethodPut).Name("photo")
	k := New(r, slog.New(slog.DiscardHandler))
	return k, r
}

// TestRenderWholeOrNotAtAll: a page is rendered before a byte is sent, so
// a template that fails mid-page answers a 500 error page, never a 200
// with half a page; a page that renders is sent with its type and Vary.
func TestRenderWholeOrNotAtAll(t *testing.T) {
	k, _ := newKit()
	half := templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		io.WriteString(w, "<p>the first half")
		return errors.New("the template failed")
	})
	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/about", nil)
	r.Header.Set("Accept", "text/html")
	k.Render(w, r, http.StatusOK, half)
	if w.Code != http.StatusInternalServerError || strings.Contains(w.Body.String(), "the first half") {
		t.Errorf("a failing template: %d %q; want a 500 page without the half", w.Code, w.Body.String())
	}
	// An error page that fails too is a plain 500.
	w = httptest.NewRecorder()
	k.Render(w, r, http.StatusInternalServerError, half)
	if w.Code != http.StatusInternalServerError || strings.Contains(w.Body.String(), "the first half") {
		t.Errorf("a failing error page: %d %q; want a 500 without the half", w.Code, w.Body.String())
	}
	whole := templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, "<p>all of it</p>")
		return err
	})
	w = httptest.NewRecorder()
	k.Render(w, r, http.StatusOK, whole)
	if w.Code != http.StatusOK || w.Body.String() != "<p>all of it</p>" || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") ||
		!strings.Contains(w.Header().Get("Vary"), "Cookie") || w.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("a page: %d %q %v", w.Code, w.Body.String(), w.Header())
	}
}

// TestErrorAnswersJSONOrAPage: an error is JSON (its message, the
// parameter it names) for the API and a page for a browser, with the
// status its code maps to.
func TestErrorAnswersJSONOrAPage(t *testing.T) {
	k, _ := newKit()
	err := photo.ParamErrorf("limit", "must be between 1 and 1000, not %q", "abc")
	w := httptest.NewRecorder()
	k.Error(w, httptest.NewRequest("GET", "/api/facets?limit=abc", nil), err)
	var body struct{ Error, Parameter string }
	if json.Unmarshal(w.Body.Bytes(), &body); w.Code != http.StatusBadRequest || body.Parameter != "limit" || !strings.Contains(body.Error, "between 1 and 1000") {
		t.Errorf("the API's error: %d %s", w.Code, w.Body.String())
	}
	w = httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/photos/nope", nil)
	r.Header.Set("Accept", "text/html")
	k.Error(w, r, photo.Errorf(photo.ENotFound, "photo nope not found"))
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "photo nope not found") || !strings.Contains(w.Body.String(), "<html") {
		t.Errorf("a browser's error: %d %.200s", w.Code, w.Body.String())
	}
}

// TestMethodNotAllowedNamesTheMethods: a method a route does not take is
// answered 405 with the ones it does, in Allow and in the message.
func TestMethodNotAllowedNamesTheMethods(t *testing.T) {
	k, _ := newKit()
	w := httptest.NewRecorder()
	k.MethodNotAllowed(w, httptest.NewRequest("DELETE", "/api/photos/abc", nil))
	if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, PUT" || !strings.Contains(w.Body.String(), "takes GET, PUT") {
		t.Errorf("%d Allow %q %s", w.Code, w.Header().Get("Allow"), w.Body.String())
	}
}

// TestPageMarksWhereTheReaderIs: the frame links the site's pages, marks
// the current one, offers the other language on the same address, and
// names no editor to a request without a guard's word.
func TestPageMarksWhereTheReaderIs(t *testing.T) {
	k, _ := newKit()
	p := k.Page(httptest.NewRequest("GET", "/stories?x=1", nil), "Stories", "stories")
	var current []string
	for _, l := range p.Nav {
		if l.Current {
			current = append(current, l.URL)
		}
	}
	if len(p.Nav) != 4 || len(current) != 1 || current[0] != "/stories" {
		t.Errorf("nav %+v: want four links, /stories current", p.Nav)
	}
	if !strings.Contains(p.OtherLang.URL, "/stories?") || !strings.Contains(p.OtherLang.URL, "x=1") || !strings.Contains(p.OtherLang.URL, "lang=ar") {
		t.Errorf("the other language: %+v", p.OtherLang)
	}
	if p.Editor != "" || p.CSRF != "" {
		t.Errorf("a reader's frame names editor %q", p.Editor)
	}
}
