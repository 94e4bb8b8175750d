package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// OCHA's populated places: 7,593 communities and 414 city neighbourhoods,
// each with its point, English and Arabic names and the whole
// administrative chain; and its Aleppo neighbourhood polygons' centres.

// loadAleppoNeighbourhoods adds the 109 Aleppo quarters at the centres of
// OCHA's polygons (the populated-places table has the same P-codes).
func (b *builder) loadAleppoNeighbourhoods(path string) error {
	var doc struct {
		Items []struct {
			PCode       string  `json:"pCode"`
			NameArabic  string  `json:"nameArabic"`
			NameEnglish string  `json:"nameEnglish"`
			CenterLat   float64 `json:"centerLatitude"`
			CenterLon   float64 `json:"centerLongitude"`
		} `json:"items"`
	}
	if err := readJSON(path, &doc); err != nil {
		return err
	}
	for _, it := range doc.Items {
		names := strings.Split(it.NameEnglish, " / ") // "Beit Meheb / Jdeydeh"
		r := record{ids: []string{"ocha:" + it.PCode}, family: "ocha", name: strings.TrimSpace(names[0]), names: names[1:],
			nameAr: it.NameArabic, kind: gazetteer.Neighbourhood, point: orb.Point{it.CenterLon, it.CenterLat}, located: true,
			nameRank: rankOCHA, pointRank: rankOCHA, country: "SY"}
		b.add(r)
	}
	return nil
}

// ochaRow is one row of Location.csv.
type ochaRow struct {
	line                      int
	pcode, en, ar, typ        string
	admin3, admin4            string // P-codes of the subdistrict and, for a neighbourhood, its community
	gov, dist, sub, community string // English names of the chain
	arHolders                 []string
	lat, lon                  float64
}

// loadOCHAPlaces merges the communities, then the neighbourhoods, into the
// places already there (GeoNames' larger places, the Aleppo quarters) or
// adds them.
func (b *builder) loadOCHAPlaces(path string) error {
	rows, err := readOCHA(path)
	if err != nil {
		return err
	}
	for _, typ := range []string{"Community", "Neighbourhood"} {
		for _, row := range rows {
			if row.typ != typ {
				continue
			}
			if err := b.addOCHA(row); err != nil {
				return fmt.Errorf("%s:%d: %w", path, row.line, err)
			}
		}
	}
	return nil
}

func readOCHA(path string) ([]ochaRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, want := range []string{"LocationName_en", "LocationName_ar", "Location_Pcode", "location_type", "Latitude_y", "Longitude_x",
		"admin1Name_en", "admin2Name_en", "admin3Name_en", "admin3Pcode", "admin4Name_en", "admin4Pcode"} {
		if _, ok := col[want]; !ok {
			return nil, fmt.Errorf("%s: no column %s", path, want)
		}
	}
	var rows []ochaRow
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		row := ochaRow{line: line, pcode: rec[col["Location_Pcode"]], en: rec[col["LocationName_en"]], ar: rec[col["LocationName_ar"]],
			typ: rec[col["location_type"]], admin3: rec[col["admin3Pcode"]], admin4: rec[col["admin4Pcode"]],
			gov: rec[col["admin1Name_en"]], dist: rec[col["admin2Name_en"]], sub: rec[col["admin3Name_en"]], community: rec[col["admin4Name_en"]]}
		for _, h := range []string{"admin1Name_ar", "admin2Name_ar", "admin3Name_ar"} {
			if i, ok := col[h]; ok {
				row.arHolders = append(row.arHolders, rec[i])
			}
		}
		if i, ok := col["admin4Name_ar"]; ok && row.typ == "Neighbourhood" {
			row.arHolders = append(row.arHolders, rec[i])
		}
		var err1, err2 error
		row.lat, err1 = strconv.ParseFloat(rec[col["Latitude_y"]], 64)
		row.lon, err2 = strconv.ParseFloat(rec[col["Longitude_x"]], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s:%d: the point %q, %q is not a number", path, line, rec[col["Latitude_y"]], rec[col["Longitude_x"]])
		}
		rows = append(rows, row)
	}
}

func (b *builder) addOCHA(row ochaRow) error {
	if _, ok := b.admin[row.admin3]; !ok {
		return fmt.Errorf("%s: subdistrict %s is not an Open-Syria subdistrict", row.pcode, row.admin3)
	}
	holders := []string{row.sub, row.dist, row.gov, row.community}
	name, alts := ochaName(row.en, holders)
	r := record{ids: []string{"ocha:" + row.pcode}, family: "ocha", name: name, names: alts, kind: gazetteer.Village,
		point: orb.Point{row.lon, row.lat}, located: true, nameRank: rankOCHA, pointRank: rankOCHA, country: "SY"}
	arName, arAlts := ochaArabic(row.ar, row.arHolders)
	r.nameAr, r.names = arName, append(r.names, arAlts...)
	seat := ""
	switch {
	case row.typ == "Neighbourhood":
		r.kind = gazetteer.Neighbourhood
	case isCampName(name):
		r.kind = gazetteer.Camp
	default:
		// A community that names its governorate, district or subdistrict
		// is its seat (the largest area it names): a town, at least.
		for _, code := range []string{row.admin3[:4], row.admin3[:6], row.admin3} {
			if sameFolded(name, b.admin[code].Name) || code == row.admin3 && sameFolded(name, row.sub) {
				r.kind, seat = gazetteer.Town, code
				break
			}
		}
		if len(seat) == 4 {
			r.kind = gazetteer.City
		}
	}
	i := b.upsert(r, mergeRadius)
	p := &b.places[i]
	setChain(p, row.admin3, b.admin)
	if seat != "" && (b.meta[i].seat == "" || len(seat) < len(b.meta[i].seat)) {
		b.meta[i].seat = seat
	}
	if row.typ == "Neighbourhood" {
		if city, ok := b.byID["ocha:"+row.admin4]; ok && city != i {
			p.Parent = b.places[city].ID
		}
	}
	return nil
}

