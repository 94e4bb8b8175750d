package httpapi

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/http/session"
)

// clientFrom is an HTTP client whose connections come from the loopback
// address local (any of 127.0.0.0/8), with its own cookies.
func clientFrom(local string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Transport: &http.Transport{DialContext: d.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func signInAs(t *testing.T, c *http.Client, base, name, password string) *http.Response {
	t.Helper()
	resp, err := c.PostForm(base+"/signin", url.Values{"name": {name}, "password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// Behind the reverse proxy the README recommends, every client reaches
// the server from the proxy's address: with --trusted-proxy the brake
// counts the client the proxy names, so a guesser's wrong passwords do not
// make the editor wait. A real proxy (httputil.ReverseProxy, which
// appends X-Forwarded-For as nginx does) stands between them.
func TestSignInBehindAProxy(t *testing.T) {
	for _, trusted := range []bool{true, false} {
		opts := Options{}
		if trusted {
			opts.TrustedProxies, _ = session.ParseProxies([]string{"127.0.0.1/32"})
		}
		e := newEditorServer(t, opts)
		backend, _ := url.Parse(e.ts.URL)
		proxy := httputil.NewSingleHostReverseProxy(backend)
		proxy.Transport = &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.1")}}).DialContext}
		front := httptest.NewServer(proxy)
		t.Cleanup(front.Close)
		guesser, editor := clientFrom("127.0.0.2"), clientFrom("127.0.0.3")
		for range 20 {
			signInAs(t, guesser, front.URL, "rana", "not the password at all")
		}
		resp := signInAs(t, editor, front.URL, "rana", testPassword)
		if trusted && resp.StatusCode != http.StatusSeeOther {
			t.Errorf("behind a trusted proxy, after 20 wrong passwords from another client, the editor's sign-in: %s", resp.Status)
		}
		if !trusted && resp.StatusCode != http.StatusTooManyRequests {
			// Without --trusted-proxy the header is not believed: the
			// proxy is one client (and the test shows what the flag is for).
			t.Errorf("without --trusted-proxy the proxy's clients are one: %s, want 429", resp.Status)
		}
	}
}

// A thousand addresses, each guessing once, get no more checked guesses
// at a name than its budget; the editor at a browser that has signed in
// before still signs in, and at a new browser is told what to do.
func TestSignInFromAThousandAddresses(t *testing.T) {
	e := newEditorServer(t, Options{})
	usual := clientFrom("127.0.0.1")
	if resp := signInAs(t, usual, e.ts.URL, "rana", testPassword); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the first sign-in: %s", resp.Status)
	}
	checked, refused := 0, 0
	for i := range 1000 {
		c := clientFrom("127.1." + itoa(i/250) + "." + itoa(1+i%250))
		switch resp := signInAs(t, c, e.ts.URL, "rana", "guess number "+itoa(i)); resp.StatusCode {
		case http.StatusUnauthorized:
			checked++
		case http.StatusTooManyRequests:
			refused++
		default:
			t.Fatalf("guess %d: %s", i, resp.Status)
		}
	}
	if checked > auth.NameGuesses || checked+refused != 1000 {
		t.Errorf("1,000 addresses: %d checked guesses, %d refused; want at most %d checked", checked, refused, auth.NameGuesses)
	}
	if resp := signInAs(t, usual, e.ts.URL, "rana", testPassword); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the editor at their usual browser: %s", resp.Status)
	}
	fresh := clientFrom("127.0.0.9")
	resp, err := fresh.PostForm(e.ts.URL+"/signin", url.Values{"name": {"rana"}, "password": {testPassword}})
	if err != nil {
		t.Fatal(err)
	}
	body := readAll(t, resp)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, "a browser you have used before") || !strings.Contains(body, "one-time code") {
		t.Errorf("the editor at a new browser during the attack: %s", resp.Status)
	}
	// The server's operator gives a one-time code (syriamap users code):
	// the new browser signs in with it, once; a guesser's code of another
	// name, a wrong password with the code, and the code spent, do not.
	ctx := context.Background()
	code := auth.NewSecret()
	if err := e.a.AddSignInCode(ctx, auth.HashSecret(code), "rana", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	withCode := func(c *http.Client, password, code string) int {
		resp, err := c.PostForm(e.ts.URL+"/signin", url.Values{"name": {"rana"}, "password": {password}, "code": {code}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := withCode(clientFrom("127.0.0.10"), testPassword, "not-the-code"); got != http.StatusTooManyRequests {
		t.Errorf("a wrong code at a new browser: %d, want 429", got)
	}
	if got := withCode(fresh, testPassword, code); got != http.StatusSeeOther {
		t.Errorf("the editor at a new browser with the operator's one-time code: %d, want 303", got)
	}
	if got := withCode(clientFrom("127.0.0.12"), testPassword, code); got != http.StatusTooManyRequests {
		t.Errorf("the code used a second time: %d, want 429", got)
	}
	if got := signInAs(t, fresh, e.ts.URL, "rana", testPassword); got.StatusCode != http.StatusSeeOther {
		t.Errorf("the browser the code signed in is known from then on: %s", got.Status)
	}
	// A code is a password check like any other: braked by its failures.
	other := auth.NewSecret()
	e.a.AddSignInCode(ctx, auth.HashSecret(other), "rana", time.Now().Add(time.Hour))
	if got := withCode(clientFrom("127.0.0.11"), "wrong password", other); got != http.StatusUnauthorized {
		t.Errorf("a code with a wrong password: %d, want 401", got)
	}
	if got := withCode(clientFrom("127.0.0.13"), testPassword, other); got != http.StatusTooManyRequests {
		t.Errorf("the code right after a wrong password with it: %d, want 429 (its brake)", got)
	}
}

// The signed-in editor changes their password in the browser's form: the
// present one is checked, the other sessions end, this one stays, and the
// new password signs in where the old one no longer does. `users passwd`
// is tested in cmd/syriamap.
func TestChangePassword(t *testing.T) {
	e := newEditorServer(t, Options{})
	here, csrf := e.signIn(t)
	other, _ := e.signIn(t)
	const newPassword = "a brand new passphrase"
	post := func(current, next, again string) (*http.Response, string) {
		return do(t, here, "POST", e.ts.URL+"/signin/password", url.Values{"csrf": {csrf}, "current": {current}, "new": {next}, "again": {again}}.Encode(),
			"Content-Type", "application/x-www-form-urlencoded", "Accept", "text/html")
	}
	now := time.Now()
	e.s.signin.Brake.Now = func() time.Time { return now }
	if resp, body := post("wrong wrong wrong", newPassword, newPassword); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "present password is wrong") {
		t.Errorf("a wrong present password: %s", resp.Status)
	}
	// It is braked as a sign-in is: a session left open is no way to guess.
	if resp, _ := post(testPassword, newPassword, newPassword); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("at once after a wrong present password: %s", resp.Status)
	}
	now = now.Add(2 * time.Second)
	if resp, _ := post(testPassword, newPassword, "something else entirely"); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("two different new passwords: %s", resp.Status)
	}
	if resp, body := post(testPassword, newPassword, newPassword); resp.StatusCode != http.StatusOK || !strings.Contains(body, "every other browser") {
		t.Fatalf("the change: %s", resp.Status)
	}
	if _, page := do(t, here, "GET", e.ts.URL+"/about", ""); !strings.Contains(page, "Signed in as") {
		t.Errorf("the browser that changed it was signed out")
	}
	if _, page := do(t, other, "GET", e.ts.URL+"/about", ""); strings.Contains(page, "Signed in as") {
		t.Errorf("another browser is still signed in after the change")
	}
	if _, hash, _ := e.a.PasswordHash(context.Background(), "rana"); !auth.CheckPassword(hash, newPassword) || auth.CheckPassword(hash, testPassword) {
		t.Errorf("the stored password was not changed")
	}
	// Without the session's CSRF token nothing changes.
	resp, _ := do(t, here, "POST", e.ts.URL+"/signin/password", url.Values{"current": {newPassword}, "new": {"x" + newPassword}, "again": {"x" + newPassword}}.Encode(),
		"Content-Type", "application/x-www-form-urlencoded")
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("without the CSRF token: %s", resp.Status)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
