package web

import (
	"encoding/json"
	"fmt"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/photo"
)

// FacetKeys name each facet's counts in /api/facets' answer.
var FacetKeys = map[photo.Facet]string{photo.FacetAgency: "agencies", photo.FacetPhotographer: "photographers",
	photo.FacetGovernorate: "governorates", photo.FacetPlace: "places"}

// MaxDayBins is how many days a window /api/timeline counts by day
// (bin=day) may cover.
const MaxDayBins = 366

// SiteRules are the read rules a published site's script applies as the
// server does, as data, so that each has its one home here: the facets'
// keys, the placement codes' classes, the longest window of day bins, the
// CSV columns, the parameters' rules and messages, the full-text search's
// limits and messages and operators, the tables place search folds names
// by, the clusters' cells and the most labels a view shows. assets/src/rules.json holds them (TestSiteRules keeps
// it so) and the bundle reads it.
func SiteRules() []byte {
	facets := map[string]string{}
	for _, f := range photo.AllFacets {
		facets[string(f)] = FacetKeys[f]
	}
	b, err := json.MarshalIndent(struct {
		FacetKeys        map[string]string    `json:"facet_keys"`
		PlacementClasses []string             `json:"placement_classes"`
		MaxDayBins       int                  `json:"max_day_bins"`
		CSVColumns       []string             `json:"csv_columns"`
		Params           map[string]pathRules `json:"params"`
		Messages         map[string]string    `json:"messages"`
		Filters          map[string]string    `json:"filter_messages"`
		MaxPlaceName     int                  `json:"max_place_name"`
		OnceFilters      []string             `json:"once_filters"`
		Search           photo.SearchRules    `json:"search"`
		Fold             gazetteer.FoldTables `json:"fold"`
		ClusterPixels    int                  `json:"cluster_pixels"`
		MaxValues        int                  `json:"max_values"`
		MaxLabels        int                  `json:"max_labels"`
	}{facets, PlacementClasses[:], MaxDayBins, CSVHeader, apiParamRules(),
		map[string]string{"int": IntMessage, "enum": EnumMessage, "once": OnceMessage, "zoom_required": ZoomRequiredMessage,
			"place_name": fmt.Sprintf(PlaceNameMessage, MaxPlaceName)}, FilterMessages, MaxPlaceName, OnceFilterParams,
		archive.SearchRules(), gazetteer.Tables(), ClusterPixels, maxValues, MaxLabels}, "", "  ")
	if err != nil {
		panic(err) // a literal of strings and numbers
	}
	return append(b, '\n')
}
