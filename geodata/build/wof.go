package main

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"
	"github.com/paulmach/orb/planar"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// Who's On First: in effect GeoNames' populated places for Syria, Lebanon
// and the border areas of Turkey, Jordan and Iraq, with Arabic names.

// wofRow is one row of a wof-*-flat.tsv table.
type wofRow struct {
	id, name, placetype, gnID, code, gnName, gnASCII string
	ara, eng, other                                  []string
	lat, lon                                         float64
	current                                          string // mz_is_current: 1, 0 (not current) or -1 (unknown)
	deprecated                                       bool
}

func readWOF(path string) ([]wofRow, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	want := "wof_id\twof_name\tplacetype\tgn_geonameid\tgn_feature_code\tgn_name\tgn_asciiname\tnames_ara\tnames_eng\tnames_other\tlat\tlon\tparent_id\tregion_id\tcounty_id\tmz_is_current\tedtf_deprecated\tsuperseded_by\tsrc_geom\tpath"
	if lines[0] != want {
		return nil, fmt.Errorf("%s: unexpected header", path)
	}
	var rows []wofRow
	for n, line := range lines[1:] {
		f := strings.Split(line, "\t")
		if len(f) > 20 {
			// A name holding a tab (one Lebanese record): the first seven
			// columns and the last ten are fixed, the names between.
			mid := f[7 : len(f)-10]
			names := []string{strings.Join(mid[:len(mid)-2], " "), mid[len(mid)-2], mid[len(mid)-1]}
			f = append(append(append([]string{}, f[:7]...), names...), f[len(f)-10:]...)
		}
		if len(f) != 20 {
			return nil, fmt.Errorf("%s:%d: %d columns, want 20", path, n+2, len(f))
		}
		if f[10] == "" && f[11] == "" {
			continue // an untyped record without a point: nothing to place
		}
		lat, err1 := strconv.ParseFloat(f[10], 64)
		lon, err2 := strconv.ParseFloat(f[11], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s:%d: the point %q, %q is not a number", path, n+2, f[10], f[11])
		}
		rows = append(rows, wofRow{id: f[0], name: f[1], placetype: f[2], gnID: f[3], code: f[4], gnName: f[5], gnASCII: f[6],
			ara: split(f[7]), eng: split(f[8]), other: split(f[9]), lat: lat, lon: lon, current: f[15],
			deprecated: f[16] != "" || f[17] != ""})
	}
	return rows, nil
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}

// abandoned reports whether a record is of a place that is gone: deprecated
// or superseded in WOF, not current, or abandoned or destroyed in GeoNames
// (PPLQ, PPLW). Such places are left out: they must never win over a
// living place of the same name.
func (w wofRow) abandoned() bool {
	return w.deprecated || w.current == "0" || w.code == "PPLQ" || w.code == "PPLW"
}

// record makes a record of a WOF locality, neighbourhood or county.
func (w wofRow) record(country string) record {
	r := record{ids: []string{"wof:" + w.id}, family: "wof", country: country, point: orb.Point{w.lon, w.lat}, located: true,
		nameRank: rankWOF, pointRank: rankWOF}
	if w.gnID != "" {
		// The GeoNames record it was made from: cities500 may hold it.
		r.ids = append([]string{"gn:" + w.gnID}, r.ids...)
		r.family, r.nameRank = "gn", rankGeoNames
	}
	r.name = w.gnASCII
	if r.name == "" {
		r.name = plainLatin(asciiName(w.name, w.eng))
	}
	if !isLatinText(r.name) {
		// No Latin name of its own: the first Latin one it has, if any
		// (the loaders leave out a place no one could read on the map).
		r.name = ""
		for _, n := range append(append([]string{}, w.eng...), w.other...) {
			if isLatinText(n) && strings.TrimSpace(n) != "" {
				r.name = plainLatin(n)
				break
			}
		}
	}
	r.names = append([]string{w.name, w.gnName}, w.eng...)
	r.names = append(r.names, w.ara...)
	r.names = append(r.names, w.other...)
	r.nameAr = firstArabic(w.ara)
	switch {
	case w.placetype == "neighbourhood":
		r.kind = gazetteer.Neighbourhood
	case w.placetype == "county" || w.placetype == "region":
		r.kind = gazetteer.Region
	case isCampName(w.name) || isCampName(w.gnASCII):
		r.kind = gazetteer.Camp
	case w.code == "PPLC" || w.code == "PPLA":
		r.kind = gazetteer.City
	case w.code == "PPLA2" || w.code == "PPLA3":
		r.kind = gazetteer.Town
	default:
		// A place the world writes about in many languages is a town at
		// least (Sidon, Azraq: WOF gives many records no feature code) —
		// when those names are spellings of its own, not the translations
		// of a word a wrong concordance brought in (a Turkish village
		// Çat that WOF also calls Chat, Gatto and Mačka).
		// Abroad, GeoNames' own word wins over the names: a record it
		// codes a plain PPL is a village, whatever names a concordance
		// gave it (the Lebanese hamlets WOF calls Khartoum, Doha and
		// Tikrit). In Syria the names are the only sign of a town
		// (Hamouriyeh, Qamhana), and most are its own.
		switch n := len(w.other) + len(w.eng) + len(w.ara); {
		case w.code != "" && country != "SY":
			r.kind = gazetteer.Village
		case !spelledAlike(w):
			r.kind = gazetteer.Village
			r.names = append([]string{w.name, w.gnName}, w.ara...)
		case n >= 20 && country != "SY":
			r.kind = gazetteer.City
		case n >= 12:
			r.kind = gazetteer.Town
		default:
			r.kind = gazetteer.Village
		}
	}
	return r
}