// ochaName reads OCHA's English name: "Faqie (Kafr Nobol)", "Shamiyeh /
// Lattakia", "Jalaa - Hama (ne)", "Hamshu - Hamashtlak". A bracket or a
// part that names the place's subdistrict, district, governorate or city
// only says where it is (the chain holds that); any other part is another
// name of the place.
func ochaName(en string, holders []string) (name string, alts []string) {
	s := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(en), "(ne)"))
	// "Kh. el Farass": OCHA abbreviates Kherbet (a ruin, a hamlet).
	if rest, ok := strings.CutPrefix(s, "Kh. "); ok {
		s = "Kherbet " + rest
	}
	if i := strings.Index(s, "("); i > 0 && strings.HasSuffix(s, ")") {
		inside := strings.TrimSpace(s[i+1 : len(s)-1])
		s = strings.TrimSpace(s[:i])
		if !namesAny(inside, holders) && !strings.Contains(strings.ToLower(inside), "camp") {
			alts = append(alts, inside) // "Qanater (Big Orm)": not a holder, keep it as said
		}
	}
	var parts []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '\\' }) {
		for _, q := range strings.Split(part, " - ") {
			if q = strings.TrimSpace(q); q != "" {
				parts = append(parts, q)
			}
		}
	}
	if len(parts) == 0 {
		return strings.TrimSpace(en), nil
	}
	name = titleWords(parts[0])
	for _, q := range parts[1:] {
		if !namesAny(q, holders) {
			alts = append(alts, q)
		}
	}
	// "Al Hurriya_ Ish Al Werwer": an underscore joins two names; in
	// "Al_Sad" it stands for a space.
	if a, b, ok := strings.Cut(name, "_"); ok {
		a, b = strings.TrimSpace(a), strings.TrimSpace(b)
		if gazetteer.Fold(a).Fine == "al" || gazetteer.Fold(a).Skeleton == "" {
			name = a + " " + b
		} else {
			name = a
			alts = append(alts, b, a+" "+b)
		}
	}
	return name, alts
}

// titleWords capitalises the words of a name OCHA left in lower case
// ("Khan tuman"), but for the articles and particles that stay so (al,
// el, bin, of …).
func titleWords(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		r, size := utf8.DecodeRuneInString(w)
		lower := strings.ToLower(strings.SplitN(w, "-", 2)[0])
		if unicode.IsLower(r) && (i == 0 || !particles[lower]) {
			words[i] = string(unicode.ToUpper(r)) + w[size:]
		}
	}
	return strings.Join(words, " ")
}

// particles stay in lower case inside a name.
var particles = map[string]bool{"al": true, "el": true, "ad": true, "ar": true, "as": true, "ash": true, "at": true,
	"az": true, "an": true, "ed": true, "en": true, "er": true, "es": true, "et": true, "ez": true, "bin": true,
	"ibn": true, "wa": true, "of": true, "de": true, "la": true}

// ochaArabic reads OCHA's Arabic name: its first part is the name; parts
// after " - " or "/" that name its subdistrict, district or city only say
// where it is ("بسقلا - كفر نبل" is Basqala in Kafr Nabl, not Kafr Nabl),
// others are other names; a neighbourhood's begins with حي ("quarter"),
// which searches leave out.
func ochaArabic(ar string, holders []string) (name string, alts []string) {
	ar = strings.TrimSpace(ar)
	if ar == "" {
		return "", nil
	}
	for i, part := range strings.FieldsFunc(ar, func(r rune) bool { return r == '/' || r == '-' || r == '_' }) {
		part = strings.TrimSpace(part)
		bare := strings.TrimSpace(strings.TrimPrefix(part, "حي "))
		if i == 0 {
			name = part
		} else if namesAny(bare, holders) || namesAny(strings.TrimPrefix(bare, "مركز "), holders) {
			continue
		}
		if bare != "" && bare != "حي" {
			alts = append(alts, bare)
		}
	}
	return name, alts
}

func namesAny(s string, holders []string) bool {
	for _, h := range holders {
		if sameFolded(s, h) {
			return true
		}
	}
	return false
}

// sameFolded reports whether two names are spellings of one another.
func sameFolded(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	return gazetteer.SameName(gazetteer.Fold(a), gazetteer.Fold(b))
}

// isCampName reports whether a name is a camp's: "… Camp", "Mokhayam …".
func isCampName(name string) bool {
	for _, w := range strings.Fields(strings.ToLower(name)) {
		switch strings.Trim(w, "()") {
		case "camp", "camps", "mokhayam", "mukhayyam", "mukhayam", "mkhayam":
			return true
		}
	}
	return strings.Contains(name, "مخيم")
}
