package httpapi

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// Editors write: corrections, confirmations and fixes. A browser signs in
// and holds a session cookie (HttpOnly, SameSite=Strict, Secure over
// TLS); every write it sends carries the session's CSRF token, and the
// standard library's cross-origin protection refuses any unsafe request
// another site's page makes. A script sends a bearer token instead. The
// server takes no writes at all when it is read-only or the archive has
// no editors.

const (
	sessionCookie = "syriamap_session"
	sessionLife   = 12 * time.Hour
	csrfHeader    = "X-CSRF-Token"
	csrfField     = "csrf"
)

// editor is who a request comes from; csrf is "" for a bearer token.
type editor struct {
	name, csrf string
}

// editorStore is what the editors' handlers ask of the archive's storage.
type editorStore interface {
	HasUsers(ctx context.Context) (bool, error)
	// PasswordHash returns the editor's name as stored (names are
	// compared without case) and their password hash.
	PasswordHash(ctx context.Context, name string) (user, hash string, err error)
	TokenUser(ctx context.Context, hash string) (string, error)
	Session(ctx context.Context, hash string) (photo.Session, error)
	AddSession(ctx context.Context, hash string, se photo.Session) error
	DeleteSession(ctx context.Context, hash string) error
}

// editorOf returns the editor a request comes from, by its bearer token
// or its session cookie, or nil. A bearer token that is not valid is an
// EUnauthorized error: a script should know.
func (s *Server) editorOf(r *http.Request) (*editor, error) {
	ctx := r.Context()
	if h := r.Header.Get("Authorization"); h != "" {
		token, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || strings.TrimSpace(token) == "" {
			return nil, photo.Errorf(photo.EUnauthorized, "Authorization: want Bearer TOKEN (syriamap tokens create NAME)")
		}
		name, err := s.db.TokenUser(ctx, auth.HashSecret(strings.TrimSpace(token)))
		if photo.ErrorCode(err) == photo.ENotFound {
			return nil, photo.Errorf(photo.EUnauthorized, "the bearer token is not valid")
		}
		if err != nil {
			return nil, err
		}
		return &editor{name: name}, nil
	}
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	se, err := s.db.Session(ctx, auth.HashSecret(c.Value))
	if photo.ErrorCode(err) == photo.ENotFound {
		return nil, nil // signed out, or expired
	}
	if err != nil {
		return nil, err
	}
	return &editor{name: se.User, csrf: se.CSRF}, nil
}

// writable reports why the server takes no writes, if it does not.
func (s *Server) writable(ctx context.Context) error {
	if s.readOnly {
		return photo.Errorf(photo.EForbidden, "this server is read-only (--read-only, or the archive cannot be written)")
	}
	has, err := s.db.HasUsers(ctx)
	if err != nil {
		return err
	}
	if !has {
		return photo.Errorf(photo.EForbidden, "this archive has no editors, so the server takes no writes (syriamap users add NAME)")
	}
	return nil
}

// editing wraps a handler that writes: it runs only on a server that
// takes writes (403 otherwise), for an editor (401), and for a session only
// with its CSRF token, in the X-CSRF-Token header or the form's csrf
// field (403). Nothing is changed otherwise.
func (s *Server) editing(h func(w http.ResponseWriter, r *http.Request, ed *editor)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// A server that takes no writes says so to everyone (403): signing
		// in would not help.
		err := s.writable(r.Context())
		var ed *editor
		if err == nil {
			ed, err = s.editorOf(r)
		}
		if err == nil && ed == nil {
			err = photo.Errorf(photo.EUnauthorized, "sign in, or send a bearer token, to change the archive")
		}
		if err == nil && ed.csrf != "" {
			got := r.Header.Get(csrfHeader)
			if got == "" && isForm(r) {
				r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
				got = r.PostFormValue(csrfField)
			}
			if !auth.Equal(got, ed.csrf) {
				err = photo.Errorf(photo.EForbidden, "the request lacks this session's CSRF token: reload the page and try again")
			}
		}
		if err != nil {
			s.error(w, r, err)
			return
		}
		h(w, r, ed)
	}
}

// maxFormBytes bounds a form's body.
const maxFormBytes = 64 << 10

func isForm(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded")
}

// crossOrigin refuses unsafe requests (POST, PUT, DELETE …) that a page of
// another site makes (Sec-Fetch-Site, else Origin), with a 403 in the
// usual shape; scripts, which send neither header, pass.
func (s *Server) crossOrigin(next http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.error(w, r, photo.Errorf(photo.EForbidden, "a request from another site may not change this archive"))
	}))
	return p.Handler(next)
}

// signInPage shows the sign-in form, or who is signed in.
func (s *Server) signInPage(w http.ResponseWriter, r *http.Request) {
	m := views.SignIn{Page: s.page(r, "Sign in", ""), Action: s.url("signin"), Next: safeNext(r.URL.Query().Get("next"))}
	if err := s.writable(r.Context()); err != nil {
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
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
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
	se := photo.Session{User: user, CSRF: auth.NewSecret(), Expires: s.now().Add(sessionLife)}
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
func (s *Server) signOut(w http.ResponseWriter, r *http.Request, ed *editor) {
	if c, err := r.Cookie(sessionCookie); err == nil {
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
	return &http.Cookie{Name: sessionCookie, Value: value, Path: "/", Expires: expires, HttpOnly: true,
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
