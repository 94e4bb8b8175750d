package httpapi

import (
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/session"
	"github.com/syriamap/syriamap/views"
)

// signInPage shows the sign-in form, or who is signed in.
func (s *Server) signInPage(w http.ResponseWriter, r *http.Request) {
	m := views.SignIn{Page: s.page(r, "Sign in", ""), Action: s.url("signin"), Next: safeNext(r.URL.Query().Get("next"))}
	if err := s.guard.Writable(r.Context()); err != nil {
		m.Message = photo.ErrorMessage(err)
	}
	s.render(w, r, http.StatusOK, views.SignInPage(m))
}

// signIn checks a name and password and starts a session. Wrong ones are
// answered alike, after the same work. The brake counts the attempt as
// failed before the password is checked (see auth.Brake), and at most
// passwordChecks checks run at once: each takes 19 MiB and a core for
// 40 ms, so a flood of sign-ins is answered 503 beyond that rather than
// let run the server out of memory.
func (s *Server) signIn(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	name, password := strings.TrimSpace(r.PostFormValue("name")), r.PostFormValue("password")
	m := views.SignIn{Page: s.page(r, "Sign in", ""), Action: s.url("signin"), Next: safeNext(r.PostFormValue("next")), Name: name}
	wait, attempt := s.brake.Try(strings.ToLower(name), clientAddr(r))
	if attempt == nil {
		secs := int(wait.Seconds() + 0.999)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		m.Message = "Too many wrong passwords: try again in " + strconv.Itoa(secs) + " s."
		s.render(w, r, http.StatusTooManyRequests, views.SignInPage(m))
		return
	}
	// A sign-in waits a moment for a slot: a burst of a few dozen is
	// served, a flood is not.
	slot := time.NewTimer(passwordWait)
	select {
	case s.passwordChecks <- struct{}{}:
		slot.Stop()
	case <-slot.C:
		attempt.Cancel()
		s.error(w, r, photo.Errorf(photo.EUnavailable, "too many sign-ins at once; try again in a few seconds"))
		return
	case <-r.Context().Done():
		attempt.Cancel()
		return
	}
	ctx := r.Context()
	user, hash, err := s.db.PasswordHash(ctx, name)
	ok := false
	switch photo.ErrorCode(err) {
	case "":
		ok = auth.CheckPassword(hash, password)
	case photo.ENotFound:
		auth.CheckUnknown(password)
	}
	<-s.passwordChecks
	if err != nil && photo.ErrorCode(err) != photo.ENotFound {
		attempt.Cancel()
		s.error(w, r, err)
		return
	}
	if !ok {
		s.log.Warn("a sign-in failed", "name", name, "addr", clientAddr(r))
		m.Message = "Wrong name or password."
		s.render(w, r, http.StatusUnauthorized, views.SignInPage(m))
		return
	}
	attempt.Succeed()
	secret := auth.NewSecret()
	se := photo.Session{User: user, CSRF: auth.NewSecret(), Expires: s.now().Add(session.Life)}
	if err := s.db.AddSession(ctx, auth.HashSecret(secret), se); err != nil {
		s.error(w, r, err)
		return
	}
	http.SetCookie(w, s.cookie(r, secret, se.Expires))
	next := m.Next
	if next == "" {
		next = s.url("review")
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// passwordChecks is how many password checks run at once (19 MiB each),
// and passwordWait how long a sign-in waits for one.
const (
	passwordChecks = 4
	passwordWait   = time.Second
)

// signOut ends the session.
func (s *Server) signOut(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	if c, err := r.Cookie(session.Cookie); err == nil {
		if err := s.db.DeleteSession(r.Context(), auth.HashSecret(c.Value)); err != nil {
			s.error(w, r, err)
			return
		}
	}
	http.SetCookie(w, s.cookie(r, "", time.Unix(1, 0)))
	http.Redirect(w, r, s.url("explorer"), http.StatusSeeOther)
}

// cookie is the session cookie: for this site only, never to scripts,
// over TLS only when the server is reached over TLS.
func (s *Server) cookie(r *http.Request, value string, expires time.Time) *http.Cookie {
	return &http.Cookie{Name: session.Cookie, Value: value, Path: "/", Expires: expires, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil || strings.HasPrefix(s.baseURL, "https://")}
}

// safeNext keeps a redirect after sign-in on this site: a path, not
// another host.
// Browsers read a backslash as a slash ("/\evil.example" is
// "//evil.example", another host) and drop tabs and newlines, so a path
// with either is refused outright.
func safeNext(next string) string {
	if next == "" || next[0] != '/' || strings.ContainsAny(next, "\\\t\r\n") || strings.HasPrefix(next, "//") {
		return ""
	}
	u, err := url.Parse(next)
	if err != nil || u.Host != "" || u.Scheme != "" || u.User != nil {
		return ""
	}
	return next
}

// clientAddr is the address a request comes from (the proxy's, behind
// one).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
