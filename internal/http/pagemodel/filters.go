package pagemodel

import (
	"net/url"
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// Filters is the filter form of the explorer and the review queue:
// the values asked for (q, read as f) and each facet's counts.
func Filters(l i18n.Locale, g *gazetteer.Gazetteer, action, facetsURL, placesSearchURL string, q url.Values, f photo.Filter, facets photo.Facets) views.Filters {
	v := views.Filters{
		Action: action, From: q.Get("from"), To: q.Get("to"), Q: q.Get("q"),
		FacetsURL: facetsURL, PlacesSearchURL: placesSearchURL,
		MinConfidence: q.Get("min_confidence"),
		Agreement:     q.Get("agreement"),
		Reuse:         q.Get("reuse"), ReuseOffered: true, Event: q.Get("event"), Verified: q.Get("verified"),
		Agencies:      options(facets.Agencies, f.Agencies),
		Photographers: options(facets.Photographers, f.Photographers),
		Governorates:  options(facets.Governorates, f.Governorates),
		Places:        options(facets.Places, f.PlaceIDs),
	}
	// Places are named in the reader's language; a chosen place outside
	// the counted ones is named, not shown by id.
	for i := range v.Places {
		o := &v.Places[i]
		if p := g.ByID(o.Value); p != nil && (o.Value == o.Label || l.Lang == i18n.Arabic) {
			o.Label = GazetteerName(l, p)
		}
	}
	for i := range v.Agencies { // a source known in both scripts, in the reader's
		o := &v.Agencies[i]
		if name := AgencyName(l, o.Value); name != o.Value {
			o.Label = name
		}
	}
	for i := range v.Governorates {
		o := &v.Governorates[i] // by P-code
		o.Label = NameOf(l, g, "ocha:"+o.Value, o.Label)
	}
	return v
}

// options turns facet counts into a filter's choices, keeping the chosen
// value even when it is not among the counted ones.
func options(counts []photo.Count, chosen []string) []views.Option {
	var opts []views.Option
	found := make([]bool, len(chosen))
	for _, c := range counts {
		label := c.Label
		if label == "" {
			label = c.Value
		}
		sel := false
		for i, v := range chosen {
			if c.Value == v || strings.EqualFold(label, v) {
				sel, found[i] = true, true
			}
		}
		opts = append(opts, views.Option{Value: c.Value, Label: label, Count: c.Count, Counted: true, Selected: sel})
	}
	for i, v := range chosen {
		if !found[i] {
			opts = append(opts, views.Option{Value: v, Label: v, Selected: true})
		}
	}
	return opts
}
