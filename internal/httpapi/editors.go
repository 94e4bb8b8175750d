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
	m := views.SignIn{Page: s.page(r, i18n.T(r.Context(), "signin.title"), ""), Action: s.url("signin"), Next: session.SafeNext(r.URL.Query().Get("next")),
		PasswordAction: s.url("password")}
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
	l := i18n.From(r.Context())
	m := views.SignIn{Page: s.page(r, l.T("signin.title"), ""), Action: s.url("signin"), Next: session.SafeNext(r.PostFormValue("next")), Name: name}
	client := s.proxies.Client(r)
	device := s.knownBrowser(r, name)
	attempt, err := s.brake.Try(strings.ToLower(name), auth.ClientKey(client), device)
	if refusal, ok := err.(*auth.Refusal); ok {
		secs := int(refusal.Wait.Seconds() + 0.999)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		m.Message = l.T("signin.too-many", "s", secs)
		if refusal.KnownBrowserOnly {
			m.Message = l.T("signin.known-browser-only", "min", (secs+59)/60)
		}
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
		s.log.Warn("a sign-in failed", "name", name, "addr", client.String(), "known_browser", device != "")
		m.Message = l.T("signin.wrong")
		s.render(w, r, http.StatusUnauthorized, views.SignInPage(m))
		return
	}
	attempt.Succeed()
	if err := s.startSession(w, r, user, device == ""); err != nil {
		s.error(w, r, err)
		return
	}
	next := m.Next
	if next == "" {
		next = s.url("review")
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// startSession signs the browser in as user, and when newBrowser marks it
// with a device cookie (see auth.Brake); it returns the session's hash.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, user string, newBrowser bool) error {
	ctx := r.Context()
	secret := auth.NewSecret()
	se := photo.Session{User: user, CSRF: auth.NewSecret(), Expires: s.now().Add(session.Life)}
	if err := s.db.AddSession(ctx, auth.HashSecret(secret), se); err != nil {
		return err
	}
	http.SetCookie(w, session.CookieOf(r, secret, se.Expires, s.baseURL))
	if newBrowser {
		device := auth.NewSecret()
		if err := s.db.AddDevice(ctx, auth.HashSecret(device), user); err != nil {
			return err
		}
		http.SetCookie(w, session.DeviceCookieOf(r, device, s.url("signin"), s.baseURL))
	}
	return nil
}

// knownBrowser returns the hash of the request's device cookie when the
// browser has signed in as name before, else "".
func (s *Server) knownBrowser(r *http.Request, name string) string {
	c, err := r.Cookie(session.DeviceCookie)
	if err != nil || c.Value == "" {
		return ""
	}
	hash := auth.HashSecret(c.Value)
	user, err := s.db.DeviceUser(r.Context(), hash)
	if err != nil || !strings.EqualFold(user, name) {
		return ""
	}
	return hash
}

// changePassword sets the signed-in editor's new password, after checking
// the present one, and ends their other sessions and forgets their other
// browsers: whoever knew the old password is signed out everywhere else.
func (s *Server) changePassword(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	l := i18n.From(r.Context())
	m := views.SignIn{Page: s.page(r, l.T("signin.title"), ""), Action: s.url("signin"), PasswordAction: s.url("password")}
	current, next, again := r.PostFormValue("current"), r.PostFormValue("new"), r.PostFormValue("again")
	c, err := r.Cookie(session.Cookie)
	if ed.CSRF == "" || err != nil {
		s.error(w, r, photo.Errorf(photo.EForbidden, "a password is changed from a signed-in browser, or with syriamap users passwd"))
		return
	}
	// The present password is checked as a sign-in is, brake and all: a
	// session left open is not a way to guess it.
	attempt, err := s.brake.Try(strings.ToLower(ed.Name), auth.ClientKey(s.proxies.Client(r)), s.knownBrowser(r, ed.Name))
	if refusal, ok := err.(*auth.Refusal); ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(refusal.Wait.Seconds()+0.999)))
		m.Message = l.T("signin.too-many", "s", int(refusal.Wait.Seconds()+0.999))
		s.render(w, r, http.StatusTooManyRequests, views.SignInPage(m))
		return
	}
	_, hash, err := s.db.PasswordHash(r.Context(), ed.Name)
	if err != nil {
		attempt.Cancel()
		s.error(w, r, err)
		return
	}
	status := http.StatusBadRequest
	switch {
	case !auth.CheckPassword(hash, current):
		m.Message, status = l.T("password.wrong"), http.StatusUnauthorized
	case next != again:
		attempt.Succeed()
		m.Message = l.T("password.differ")
	default:
		attempt.Succeed()
		newHash, err := auth.HashPassword(next)
		if err != nil {
			m.Message = l.T("password.too-short")
			break
		}
		if err := s.db.SetPassword(r.Context(), ed.Name, newHash, auth.HashSecret(c.Value)); err != nil {
			s.error(w, r, err)
			return
		}
		// This browser stays known; the others are forgotten.
		device := auth.NewSecret()
		if err := s.db.AddDevice(r.Context(), auth.HashSecret(device), ed.Name); err != nil {
			s.error(w, r, err)
			return
		}
		http.SetCookie(w, session.DeviceCookieOf(r, device, s.url("signin"), s.baseURL))
		s.log.Info("a password was changed", "name", ed.Name)
		m.Message, status = l.T("password.changed"), http.StatusOK
	}
	s.render(w, r, status, views.SignInPage(m))
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
