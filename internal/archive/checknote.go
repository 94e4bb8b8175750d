package archive

import (
	"math"
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
)

// CheckNote says a check's findings as sentences in the locale's
// language: the clauses of the place's sentence joined, then its end;
// the camera's clock's, the date created's and the credit's each a
// sentence of its own. Places are named as the gazetteer
// names them for the reader, countries as the catalogue does; what the
// file gave is quoted as given. In English it is the stored note.
func CheckNote(l i18n.Locale, g *gazetteer.Gazetteer, findings []photo.Finding) string {
	var sentences, clauses []string
	for _, f := range findings {
		text := l.T("check."+f.Key, findingArgs(l, g, f)...)
		switch {
		case strings.HasPrefix(f.Key, "clock-"), strings.HasPrefix(f.Key, "created-"), strings.HasPrefix(f.Key, "credit-"):
			sentences = append(sentences, text)
		case strings.HasPrefix(f.Key, "end"):
			sentences = append(sentences, strings.Join(clauses, l.T("check.join"))+text)
			clauses = nil
		default:
			if f.Tail != "" {
				text += l.T("check.tail-"+f.Tail, findingArgs(l, g, f)...)
			}
			clauses = append(clauses, text)
		}
	}
	if len(clauses) > 0 { // (a sentence without its end: said as far as it goes)
		sentences = append(sentences, strings.Join(clauses, l.T("check.join")))
	}
	return strings.Join(sentences, " ")
}

// findingArgs are the values a finding's message names, written for l.
func findingArgs(l i18n.Locale, g *gazetteer.Gazetteer, f photo.Finding) []any {
	place := f.PlaceName
	if l.Lang == i18n.Arabic && f.Place != "" {
		if q := g.ByID(f.Place); q != nil && q.NameAr != "" {
			place = q.NameAr
		}
	}
	value := f.Value
	if l.Dir() != "rtl" {
		value = isolate(value) // (a right-to-left page isolates every value)
	}
	country := f.CountryText
	if f.Country != "" {
		country = lexicon.CountryNames[f.Country]
		if l.Lang == i18n.Arabic && i18n.Has("country."+f.Country) {
			country = l.T("country." + f.Country)
		}
	}
	km := l.Int(int(math.Round(f.Km)))
	if f.Km < 1 {
		km = l.Decimal(f.Km, 1)
	}
	kind := l.Named("kind.", f.Kind)
	if kind == "" {
		kind = l.T("check.a-place")
	}
	return []any{"place", place, "value", value, "country", country, "km", km, "kind", kind,
		"n", f.Days, "camera", l.Date(f.Camera.Parts()), "date", l.Date(f.Caption.Parts())}
}
