// Package signin serves editors' sign-in: the form, the check of a name
// and password (braked against guessing, a few at once), the session and
// the browser's device cookie it starts, sign-out, and a password changed
// by its owner, which signs them out everywhere else.
package signin

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/sitepage"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// Handlers serve sign-in. Set their fields before they serve.
type Handlers struct {
	Kit   *sitepage.Kit
	DB    session.Store
	Guard *session.Guard
	Log   *slog.Logger
	Now   func() time.Time
	// Base is the scheme, host and prefix the site is reached at, which
	// its cookies are for.
	Base func() string
	// Brake slows down password guessing, by the client's address as
	// Proxies tell it; its Ledger (the archive) keeps its records where
	// every replica reads them.
	Brake   auth.Brake
	Proxies session.Proxies
	// Checks holds a token for each password check running (at most
	// PasswordChecks).
	Checks chan struct{}
}

// Form shows the sign-in form, or who is signed in.
func (h *Handlers) Form(w http.ResponseWriter, r *http.Request) {
	m := views.SignIn{Page: h.Kit.Page(r, i18n.T(r.Context(), "signin.title"), ""), Action: h.Kit.URL("signin"), Next: session.SafeNext(r.URL.Query().Get("next")),
		PasswordAction: h.Kit.URL("password")}
	if err := h.Guard.Writable(r.Context()); err != nil {
		m.Message = photo.ErrorMessage(err)
	}
	h.Kit.Render(w, r, http.StatusOK, views.SignInPage(m))
}

