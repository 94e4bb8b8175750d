package gazetteer

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
)

// The bundled gazetteer is a table of tab-separated values, one place a
// line: reading it takes a fraction of what JSON would for tens of
// thousands of places, a change to the sources shows as a readable diff,
// and GIS tools read it as it is. An administrative chain is stored as its
// deepest OCHA P-code (SY070300 holds SY0703 and SY07), and its names are
// those of the gazetteer's own area entries.

// columns are the table's header.
var columns = []string{"id", "kind", "name", "name_ar", "names", "lat", "lon", "parent", "admin", "country", "population",
	"refs", "point_from", "sources"}

// listSep separates the values of a list column.
const listSep = "|"

// Encode writes places as the gazetteer table. Names and sources must not
// hold tabs, line breaks or "|" (the build cleans them).
func Encode(places []Place) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(strings.Join(columns, "\t"))
	b.WriteByte('\n')
	for i := range places {
		p := &places[i]
		lat, lon := "", ""
		if p.Located {
			lat, lon = strconv.FormatFloat(p.Point.Lat(), 'f', -1, 64), strconv.FormatFloat(p.Point.Lon(), 'f', -1, 64)
		}
		pop := ""
		if p.Population > 0 {
			pop = strconv.Itoa(p.Population)
		}
		admin := p.Subdistrict.PCode
		if admin == "" {
			admin = p.District.PCode
		}
		if admin == "" {
			admin = p.Governorate.PCode
		}
		row := []string{p.ID, string(p.Kind), p.Name, p.NameAr, strings.Join(p.Names, listSep), lat, lon, p.Parent, admin,
			p.Country, pop, strings.Join(p.Refs, listSep), p.PointFrom, strings.Join(p.Sources, listSep)}
		for j, v := range row {
			if strings.ContainsAny(v, "\t\n\r") || j != 4 && j != 11 && j != 13 && strings.Contains(v, listSep) {
				return nil, fmt.Errorf("gazetteer: %s: column %s holds a tab, a line break or |: %q", p.ID, columns[j], v)
			}
		}
		b.WriteString(strings.Join(row, "\t"))
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// Decode reads the gazetteer table; an error names the line.
func Decode(data []byte) ([]Place, error) {
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if len(lines) == 0 || string(lines[0]) != strings.Join(columns, "\t") {
		return nil, fmt.Errorf("gazetteer: line 1: the header is not %q", strings.Join(columns, "\t"))
	}
	places := make([]Place, 0, len(lines)-1)
	admins := make([]string, 0, len(lines)-1)
	var f [14]string
	for n, line := range lines[1:] {
		fields := strings.Split(string(line), "\t")
		if len(fields) != len(columns) {
			return nil, fmt.Errorf("gazetteer: line %d: %d columns, want %d", n+2, len(fields), len(columns))
		}
		copy(f[:], fields)
		p := Place{ID: f[0], Kind: Kind(f[1]), Name: f[2], NameAr: f[3], Parent: f[7], Country: f[9], PointFrom: f[12]}
		p.Names, p.Refs, p.Sources = list(f[4]), list(f[11]), list(f[13])
		if f[5] != "" {
			lat, err1 := strconv.ParseFloat(f[5], 64)
			lon, err2 := strconv.ParseFloat(f[6], 64)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("gazetteer: line %d: point %q, %q is not a number", n+2, f[5], f[6])
			}
			p.Point, p.Located = orb.Point{lon, lat}, true
		}
		if f[10] != "" {
			pop, err := strconv.Atoi(f[10])
			if err != nil {
				return nil, fmt.Errorf("gazetteer: line %d: population %q", n+2, f[10])
			}
			p.Population = pop
		}
		places = append(places, p)
		admins = append(admins, f[8])
	}
	// The chain's names are those of the area entries.
	names := map[string]string{}
	for i := range places {
		if p := &places[i]; p.Kind.Admin() {
			names[admins[i]] = p.Name
		}
	}
	for i := range places {
		setAdmin(&places[i], admins[i], names)
	}
	return places, nil
}

func list(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, listSep)
}

// setAdmin fills p's administrative chain from its deepest P-code:
// SY07 is a governorate, SY0703 a district, SY070300 a subdistrict.
func setAdmin(p *Place, code string, names map[string]string) {
	ref := func(c string) AdminRef { return AdminRef{Name: names[c], PCode: c} }
	if len(code) >= 4 {
		p.Governorate = ref(code[:4])
	}
	if len(code) >= 6 {
		p.District = ref(code[:6])
	}
	if len(code) >= 8 {
		p.Subdistrict = ref(code[:8])
	}
}
