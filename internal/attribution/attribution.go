// Package attribution describes whose data syriamap bundles, under which
// licences: the build writes it (as JSON, embedded, and as
// geodata/ATTRIBUTION.md) and the about page shows it.
package attribution

import (
	"fmt"
	"strings"
)

// Credits are the sources of the bundled data and the pages curated
// points were read from.
type Credits struct {
	Sources []Source `json:"sources"`
	Pages   []Page   `json:"pages"`
}

// Source is one dataset.
type Source struct {
	Name       string `json:"name"`
	URL        string `json:"url"`
	Licence    string `json:"licence"`
	LicenceURL string `json:"licence_url"`
	Credit     string `json:"credit"` // the words its licence asks for
	UsedFor    string `json:"used_for"`
}

// Page is a page a curated place's point or name was read from.
type Page struct {
	Place string `json:"place"`
	ID    string `json:"id"`
	// Point is "lat, lon", or "" for a place without a point.
	Point string `json:"point"`
	URL   string `json:"url"`
}

// Markdown writes the credits as the repo's ATTRIBUTION.md.
func Markdown(c Credits) string {
	var b strings.Builder
	b.WriteString("# Data attribution\n\n")
	b.WriteString("syriamap's bundled gazetteer (`geodata/gazetteer.tsv`) and basemap (`geodata/basemap.geojson`) are derived, by\n")
	b.WriteString("`go run ./geodata/build` (`make geodata`), from these sources. Each place lists the records it merges (`refs`)\n")
	b.WriteString("and, for curated points, the page its point was read from (`sources`). This file is generated.\n\n")
	b.WriteString("| source | licence | credit | used for |\n|---|---|---|---|\n")
	for _, s := range c.Sources {
		fmt.Fprintf(&b, "| [%s](%s) | [%s](%s) | %s | %s |\n", s.Name, s.URL, s.Licence, s.LicenceURL, s.Credit, s.UsedFor)
	}
	b.WriteString("\n## Curated points and names, and the pages they were read from\n\n")
	for _, p := range c.Pages {
		point := p.Point
		if point == "" {
			point = "no point"
		}
		fmt.Fprintf(&b, "- %s (%s; %s): %s\n", p.Place, p.ID, point, p.URL)
	}
	return b.String()
}