// spelledAlike reports whether most of a record's Latin names are
// spellings of its main name: their folded skeletons begin alike (Saida,
// Sayda, Sidone for Sidon), as the translations of a word do not (Chat,
// Mačka, Kinkku).
func spelledAlike(w wofRow) bool {
	main := gazetteer.Fold(w.gnASCII)
	if main.Skeleton == "" {
		main = gazetteer.Fold(w.name)
	}
	if len(main.Skeleton) < 2 {
		return true
	}
	alike, latin := 0, 0
	for _, n := range append(append([]string{}, w.eng...), w.other...) {
		if isArabicText(n) || !isLatinText(n) {
			continue
		}
		latin++
		if k := gazetteer.Fold(n); len(k.Skeleton) >= 2 && k.Skeleton[:2] == main.Skeleton[:2] {
			alike++
		}
	}
	return latin == 0 || float64(alike) >= 0.6*float64(latin)
}

// isLatinText reports whether s is written in Latin letters.
func isLatinText(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) && !unicode.In(r, unicode.Latin) {
			return false
		}
	}
	return true
}

// asciiName is a record's Latin name for display: its English name when
// its main name is in another script (Irbid's is Arabic).
func asciiName(name string, eng []string) string {
	if !isArabicText(name) || len(eng) == 0 {
		return name
	}
	return eng[0]
}

// loadWOFSyria merges GeoNames' Syrian populated places, through Who's On
// First, into the places there or adds them: the villages OCHA lacks or
// romanises otherwise. Areas (counties, regions) are Open-Syria's.
func (b *builder) loadWOFSyria(path string) error {
	rows, err := readWOF(path)
	if err != nil {
		return err
	}
	for _, w := range rows {
		if w.abandoned() || w.placetype != "locality" && w.placetype != "neighbourhood" {
			continue
		}
		if r := w.record("SY"); r.name != "" {
			b.upsert(r, mergeRadius)
		}
	}
	return nil
}

// loadWOFAbroad adds the places across the border that captions name:
// Lebanon's towns and villages (where many refugees live) and areas; and of
// Turkey, Jordan and Iraq, within 120 km of Syria, the places a caption is
// likely to name — administrative seats, district records, places with
// many names in WOF (a sign of a town the world writes about), and every
// place within 15 km of the border (border villages and gates). The rest,
// thousands of hamlets, would only catch loose spellings of Syrian names.
func (b *builder) loadWOFAbroad(path, country string, syria orb.MultiPolygon) error {
	rows, err := readWOF(path)
	if err != nil {
		return err
	}
	for _, w := range rows {
		if w.abandoned() || w.placetype == "campus" || w.placetype == "" || w.placetype == "country" {
			continue
		}
		r := w.record(country)
		if r.name == "" {
			continue
		}
		if country != "LB" && w.placetype == "locality" && !prominent(w) && borderMetres(syria, r.point) > 15000 {
			continue
		}
		if r.kind == gazetteer.Region {
			// A district record: its point is the district's centre, not
			// its seat's. It names the seat town when one is near.
			r.kind = ""
			if i := b.find(r, func(gazetteer.Kind) float64 { return 15000 }); i >= 0 {
				r.located = false
				b.join(i, r)
				continue
			}
			r.kind = gazetteer.Region
		}
		b.upsert(r, mergeRadius)
	}
	return nil
}

// prominent reports whether a WOF locality abroad is a place captions may
// name though far from the border: a capital or seat, or a place known by
// many names.
func prominent(w wofRow) bool {
	switch w.code {
	case "PPLC", "PPLA", "PPLA2", "PPLA3":
		return true
	}
	return w.code == "" && len(w.other)+len(w.eng) >= 6 && spelledAlike(w)
}

// borderMetres is roughly how far pt lies from Syria's outline, in metres.
func borderMetres(syria orb.MultiPolygon, pt orb.Point) float64 {
	best := math.Inf(1)
	for _, poly := range syria {
		for _, ring := range poly {
			for i := 1; i < len(ring); i++ {
				seg := orb.LineString{ring[i-1], ring[i]}
				if d := planar.DistanceFrom(seg, pt); d < best {
					best = d
				}
			}
		}
	}
	// Degrees to metres at Syria's latitude (a lower bound of the true
	// distance, which is all a 15 km filter needs).
	return best * geo.Distance(orb.Point{0, 35}, orb.Point{1, 35})
}
