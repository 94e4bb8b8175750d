package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// The curated lists: war-relevant places the datasets lack or misplace,
// each with the page its point was read from (the shared supplement and
// the repo's own), spellings of places already there (aliases.csv), and
// the names the English-language press uses for them (names.csv).

// curatedKinds maps the curated files' kinds to the gazetteer's.
var curatedKinds = map[string]gazetteer.Kind{
	"city": gazetteer.City, "town": gazetteer.Town, "village": gazetteer.Village,
	"neighbourhood": gazetteer.Neighbourhood, "camp": gazetteer.Camp, "region": gazetteer.Region,
	"crossing": gazetteer.Crossing, "landmark": gazetteer.Landmark,
	"airbase": gazetteer.Landmark, "road": gazetteer.Landmark,
}

// readCSV reads a CSV file whose header must be want, calling fn with each
// record and its line; a missing optional file is no error.
func readCSV(path, label, want string, optional bool, fn func(rec []string) error) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) && optional {
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
		if err := fn(rec); err != nil {
			return fmt.Errorf("%s:%d: %w", label, line, err)
		}
	}
}

// loadCurated reads a curated CSV (name, alt_names, kind, parent, country,
// lat, lon, source_url, notes).
func (b *builder) loadCurated(path, label string, optional bool) error {
	return readCSV(path, label, "name,alt_names,kind,parent,country,lat,lon,source_url,notes", optional, func(rec []string) error {
		return b.addCurated(rec, label)
	})
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
	var names []string
	for _, alt := range strings.Split(rec[1], "|") {
		names = append(names, qualifiedName(alt)...)
	}
	// "Bab al-Hawa crossing", "Zaatari camp": the bare name is a spelling
	// too, which the geocoder weighs against a town of that name.
	for _, suffix := range []string{" crossing", " camp", " camps"} {
		if base, ok := strings.CutSuffix(name, suffix); ok {
			names = append(names, base)
		}
	}
	// In Arabic the noun comes first: "معبر باب الهوى", "مخيم الزعتري".
	if kind == gazetteer.Crossing || kind == gazetteer.Camp {
		for _, n := range names {
			for _, prefix := range []string{"معبر ", "مخيم ", "مخيمات "} {
				if base, ok := strings.CutPrefix(n, prefix); ok && !slices.Contains(names, base) {
					names = append(names, base)
				}
			}
		}
	}
	country := strings.TrimSpace(rec[4])
	if country == "" {
		country = "SY"
	}
	r := record{ids: []string{"cur:" + slug(rec[0])}, family: "cur", name: name, names: names, nameAr: firstArabic(names),
		kind: kind, nameRank: rankCurated, pointRank: rankCurated, country: country, sources: []string{canonicalPage(rec[7])}}
	if rec[5] != "" || rec[6] != "" {
		lat, err1 := strconv.ParseFloat(rec[5], 64)
		lon, err2 := strconv.ParseFloat(rec[6], 64)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("%s: %w", rec[0], err)
		}
		r.point, r.located = orb.Point{lon, lat}, true
	}
	// The same place from a dataset: one entry, all its names; the
	// curated kind, name and point win.
	if i := b.find(r, func(gazetteer.Kind) float64 { return 5000 }); i >= 0 {
		b.join(i, r)
		b.places[i].Kind = kind
		// The repo's row may say what a place without a point is near
		// where the shared one did not ("Azraq camp").
		if p := &b.places[i]; !p.Located && p.Parent == "" {
			if parent := b.nearParent(rec[3], p); parent >= 0 {
				p.Parent = b.places[parent].ID
			}
		}
		return nil
	}
	i := b.add(r)
	p := &b.places[i]
	if qualifier != "" && country == "SY" {
		rec[3] = qualifier + " (" + rec[3] + ")"
	}
	// Abroad, only a place without a point goes in the settlement it is
	// said to be near ("Şanlıurfa Province, Turkey, near Akcakale").
	if country != "SY" && !p.Located {
		if parent := b.nearParent(rec[3], p); parent >= 0 {
			p.Parent = b.places[parent].ID
		}
	}
	if country == "SY" {
		if parent := b.resolveParent(rec[3], p); parent >= 0 {
			p.Parent = b.places[parent].ID
			if !p.Located {
				q := b.places[parent]
				p.Governorate, p.District, p.Subdistrict = q.Governorate, q.District, q.Subdistrict
			}
		}
	}
	return nil
}

// qualifiedName reads one of a curated place's alternative names:
// "Serêkaniyê (TR side)", "Jarablus crossing (Turkish side)": a name
// qualified to a part names the whole (the Syrian town, the crossing), not
// this place; only one marked shared is its too.
func qualifiedName(n string) []string {
	n = strings.TrimSpace(n)
	if i := strings.Index(n, " ("); i > 0 && strings.HasSuffix(n, ")") {
		if n[i+2:len(n)-1] != "shared" {
			return nil
		}
		n = n[:i]
	}
	if n == "" {
		return nil
	}
	return []string{n}
}

// lookup returns the places one of whose names is a spelling of name.
func (b *builder) lookup(name string) []int {
	k := gazetteer.Fold(name)
	var out []int
	for _, i := range b.bySkel[k.Skeleton] {
		if sharesName(b.meta[i].keys, k) {
			out = append(out, i)
		}
	}
	return out
}

