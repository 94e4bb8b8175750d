package web

import (
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
)

// FilterParams are the query parameters every list endpoint takes;
// agency, photographer, place and governorate may repeat (any of them).
var FilterParams = []string{"from", "to", "bbox", "q", "agency", "photographer", "place", "governorate", "min_confidence", "unplaced", "agreement", "reuse", "event", "verified"}

// maxValues bounds the values one filter parameter may repeat.
const maxValues = 100

// MultiParam reads a parameter that may repeat (agency=AFP&agency=Reuters):
// its values trimmed, without blanks or repeats, at most maxValues.
func MultiParam(q url.Values, name string) []string {
	var out []string
	for _, v := range q[name] {
		if v = strings.TrimSpace(v); v != "" && !slices.Contains(out, v) && len(out) < maxValues {
			out = append(out, v)
		}
	}
	return out
}

// OnceFilterParams are the filters given once at most (the others may
// repeat: agency=AFP&agency=Reuters).
var OnceFilterParams = []string{"from", "to", "bbox", "q", "min_confidence", "unplaced", "event", "verified"}

// FilterMessages are the messages of a bad filter, by what is wrong, with
// fmt's verbs (a published site's script formats the same strings:
// SiteRules).
var FilterMessages = map[string]string{
	"date":           "%q is not a date: use YYYY, YYYY-MM or YYYY-MM-DD",
	"to_before":      "%s is before from (%s)",
	"bbox_shape":     "%q: want minLon,minLat,maxLon,maxLat",
	"bbox_number":    "%q is not a number",
	"bbox_range":     "%q is outside lon −180…180, lat −90…90",
	"bbox_order":     "%q: the minimum is above the maximum (want minLon,minLat,maxLon,maxLat)",
	"agreement":      "%q: want agrees, near or disagrees",
	"reuse":          "%q: want conflict (the frame is also another photo's, under a caption that disagrees) or copy",
	"unplaced":       "%q: want true or false",
	"verified":       "%q: want 1 (only placements a second editor confirmed without seeing the first answer) or 0",
	"event":          "%q: want any (a photo linked to any event) or an event as dataset:id (ucdp-ged:270123)",
	"min_confidence": "%q is not a number from 0 to 1",
}

// ParseBBox reads minLon,minLat,maxLon,maxLat.
func ParseBBox(v string) (*orb.Bound, error) {
	parts := strings.Split(v, ",")
	if len(parts) != 4 {
		return nil, BadParam("bbox", FilterMessages["bbox_shape"], v)
	}
	var n [4]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, BadParam("bbox", FilterMessages["bbox_number"], p)
		}
		n[i] = x
	}
	switch {
	case n[0] < -180 || n[2] > 180 || n[1] < -90 || n[3] > 90:
		return nil, BadParam("bbox", FilterMessages["bbox_range"], v)
	case n[0] > n[2] || n[1] > n[3]:
		return nil, BadParam("bbox", FilterMessages["bbox_order"], v)
	}
	return &orb.Bound{Min: orb.Point{n[0], n[1]}, Max: orb.Point{n[2], n[3]}}, nil
}

// IntParam reads a whole number parameter in [min, max], or def.
func IntParam(q url.Values, name string, def, min, max int) (int, error) {
	if err := Once(q, name); err != nil {
		return 0, err
	}
	v := strings.TrimSpace(q.Get(name))
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min || n > max {
		return 0, BadParam(name, IntMessage, v, min, max)
	}
	return n, nil
}

// Once refuses a parameter that takes one value given more than once
// (limit=1&limit=2): which one was meant is the client's to say, not a
// guess of the server's.
func Once(q url.Values, names ...string) error {
	for _, name := range names {
		if n := len(q[name]); n > 1 {
			return BadParam(name, OnceMessage, n, strings.Join(q[name], ", "))
		}
	}
	return nil
}

