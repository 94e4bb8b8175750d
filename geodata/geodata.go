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

// Gazetteer is the JSON array of places (see internal/gazetteer.Place).
//
//go:embed gazetteer.json
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

// Attribution is ATTRIBUTION.md: the sources of the bundled data and their
// licences, shown on the about page.
//
//go:embed ATTRIBUTION.md
var Attribution string

// Basemap is the map's offline background (GeoJSON): neighbouring
// countries, governorates with label points, the Euphrates and Tigris.
//
//go:embed basemap.geojson
var Basemap []byte
