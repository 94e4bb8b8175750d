package session

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/photo"
)

// fakeStore knows one session ("s3cret", CSRF "c5rf") and one token
// ("t0ken"), both of rana.
type fakeStore struct{ users bool }

func (f fakeStore) HasUsers(context.Context) (bool, error) { return f.users, nil }
func (fakeStore) PasswordHash(context.Context, string) (string, string, error) {
	return "", "", photo.Errorf(photo.ENotFound, "no")
}
func (fakeStore) TokenUser(_ context.Context, hash string) (string, error) {
	if hash == auth.HashSecret("t0ken") {
		return "rana", nil
	}
	return "", photo.Errorf(photo.ENotFound, "no token")
}
func (fakeStore) Session(_ context.Context, hash string) (photo.Session, error) {
	if hash == auth.HashSecret("s3cret") {
		return photo.Session{User: "rana", CSRF: "c5rf"}, nil
	}
	return photo.Session{}, photo.Errorf(photo.ENotFound, "no session")
}
func (fakeStore) AddSession(context.Context, string, photo.Session) error   { return nil }
func (fakeStore) DeleteSession(context.Context, string) error               { return nil }
func (fakeStore) AddDevice(context.Context, string, string) error           { return nil }
func (fakeStore) DeviceUser(context.Context, string) (string, error)        { return "", nil }
func (fakeStore) SignInCodeUser(context.Context, string) (string, error)    { return "", nil }
func (fakeStore) UseSignInCode(context.Context, string) error               { return nil }
func (fakeStore) SetPassword(context.Context, string, string, string) error { return nil }

// TestEditing: a write runs for an editor only — by token, or by session
// with its CSRF token (a read, GET or HEAD, without it) — and never on a read-only server or one with no
// editors; each refusal is the error the server answers.
func TestEditing(t *testing.T) {
	for _, tt := range []struct {
		name     string
		store    fakeStore
		readOnly bool
		header   []string
		want     string // the error code, "" when the write runs
	}{
		{"a bearer token", fakeStore{true}, false, []string{"Authorization", "Bearer t0ken"}, ""},
		{"a session with its CSRF token", fakeStore{true}, false, []string{"Cookie", Cookie + "=s3cret", CSRFHeader, "c5rf"}, ""},
		{"a session without it", fakeStore{true}, false, []string{"Cookie", Cookie + "=s3cret"}, photo.EForbidden},
		{"a session with another's", fakeStore{true}, false, []string{"Cookie", Cookie + "=s3cret", CSRFHeader, "nope"}, photo.EForbidden},
		{"nobody", fakeStore{true}, false, nil, photo.EUnauthorized},
		{"a token that is not valid", fakeStore{true}, false, []string{"Authorization", "Bearer nope"}, photo.EUnauthorized},
		{"a read-only server", fakeStore{true}, true, []string{"Authorization", "Bearer t0ken"}, photo.EForbidden},
		{"an archive with no editors", fakeStore{false}, false, []string{"Authorization", "Bearer t0ken"}, photo.EForbidden},
		// A read of an editor's own (an upload's job, HEAD of a resumable
		// upload) changes nothing: a session needs no token for it, but
		// still must be an editor's.
		{"GET: a session without a token", fakeStore{true}, false, []string{"Cookie", Cookie + "=s3cret"}, ""},
		{"HEAD: a session without a token", fakeStore{true}, false, []string{"Cookie", Cookie + "=s3cret"}, ""},
		{"GET: nobody", fakeStore{true}, false, nil, photo.EUnauthorized},
	} {
		var refused error
		g := New(tt.store, tt.readOnly, func(_ http.ResponseWriter, _ *http.Request, err error) { refused = err })
		ran := ""
		h := g.Editing(func(_ http.ResponseWriter, _ *http.Request, ed *Editor) { ran = ed.Name })
		method, _, isRead := strings.Cut(tt.name, ": ")
		if !isRead {
			method = "PUT"
		}
		r := httptest.NewRequest(method, "/api/photos/x/placement", strings.NewReader("{}"))
		for i := 0; i+1 < len(tt.header); i += 2 {
			r.Header.Set(tt.header[i], tt.header[i+1])
		}
		h(httptest.NewRecorder(), r)
		switch {
		case tt.want == "" && (ran != "rana" || refused != nil):
			t.Errorf("%s: ran as %q, refused %v", tt.name, ran, refused)
		case tt.want != "" && (ran != "" || photo.ErrorCode(refused) != tt.want):
			t.Errorf("%s: ran as %q, refused %v, want %s", tt.name, ran, refused, tt.want)
		}
	}
}

