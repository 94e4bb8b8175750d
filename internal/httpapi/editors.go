package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/session"
	"github.com/syriamap/syriamap/views"
)

// signInPage shows the sign-in form, or who is signed in.
func (s *Server) signInPage(w http.ResponseWriter, r *http.Request) {
	m := views.SignIn{Page: s.page(r, i18n.T(r.Context(), "signin.title"), ""), Action: s.url("signin"), Next: session.SafeNext(r.URL.Query().Get("next"))}
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
	m := views.SignIn{Page: s.page(r, i18n.T(r.Context(), "signin.title"), ""), Action: s.url("signin"), Next: session.SafeNext(r.PostFormValue("next")), Name: name}
	wait, attempt := s.brake.Try(strings.ToLower(name), session.ClientAddr(r))
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
		s.log.Warn("a sign-in failed", "name", name, "addr", session.ClientAddr(r))
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
	http.SetCookie(w, session.CookieOf(r, secret, se.Expires, s.baseURL))
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
	http.SetCookie(w, session.CookieOf(r, "", time.Unix(1, 0), s.baseURL))
	http.Redirect(w, r, s.url("explorer"), http.StatusSeeOther)
}
