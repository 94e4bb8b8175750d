package photo

import (
	"regexp"
	"strings"
	"unicode"
)

// The datasets' names as event keys hold them (conflict.GED,
// conflict.ACLED), for the forms an editor types.
const (
	datasetGED   = "ucdp-ged"
	datasetACLED = "acled"
)

// refPrefixes are the ways an event's dataset is written before its id,
// longest first: "ucdp-ged:243931", "UCDP GED 243931", "GED 243931",
// "acled:SYR1234".
var refPrefixes = []struct{ prefix, dataset string }{
	{"ucdp-ged", datasetGED}, {"ucdp ged", datasetGED}, {"ucdp_ged", datasetGED}, {"ucdpged", datasetGED},
	{"ged", datasetGED}, {"acled", datasetACLED},
}

var (
	// gedID is a GED id: digits, whole or grouped by threes ("243 931").
	gedID = regexp.MustCompile(`^(?:[0-9]{1,12}|[0-9]{1,3}(?:[ ,][0-9]{3})+)$`)
	// acledID is ACLED's event_id_cnty: the country's letters, then digits.
	acledID = regexp.MustCompile(`^[A-Za-z]{2,4}[0-9]{1,12}$`)
)

// maxEventID bounds an event's id as typed, in digits.
const maxEventID = 12

// ParseEventRef reads an event as an editor types or pastes it into the
// photo page's "Link an event by its id": every form the pages show one
// in — "GED 243931", "ged 243931", "UCDP GED 243931", "ucdp-ged:243931",
// a bare "243931" (a UCDP GED id), "acled:SYR1234" or a bare "SYR1234"
// (ACLED's), a candidate's line ("… — GED 243931"), an event page's
// address — with spaces of any kind around it, digits grouped by threes,
// Arabic-Indic or Persian digits, and the direction marks a copy from
// right-to-left text carries. It answers the dataset (conflict.GED or
// conflict.ACLED) and the id as the dataset writes it, or an EInvalid
// error about the field "event" that quotes what was typed. Whether the
// archive holds the event is the store's to say.
func ParseEventRef(typed string) (dataset, id string, err error) {
	s := normalizeRef(typed)
	if i := strings.LastIndex(s, " — "); i >= 0 {
		s = strings.TrimSpace(s[i+len(" — "):]) // a candidate's line ends with its event
	}
	if _, path, ok := strings.Cut(s, "/events/"); ok {
		path, _, _ = strings.Cut(path, "?")
		path, _, _ = strings.Cut(path, "#")
		if d, e, ok := strings.Cut(strings.Trim(path, "/"), "/"); ok && CheckEventID(d, e) == nil {
			return d, e, nil
		}
		return "", "", malformedRef(typed)
	}
	rest := s
	for _, p := range refPrefixes {
		if len(s) >= len(p.prefix) && strings.EqualFold(s[:len(p.prefix)], p.prefix) {
			dataset, rest = p.dataset, strings.TrimLeft(s[len(p.prefix):], " :#")
			break
		}
	}
	switch {
	case (dataset == "" || dataset == datasetGED) && gedID.MatchString(rest):
		return datasetGED, strings.NewReplacer(" ", "", ",", "").Replace(rest), nil
	case (dataset == "" || dataset == datasetACLED) && acledID.MatchString(rest):
		return datasetACLED, strings.ToUpper(rest), nil
	}
	return "", "", malformedRef(typed)
}

// CheckEventID refuses an id that cannot be one of dataset's (a GED id
// is digits; ACLED's, its country's letters then digits), and a dataset
// the archive does not know (an EInvalid error about the field "event"),
// before the store is asked whether it holds the event.
func CheckEventID(dataset, id string) error {
	switch {
	case dataset == datasetGED && id != "" && len(id) <= maxEventID && strings.Trim(id, "0123456789") == "":
		return nil
	case dataset == datasetACLED && acledID.MatchString(id):
		return nil
	case dataset != datasetGED && dataset != datasetACLED:
		return ParamErrorf("event", "no dataset %q: the archive links events of %s and %s", dataset, datasetGED, datasetACLED)
	}
	return ParamErrorf("event", "%q is not a %s event's id", id, dataset)
}

func malformedRef(typed string) error {
	return ParamErrorf("event", "%q is not an event's id: write a UCDP GED id as GED 243931, 243931 or ucdp-ged:243931, an ACLED id as acled:SYR1234", strings.TrimSpace(typed))
}

// normalizeRef is s with its digits in ASCII, its spaces of any kind one
// space, Arabic's thousands separator a comma, and no direction marks,
// trimmed.
func normalizeRef(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r >= '٠' && r <= '٩':
			r = '0' + (r - '٠')
		case r >= '۰' && r <= '۹':
			r = '0' + (r - '۰')
		case r == '٬':
			r = ','
		case r == '\u200e' || r == '\u200f' || r == '\u061c' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') || r == '\ufeff':
			continue
		case unicode.IsSpace(r):
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
