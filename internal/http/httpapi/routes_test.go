package httpapi

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gorilla/mux"
)

// route is one of the router's routes, as the test sees it.
type route struct {
	name, template string
	path           string // the template with sample values
	methods        []string
}

// routesOf walks the server's own router, so that a route added later
// is in every table below without being listed.
func routesOf(t *testing.T, s *Server, sample map[string]string) []route {
	t.Helper()
	var out []route
	err := s.router.Walk(func(r *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		tpl, err := r.GetPathTemplate()
		if err != nil {
			return err
		}
		methods, _ := r.GetMethods()
		vars, _ := r.GetVarNames()
		var pairs []string
		for _, v := range vars {
			val, ok := sample[v]
			if v == "place" && !ok {
				val, ok = "arc:a-camp", true // an added place's id
			}
			if !ok {
				t.Fatalf("route %s: no sample value for {%s}", tpl, v)
			}
			pairs = append(pairs, v, val)
		}
		u, err := r.URLPath(pairs...)
		if err != nil {
			return err
		}
		out = append(out, route{name: r.GetName(), template: tpl, path: u.Path, methods: methods})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func isWrite(method string) bool {
	return method != http.MethodGet && method != http.MethodHead
}

// TestEveryRoute: from the router itself, every write route refuses a
// request with no editor (401) and a session's request without its CSRF
// token (403), and every path answers a method it does not take with 405
// naming the methods it does take.
func TestEveryRoute(t *testing.T) {
	e := newEditorServer(t, Options{Uploads: t.TempDir()}) // its routes too
	id := e.photoID(t, "?place=ocha:C2320")
	sample := map[string]string{"id": id, "collection": "photos", "z": "1", "x": "1", "y": "0",
		"file": "app.js", "path": "2016/kafranbel.png", "sha": strings.Repeat("0", 64), "slug": "a-story", "dataset": "ucdp-ged", "event": "1", "look": "1"}
	routes := routesOf(t, e.s, sample)
	if len(routes) < 40 {
		t.Fatalf("%d routes walked", len(routes))
	}
	session, _ := e.signIn(t)
	methodsAt := map[string][]string{}
	writes := 0
	for _, r := range routes {
		methodsAt[r.path] = append(methodsAt[r.path], r.methods...)
		for _, m := range r.methods {
			if !isWrite(m) || r.template == "/signin" { // signing in is how one becomes an editor
				continue
			}
			writes++
			if resp, out := do(t, nil, m, e.ts.URL+r.path, "{}"); resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s with no editor: %s %s", m, r.template, resp.Status, out)
			}
			if resp, out := do(t, session, m, e.ts.URL+r.path, "{}"); resp.StatusCode != http.StatusForbidden || !strings.Contains(out, "CSRF") {
				t.Errorf("%s %s from a session without its CSRF token: %s %s", m, r.template, resp.Status, out)
			}
		}
	}
	if writes < 4 {
		t.Errorf("%d write routes: the walk missed some", writes)
	}
	for path, methods := range methodsAt {
		// A method the path does not take.
		other := http.MethodDelete
		for _, m := range []string{http.MethodDelete, http.MethodPut, http.MethodPost} {
			if !slices.Contains(methods, m) {
				other = m
				break
			}
		}
		resp, out := do(t, nil, other, e.ts.URL+path, "")
		allow := strings.Split(resp.Header.Get("Allow"), ", ")
		slices.Sort(allow)
		want := slices.Compact(slices.Sorted(slices.Values(methods)))
		if resp.StatusCode != http.StatusMethodNotAllowed || !slices.Equal(allow, want) {
			t.Errorf("%s %s: %s, Allow %q, want %q (%s)", other, path, resp.Status, allow, want, out)
		}
	}
}
