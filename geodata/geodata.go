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
	"fmt"
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

// EventsGED is UCDP GED's events in Syria, version EventsGEDVersion
// (16,566 events, 2016–2019, CC BY 4.0; events/README.md says whence and
// how to cite it), gzipped CSV: an archive's first start imports them.
//
//go:embed events/ucdp-ged-syria-19.1.csv.gz
var EventsGED []byte

// EventsGEDVersion is EventsGED's version of the dataset.
const EventsGEDVersion = "19.1"

// GEDCitation is how UCDP GED is cited wherever its events are shown,
// its version for %s (CC BY 4.0 asks for the citation).
const GEDCitation = "UCDP Georeferenced Event Dataset (GED) version %s, CC BY 4.0: Sundberg, Ralph, and Erik Melander, 2013, “Introducing the UCDP Georeferenced Event Dataset”, Journal of Peace Research 50(4): 523–532; “UCDP GED Codebook version %s”, Department of Peace and Conflict Research, Uppsala University."

// CiteGED is GEDCitation for the dataset's version.
func CiteGED(version string) string { return fmt.Sprintf(GEDCitation, version, version) }

// Basemap is the map's offline background (GeoJSON): neighbouring
// countries, governorates with label points, the Euphrates and Tigris.
//
//go:embed basemap.geojson
var Basemap []byte
