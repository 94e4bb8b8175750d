package signin

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/sitepage"
	"github.com/syriamap/syriamap/internal/store"
)

// newSignIn serves sign-in over a new archive with the editor rana, whose
// password is given, and a page that says who is signed in.
func newSignIn(t *testing.T, password string) (*httptest.Server, *store.DB) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	hash, err := auth.HashPassword(password)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AddUser(ctx, "rana", hash); err != nil {
		t.Fatal(err)
	}
	r := mux.NewRouter()
	log := slog.New(slog.DiscardHandler)
	kit := sitepage.New(r, log)
	guard := session.New(db, false, kit.Error)
	kit.Guard = guard
	var base string
	h := &Handlers{Kit: kit, DB: db, Guard: guard, Log: log, Now: time.Now, Base: func() string { return base },
		Checks: make(chan struct{}, PasswordChecks)}
	whoami := func(w http.ResponseWriter, r *http.Request) {
		if ed, _ := guard.EditorOf(r); ed != nil {
			w.Write([]byte("editor " + ed.Name))
		}
	}
	for name, path := range map[string]string{"explorer": "/", "stories": "/stories", "about": "/about", "asset": "/assets/{file}"} {
		r.HandleFunc(path, whoami).Name(name)
	}
	r.HandleFunc("/review", whoami).Name("review")
	r.HandleFunc("/signin", h.Form).Methods(http.MethodGet).Name("signin")
	r.HandleFunc("/signin", h.SignIn).Methods(http.MethodPost)
	r.Handle("/signout", guard.Editing(h.SignOut)).Methods(http.MethodPost).Name("signout")
	r.Handle("/signin/password", guard.Editing(h.ChangePassword)).Methods(http.MethodPost).Name("password")
	ts := httptest.NewServer(r)
	t.Cleanup(ts.Close)
	base = ts.URL
	return ts, db
}

func client(t *testing.T) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func post(t *testing.T, c *http.Client, u string, form url.Values) *http.Response {
	t.Helper()
	res, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

func whoami(t *testing.T, c *http.Client, u string) string {
	t.Helper()
	res, err := c.Get(u + "/review")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 256)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return b.String()
}

// TestSignInAndOut: a wrong password is 401 and starts no session; the
// right one starts one (a cookie the guard knows) and goes on to next if
// it is the site's own, never elsewhere; signing out ends the session.
func TestSignInAndOut(t *testing.T) {
	ts, db := newSignIn(t, "a long pass phrase")
	c := client(t)
	res := post(t, c, ts.URL+"/signin", url.Values{"name": {"rana"}, "password": {"a long pass phrase"}, "next": {"https://evil.example/"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/review" {
		t.Errorf("signed in with next elsewhere: %s to %q, want 303 to /review", res.Status, res.Header.Get("Location"))
	}
	if who := whoami(t, c, ts.URL); who != "editor rana" {
		t.Fatalf("signed in, the browser is %q", who)
	}
	// Sign-out is a write: it needs the session's CSRF token.
	if res := post(t, c, ts.URL+"/signout", nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("sign-out without the CSRF token: %s, want 403", res.Status)
	}
	if who := whoami(t, c, ts.URL); who != "editor rana" {
		t.Errorf("a refused sign-out signed %q out", who)
	}
	u, _ := url.Parse(ts.URL)
	kept := c.Jar.Cookies(u) // a copy of the cookie, kept by whoever took it
	if res := post(t, c, ts.URL+"/signout", url.Values{"csrf": {csrfOf(t, db, c, ts.URL)}}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-out: %s, want 303", res.Status)
	}
	if who := whoami(t, c, ts.URL); who != "" {
		t.Errorf("signed out, the browser is %q", who)
	}
	thief := client(t)
	thief.Jar.SetCookies(u, kept)
	if who := whoami(t, thief, ts.URL); who != "" {
		t.Errorf("the session's cookie still signs in %q after sign-out", who)
	}
	// A stranger's wrong guess: 401, no session; and the brake asks the
	// next guess for the name from a browser it never used to wait.
	stranger := client(t)
	if res := post(t, stranger, ts.URL+"/signin", url.Values{"name": {"rana"}, "password": {"wrong"}}); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong password: %s, want 401", res.Status)
	}
	if who := whoami(t, stranger, ts.URL); who != "" {
		t.Errorf("after a wrong password the browser is %q", who)
	}
	if res := post(t, stranger, ts.URL+"/signin", url.Values{"name": {"rana"}, "password": {"a long pass phrase"}}); res.StatusCode != http.StatusTooManyRequests {
		t.Errorf("right at once after a wrong guess, from a new browser: %s, want 429 (the brake)", res.Status)
	}
}

// TestChangePasswordSignsOutElsewhere: the owner changes their password
// (with the old one) and stays signed in; another browser's session ends,
// and the old password no longer signs in.
func TestChangePasswordSignsOutElsewhere(t *testing.T) {
	ts, db := newSignIn(t, "the first pass phrase")
	here, there := client(t), client(t)
	for _, c := range []*http.Client{here, there} {
		if res := post(t, c, ts.URL+"/signin", url.Values{"name": {"rana"}, "password": {"the first pass phrase"}}); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign-in: %s", res.Status)
		}
	}
	csrf := csrfOf(t, db, here, ts.URL)
	res := post(t, here, ts.URL+"/signin/password", url.Values{"csrf": {csrf}, "current": {"the first pass phrase"}, "new": {"a second pass phrase"}, "again": {"a second pass phrase"}})
	if res.StatusCode != http.StatusOK {
		t.Fatalf("changing the password: %s", res.Status)
	}
	if who := whoami(t, here, ts.URL); who != "editor rana" {
		t.Errorf("the browser that changed it is %q", who)
	}
	if who := whoami(t, there, ts.URL); who != "" {
		t.Errorf("another browser is still %q", who)
	}
	if res := post(t, client(t), ts.URL+"/signin", url.Values{"name": {"rana"}, "password": {"the first pass phrase"}}); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("the old password: %s, want 401", res.Status)
	}
}

// csrfOf reads the CSRF token of the browser c's session.
func csrfOf(t *testing.T, db *store.DB, c *http.Client, base string) string {
	t.Helper()
	u, _ := url.Parse(base)
	for _, ck := range c.Jar.Cookies(u) {
		if ck.Name == session.Cookie {
			se, err := db.Session(context.Background(), auth.HashSecret(ck.Value))
			if err != nil {
				t.Fatal(err)
			}
			return se.CSRF
		}
	}
	t.Fatal("no session cookie")
	return ""
}
