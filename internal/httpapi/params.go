package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/web"
)

// parseFilter reads the list filters from a request's query, naming a
// place by its gazetteer id: any id of a place that merges several source
// records (a GeoNames id, an OCHA P-code, a curated key) selects it.
func (s *Server) parseFilter(q url.Values) (photo.Filter, error) {
	f, err := web.ParseFilter(q)
	for i, id := range f.PlaceIDs {
		if p := s.archive.Gazetteer().ByID(id); p != nil {
			f.PlaceIDs[i] = p.ID
		}
	}
	return f, err
}

// checkETag sets an ETag that names the archive's version, the route and
// the query, and answers 304 when the client has it already (or the error
// when the version cannot be read); it returns true when the response is
// done.
func (s *Server) checkETag(w http.ResponseWriter, r *http.Request, route string) bool {
	_, done := s.etag(w, r, route)
	return done
}

// etag is checkETag that also returns the version the ETag names, so that
// the response can be of that version (see memIndexAt).
func (s *Server) etag(w http.ResponseWriter, r *http.Request, route string) (version int64, done bool) {
	v, err := s.db.Version(r.Context())
	if err != nil {
		s.error(w, r, err)
		return 0, true
	}
	q := r.URL.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	h.Write([]byte(route))
	for _, k := range keys {
		for _, val := range q[k] {
			h.Write([]byte("\x00" + k + "=" + val))
		}
	}
	tag := web.ETagFor(r, `"v`+strconv.FormatInt(v, 10)+"-"+hex.EncodeToString(h.Sum(nil)[:8])+`"`)
	w.Header().Set("ETag", tag)
	w.Header().Set("Cache-Control", "no-cache")
	for _, m := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		if m = strings.TrimSpace(m); m == tag || m == "W/"+tag || m == "*" {
			w.WriteHeader(http.StatusNotModified)
			return v, true
		}
	}
	return v, false
}
