package middleware

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/syriamap/syriamap/internal/http/web"
)

// credentialParams are query parameters that carry a secret by the
// conventions of other servers (OAuth's access_token, API keys, session
// ids). The server takes credentials only in the Authorization header
// and its cookie: a secret in an address is written into logs, histories
// and Referer headers on its way.
var credentialParams = map[string]bool{
	"access_token": true, "token": true, "bearer": true, "api_key": true, "apikey": true, "key": true,
	"auth": true, "authorization": true, "password": true, "passwd": true, "secret": true, "session": true,
	"syriamap_session": true, "id_token": true, "refresh_token": true, "client_secret": true,
}

// credentialIn names the first credential parameter of a raw query, or "".
func credentialIn(rawQuery string) string {
	if rawQuery == "" {
		return ""
	}
	for _, part := range strings.Split(rawQuery, "&") {
		name, _, _ := strings.Cut(part, "=")
		if n, err := url.QueryUnescape(name); err == nil && credentialParams[strings.ToLower(n)] {
			return n
		}
	}
	return ""
}

// RefuseCredentialsInQuery answers 400 to a request whose address holds a
// credential (see credentialParams), before any handler runs, naming the
// parameter and where a credential goes instead.
func RefuseCredentialsInQuery(next http.Handler, fail func(w http.ResponseWriter, r *http.Request, err error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if name := credentialIn(r.URL.RawQuery); name != "" {
			fail(w, r, web.BadParam(name, "credentials are not taken in the address (it is logged and kept in histories): "+
				"send a token as the header Authorization: Bearer TOKEN; treat this one as leaked and make a new one"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// redactQuery is a raw query for the log: the value of every credential
// parameter replaced, so that no secret reaches a log line.
func redactQuery(rawQuery string) string {
	if credentialIn(rawQuery) == "" {
		return rawQuery
	}
	parts := strings.Split(rawQuery, "&")
	for i, part := range parts {
		name, _, _ := strings.Cut(part, "=")
		if n, err := url.QueryUnescape(name); err == nil && credentialParams[strings.ToLower(n)] {
			parts[i] = name + "=REDACTED"
		}
	}
	return strings.Join(parts, "&")
}
