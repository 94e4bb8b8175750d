// Package session tells who a request comes from — an editor signed in
// with a session cookie, or a script with a bearer token — and guards the
// routes that write.
//
// Editors write: corrections, confirmations and fixes. A browser signs in
// and holds a session cookie (HttpOnly, SameSite=Strict, Secure over
// TLS); every write it sends carries the session's CSRF token, and the
// standard library's cross-origin protection refuses any unsafe request
// another site's page makes. A script sends a bearer token instead. The
// server takes no writes at all when it is read-only or the archive has
// no editors.
package session

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

const (
	Cookie     = "syriamap_session"
	Life       = 12 * time.Hour
	CSRFHeader = "X-CSRF-Token"
	CSRFField  = "csrf"
)

// Editor is who a request comes from; CSRF is "" for a bearer token.
type Editor struct {
	Name, CSRF string
}

// Store is what a Guard, and the sign-in, ask of the archive's storage.
type Store interface {
	HasUsers(ctx context.Context) (bool, error)
	// PasswordHash returns the editor's name as stored (names are
	// compared without case) and their password hash.
	PasswordHash(ctx context.Context, name string) (user, hash string, err error)
	TokenUser(ctx context.Context, hash string) (string, error)
	Session(ctx context.Context, hash string) (photo.Session, error)
	AddSession(ctx context.Context, hash string, se photo.Session) error
	DeleteSession(ctx context.Context, hash string) error
	// AddDevice and DeviceUser keep the browsers an editor signed in from
	// (see auth.Brake); SetPassword changes a password and ends every
	// session but one.
	AddDevice(ctx context.Context, hash, user string) error
	DeviceUser(ctx context.Context, hash string) (string, error)
	SetPassword(ctx context.Context, user, hash, keepSession string) error
	// SignInCodeUser and UseSignInCode read and spend the one-time codes
	// the server's operator gives an editor for a new browser.
	SignInCodeUser(ctx context.Context, hash string) (string, error)
	UseSignInCode(ctx context.Context, hash string) error
}

// MayBeEditor reports whether r carries credentials (a bearer token or a
// session cookie), without asking whether they are good: what is
// answered to it is then private, whoever it turns out to be.
func MayBeEditor(r *http.Request) bool {
	if r.Header.Get("Authorization") != "" {
		return true
	}
	c, err := r.Cookie(Cookie)
	return err == nil && c.Value != ""
}

// EditorOf returns the editor a request comes from, by its bearer token
// or its session cookie, or nil. A bearer token that is not valid is an
// EUnauthorized error: a script should know.
func (g *Guard) EditorOf(r *http.Request) (*Editor, error) {
	ctx := r.Context()
	if h := r.Header.Get("Authorization"); h != "" {
		token, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || strings.TrimSpace(token) == "" {
			return nil, photo.Errorf(photo.EUnauthorized, "Authorization: want Bearer TOKEN (syriamap tokens create NAME)")
		}
		name, err := g.db.TokenUser(ctx, auth.HashSecret(strings.TrimSpace(token)))
		if photo.ErrorCode(err) == photo.ENotFound {
			return nil, photo.Errorf(photo.EUnauthorized, "the bearer token is not valid")
		}
		if err != nil {
			return nil, err
		}
		return &Editor{Name: name}, nil
	}
	c, err := r.Cookie(Cookie)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	se, err := g.db.Session(ctx, auth.HashSecret(c.Value))
	if photo.ErrorCode(err) == photo.ENotFound {
		return nil, nil // signed out, or expired
	}
	if err != nil {
		return nil, err
	}
	return &Editor{Name: se.User, CSRF: se.CSRF}, nil
}

// Writable reports why the server takes no writes, if it does not.
func (g *Guard) Writable(ctx context.Context) error {
	if g.readOnly {
		return photo.Errorf(photo.EForbidden, "this server is read-only (--read-only, or the archive cannot be written)")
	}
	has, err := g.db.HasUsers(ctx)
	if err != nil {
		return err
	}
	if !has {
		return photo.Errorf(photo.EForbidden, "this archive has no editors, so the server takes no writes (syriamap users add NAME)")
	}
	return nil
}