func TestSafeNext(t *testing.T) {
	for next, want := range map[string]string{
		"/review":               "/review",
		"/photos/abc?x=1":       "/photos/abc?x=1",
		"//evil.example":        "",
		"/\\evil.example":       "",
		"/\\/evil.example":      "",
		"/\tevil":               "",
		"https://evil.example/": "",
		"review":                "",
		"/%5Cevil.example":      "/%5Cevil.example", // stays a path: the browser does not decode it
		"":                      "",
	} {
		if got := SafeNext(next); got != want {
			t.Errorf("SafeNext(%q) = %q, want %q", next, got, want)
		}
	}
}

// TestSignedOutFormGoesToSignIn: a browser's form without a session is
// sent to sign in, and back to its page with what was typed; a script's
// request is answered 401.
func TestSignedOutFormGoesToSignIn(t *testing.T) {
	var refused error
	g := New(fakeStore{true}, false, func(_ http.ResponseWriter, _ *http.Request, err error) { refused = err })
	g.SignInURL = "/signin"
	h := g.Editing(func(http.ResponseWriter, *http.Request, *Editor) { t.Error("the write ran") })
	r := httptest.NewRequest("POST", "/review/photos/abc", strings.NewReader("note=east+of+town&lon=36.37&csrf=x"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Accept", "text/html,application/xhtml+xml")
	rec := httptest.NewRecorder()
	h(rec, r)
	want := "/signin?next=" + url.QueryEscape("/review/photos/abc?draft_lon=36.37&draft_note=east+of+town")
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != want || refused != nil {
		t.Errorf("a form without a session: %d to %q (refused %v), want 303 to %q", rec.Code, rec.Header().Get("Location"), refused, want)
	}
	r = httptest.NewRequest("PUT", "/api/photos/abc/placement", strings.NewReader("{}"))
	h(httptest.NewRecorder(), r)
	if photo.ErrorCode(refused) != photo.EUnauthorized {
		t.Errorf("a script without a token: %v", refused)
	}
}

// The client is the connection's address unless that is a trusted proxy;
// then the nearest X-Forwarded-For hop that is not one. What a client
// writes in the header itself is never believed.
func TestProxiesClient(t *testing.T) {
	proxies, err := ParseProxies([]string{"10.0.0.0/8, 192.0.2.1", "::1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, remote string
		xff          []string
		want         string
	}{
		{"no proxy", "198.51.100.7:5000", nil, "198.51.100.7"},
		{"an untrusted peer's header is ignored", "198.51.100.7:5000", []string{"203.0.113.9"}, "198.51.100.7"},
		{"behind the proxy", "10.1.2.3:5000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"a forged hop on the left is not reached", "10.1.2.3:5000", []string{"6.6.6.6, 203.0.113.9"}, "203.0.113.9"},
		{"two proxies", "192.0.2.1:443", []string{"203.0.113.9, 10.0.0.5"}, "203.0.113.9"},
		{"headers joined", "10.1.2.3:5000", []string{"6.6.6.6", "203.0.113.9"}, "203.0.113.9"},
		{"a garbled hop stops the walk", "10.1.2.3:5000", []string{"203.0.113.9, nonsense"}, "10.1.2.3"},
		{"no header behind the proxy", "10.1.2.3:5000", nil, "10.1.2.3"},
		{"IPv6 proxy", "[::1]:5000", []string{"2001:db8::1"}, "2001:db8::1"},
	} {
		r := httptest.NewRequest("POST", "/signin", nil)
		r.RemoteAddr = c.remote
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := proxies.Client(r).String(); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	if _, err := ParseProxies([]string{"10.0.0/8"}); err == nil {
		t.Error("a bad CIDR is taken")
	}
}
