package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/photo"
)

const testPassword = httpapitest.Password

// editorServer is the test server with an editor, rana, who has a bearer
// token; its log goes to logs.
type editorServer struct {
	s     *Server
	ts    *httptest.Server
	a     *archive.Archive
	token string
	logs  *bytes.Buffer
}

func newEditorServer(t *testing.T, opts Options) *editorServer {
	t.Helper()
	_, _, a := newTestServer(t)
	token := addEditor(t, a)
	logs := &bytes.Buffer{}
	opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s, err := New(a, opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	s.baseURL = ts.URL
	return &editorServer{s: s, ts: ts, a: a, token: token, logs: logs}
}

// addEditor adds the editor rana, with testPassword, to a, and returns
// a bearer token of hers.
func addEditor(t testing.TB, a *archive.Archive) string {
	t.Helper()
	return httpapitest.AddEditor(t, a, httpapitest.Editor)
}

// tokenOf adds editor name to a and returns a bearer token of theirs.
func tokenOf(t *testing.T, a *archive.Archive, name string) string {
	t.Helper()
	return httpapitest.AddEditor(t, a, name)
}

// do sends a request without following redirects; header is pairs.
func do(t *testing.T, c *http.Client, method, u, body string, header ...string) (*http.Response, string) {
	t.Helper()
	return httpapitest.Do(t, c, method, u, body, header...)
}

// signIn signs rana in and returns a client holding the session and the
// session's CSRF token, read from a page.
func (e *editorServer) signIn(t *testing.T) (*http.Client, string) {
	t.Helper()
	return httpapitest.SignIn(t, e.ts.URL)
}

func (e *editorServer) photoID(t *testing.T, query string) string {
	t.Helper()
	return httpapitest.PhotoID(t, e.ts, query)
}

// unchanged fails the test if the photo has any event or moved.
func (e *editorServer) unchanged(t *testing.T, id, why string) {
	t.Helper()
	httpapitest.Unchanged(t, e.a, id, why)
}

func TestWritesNeedAnEditor(t *testing.T) {
	e := newEditorServer(t, Options{})
	zamalka := e.photoID(t, "?place=ocha:C2320")
	body := `{"place_id": "gn:169897", "note": "the agency says Harasta"}`
	placement := e.ts.URL + "/api/photos/" + zamalka + "/placement"
	for _, tt := range []struct {
		name   string
		header []string
		status int
	}{
		{"no session or token", nil, 401},
		{"a token that is not valid", []string{"Authorization", "Bearer nope"}, 401},
		{"not a bearer", []string{"Authorization", "Basic cmFuYTp4"}, 401},
	} {
		resp, out := do(t, nil, "PUT", placement, body, tt.header...)
		if resp.StatusCode != tt.status || !strings.Contains(out, `"error"`) {
			t.Errorf("%s: %s %s", tt.name, resp.Status, out)
		}
	}
	// A session without its CSRF token, and a forged cross-site form.
	c, csrf := e.signIn(t)
	resp, out := do(t, c, "PUT", placement, body)
	if resp.StatusCode != 403 || !strings.Contains(out, "CSRF") {
		t.Errorf("session without the CSRF token: %s %s", resp.Status, out)
	}
	form := url.Values{"action": {"confirm"}, "csrf": {csrf}}.Encode()
	resp, out = do(t, c, "POST", e.ts.URL+"/review/photos/"+zamalka, form, "Content-Type", "application/x-www-form-urlencoded",
		"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if resp.StatusCode != 403 || !strings.Contains(out, "another site") {
		t.Errorf("a cross-site form: %s %s", resp.Status, out)
	}
	resp, _ = do(t, c, "POST", e.ts.URL+"/review/photos/"+zamalka, url.Values{"action": {"confirm"}, "csrf": {"forged"}}.Encode(),
		"Content-Type", "application/x-www-form-urlencoded")
	if resp.StatusCode != 403 {
		t.Errorf("a form with a forged CSRF token: %s", resp.Status)
	}
	e.unchanged(t, zamalka, "refused writes")

	// With the token in its header, the session writes.
	resp, out = do(t, c, "PUT", placement, body, session.CSRFHeader, csrf)
	var f struct{ Properties map[string]any }
	json.Unmarshal([]byte(out), &f)
	if resp.StatusCode != 200 || f.Properties["placement"] != "corrected" || f.Properties["corrected_by"] != "rana" || f.Properties["place_id"] != "gn:169897" {
		t.Errorf("a session's write: %s %s", resp.Status, out)
	}
	// Signed out, the session writes no more.
	resp, _ = do(t, c, "POST", e.ts.URL+"/signout", url.Values{"csrf": {csrf}}.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign out: %s", resp.Status)
	}
	resp, _ = do(t, c, "PUT", placement, `{"confirm": true}`, session.CSRFHeader, csrf)
	if resp.StatusCode != 401 {
		t.Errorf("after sign-out: %s", resp.Status)
	}
}

func TestSignInSlowsGuessing(t *testing.T) {
	e := newEditorServer(t, Options{})
	now := time.Now()
	e.s.signin.Brake.Now = func() time.Time { return now }
	// signIn posts from an address of its own (the handler is called
	// directly: a test client always comes from 127.0.0.1).
	signIn := func(addr, name, password string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/signin", strings.NewReader(url.Values{"name": {name}, "password": {password}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.RemoteAddr = addr + ":40000"
		rec := httptest.NewRecorder()
		e.s.Handler().ServeHTTP(rec, req)
		return rec
	}
	retryAfter := func(r *httptest.ResponseRecorder) int {
		n, _ := strconv.Atoi(r.Header().Get("Retry-After"))
		return n
	}
	if r := signIn("10.0.0.1", "rana", "wrong password!"); r.Code != 401 {
		t.Errorf("a wrong password: %d", r.Code)
	}
	// At once again, even the right password must wait; each wrong one
	// doubles the wait.
	if r := signIn("10.0.0.1", "rana", testPassword); r.Code != 429 || retryAfter(r) != 1 {
		t.Errorf("right after a wrong one: %d, Retry-After %d", r.Code, retryAfter(r))
	}
	for i, want := range []int{2, 4} {
		now = now.Add(time.Duration(want/2) * time.Second)
		if r := signIn("10.0.0.1", "rana", "wrong again!!"); r.Code != 401 {
			t.Fatalf("wrong password %d: %d", i+2, r.Code)
		}
		if r := signIn("10.0.0.1", "rana", testPassword); r.Code != 429 || retryAfter(r) != want {
			t.Errorf("after %d wrong passwords: %d, Retry-After %d; want %d s", i+2, r.Code, retryAfter(r), want)
		}
	}
	// Nobody can lock an editor out: from an address that has not
	// failed, the right password works while the name's brake holds.
	if r := signIn("10.0.0.2", "rana", testPassword); r.Code != http.StatusSeeOther {
		t.Errorf("the editor from another address: %d %s", r.Code, r.Body)
	}
	// An unknown name is answered as a wrong password.
	now = now.Add(time.Hour)
	if r := signIn("10.0.0.3", "nobody", "x"); r.Code != 401 {
		t.Errorf("an unknown name: %d", r.Code)
	}
	// A hundred wrong passwords at once from one address: one is checked,
	// the rest wait (the attempt is counted before the check).
	now = now.Add(time.Hour)
	codes := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := signIn("10.0.0.4", "rana", "a wrong guess")
			mu.Lock()
			codes[r.Code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[401] != 1 || codes[429] != 99 {
		t.Errorf("100 at once from one address: %v; want one 401 and 99 429s", codes)
	}
	// The password is nowhere: not in the log, not in the archive.
	if strings.Contains(e.logs.String(), testPassword) {
		t.Error("the password is in the log")
	}
	_, hash, _ := e.a.PasswordHash(context.Background(), "rana")
	if strings.Contains(hash, testPassword) || !strings.HasPrefix(hash, "$argon2id$") {
		t.Errorf("the stored password: %q", hash)
	}
}

// Password checks take 19 MiB each: beyond a few at once, sign-ins are
// answered 503 with Retry-After — the form again, in the reader's
// language — and the refused attempt is not counted against the address.
func TestSignInFloodIsRefused(t *testing.T) {
	e := newEditorServer(t, Options{})
	for range cap(e.s.signin.Checks) {
		e.s.signin.Checks <- struct{}{}
	}
	form := url.Values{"name": {"rana"}, "password": {testPassword}}.Encode()
	// The form again, in the reader's words (an Arabic page's in Arabic).
	for lang, want := range map[string]string{"en": "Too many people are signing in", "ar": "يسجّل كثيرون دخولهم"} {
		resp, out := do(t, nil, "POST", e.ts.URL+"/signin?lang="+lang, form, "Content-Type", "application/x-www-form-urlencoded", "Accept", "text/html")
		if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !strings.Contains(out, want) || !strings.Contains(out, `name="password"`) {
			t.Errorf("%s, with every check slot taken: %s %q", lang, resp.Status, out)
		}
	}
	for range cap(e.s.signin.Checks) {
		<-e.s.signin.Checks
	}
	if resp, _ := do(t, nil, "POST", e.ts.URL+"/signin", form, "Content-Type", "application/x-www-form-urlencoded"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("then: %s (the refused attempt was counted)", resp.Status)
	}
}

// "Rana" and "rana" are one editor: a second cannot be added, and either
// spelling signs in as the one stored.
func TestEditorNamesIgnoreCase(t *testing.T) {
	e := newEditorServer(t, Options{})
	hash, _ := auth.HashPassword("another long password")
	if err := e.a.AddEditor(context.Background(), "Rana", hash); photo.ErrorCode(err) != photo.EConflict {
		t.Errorf("adding Rana beside rana: %v", err)
	}
	if user, _, err := e.a.PasswordHash(context.Background(), "RANA"); err != nil || user != "rana" {
		t.Errorf("RANA is %q, %v; want rana", user, err)
	}
}

func TestReadOnlyServerTakesNoWrites(t *testing.T) {
	e := newEditorServer(t, Options{ReadOnly: true})
	zamalka := e.photoID(t, "?place=ocha:C2320")
	resp, out := do(t, nil, "PUT", e.ts.URL+"/api/photos/"+zamalka+"/placement", `{"confirm": true}`, "Authorization", "Bearer "+e.token)
	if resp.StatusCode != 403 || !strings.Contains(out, "read-only") {
		t.Errorf("read-only server: %s %s", resp.Status, out)
	}
	// Without editors, none either.
	_, ts, a := newTestServer(t)
	_ = a
	resp, out = do(t, nil, "GET", ts.URL+"/review", "", "Accept", "text/html")
	if resp.StatusCode != 200 || !strings.Contains(out, "no editors") {
		t.Errorf("review without editors: %s", resp.Status)
	}
	e.unchanged(t, zamalka, "a read-only server")
}

// TestEveryPageEscapes imports a photo whose caption, photographer,
// agency and note carry markup and opens every page that shows them, as
// an editor: no script but the site's, no element from the markup, and
// the text shown as text. (A template that wrote any of them raw would
// fail here.)
func TestEveryPageEscapes(t *testing.T) {
	e := newEditorServer(t, Options{})
	const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>`
	file := filepath.Join(t.TempDir(), "evil.csv")
	os.WriteFile(file, []byte("caption,photographer,agency\n"+
		`"Men walk in Idlib `+strings.ReplaceAll(evil, `"`, `""`)+`, Syria, May 2, 2016.","Ammar `+evil+`","AFP`+evil+`"`+"\n"), 0o644)
	if _, err := e.a.ImportFile(context.Background(), file, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=alert")
	c, csrf := e.signIn(t)
	// A correction whose note carries the markup, for the history and log.
	if resp, body := do(t, c, "PUT", e.ts.URL+"/api/photos/"+id+"/placement", `{"confirm": true, "note": "`+strings.ReplaceAll(evil, `"`, `\"`)+`"}`,
		"Content-Type", "application/json", "X-CSRF-Token", csrf); resp.StatusCode != 200 {
		t.Fatalf("confirm: %d %s", resp.StatusCode, body)
	}
	var place string
	for _, path := range []string{"/?q=alert", "/photos/" + id, "/review", "/review/photos/" + id, "/review/log",
		"/ogc/collections/photos/items?f=html&q=alert", "/about", "/signin"} {
		resp, body := do(t, c, "GET", e.ts.URL+path, "")
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		root, err := html.Parse(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range elements(root, "script") {
			if !strings.HasPrefix(attr(sc, "src"), "/assets/") || sc.FirstChild != nil {
				t.Errorf("%s: a script that is not the site's: %q", path, attr(sc, "src"))
			}
		}
		if bad := find(root, func(n *html.Node) bool { _, ok := attrOK(n, "onerror"); return ok }); len(bad) > 0 {
			t.Errorf("%s: the markup became an element: <%s onerror>", path, bad[0].Data)
		}
		if path == "/photos/"+id {
			if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
				t.Errorf("%s: the caption is not shown as text", path)
			}
			for _, a := range elements(root, "a") {
				if h := attr(a, "href"); strings.HasPrefix(h, "/places/") && place == "" {
					place = h
				}
			}
		}
	}
	if place == "" {
		t.Fatal("the photo page links no place")
	}
	if resp, body := do(t, c, "GET", e.ts.URL+place, ""); resp.StatusCode != 200 || strings.Contains(body, "<script>alert") {
		t.Errorf("%s: %d, or raw markup", place, resp.StatusCode)
	}
}