// Editing wraps a handler that writes: it runs only on a server that
// takes writes (403 otherwise), for an editor (401), and for a session only
// with its CSRF token, in the X-CSRF-Token header or the form's csrf
// field (403). Nothing is changed otherwise. A read among these routes
// (GET or HEAD: an upload's job, how far a resumable upload got) changes
// nothing, so it needs no token: a forged one could not read the answer.
func (g *Guard) Editing(h func(w http.ResponseWriter, r *http.Request, ed *Editor)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// A server that takes no writes says so to everyone (403): signing
		// in would not help.
		err := g.Writable(r.Context())
		var ed *Editor
		if err == nil {
			ed, err = g.EditorOf(r)
		}
		if err == nil && ed == nil {
			err = photo.Errorf(photo.EUnauthorized, "sign in, or send a bearer token, to change the archive")
		}
		if err == nil && ed.CSRF != "" && !safeMethod(r.Method) {
			got := r.Header.Get(CSRFHeader)
			if got == "" && web.IsForm(r) {
				r.Body = http.MaxBytesReader(w, r.Body, MaxFormBytes)
				got = r.PostFormValue(CSRFField)
			}
			if !auth.Equal(got, ed.CSRF) {
				err = photo.Errorf(photo.EForbidden, "the request lacks this session's CSRF token: reload the page and try again")
			}
		}
		if photo.ErrorCode(err) == photo.EUnauthorized && g.SignInURL != "" && web.IsForm(r) && strings.Contains(r.Header.Get("Accept"), "text/html") {
			// A browser's form sent after its session ended: sign in,
			// then back to the form with what was typed in it.
			http.Redirect(w, r, g.SignInURL+"?next="+url.QueryEscape(draftURL(w, r)), http.StatusSeeOther)
			return
		}
		if err != nil {
			g.fail(w, r, err)
			return
		}
		h(w, r.WithContext(photo.AsEditor(r.Context(), ed.Name)), ed)
	}
}

// Viewing wraps a read whose answer shows an editor more than the public
// (a photo page, the review queue, a story's draft): the request's context
// then reads as its editor (photo.ViewerOf), and as the public for anyone
// else. A route not wrapped reads as the public whoever asks, so that its
// answers may be kept and shared. A bearer token that is not valid is
// refused (401), as for a write.
func (g *Guard) Viewing(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ed, err := g.EditorOf(r)
		if err != nil {
			g.fail(w, r, err)
			return
		}
		if ed != nil {
			r = r.WithContext(photo.AsEditor(r.Context(), ed.Name))
		}
		h(w, r)
	}
}

// safeMethod reports whether method only reads (RFC 9110, 9.2.1).
func safeMethod(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// MaxFormBytes bounds a form's body.
const MaxFormBytes = 64 << 10

// CrossOrigin refuses unsafe requests (POST, PUT, DELETE …) that a page of
// another site makes (Sec-Fetch-Site, else Origin), with a 403 in the
// usual shape; scripts, which send neither header, pass.
func (g *Guard) CrossOrigin(next http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.fail(w, r, photo.Errorf(photo.EForbidden, "a request from another site may not change this archive"))
	}))
	return p.Handler(next)
}

// Guard knows the sessions and tokens of db and guards writes.
type Guard struct {
	// SignInURL is the sign-in page a browser's form is sent to when it
	// comes without a session; "" answers it 401 like any request.
	SignInURL string
	db        Store
	readOnly  bool
	// fail answers a refused request, as the server answers every error.
	fail func(w http.ResponseWriter, r *http.Request, err error)
}

// New returns the guard of db's sessions; readOnly refuses every write;
// fail answers what it refuses.
func New(db Store, readOnly bool, fail func(w http.ResponseWriter, r *http.Request, err error)) *Guard {
	return &Guard{db: db, readOnly: readOnly, fail: fail}
}