// ParseFilter reads the list filters from a request's query. A bad value
// is a 400 naming the parameter and what is wrong with it.
func ParseFilter(q url.Values) (photo.Filter, error) {
	var f photo.Filter
	if err := Once(q, OnceFilterParams...); err != nil {
		return f, err
	}
	for _, p := range []struct {
		name string
		dst  *photo.Date
	}{{"from", &f.From}, {"to", &f.To}} {
		if v := strings.TrimSpace(q.Get(p.name)); v != "" {
			d, err := photo.ParseDate(v)
			if err != nil {
				return f, BadParam(p.name, FilterMessages["date"], v)
			}
			*p.dst = d
		}
	}
	if !f.From.IsZero() && !f.To.IsZero() {
		a, _ := f.From.Span()
		_, b := f.To.Span()
		if a > b {
			return f, BadParam("to", FilterMessages["to_before"], f.To, f.From)
		}
	}
	if v := strings.TrimSpace(q.Get("bbox")); v != "" {
		b, err := ParseBBox(v)
		if err != nil {
			return f, err
		}
		f.BBox = b
	}
	f.Query = strings.TrimSpace(q.Get("q"))
	f.Agencies = MultiParam(q, "agency")
	for i, a := range f.Agencies { // any name of a source known in both scripts: its ID
		f.Agencies[i] = lexicon.AgencyID(a)
	}
	f.Photographers = MultiParam(q, "photographer")
	f.PlaceIDs = MultiParam(q, "place")
	f.Governorates = MultiParam(q, "governorate")
	f.Agreements = MultiParam(q, "agreement")
	for _, v := range f.Agreements {
		if v != photo.AgreementAgrees && v != photo.AgreementNear && v != photo.AgreementDisagrees {
			return f, BadParam("agreement", FilterMessages["agreement"], v)
		}
	}
	switch v := strings.TrimSpace(q.Get("reuse")); v {
	case "":
	case photo.ReuseCopy, photo.ReuseConflict:
		f.Reuse = v
	default:
		return f, BadParam("reuse", FilterMessages["reuse"], v)
	}
	switch v := strings.TrimSpace(q.Get("unplaced")); v {
	case "", "0", "false":
	case "1", "true":
		f.Unplaced = true
	default:
		return f, BadParam("unplaced", FilterMessages["unplaced"], v)
	}
	switch v := strings.TrimSpace(q.Get("verified")); v {
	case "", "0", "false":
	case "1", "true":
		f.Verified = true
	default:
		return f, BadParam("verified", FilterMessages["verified"], v)
	}
	if v := strings.TrimSpace(q.Get("min_confidence")); v != "" {
		c, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(c) || c < 0 || c > 1 {
			return f, BadParam("min_confidence", FilterMessages["min_confidence"], v)
		}
		f.MinConfidence = c
	}
	if v := strings.TrimSpace(q.Get("event")); v != "" {
		if _, _, ok := photo.SplitEventKey(v); !ok && v != photo.EventAny {
			return f, BadParam("event", FilterMessages["event"], v)
		}
		f.Event = v
	}
	return f, nil
}

// NormalQuery is a request's query as the response cache and the ETags
// name it: the filters as what they select — the window as its first and
// last day (from=2016-01 is from=2016-01-01), a box as its four numbers
// (36.20 is 36.2), the values of a parameter that may repeat sorted,
// blanks and repeats left out — and every other parameter as given. Two
// queries of one normal form have one answer. A query whose filters do
// not parse is kept as it is (its answer is an error, which no cache
// keeps).
func NormalQuery(q url.Values) string {
	f, err := ParseFilter(q)
	if err != nil {
		return q.Encode()
	}
	out := url.Values{}
	for k, vs := range q {
		if !slices.Contains(FilterParams, k) {
			out[k] = vs
		}
	}
	w := photo.WindowOf(f)
	if w.From {
		out.Set("from", strconv.Itoa(w.First))
	}
	if w.To {
		out.Set("to", strconv.Itoa(w.Last))
	}
	if b := f.BBox; b != nil {
		out.Set("bbox", strings.Join([]string{fmtFloat(b.Min[0]), fmtFloat(b.Min[1]), fmtFloat(b.Max[0]), fmtFloat(b.Max[1])}, ","))
	}
	for name, vs := range map[string][]string{"q": {f.Query}, "agency": f.Agencies, "photographer": f.Photographers,
		"place": f.PlaceIDs, "governorate": f.Governorates, "agreement": f.Agreements, "reuse": {f.Reuse}, "event": {f.Event}} {
		vs = slices.DeleteFunc(slices.Clone(vs), func(v string) bool { return v == "" })
		if len(vs) > 0 {
			slices.Sort(vs)
			out[name] = vs
		}
	}
	if f.MinConfidence > 0 {
		out.Set("min_confidence", fmtFloat(f.MinConfidence))
	}
	if f.Unplaced {
		out.Set("unplaced", "1")
	}
	if f.Verified {
		out.Set("verified", "1")
	}
	return out.Encode()
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// CheckParams refuses a query parameter that is not among known, as OGC
// API – Features asks of its resources (a misspelt filter must not be
// ignored, answering everything as if unfiltered). The reader's language
// and digits (?lang=, ?digits=) every page takes. Of several, the first
// by name is named, so that the answer is the same every time.
func CheckParams(q url.Values, known ...string) error {
	for _, name := range slices.Sorted(maps.Keys(q)) {
		if name != i18n.LangParam && name != i18n.DigitsParam && !slices.Contains(known, name) {
			return BadParam(name, "is not a parameter of this resource")
		}
	}
	return nil
}

// FilterQuery keeps the filter parameters of a query, dropping paging.
func FilterQuery(q url.Values) url.Values {
	out := url.Values{}
	for _, k := range FilterParams {
		for _, v := range q[k] {
			if v = strings.TrimSpace(v); v != "" {
				out.Add(k, v)
			}
		}
	}
	return out
}

// WithOffset is the query of filters at offset (none at 0), with its
// "?", or "" when it is empty.
func WithOffset(filters url.Values, offset int) string {
	q := url.Values{}
	for k, v := range filters {
		q[k] = v
	}
	if offset > 0 {
		q.Set("offset", strconv.Itoa(offset))
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}
