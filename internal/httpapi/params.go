package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/photo"
)

// filterParams are the query parameters every list endpoint takes;
// agency, photographer, place and governorate may repeat (any of them).
var filterParams = []string{"from", "to", "bbox", "q", "agency", "photographer", "place", "governorate", "min_confidence", "unplaced", "agreement"}

// parseFilter reads the list filters from a request's query, naming a
// place by its gazetteer id: any id of a place that merges several source
// records (a GeoNames id, an OCHA P-code, a curated key) selects it.
func (s *Server) parseFilter(q url.Values) (photo.Filter, error) {
	f, err := parseFilter(q)
	for i, id := range f.PlaceIDs {
		if p := s.archive.Gazetteer.ByID(id); p != nil {
			f.PlaceIDs[i] = p.ID
		}
	}
	return f, err
}

// parseFilter reads the list filters from a request's query. A bad value
// is a 400 naming the parameter and what is wrong with it.
func parseFilter(q url.Values) (photo.Filter, error) {
	var f photo.Filter
	if err := once(q, "from", "to", "bbox", "q", "min_confidence", "unplaced"); err != nil {
		return f, err
	}
	for _, p := range []struct {
		name string
		dst  *photo.Date
	}{{"from", &f.From}, {"to", &f.To}} {
		if v := strings.TrimSpace(q.Get(p.name)); v != "" {
			d, err := photo.ParseDate(v)
			if err != nil {
				return f, badParam(p.name, "%q is not a date: use YYYY, YYYY-MM or YYYY-MM-DD", v)
			}
			*p.dst = d
		}
	}
	if !f.From.IsZero() && !f.To.IsZero() {
		a, _ := f.From.Span()
		_, b := f.To.Span()
		if a > b {
			return f, badParam("to", "%s is before from (%s)", f.To, f.From)
		}
	}
	if v := strings.TrimSpace(q.Get("bbox")); v != "" {
		b, err := parseBBox(v)
		if err != nil {
			return f, err
		}
		f.BBox = b
	}
	f.Query = strings.TrimSpace(q.Get("q"))
	f.Agencies = multiParam(q, "agency")
	f.Photographers = multiParam(q, "photographer")
	f.PlaceIDs = multiParam(q, "place")
	f.Governorates = multiParam(q, "governorate")
	f.Agreements = multiParam(q, "agreement")
	for _, v := range f.Agreements {
		if v != photo.AgreementAgrees && v != photo.AgreementNear && v != photo.AgreementDisagrees {
			return f, badParam("agreement", "%q: want agrees, near or disagrees", v)
		}
	}
	switch v := strings.TrimSpace(q.Get("unplaced")); v {
	case "", "0", "false":
	case "1", "true":
		f.Unplaced = true
	default:
		return f, badParam("unplaced", "%q: want true or false", v)
	}
	if v := strings.TrimSpace(q.Get("min_confidence")); v != "" {
		c, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(c) || c < 0 || c > 1 {
			return f, badParam("min_confidence", "%q is not a number from 0 to 1", v)
		}
		f.MinConfidence = c
	}
	return f, nil
}

// maxValues bounds the values one filter parameter may repeat.
const maxValues = 100

// multiParam reads a parameter that may repeat (agency=AFP&agency=Reuters):
// its values trimmed, without blanks or repeats, at most maxValues.
func multiParam(q url.Values, name string) []string {
	var out []string
	for _, v := range q[name] {
		if v = strings.TrimSpace(v); v != "" && !slices.Contains(out, v) && len(out) < maxValues {
			out = append(out, v)
		}
	}
	return out
}

// parseBBox reads minLon,minLat,maxLon,maxLat.
func parseBBox(v string) (*orb.Bound, error) {
	parts := strings.Split(v, ",")
	if len(parts) != 4 {
		return nil, badParam("bbox", "%q: want minLon,minLat,maxLon,maxLat", v)
	}
	var n [4]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, badParam("bbox", "%q is not a number", p)
		}
		n[i] = x
	}
	switch {
	case n[0] < -180 || n[2] > 180 || n[1] < -90 || n[3] > 90:
		return nil, badParam("bbox", "%q is outside lon −180…180, lat −90…90", v)
	case n[0] > n[2] || n[1] > n[3]:
		return nil, badParam("bbox", "%q: the minimum is above the maximum (want minLon,minLat,maxLon,maxLat)", v)
	}
	return &orb.Bound{Min: orb.Point{n[0], n[1]}, Max: orb.Point{n[2], n[3]}}, nil
}

// intParam reads a whole number parameter in [min, max], or def.
func intParam(q url.Values, name string, def, min, max int) (int, error) {
	if err := once(q, name); err != nil {
		return 0, err
	}
	v := strings.TrimSpace(q.Get(name))
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min || n > max {
		return 0, badParam(name, "%q is not a whole number from %d to %d", v, min, max)
	}
	return n, nil
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
	tag := etagFor(r, `"v`+strconv.FormatInt(v, 10)+"-"+hex.EncodeToString(h.Sum(nil)[:8])+`"`)
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

// once refuses a parameter that takes one value given more than once
// (limit=1&limit=2): which one was meant is the client's to say, not a
// guess of the server's.
func once(q url.Values, names ...string) error {
	for _, name := range names {
		if n := len(q[name]); n > 1 {
			return badParam(name, "given %d times (%s); give it once", n, strings.Join(q[name], ", "))
		}
	}
	return nil
}
