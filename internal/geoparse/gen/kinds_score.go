package gen

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// KindRow is how a geocoder did on one template's captions.
type KindRow struct {
	Kind, Template  string
	N               int
	Place           int // answers of the right place (or, abroad, of no Syrian place)
	Precision       int // answers whose precision is the one owed (exact, or fallback for a place the gazetteer lacks or holds without a point)
	Confidence      float64
	Sure, SureRight int // answers at ≥ 0.8, and those right in place and precision
	Misses          []string
}

// Verdict says whether r is a right answer to c: in place, and in
// precision.
func Verdict(c KindCase, r geocode.Result) (place, precision bool) {
	want, owed := c.Want, geocode.Exact
	if c.Within != nil {
		want, owed = c.Within, geocode.Fallback
	}
	if c.Abroad {
		// No Syrian place; and the place itself when the gazetteer holds it.
		place = r.Place == nil || r.Place.Country != "SY"
		return place, place && (want == nil || r.Place != nil && same(r.Place, want) && r.Precision == owed)
	}
	place = r.Place != nil && same(r.Place, want)
	return place, place && r.Precision == owed
}

// same reports whether a is b, or a homonym of b in b's governorate (the
// caption cannot tell them apart), or b's duplicate in another source
// (a point within 3 km).
func same(a, b *gazetteer.Place) bool {
	switch {
	case a.ID == b.ID:
		return true
	case a.Country != b.Country || a.Governorate != b.Governorate:
		return false
	case a.Located && b.Located && km(a, b) < 3 && !a.Kind.Admin() && !b.Kind.Admin():
		return true
	}
	return a.Kind == b.Kind && gazetteer.Fold(a.Name) == gazetteer.Fold(b.Name)
}

// MeasureKinds geocodes every case with gc and tallies them by template,
// in the order the templates come.
func MeasureKinds(gc *geocode.Geocoder, cases []KindCase) []KindRow {
	var rows []KindRow
	at := map[string]int{}
	for _, c := range cases {
		i, ok := at[c.Kind+"|"+c.Template]
		if !ok {
			i = len(rows)
			at[c.Kind+"|"+c.Template] = i
			rows = append(rows, KindRow{Kind: c.Kind, Template: c.Template})
		}
		row := &rows[i]
		r := gc.Geocode(caption.Parse(c.Text))
		place, precision := Verdict(c, r)
		row.N++
		row.Confidence += r.Confidence
		if place {
			row.Place++
		}
		if precision {
			row.Precision++
		}
		if r.Confidence >= 0.8 {
			row.Sure++
			if precision {
				row.SureRight++
			}
		}
		if !place || !precision {
			got := "nothing"
			if r.Place != nil {
				got = fmt.Sprintf("%s (%s, %s, %s, %.2f)", r.Place.Name, r.Place.Kind, r.Place.Country, r.Precision, r.Confidence)
			}
			row.Misses = append(row.Misses, c.Text+"\n    → "+got)
		}
	}
	for i := range rows {
		rows[i].Confidence /= float64(rows[i].N)
	}
	return rows
}

// ByKind sums rows by kind, in the order the kinds come.
func ByKind(rows []KindRow) []KindRow {
	var out []KindRow
	at := map[string]int{}
	for _, r := range rows {
		i, ok := at[r.Kind]
		if !ok {
			i = len(out)
			at[r.Kind] = i
			out = append(out, KindRow{Kind: r.Kind, Template: "(all)"})
		}
		s := &out[i]
		s.Confidence = (s.Confidence*float64(s.N) + r.Confidence*float64(r.N)) / float64(s.N+r.N)
		s.N += r.N
		s.Place += r.Place
		s.Precision += r.Precision
		s.Sure += r.Sure
		s.SureRight += r.SureRight
		s.Misses = append(s.Misses, r.Misses...)
	}
	return out
}

// WriteKinds prints rows as a table: per template, then per kind.
func WriteKinds(w io.Writer, rows []KindRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\ttemplate\tn\tplace right\tprecision right\tmean conf\t≥ 0.8 right\t")
	for _, rs := range [][]KindRow{rows, ByKind(rows)} {
		for _, r := range rs {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f %%\t%.1f %%\t%.2f\t%d/%d\t\n", r.Kind, r.Template, r.N,
				pct(r.Place, r.N), pct(r.Precision, r.N), r.Confidence, r.SureRight, r.Sure)
		}
		fmt.Fprintln(tw, "\t\t\t\t\t\t\t")
	}
	return tw.Flush()
}

func pct(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(a) / float64(n)
}
