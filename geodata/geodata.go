// Package geodata embeds syriamap's bundled data, so that the binary stands
// alone: the gazetteer that geodata/build derives from the open data in
// shared/geodata, and the seed captions as sample data.
//
// Rebuild it with:
//
//	go run ./geodata/build -shared ../shared
package geodata

import (
	"embed"
	"io/fs"
)

// Gazetteer is the table of places (see internal/geoparse/gazetteer.Decode).
//
//go:embed gazetteer.tsv
var Gazetteer []byte

//go:embed samples/*.txt
var samples embed.FS

// Samples holds the sample caption documents, one caption a paragraph.
var Samples fs.FS = mustSub(samples, "samples")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // the embed pattern above guarantees the folder
	}
	return sub
}

// Attribution is the sources of the bundled data, their licences and the
// pages curated points were read from (internal/attribution.Credits, as
// JSON), shown on the about page; ATTRIBUTION.md says the same.
//
//go:embed attribution.json
var Attribution []byte

// Basemap is the map's offline background (GeoJSON): neighbouring
// countries, governorates with label points, the Euphrates and Tigris.
//
//go:embed basemap.geojson
var Basemap []byte
