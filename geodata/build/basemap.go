package main

import (
	"fmt"
	"math"
	"os"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/clip"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/planar"
	"github.com/paulmach/orb/simplify"
)

// The basemap is what the map draws under the photos without any tile
// server: all the land around Syria (so that no country is drawn as sea),
// Syria's governorates, labels for both, and the Euphrates and Tigris.
// Each feature has a "layer" property: country, country-label,
// governorate, label (a governorate's) or river. Lines are simplified to
// what a country-wide map shows (a few hundred metres near Syria, a few
// kilometres far from it) and coordinates rounded to 4 decimals, which
// keeps the file small enough to load at once.

// basemapTolerance is the Douglas-Peucker tolerance in degrees (~500 m);
// farTolerance is for the countries that do not border Syria (~3 km).
const (
	basemapTolerance = 0.005
	farTolerance     = 0.03
)

// basemapBound is the part of the world the basemap draws: Syria and
// every country a map of it shows, from the Aegean to the Gulf.
var basemapBound = orb.Bound{Min: orb.Point{24, 26}, Max: orb.Point{54, 44}}

// minLabelArea is the least area (square degrees, inside the bound) a
// country needs for its name on the map: Akrotiri and the UN buffer zone
// are drawn, not named.
const minLabelArea = 0.3

// rivers are the Natural Earth river names the basemap keeps, by name_en.
var rivers = map[string]bool{"Euphrates": true, "Tigris": true}

// writeBasemap writes the basemap; govNames are the governorates' display
// names by P-code, so that the map says what the filters say.
func writeBasemap(src, path string, govNames map[string]string) error {
	out := geojson.NewFeatureCollection()
	// Syria and its neighbours at full detail, the rest of the region's
	// land simplified further; each clipped to the bound.
	near, err := readFeatures(src + "/naturalearth/countries-10m-syria-and-neighbours.geojson")
	if err != nil {
		return err
	}
	region, err := readFeatures(src + "/naturalearth/countries-10m-middle-east.geojson")
	if err != nil {
		return err
	}
	drawn := map[string]bool{}
	for _, fc := range []struct {
		features  []*geojson.Feature
		tolerance float64
	}{{near.Features, basemapTolerance}, {region.Features, farTolerance}} {
		for _, f := range fc.features {
			name, _ := f.Properties["name"].(string)
			if drawn[name] {
				continue
			}
			g := clip.Geometry(basemapBound, orb.Clone(f.Geometry))
			if g == nil || planar.Area(g) == 0 {
				continue // outside the bound
			}
			drawn[name] = true
			out.Append(simplified(g, fc.tolerance, "country", name))
			if label, ok := labelPoint(g); ok && math.Abs(planar.Area(g)) >= minLabelArea {
				out.Append(basemapFeature(label, "country-label", name))
			}
		}
	}
	govs, err := readFeatures(src + "/ocha/syr_admin1.geojson")
	if err != nil {
		return err
	}
	for _, f := range govs.Features {
		pcode, _ := f.Properties["PCODE"].(string)
		name := govNames[pcode]
		if name == "" {
			return fmt.Errorf("no governorate has P-code %s", pcode)
		}
		// The Arabic name is OCHA's, for the map of an Arabic page.
		nameAr, _ := f.Properties["NAME_AR"].(string)
		g := basemapFeature(f.Geometry, "governorate", name)
		g.Properties["pcode"] = pcode
		out.Append(g)
		// The label sits at the centroid of the governorate's largest part.
		if label, ok := labelPoint(f.Geometry); ok {
			l := basemapFeature(label, "label", name)
			l.Properties["pcode"] = pcode
			if nameAr != "" {
				l.Properties["name_ar"] = nameAr
			}
			out.Append(l)
		}
	}
	rs, err := readFeatures(src + "/naturalearth/rivers-50m-syria-region.geojson")
	if err != nil {
		return err
	}
	for _, f := range rs.Features {
		if name, _ := f.Properties["name_en"].(string); rivers[name] {
			r := basemapFeature(f.Geometry, "river", name)
			if ar, _ := f.Properties["name_ar"].(string); ar != "" {
				r.Properties["name_ar"] = ar
			}
			out.Append(r)
		}
	}
	b, err := out.MarshalJSON()
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func readFeatures(path string) (*geojson.FeatureCollection, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fc, err := geojson.UnmarshalFeatureCollection(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return fc, nil
}

func basemapFeature(g orb.Geometry, layer, name string) *geojson.Feature {
	return simplified(g, basemapTolerance, layer, name)
}

func simplified(g orb.Geometry, tolerance float64, layer, name string) *geojson.Feature {
	g = simplify.DouglasPeucker(tolerance).Simplify(orb.Clone(g))
	f := geojson.NewFeature(round4(g))
	f.Properties = geojson.Properties{"layer": layer, "name": name}
	return f
}

func labelPoint(g orb.Geometry) (orb.Point, bool) {
	var best orb.Polygon
	var bestArea float64
	switch g := g.(type) {
	case orb.Polygon:
		best = g
	case orb.MultiPolygon:
		for _, p := range g {
			if a := math.Abs(planar.Area(p)); a > bestArea {
				best, bestArea = p, a
			}
		}
	}
	if len(best) == 0 {
		return orb.Point{}, false
	}
	c, _ := planar.CentroidArea(best)
	return c, true
}

// round4 rounds every coordinate of g to 4 decimals (~10 m).
func round4(g orb.Geometry) orb.Geometry {
	r := func(p orb.Point) orb.Point {
		return orb.Point{math.Round(p[0]*1e4) / 1e4, math.Round(p[1]*1e4) / 1e4}
	}
	switch g := g.(type) {
	case orb.Point:
		return r(g)
	case orb.LineString:
		for i := range g {
			g[i] = r(g[i])
		}
	case orb.MultiLineString:
		for _, l := range g {
			round4(l)
		}
	case orb.Ring:
		for i := range g {
			g[i] = r(g[i])
		}
	case orb.Polygon:
		for _, ring := range g {
			round4(ring)
		}
	case orb.MultiPolygon:
		for _, p := range g {
			round4(p)
		}
	}
	return g
}