// CookieOf is the session cookie: for this site only, never to scripts,
// over TLS only when the server is reached over TLS.
func CookieOf(r *http.Request, value string, expires time.Time, baseURL string) *http.Cookie {
	return &http.Cookie{Name: Cookie, Value: value, Path: "/", Expires: expires, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil || strings.HasPrefix(baseURL, "https://")}
}

// SafeNext keeps a redirect after sign-in on this site: a path, not
// another host.
// Browsers read a backslash as a slash ("/\evil.example" is
// "//evil.example", another host) and drop tabs and newlines, so a path
// with either is refused outright.
func SafeNext(next string) string {
	if next == "" || next[0] != '/' || strings.ContainsAny(next, "\\\t\r\n") || strings.HasPrefix(next, "//") {
		return ""
	}
	u, err := url.Parse(next)
	if err != nil || u.Host != "" || u.Scheme != "" || u.User != nil {
		return ""
	}
	return next
}

// Proxies are the reverse proxies trusted to say, in X-Forwarded-For, whom
// a request comes from. No other peer is believed: a header anyone can
// send would let one client pass for a thousand.
type Proxies []netip.Prefix

// ParseProxies reads --trusted-proxy values: CIDR blocks or single
// addresses, each value possibly a comma-separated list.
func ParseProxies(values []string) (Proxies, error) {
	var out Proxies
	for _, v := range values {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			p, err := netip.ParsePrefix(f)
			if err != nil {
				a, aerr := netip.ParseAddr(f)
				if aerr != nil {
					return nil, fmt.Errorf("--trusted-proxy %q: want a CIDR block (10.0.0.0/8) or an address", f)
				}
				p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
			}
			out = append(out, p.Masked())
		}
	}
	return out, nil
}

func (ps Proxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Client is the address a request comes from: the connection's, or, when
// that is a trusted proxy, the nearest address in X-Forwarded-For that is
// not one (read from the right, where each proxy appends its peer; what
// the client wrote itself is on the left, and never reached).
func (ps Proxies) Client(r *http.Request) netip.Addr {
	peer, err := netip.ParseAddrPort(r.RemoteAddr)
	addr := peer.Addr().Unmap()
	if err != nil {
		a, aerr := netip.ParseAddr(r.RemoteAddr)
		if aerr != nil {
			return netip.Addr{}
		}
		addr = a.Unmap()
	}
	if !ps.trusts(addr) {
		return addr
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return addr // a hop the proxies did not write: stop at the last good one
		}
		addr = a.Unmap()
		if !ps.trusts(addr) {
			return addr
		}
	}
	return addr
}

// DeviceCookie marks a browser that has signed in as an editor before
// (see auth.Brake): a year long, sent only to the sign-in.
const DeviceCookie = "syriamap_device"

// DeviceCookieOf is the device cookie, like the session's but lasting a
// year and sent only with sign-ins to path.
func DeviceCookieOf(r *http.Request, value, path, baseURL string) *http.Cookie {
	c := CookieOf(r, value, time.Now().AddDate(1, 0, 0), baseURL)
	c.Name, c.Path = DeviceCookie, path
	return c
}

// draftFields are the form fields kept across a sign-in, as draft_NAME
// on the form's page.
var draftFields = []string{"note", "place_id", "lon", "lat", "date", "photographer", "agency"}

// draftURL is the page of the form r posted, with what was typed in it.
func draftURL(w http.ResponseWriter, r *http.Request) string {
	r.Body = http.MaxBytesReader(w, r.Body, MaxFormBytes)
	draft := url.Values{}
	for _, name := range draftFields {
		if v := strings.TrimSpace(r.PostFormValue(name)); v != "" {
			draft.Set("draft_"+name, v)
		}
	}
	if len(draft) == 0 {
		return r.URL.Path
	}
	return r.URL.Path + "?" + draft.Encode()
}