// SignIn checks a name and password and starts a session. Wrong ones are
// answered alike, after the same work. The brake counts the attempt as
// failed before the password is checked (see auth.Brake), and at most
// PasswordChecks checks run at once: each takes 19 MiB and a core for
// 40 ms, so a flood of sign-ins is answered 503 beyond that rather than
// let run the server out of memory.
func (h *Handlers) SignIn(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	name, password := strings.TrimSpace(r.PostFormValue("name")), r.PostFormValue("password")
	l := i18n.From(r.Context())
	m := views.SignIn{Page: h.Kit.Page(r, l.T("signin.title"), ""), Action: h.Kit.URL("signin"), Next: session.SafeNext(r.PostFormValue("next")), Name: name}
	device := h.knownBrowser(r, name)
	code := ""
	if device == "" {
		// A one-time code from the server's operator stands for a known
		// browser, once: the editor signs in from a new browser however
		// many guessers spent the name's budget (see auth.Brake).
		code = h.signInCode(r, name)
		device = code
	}
	attempt, user, ok, err := h.checkPassword(r, name, password, device)
	if err != nil {
		h.passwordRefused(w, r, m, err)
		return
	}
	if !ok {
		h.Log.Warn("a sign-in failed", "name", name, "addr", h.Proxies.Client(r).String(), "known_browser", device != "")
		m.Message = l.T("signin.wrong")
		h.Kit.Render(w, r, http.StatusUnauthorized, views.SignInPage(m))
		return
	}
	h.settle(r, attempt.Succeed)
	if code != "" {
		if err := h.DB.UseSignInCode(r.Context(), strings.TrimPrefix(code, "code:")); err != nil {
			h.Kit.Error(w, r, err)
			return
		}
	}
	if err := h.startSession(w, r, user, device == "" || code != ""); err != nil {
		h.Kit.Error(w, r, err)
		return
	}
	next := m.Next
	if next == "" {
		next = h.Kit.URL("review")
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// checkPassword checks password against the editor name's through the
// brake (see auth.Brake) and at most PasswordChecks checks at once. It
// returns the attempt, still counted as a failure (Succeed it when the
// password is right), the editor's name as stored and whether the password
// is theirs. An unknown name costs the same work. On an error — the
// brake's *auth.Refusal, no free slot in time, the store's — there is no
// attempt left to settle.
func (h *Handlers) checkPassword(r *http.Request, name, password, device string) (at *auth.Attempt, user string, ok bool, err error) {
	at, err = h.Brake.Try(r.Context(), strings.ToLower(name), auth.ClientKey(h.Proxies.Client(r)), device)
	if err != nil {
		return nil, "", false, err
	}
	// A check waits a moment for a slot: a burst of a few dozen is
	// served, a flood is not.
	slot := time.NewTimer(passwordWait)
	select {
	case h.Checks <- struct{}{}:
		slot.Stop()
	case <-slot.C:
		h.settle(r, at.Cancel)
		return nil, "", false, photo.Errorf(photo.EUnavailable, "too many sign-ins at once; try again in a few seconds")
	case <-r.Context().Done():
		h.settle(r, at.Cancel)
		return nil, "", false, r.Context().Err()
	}
	user, hash, err := h.DB.PasswordHash(r.Context(), name)
	switch photo.ErrorCode(err) {
	case "":
		ok = auth.CheckPassword(hash, password)
	case photo.ENotFound:
		auth.CheckUnknown(password)
		err = nil
	}
	<-h.Checks
	if err != nil {
		h.settle(r, at.Cancel)
		return nil, "", false, err
	}
	return at, user, ok, nil
}

// settle succeeds or cancels an attempt (see auth.Brake). When the
// archive cannot take it back the attempt stays a failure, which errs on
// the side of braking: it is logged, and the request goes on.
func (h *Handlers) settle(r *http.Request, settle func(context.Context) error) {
	if err := settle(context.WithoutCancel(r.Context())); err != nil {
		h.Log.Error("a sign-in attempt could not be settled", "err", err)
	}
}

// passwordRefused answers a password check that did not run: the brake's
// refusal (429) and no free check in time (503) as the form again, with
// Retry-After, in the reader's words; nothing for a client that went
// away; any other error as errors are.
func (h *Handlers) passwordRefused(w http.ResponseWriter, r *http.Request, m views.SignIn, err error) {
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
		h.Kit.Render(w, r, http.StatusTooManyRequests, views.SignInPage(m))
	case photo.ErrorCode(err) == photo.EUnavailable:
		// No check free in time: the form again, in the reader's words.
		w.Header().Set("Retry-After", "5")
		m.Message = i18n.From(r.Context()).T("signin.busy")
		h.Kit.Render(w, r, http.StatusServiceUnavailable, views.SignInPage(m))
	case r.Context().Err() != nil:
	default:
		h.Kit.Error(w, r, err)
	}
}

// startSession signs the browser in as user, and when newBrowser marks it
// with a device cookie (see auth.Brake).
func (h *Handlers) startSession(w http.ResponseWriter, r *http.Request, user string, newBrowser bool) error {
	ctx := r.Context()
	secret := auth.NewSecret()
	se := photo.Session{User: user, CSRF: auth.NewSecret(), Expires: h.Now().Add(session.Life)}
	if err := h.DB.AddSession(ctx, auth.HashSecret(secret), se); err != nil {
		return err
	}
	http.SetCookie(w, session.CookieOf(r, secret, se.Expires, h.Base()))
	if newBrowser {
		device := auth.NewSecret()
		if err := h.DB.AddDevice(ctx, auth.HashSecret(device), user); err != nil {
			return err
		}
		http.SetCookie(w, session.DeviceCookieOf(r, device, h.Kit.URL("signin"), h.Base()))
	}
	return nil
}

// signInCode returns the key of the one-time code the form gives when it
// is name's and unexpired ("code:" and its hash), else "".
func (h *Handlers) signInCode(r *http.Request, name string) string {
	code := strings.TrimSpace(r.PostFormValue("code"))
	if code == "" {
		return ""
	}
	hash := auth.HashSecret(code)
	user, err := h.DB.SignInCodeUser(r.Context(), hash)
	if err != nil || !strings.EqualFold(user, name) {
		return ""
	}
	return "code:" + hash
}

// knownBrowser returns the hash of the request's device cookie when the
// browser has signed in as name before, else "".
func (h *Handlers) knownBrowser(r *http.Request, name string) string {
	c, err := r.Cookie(session.DeviceCookie)
	if err != nil || c.Value == "" {
		return ""
	}
	hash := auth.HashSecret(c.Value)
	user, err := h.DB.DeviceUser(r.Context(), hash)
	if err != nil || !strings.EqualFold(user, name) {
		return ""
	}
	return hash
}

// ChangePassword sets the signed-in editor's new password, after checking
// the present one, and ends their other sessions and forgets their other
// browsers: whoever knew the old password is signed out everywhere else.
func (h *Handlers) ChangePassword(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	l := i18n.From(r.Context())
	m := views.SignIn{Page: h.Kit.Page(r, l.T("signin.title"), ""), Action: h.Kit.URL("signin"), PasswordAction: h.Kit.URL("password")}
	current, next, again := r.PostFormValue("current"), r.PostFormValue("new"), r.PostFormValue("again")
	c, err := r.Cookie(session.Cookie)
	if ed.CSRF == "" || err != nil {
		h.Kit.Error(w, r, photo.Errorf(photo.EForbidden, "a password is changed from a signed-in browser, or with syriamap users passwd"))
		return
	}
	// The present password is checked as a sign-in is, brake, slots and
	// all: a session left open is not a way to guess it.
	attempt, _, right, err := h.checkPassword(r, ed.Name, current, h.knownBrowser(r, ed.Name))
	if err != nil {
		h.passwordRefused(w, r, m, err)
		return
	}
	status := http.StatusBadRequest
	switch {
	case !right:
		m.Message, status = l.T("password.wrong"), http.StatusUnauthorized
	case next != again:
		h.settle(r, attempt.Succeed)
		m.Message = l.T("password.differ")
	default:
		h.settle(r, attempt.Succeed)
		newHash, err := auth.HashPassword(next)
		if err != nil {
			m.Message = l.T("password.too-short")
			break
		}
		if err := h.DB.SetPassword(r.Context(), ed.Name, newHash, auth.HashSecret(c.Value)); err != nil {
			h.Kit.Error(w, r, err)
			return
		}
		// This browser stays known; the others are forgotten.
		device := auth.NewSecret()
		if err := h.DB.AddDevice(r.Context(), auth.HashSecret(device), ed.Name); err != nil {
			h.Kit.Error(w, r, err)
			return
		}
		http.SetCookie(w, session.DeviceCookieOf(r, device, h.Kit.URL("signin"), h.Base()))
		h.Log.Info("a password was changed", "name", ed.Name)
		m.Message, status = l.T("password.changed"), http.StatusOK
	}
	h.Kit.Render(w, r, status, views.SignInPage(m))
}

// PasswordChecks is how many password checks run at once (19 MiB each),
// and passwordWait how long a sign-in waits for one.
const (
	PasswordChecks = 4
	passwordWait   = time.Second
)

// SignOut ends the session.
func (h *Handlers) SignOut(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	if c, err := r.Cookie(session.Cookie); err == nil {
		if err := h.DB.DeleteSession(r.Context(), auth.HashSecret(c.Value)); err != nil {
			h.Kit.Error(w, r, err)
			return
		}
	}
	http.SetCookie(w, session.CookieOf(r, "", time.Unix(1, 0), h.Base()))
	http.Redirect(w, r, h.Kit.URL("explorer"), http.StatusSeeOther)
}
