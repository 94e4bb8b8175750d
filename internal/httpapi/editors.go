package httpapi

import (
	"errors"
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
	m := views.SignIn{Page: s.Page(r, i18n.T(r.Context(), "signin.title"), ""), Action: s.URL("signin"), Next: session.SafeNext(r.URL.Query().Get("next")),
		PasswordAction: s.URL("password")}
	if err := s.guard.Writable(r.Context()); err != nil {
		m.Message = photo.ErrorMessage(err)
	}
	s.Render(w, r, http.StatusOK, views.SignInPage(m))
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
	m := views.SignIn{Page: s.Page(r, l.T("signin.title"), ""), Action: s.URL("signin"), Next: session.SafeNext(r.PostFormValue("next")), Name: name}
	device := s.knownBrowser(r, name)
	attempt, user, ok, err := s.checkPassword(r, name, password, device)
	if err != nil {
		s.passwordRefused(w, r, m, err)
		return
	}
	if !ok {
		s.log.Warn("a sign-in failed", "name", name, "addr", s.proxies.Client(r).String(), "known_browser", device != "")
		m.Message = l.T("signin.wrong")
		s.Render(w, r, http.StatusUnauthorized, views.SignInPage(m))
		return
	}
	attempt.Succeed()
	if err := s.startSession(w, r, user, device == ""); err != nil {
		s.Error(w, r, err)
		return
	}
	next := m.Next
	if next == "" {
		next = s.URL("review")
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// checkPassword checks password against the editor name's through the
// brake (see auth.Brake) and at most passwordChecks checks at once. It
// returns the attempt, still counted as a failure (Succeed it when the
// password is right), the editor's name as stored and whether the password
// is theirs. An unknown name costs the same work. On an error — the
// brake's *auth.Refusal, no free slot in time, the store's — there is no
// attempt left to settle.
func (s *Server) checkPassword(r *http.Request, name, password, device string) (at *auth.Attempt, user string, ok bool, err error) {
	at, err = s.brake.Try(strings.ToLower(name), auth.ClientKey(s.proxies.Client(r)), device)
	if err != nil {
		return nil, "", false, err
	}
	// A check waits a moment for a slot: a burst of a few dozen is
	// served, a flood is not.
	slot := time.NewTimer(passwordWait)
	select {
	case s.passwordChecks <- struct{}{}:
		slot.Stop()
	case <-slot.C:
		at.Cancel()
		return nil, "", false, photo.Errorf(photo.EUnavailable, "too many sign-ins at once; try again in a few seconds")
	case <-r.Context().Done():
		at.Cancel()
		return nil, "", false, r.Context().Err()
	}
	user, hash, err := s.db.PasswordHash(r.Context(), name)
	switch photo.ErrorCode(err) {
	case "":
		ok = auth.CheckPassword(hash, password)
	case photo.ENotFound:
		auth.CheckUnknown(password)
		err = nil
	}
	<-s.passwordChecks
	if err != nil {
		at.Cancel()
		return nil, "", false, err
	}
	return at, user, ok, nil
}

// passwordRefused answers a password check that did not run: the brake's
// refusal (429) and no free check in time (503) as the form again, with
// Retry-After, in the reader's words; nothing for a client that went
// away; any other error as errors are.
func (s *Server) passwordRefused(w http.ResponseWriter, r *http.Request, m views.SignIn, err error) {
	var refusal *auth.Refusal
	switch {
	case errors.As(err, &refusal):
		l := i18n.From(r.Context())
		secs := int(refusal.Wait.Seconds() + 0.999)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		m.Message = l.T("signin.too-many", "s", secs)
		if refusal.KnownBrowserOnly {
			m.Message = l.T("signin.known-browser-only", "min", (secs+59)/60)
		}
		s.Render(w, r, http.StatusTooManyRequests, views.SignInPage(m))
	case photo.ErrorCode(err) == photo.EUnavailable:
		// No check free in time: the form again, in the reader's words.
		w.Header().Set("Retry-After", "5")
		m.Message = i18n.From(r.Context()).T("signin.busy")
		s.Render(w, r, http.StatusServiceUnavailable, views.SignInPage(m))
	case r.Context().Err() != nil:
	default:
		s.Error(w, r, err)
	}
}

// startSession signs the browser in as user, and when newBrowser marks it
// with a device cookie (see auth.Brake).
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
		http.SetCookie(w, session.DeviceCookieOf(r, device, s.URL("signin"), s.baseURL))
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
	m := views.SignIn{Page: s.Page(r, l.T("signin.title"), ""), Action: s.URL("signin"), PasswordAction: s.URL("password")}
	current, next, again := r.PostFormValue("current"), r.PostFormValue("new"), r.PostFormValue("again")
	c, err := r.Cookie(session.Cookie)
	if ed.CSRF == "" || err != nil {
		s.Error(w, r, photo.Errorf(photo.EForbidden, "a password is changed from a signed-in browser, or with syriamap users passwd"))
		return
	}
	// The present password is checked as a sign-in is, brake, slots and
	// all: a session left open is not a way to guess it.
	attempt, _, right, err := s.checkPassword(r, ed.Name, current, s.knownBrowser(r, ed.Name))
	if err != nil {
		s.passwordRefused(w, r, m, err)
		return
	}
	status := http.StatusBadRequest
	switch {
	case !right:
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
			s.Error(w, r, err)
			return
		}
		// This browser stays known; the others are forgotten.
		device := auth.NewSecret()
		if err := s.db.AddDevice(r.Context(), auth.HashSecret(device), ed.Name); err != nil {
			s.Error(w, r, err)
			return
		}
		http.SetCookie(w, session.DeviceCookieOf(r, device, s.URL("signin"), s.baseURL))
		s.log.Info("a password was changed", "name", ed.Name)
		m.Message, status = l.T("password.changed"), http.StatusOK
	}
	s.Render(w, r, status, views.SignInPage(m))
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
			s.Error(w, r, err)
			return
		}
	}
	http.SetCookie(w, session.CookieOf(r, "", time.Unix(1, 0), s.baseURL))
	http.Redirect(w, r, s.URL("explorer"), http.StatusSeeOther)
}
