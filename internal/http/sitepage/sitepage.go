// Package sitepage is what the server's handlers share to answer: links
// built from the routes' names, a page's frame (the site's links, who is
// signed in, the page in the other language), pages rendered whole before
// a byte is written, and errors as a page for a browser or JSON for the
// API (web.Errors, the one place errors become responses).
package sitepage

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/assets"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// Kit answers for the handlers of one router.
type Kit struct {
	router *mux.Router
	log    *slog.Logger
	errors web.Errors
	// Guard tells who is signed in, for the frame; set before serving.
	Guard *session.Guard
	// Tiles is the online tile layer drawn under the offline basemap of
	// the pages' maps; "" keeps them offline.
	Tiles string
}

// New returns the kit of router's routes, logging to log.
func New(router *mux.Router, log *slog.Logger) *Kit {
	k := &Kit{router: router, log: log}
	k.errors = web.Errors{Log: log, Page: k.errorPage}
	return k
}

// URL builds the path of a named route; pairs are the route's variables.
// A name or pair that the routes do not have is a programming error.
func (k *Kit) URL(name string, pairs ...string) string {
	u, err := k.router.Get(name).URL(pairs...)
	if err != nil {
		panic(fmt.Sprintf("sitepage: route %s %v: %v", name, pairs, err))
	}
	return u.Path
}

// Error answers err, as web.Errors does for every route.
func (k *Kit) Error(w http.ResponseWriter, r *http.Request, err error) { k.errors.Write(w, r, err) }

// Render answers with the page c and status.
func (k *Kit) Render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	// Rendered whole before a byte is written: a template that fails
	// gives a 500 error page, not a 200 with half a page.
	var page bytes.Buffer
	if err := c.Render(r.Context(), &page); err != nil {
		if status >= http.StatusInternalServerError { // the error page itself
			k.log.Error("rendering the error page", "path", r.URL.Path, "err", err)
			http.Error(w, http.StatusText(status), status)
			return
		}
		k.Error(w, r, fmt.Errorf("rendering the page %s: %w", r.URL.Path, err))
		return
	}
	// Every link to the site says the page's language, so that one
	// followed, copied or cited reads alike (i18n.Links).
	body := i18n.Links(page.Bytes(), i18n.From(r.Context()))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	// An address that says no language reads the one the reader chose
	// with the switch, kept in a cookie.
	w.Header().Add("Vary", "Cookie")
	if w.Header().Get("Cache-Control") == "" {
		w.Header().Set("Cache-Control", "no-cache")
	}
	w.WriteHeader(status)
	w.Write(body)
}

// Page is what every page shares; current names the site link to mark
// ("explore", "stories", "review", "about"). It says who is signed in,
// if anyone, and offers the page in the other language.
func (k *Kit) Page(r *http.Request, title, current string) views.Page {
	l := i18n.From(r.Context())
	var nav []views.Link
	for _, n := range [][2]string{{"explore", "explorer"}, {"stories", "stories"}, {"review", "review"}, {"about", "about"}} {
		nav = append(nav, views.Link{Label: l.T("nav." + n[0]), URL: k.URL(n[1]), Current: n[0] == current})
	}
	p := views.Page{Title: title, StyleURL: k.URL("asset", "file", assets.Name("style.css")),
		IconURL: k.URL("asset", "file", assets.Name("favicon.svg")), Nav: nav,
		SignInURL: k.URL("signin"), SignOutURL: k.URL("signout")}
	p.OtherLang, p.Digits = pagemodel.Choices(l, func(param, value string) string { return i18n.SwitchURL(r.URL, param, value) })
	// A page is shown whoever asks; a cookie that names no session, or a
	// database that cannot say, shows it as to anyone.
	if k.Guard != nil {
		if ed, err := k.Guard.EditorOf(r); err == nil && ed != nil && ed.CSRF != "" {
			p.Editor, p.CSRF = ed.Name, ed.CSRF
		}
	}
	return p
}

// WithMapAssets adds the map's style sheet and the pages' script to a page.
func (k *Kit) WithMapAssets(page *views.Page) {
	page.Styles = []string{k.URL("asset", "file", assets.Name("leaflet.css"))}
	k.WithScript(page)
}

// WithScript adds the pages' script to a page (which works without it).
func (k *Kit) WithScript(page *views.Page) {
	page.Scripts = []string{k.URL("asset", "file", assets.Name("app.js"))}
}

// MiniMap is the small map of a point [lon, lat] named label, on page,
// with the files it needs added to page.
func (k *Kit) MiniMap(page *views.Page, lon, lat float64, label string) *views.MiniMap {
	k.WithMapAssets(page)
	return &views.MiniMap{BasemapURL: k.URL("basemap"), LabelsURL: k.URL("labels"), Tiles: k.Tiles, Label: label,
		Lon: strconv.FormatFloat(lon, 'f', 6, 64), Lat: strconv.FormatFloat(lat, 'f', 6, 64)}
}

// WriteJSON answers v as JSON, encoded before anything is sent.
func (k *Kit) WriteJSON(w http.ResponseWriter, r *http.Request, contentType string, v any) {
	body, err := web.MarshalJSON(v)
	if err != nil {
		k.Error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Write(body)
}

// errorPage answers a browser's request with a page saying message.
func (k *Kit) errorPage(w http.ResponseWriter, r *http.Request, status int, message string) {
	l := i18n.From(r.Context())
	title := l.T("error.title", "status", status)
	if key := "error." + strconv.Itoa(status); i18n.Has(key) {
		title = l.T(key)
	}
	// A refused search is said in the reader's words; other reasons are
	// the server's, in English.
	message, said := pagemodel.Refusal(l, message)
	k.Render(w, r, status, views.ErrorPage(k.Page(r, title, ""), message, said))
}

// MethodNotAllowed answers a method a route does not take, naming the
// ones it does (in Allow, and in the message), as the router has them.
func (k *Kit) MethodNotAllowed(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		req := r.Clone(r.Context())
		req.Method = m
		var match mux.RouteMatch
		if k.router.Match(req, &match) && match.MatchErr == nil {
			allow = append(allow, m)
		}
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	k.Error(w, r, &photo.Error{Code: web.EMethod, Message: fmt.Sprintf("%s is not allowed here: %s takes %s", r.Method, r.URL.Path, strings.Join(allow, ", "))})
}
