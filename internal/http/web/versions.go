package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// ExpectedVersion reads the version of kind's thing a write expects (see
// photo.Expect): If-Match, compared by photo.IfMatch, else a page form's version field. A tag
// that is not one of kind's matches no version (-1). ok is false when
// the write expects none: a script's write without If-Match.
func ExpectedVersion(r *http.Request, kind string) (version int64, ok bool) {
	if m := r.Header.Get("If-Match"); strings.TrimSpace(m) != "" {
		return photo.IfMatch(m, kind)
	}
	if IsForm(r) {
		if v, err := strconv.ParseInt(strings.TrimSpace(r.PostFormValue("version")), 10, 64); err == nil {
			return v, true
		}
	}
	return 0, false
}

// IsForm reports whether the request's body is a page's form
// (application/x-www-form-urlencoded).
func IsForm(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded")
}
