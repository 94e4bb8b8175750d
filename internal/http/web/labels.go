package web

import (
	"cmp"
	"slices"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// LabelZoom is the zoom from which the map names places of each kind:
// cities from 6, towns from 9, villages, quarters, camps and the like from
// 12, so that a city's quarters can be told apart when zoomed in.
// Regions and admin units are named by the basemap, or not at all.
var LabelZoom = map[gazetteer.Kind]int{
	gazetteer.City: 6, gazetteer.Town: 9, gazetteer.Village: 12, gazetteer.Neighbourhood: 12,
	gazetteer.Camp: 12, gazetteer.Crossing: 12, gazetteer.Landmark: 12,
}

// ClusterPixels is the side of a cluster cell of /api/clusters in screen
// pixels: at zoom z a cell is ClusterPixels/(256·2^z) of the world's 360
// degrees (a published site's script groups by the same cells).
const ClusterPixels = 60

// MaxLabels bounds the labels of one view: the most prominent first, the
// map drops those that would overlap.
const MaxLabels = 400

// LabelPlaces are the gazetteer's places that the map may name, most
// prominent first.
func LabelPlaces(g *gazetteer.Gazetteer) []*gazetteer.Place {
	var out []*gazetteer.Place
	for i := range g.Places() {
		p := &g.Places()[i]
		if _, ok := LabelZoom[p.Kind]; ok && p.Located {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b *gazetteer.Place) int {
		return cmp.Compare(gazetteer.Prominence(b), gazetteer.Prominence(a))
	})
	return out
}