// resolveParent finds the place a curated parent text such as "Damascus",
// "Aleppo (Mount Simeon District)" or "Rif Dimashq (Eastern Ghouta)"
// names. Quarters, landmarks and camps go in a city or town of that name
// within 15 km (or anywhere, for a place without a point); other places go
// in the governorate. It returns -1 when there is none.
func (b *builder) resolveParent(text string, p *gazetteer.Place) int {
	// "Idlib (Harem District), near Atmeh": a place without a point is
	// placed at the settlement it is said to be near, not at the city
	// that names its governorate.
	if i := b.nearParent(text, p); i >= 0 {
		return i
	}
	head := text
	if i := strings.IndexAny(head, "(,/"); i >= 0 {
		head = head[:i]
	}
	head = strings.TrimSpace(head)
	if head == "" {
		return -1
	}
	wantCity := p.Kind == gazetteer.Neighbourhood || p.Kind == gazetteer.Landmark || p.Kind == gazetteer.Camp
	gov := -1
	cands := b.lookup(head)
	// The largest first: Damascus the city before a hamlet of that name.
	slices.SortStableFunc(cands, func(x, y int) int { return kindSize(b.places[y].Kind) - kindSize(b.places[x].Kind) })
	for _, i := range cands {
		q := &b.places[i]
		switch {
		case q.Kind == gazetteer.Governorate && gov < 0:
			gov = i
		case wantCity && (q.Kind == gazetteer.City || q.Kind == gazetteer.Town) && (!p.Located || geo.Distance(q.Point, p.Point) < 15000):
			return i
		}
	}
	return gov
}

// nearParent finds, for a place without a point, the settlement (or, for
// a camp, the border crossing) of its country its curated parent text
// says it is near ("Idlib (Harem District), near Atmeh"), or -1.
func (b *builder) nearParent(text string, p *gazetteer.Place) int {
	if _, near, ok := strings.Cut(text, ", near "); ok && !p.Located {
		cands := b.lookup(strings.TrimSpace(near))
		for _, i := range cands {
			if q := &b.places[i]; (q.Kind.Populated() || p.Kind == gazetteer.Camp && q.Kind == gazetteer.Crossing) && q.Country == p.Country && q.Located {
				return i
			}
		}
		// Abroad, a district seat the datasets hold only as its
		// district's record (Who's On First's Turkish counties: Nizip).
		for _, i := range cands {
			if q := &b.places[i]; p.Country != "SY" && q.Kind == gazetteer.Region && q.Country == p.Country && q.Located {
				return i
			}
		}
	}
	return -1
}

func kindSize(k gazetteer.Kind) int {
	switch k {
	case gazetteer.City:
		return 3
	case gazetteer.Town:
		return 2
	case gazetteer.Village:
		return 1
	}
	return 0
}

// splitQualifier splits "Midan (Damascus)" into "Midan" and "Damascus".
func splitQualifier(s string) (name, qualifier string) {
	if i := strings.Index(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		return s[:i], s[i+2 : len(s)-1]
	}
	return s, ""
}

// loadAliases adds the spellings in the repo's aliases.csv (id, alias,
// source) to the places they name.
func (b *builder) loadAliases(path string) error {
	return readCSV(path, path, "id,alias,source", false, func(rec []string) error {
		i, ok := b.byID[rec[0]]
		if !ok {
			return fmt.Errorf("no place has id %s", rec[0])
		}
		if strings.TrimSpace(rec[2]) == "" {
			return fmt.Errorf("alias %q has no source", rec[1])
		}
		b.addNames(i, rec[1])
		return nil
	})
}

// loadWrongNames drops the names a dataset gives a place in error (id,
// name, source): Who's On First lists Kobanî, the Kurdish name of Ayn
// al-Arab, for Afrin, 100 km away. Every spelling of the name goes. It
// runs after every source is loaded.
func (b *builder) loadWrongNames(path string) error {
	return readCSV(path, path, "id,name,source", true, func(rec []string) error {
		i, ok := b.byID[rec[0]]
		if !ok {
			return fmt.Errorf("no place has id %s", rec[0])
		}
		if strings.TrimSpace(rec[2]) == "" {
			return fmt.Errorf("the wrong name %q has no source", rec[1])
		}
		wrong := gazetteer.Fold(rec[1])
		p := &b.places[i]
		if gazetteer.SameName(gazetteer.Fold(p.Name), wrong) {
			return fmt.Errorf("%q is the display name of %s", rec[1], rec[0])
		}
		kept := p.Names[:0]
		for _, n := range p.Names {
			if !gazetteer.SameName(gazetteer.Fold(n), wrong) {
				kept = append(kept, n)
			}
		}
		if len(kept) == len(p.Names) {
			return fmt.Errorf("%s has no name %q", rec[0], rec[1])
		}
		p.Names = kept
		return nil
	})
}

// loadNames sets the display names in the repo's names.csv (id, name,
// source): the spelling the English-language press uses, where OCHA's
// romanisation differs (Idleb → Idlib, Menbij → Manbij), each with the page
// that shows that usage (the English Wikipedia article's title).
func (b *builder) loadNames(path string) error {
	return readCSV(path, path, "id,name,source", false, func(rec []string) error {
		i, ok := b.byID[rec[0]]
		if !ok {
			return fmt.Errorf("no place has id %s", rec[0])
		}
		if strings.TrimSpace(rec[2]) == "" {
			return fmt.Errorf("the name %q has no source", rec[1])
		}
		b.join(i, record{ids: []string{b.places[i].ID}, family: "names", name: rec[1], nameRank: rankOverride, sources: []string{rec[2]}})
		return nil
	})
}
