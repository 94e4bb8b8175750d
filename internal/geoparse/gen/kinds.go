package gen

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// A KindCase is one generated caption of a kind of place: the caption,
// the template it was written from and the answer a geocoder owes it.
type KindCase struct {
	Kind     string // "village", "crossing", "camp", "quarter", …
	Template string // the template's name, e.g. "the village of X in G province"
	Text     string
	// Want is the place the caption names, or nil when it names a place
	// abroad the gazetteer lacks: then any answer outside Syria, or none,
	// is right.
	Want *gazetteer.Place
	// Within is the place an answer falls back to (the city of a landmark
	// the gazetteer lacks, the parent of a place without a point), or nil
	// when the answer must be Want itself.
	Within *gazetteer.Place
	// Abroad is true when the caption names a place outside Syria: an
	// answer of a Syrian place is wrong, whatever its name.
	Abroad bool
}

// KindTemplate writes a caption of one kind around one place: its name
// as the caption spells it and, for some, the place's context.
type KindTemplate struct {
	Kind string
	Name string
	// Write returns the caption's sentence naming the place, "" when the
	// template does not fit p.
	Write func(k *kinds, p *gazetteer.Place, name string) string
}

// kinds holds what the kind templates draw on.
type kinds struct {
	*Generator
	g       *gazetteer.Gazetteer
	capital map[string]*gazetteer.Place // governorate P-code → its city
}

// Kinds returns captions of every kind of place the geocoder must know
// (villages, crossings, camps, camps and crossings named after a town the
// gazetteer lacks them for, quarters of the big cities, landmarks the
// gazetteer lacks, towns and villages abroad, cities and islands abroad
// the gazetteer lacks, places named by their relation to a bigger one),
// each template filled with every place of its kind, or with at most per
// of them chosen by seed when per > 0. The same gazetteer, seed and per
// give the same captions.
func Kinds(g *gazetteer.Gazetteer, seed uint64, per int) []KindCase {
	k := &kinds{Generator: New(g, seed), g: g, capital: map[string]*gazetteer.Place{}}
	for _, c := range k.cities {
		if c.Governorate.PCode != "" && (k.capital[c.Governorate.PCode] == nil || c.Population > k.capital[c.Governorate.PCode].Population) {
			k.capital[c.Governorate.PCode] = c
		}
	}
	// Rif Dimashq's towns are the capital's suburbs.
	if d := k.capital["SY01"]; d != nil {
		k.capital["SY03"] = d
	}
	var out []KindCase
	for _, t := range kindTemplates {
		// Only the places the template fits (a suburb is near its city).
		places := slices.DeleteFunc(k.fill(t.Kind), func(p *gazetteer.Place) bool { return t.Write(k, p, p.Name) == "" })
		if per > 0 && len(places) > per {
			k.rng.Shuffle(len(places), func(i, j int) { places[i], places[j] = places[j], places[i] })
			places = places[:per]
		}
		for _, p := range places {
			if c, ok := k.write(t, p); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

// write fills template t with place p in an agency's style.
func (k *kinds) write(t KindTemplate, p *gazetteer.Place) (KindCase, bool) {
	name := p.Name
	if p.Country == "SY" {
		name = k.pressName(p)
	}
	name = bareName(name, t.Kind)
	where := t.Write(k, p, name)
	if where == "" {
		return KindCase{}, false
	}
	c := KindCase{Kind: t.Kind, Template: t.Name, Want: p, Abroad: p.Country != "SY"}
	switch {
	case p.ID == "": // a place abroad the gazetteer lacks
		c.Want = nil
	case t.Kind == "landmark lacking":
		c.Want, c.Within = nil, p
	case t.Kind == "camp by town" || t.Kind == "crossing by town":
		c.Within = p // the gazetteer lacks the camp or crossing: its town, marked
	case !p.Located:
		c.Within = k.g.ByID(p.Parent)
	}
	d := time.Date(2012, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, k.rng.IntN(6*365))
	who := k.photographer[k.rng.IntN(len(k.photographer))]
	subject := kindSubjects[k.rng.IntN(len(kindSubjects))] + " " + kindActions[k.rng.IntN(len(kindActions))]
	switch k.rng.IntN(4) {
	case 0: // Reuters
		c.Text = fmt.Sprintf("%s %s %s. REUTERS/%s", subject, where, d.Format("January 2, 2006"), who)
	case 1: // AFP
		c.Text = fmt.Sprintf("%s %s, on %s. / AFP PHOTO / %s", subject, where, d.Format("January 2, 2006"), strings.ToUpper(who))
	case 2: // AP
		c.Text = fmt.Sprintf("In this %s photo, %s %s. (AP Photo/%s)", d.Format("Monday, Jan. 2, 2006"), lowerFirst(subject), where, who)
	default: // Getty
		c.Text = fmt.Sprintf("%s %s on %s. (Photo by %s/Getty Images)", subject, where, d.Format("January 2, 2006"), who)
	}
	return c, true
}

// kindSubjects and kindActions agree in number, as an agency's do.
var kindSubjects = []string{"Children", "Residents", "Civil defence members", "Syrian army soldiers", "Displaced families",
	"Men", "Women", "Members of the Syrian Arab Red Crescent", "Kurdish fighters", "Volunteers", "Students", "Rebel fighters"}

var kindActions = []string{"walk past damaged buildings", "stand near the rubble", "carry bread", "inspect a damaged site",
	"wait for aid", "sit outside a tent", "search for survivors", "sell vegetables at a market", "queue for water",
	"gather at a funeral", "walk along a damaged street", "take cover", "unload aid from a truck", "pray at a mosque",
	"look at the destruction", "celebrate Eid al-Fitr"}

// bareName drops the word a camp's or crossing's name carries ("Yarmouk
// camp" → "Yarmouk"), which the templates write themselves.
func bareName(name, kind string) string {
	for _, w := range []string{" refugee camp", " camps", " camp", " border crossing", " crossing"} {
		if (kind == "camp" || kind == "crossing") && strings.HasSuffix(strings.ToLower(name), w) {
			return name[:len(name)-len(w)]
		}
	}
	return name
}

// fill returns every place of a kind the gazetteer holds (or, for places
// abroad it lacks, the list below), in the gazetteer's order.
func (k *kinds) fill(kind string) []*gazetteer.Place {
	if kind == "abroad lacking" {
		var out []*gazetteer.Place
		for _, f := range foreignLacking {
			out = append(out, &gazetteer.Place{Name: f.name, Kind: gazetteer.City, Country: f.country, Names: []string{f.adj, f.place}})
		}
		return out
	}
	if kind == "landmark lacking" {
		var out []*gazetteer.Place
		for _, c := range k.cities {
			if k.capital[c.Governorate.PCode] == c {
				out = append(out, c)
			}
		}
		return out
	}
	var out []*gazetteer.Place
	for i := range k.g.Places() {
		p := &k.g.Places()[i]
		if k.fits(kind, p) {
			out = append(out, p)
		}
	}
	return out
}

// bigCities are the cities whose quarters the press names.
var bigCities = []string{"Aleppo", "Damascus", "Homs", "Hama", "Raqqa", "Deir ez-Zor", "Latakia", "Idlib", "Daraa"}

// fits reports whether p is a place of kind.
func (k *kinds) fits(kind string, p *gazetteer.Place) bool {
	switch kind {
	case "village":
		return p.Kind == gazetteer.Village && p.Country == "SY" && p.Located && p.Governorate.Name != ""
	case "crossing", "camp":
		return string(p.Kind) == kind && (p.Located || p.Parent != "")
	case "quarter":
		city := k.g.ByID(p.Parent)
		return p.Kind == gazetteer.Neighbourhood && p.Country == "SY" && city != nil && slices.Contains(bigCities, city.Name)
	case "town abroad":
		return (p.Kind == gazetteer.Town || p.Kind == gazetteer.City) && p.Country != "SY" && p.Located
	case "village abroad":
		return p.Kind == gazetteer.Village && p.Country != "SY" && p.Located
	case "camp by town", "crossing by town":
		// Not a town whose camp or crossing the gazetteer holds (al-Hol).
		return p.Kind == gazetteer.Town && p.Country == "SY" && p.Located && p.Governorate.Name != "" && !k.holdsFacility(p)
	case "relation":
		return (p.Kind == gazetteer.Town || p.Kind == gazetteer.Village) && p.Country == "SY" && p.Located &&
			k.capital[p.Governorate.PCode] != nil && k.capital[p.Governorate.PCode].Located
	}
	return false
}

// foreign is a place abroad the gazetteer lacks: its name, its country
// and the country's adjective, and what the place is.
type foreign struct{ name, country, adj, place string }

// foreignLacking are cities, ports and islands captions of refugees name
// that the gazetteer does not hold (several share a name, or nearly, with
// a Syrian village).
var foreignLacking = []foreign{
	{"Sofia", "Bulgaria", "Bulgarian", "capital"}, {"Harmanli", "Bulgaria", "Bulgarian", "town"},
	{"Kos", "Greece", "Greek", "island"}, {"Lesbos", "Greece", "Greek", "island"}, {"Chios", "Greece", "Greek", "island"},
	{"Samos", "Greece", "Greek", "island"}, {"Leros", "Greece", "Greek", "island"}, {"Agathonisi", "Greece", "Greek", "island"},
	{"Mytilene", "Greece", "Greek", "port"}, {"Piraeus", "Greece", "Greek", "port"}, {"Idomeni", "Greece", "Greek", "village"},
	{"Athens", "Greece", "Greek", "capital"}, {"Augusta", "Italy", "Sicilian", "harbor"}, {"Catania", "Italy", "Sicilian", "port"},
	{"Pozzallo", "Italy", "Sicilian", "port"}, {"Lampedusa", "Italy", "Italian", "island"}, {"Milan", "Italy", "Italian", "city"},
	{"Gevgelija", "Macedonia", "Macedonian", "town"}, {"Presevo", "Serbia", "Serbian", "town"}, {"Belgrade", "Serbia", "Serbian", "capital"},
	{"Horgos", "Serbia", "Serbian", "village"}, {"Roszke", "Hungary", "Hungarian", "village"}, {"Budapest", "Hungary", "Hungarian", "capital"},
	{"Tovarnik", "Croatia", "Croatian", "village"}, {"Opatovac", "Croatia", "Croatian", "village"}, {"Spielfeld", "Austria", "Austrian", "village"},
	{"Nickelsdorf", "Austria", "Austrian", "town"}, {"Vienna", "Austria", "Austrian", "capital"}, {"Munich", "Germany", "German", "city"},
	{"Berlin", "Germany", "German", "capital"}, {"Passau", "Germany", "German", "town"}, {"Calais", "France", "French", "port"},
	{"Malmo", "Sweden", "Swedish", "city"}, {"Cairo", "Egypt", "Egyptian", "capital"}, {"Alexandria", "Egypt", "Egyptian", "port"},
	{"Ceuta", "Spain", "Spanish", "enclave"}, {"Melilla", "Spain", "Spanish", "enclave"}, {"Rome", "Italy", "Italian", "capital"},
	{"Valletta", "Malta", "Maltese", "capital"}, {"Kuwait City", "Kuwait", "Kuwaiti", "capital"}, {"Doha", "Qatar", "Qatari", "capital"},
	{"Tehran", "Iran", "Iranian", "capital"}, {"Moscow", "Russia", "Russian", "capital"}, {"Geneva", "Switzerland", "Swiss", "city"},
}

// directions names a bearing in degrees, clockwise from north.
var directions = []string{"north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"}

// offset is where p lies from q, in km east and north.
func offset(p, q *gazetteer.Place) (dx, dy float64) {
	dy = (p.Point.Lat() - q.Point.Lat()) * 111.2
	dx = (p.Point.Lon() - q.Point.Lon()) * 111.2 * math.Cos(q.Point.Lat()*math.Pi/180)
	return dx, dy
}

// km is the distance from p to q.
func km(p, q *gazetteer.Place) float64 { return math.Hypot(offset(p, q)) }

// from says where p lies from q: "about 12 km southeast of".
func from(p, q *gazetteer.Place) string {
	dx, dy := offset(p, q)
	km := math.Hypot(dx, dy)
	bearing := math.Mod(math.Atan2(dx, dy)*180/math.Pi+360+22.5, 360)
	return fmt.Sprintf("about %d km %s of", int(math.Max(1, math.Round(km))), directions[int(bearing/45)%8])
}

// countryAdj is a neighbour's adjective and name by its ISO code.
var countryAdj = map[string][2]string{"TR": {"Turkish", "Turkey"}, "LB": {"Lebanese", "Lebanon"}, "JO": {"Jordanian", "Jordan"}, "IQ": {"Iraqi", "Iraq"}}

// kindTemplates are the phrasings real captions use for each kind, from
// the shared captions and agency style.
var kindTemplates = []KindTemplate{
	{"village", "the village of X in G province", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in the village of %s in %s province, Syria", n, p.Governorate.Name)
	}},
	{"village", "X village in G's countryside", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in %s village in %s's %s countryside, Syria", n, p.Governorate.Name, []string{"northern", "southern", "eastern", "western"}[k.rng.IntN(4)])
	}},
	{"village", "the rebel-held village of X, in the D district of G", func(k *kinds, p *gazetteer.Place, n string) string {
		if p.District.Name == "" {
			return ""
		}
		return fmt.Sprintf("in the rebel-held village of %s, in the %s district of %s province", n, p.District.Name, p.Governorate.Name)
	}},
	{"village", "X village, near the A border", func(k *kinds, p *gazetteer.Place, n string) string {
		for _, b := range borders {
			if slices.Contains(b.govs, p.Governorate.PCode) {
				return fmt.Sprintf("in %s village, near the %s border", n, b.adj)
			}
		}
		return ""
	}},
	{"crossing", "the X border crossing", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("at the %s border crossing", n)
	}},
	{"crossing", "X border gate", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("as they wait to cross at %s border gate", n)
	}},
	{"crossing", "the X crossing point near the border", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("at the %s crossing point on the Syrian border", n)
	}},
	{"camp", "the X refugee camp", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("at the %s refugee camp", n)
	}},
	{"camp", "X camp for displaced people", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in %s camp for displaced people", n)
	}},
	{"camp", "the X camp, near the border", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("inside the %s camp, near the border", n)
	}},
	{"camp by town", "the X refugee camp in G province", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("at the %s refugee camp in %s province", n, p.Governorate.Name)
	}},
	{"camp by town", "the X camp for displaced people, G", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in the %s camp for displaced people, %s, Syria", n, p.Governorate.Name)
	}},
	{"camp by town", "a camp for displaced people near X, G", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("at a camp for displaced people near %s, %s province", n, p.Governorate.Name)
	}},
	{"crossing by town", "the X border crossing in G province", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("at the %s border crossing in %s province", n, p.Governorate.Name)
	}},
	{"crossing by town", "X border gate, G", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("as they wait to cross at %s border gate, %s, Syria", n, p.Governorate.Name)
	}},
	{"quarter", "in C's X district", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in %s's %s district", k.g.ByID(p.Parent).Name, n)
	}},
	{"quarter", "the rebel-held neighbourhood of X in C", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in the rebel-held neighbourhood of %s in %s, Syria", n, k.g.ByID(p.Parent).Name)
	}},
	{"quarter", "C's A neighbourhood of X", func(k *kinds, p *gazetteer.Place, n string) string {
		adj := []string{"rebel-held", "government-held", "besieged", "northern", "eastern"}[k.rng.IntN(5)]
		return fmt.Sprintf("in %s's %s neighbourhood of %s", k.g.ByID(p.Parent).Name, adj, n)
	}},
	{"quarter", "the X neighbourhood of C", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in the %s neighbourhood of %s", n, k.g.ByID(p.Parent).Name)
	}},
	{"quarter", "the X district of D C", func(k *kinds, p *gazetteer.Place, n string) string {
		d := []string{"eastern", "western", "northern", "southern", "rebel-held", "besieged"}[k.rng.IntN(6)]
		return fmt.Sprintf("in the %s district of %s %s", n, d, k.g.ByID(p.Parent).Name)
	}},
	{"quarter", "X, a district of C", func(k *kinds, p *gazetteer.Place, n string) string {
		a := []string{"a district", "a rebel-held district", "a neighbourhood", "a government-held neighbourhood"}[k.rng.IntN(4)]
		return fmt.Sprintf("during clashes in %s, %s of %s, Syria", n, a, k.g.ByID(p.Parent).Name)
	}},
	{"quarter", "the X district at C's D outskirts", func(k *kinds, p *gazetteer.Place, n string) string {
		d := []string{"southeastern", "eastern", "northern", "western"}[k.rng.IntN(4)]
		return fmt.Sprintf("inside a building in the %s district at %s's %s outskirts", n, k.g.ByID(p.Parent).Name, d)
	}},
	{"quarter", "the X neighbourhood during … in the city of C", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in the %s neighbourhood during an operation to retake rebel-held areas in the city of %s", n, k.g.ByID(p.Parent).Name)
	}},
	{"quarter", "X neighbourhood in C", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in a house in %s neighbourhood in %s", n, k.g.ByID(p.Parent).Name)
	}},
	{"quarter", "the X area of C", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in the %s area of %s on Tuesday", n, k.g.ByID(p.Parent).Name)
	}},
	{"landmark lacking", "the L in C", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("at the %s in %s, Syria", landmarksLacking[k.rng.IntN(len(landmarksLacking))], n)
	}},
	{"landmark lacking", "the L of C", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in the %s of %s", landmarksLacking[k.rng.IntN(len(landmarksLacking))], n)
	}},
	{"town abroad", "the A border town of X", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in the %s border town of %s", countryAdj[p.Country][0], n)
	}},
	{"town abroad", "in X, N", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in %s, %s", n, countryAdj[p.Country][1])
	}},
	{"town abroad", "near the D town of X in P province", func(k *kinds, p *gazetteer.Place, n string) string {
		// Turkey's provinces are named after their capitals.
		c := k.nearestCity(p)
		if c == nil || p.Kind == gazetteer.City || p.Country != "TR" {
			return ""
		}
		return fmt.Sprintf("near the %s town of %s in %s province", []string{"southeastern", "southern", "border", "frontier"}[k.rng.IntN(4)], n, c.Name)
	}},
	{"village abroad", "the A village of X", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("in the %s village of %s", countryAdj[p.Country][0], n)
	}},
	{"abroad lacking", "a refugee centre in X, N", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("at a refugee centre in %s, %s", n, p.Country)
	}},
	{"abroad lacking", "the A P of X", func(k *kinds, p *gazetteer.Place, n string) string {
		return fmt.Sprintf("as they arrive in the %s %s of %s", p.Names[0], p.Names[1], n)
	}},
	{"abroad lacking", "on X", func(k *kinds, p *gazetteer.Place, n string) string {
		if p.Names[1] != "island" {
			return fmt.Sprintf("on the outskirts of %s, %s", n, p.Country)
		}
		return fmt.Sprintf("on a beach on the island of %s, %s", n, p.Country)
	}},
	{"abroad lacking", "after arriving from C at a camp in X, N", func(k *kinds, p *gazetteer.Place, n string) string {
		c := k.cities[k.rng.IntN(len(k.cities))]
		return fmt.Sprintf("moments after arriving from %s at a camp in %s, %s", c.Name, n, p.Country)
	}},
	{"abroad lacking", "after arriving from C in X, N", func(k *kinds, p *gazetteer.Place, n string) string {
		c := k.cities[k.rng.IntN(len(k.cities))]
		return fmt.Sprintf("moments after arriving from %s in %s, %s", c.Name, n, p.Country)
	}},
	{"relation", "the C suburb of X", func(k *kinds, p *gazetteer.Place, n string) string {
		if km(p, k.capital[p.Governorate.PCode]) > 25 || p.Kind != gazetteer.Town {
			return "" // a suburb is a town near its city
		}
		return fmt.Sprintf("in the %s suburb of %s", k.capital[p.Governorate.PCode].Name, n)
	}},
	{"relation", "in X, near the city of C", func(k *kinds, p *gazetteer.Place, n string) string {
		if km(p, k.capital[p.Governorate.PCode]) > 25 {
			return "" // near is near
		}
		return fmt.Sprintf("at a field hospital in %s, near the city of %s", n, k.capital[p.Governorate.PCode].Name)
	}},
	{"relation", "the town of X, about N km D of C", func(k *kinds, p *gazetteer.Place, n string) string {
		c := k.capital[p.Governorate.PCode]
		return fmt.Sprintf("in the %s of %s, %s %s", kindWord(p.Kind), n, from(p, c), c.Name)
	}},
}

// landmarksLacking are what captions name in a city that no gazetteer
// holds as a place: the answer is the city, as a fallback.
var landmarksLacking = []string{"old souk", "main market", "Grand Mosque", "national hospital", "old cathedral", "municipal stadium", "central prison", "university campus", "bus station", "main square"}

// nearestCity returns the city of p's country nearest p other than p, or
// nil: the province a caption names a town abroad by.
func (k *kinds) nearestCity(p *gazetteer.Place) *gazetteer.Place {
	var best *gazetteer.Place
	for i := range k.g.Places() {
		c := &k.g.Places()[i]
		if c.Kind == gazetteer.City && c.Country == p.Country && c.Located && c.ID != p.ID && (best == nil || km(p, c) < km(p, best)) {
			best = c
		}
	}
	return best
}

// pressName picks one of a place's Latin spellings as the press writes
// them: without the scholarly marks of a transliteration (‘Ayn, Ḩalab,
// `Ubb), which no caption carries; the gazetteer's name when all have
// them.
func (k *kinds) pressName(p *gazetteer.Place) string {
	var names []string
	for _, n := range append([]string{p.Name}, p.Names...) {
		if latin(n) && plain(n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return p.Name
	}
	return names[k.rng.IntN(len(names))]
}

// plain reports whether a name has no letter outside ASCII but the few
// accents French transliterations use, and no ‘ or `.
func plain(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII && !strings.ContainsRune("éèâêîôûàç", r) || r == '`' {
			return false
		}
	}
	return true
}

// holdsFacility reports whether the gazetteer holds a camp or crossing
// named after town p ("al-Hol camp", "Bab al-Hawa crossing").
func (k *kinds) holdsFacility(p *gazetteer.Place) bool {
	for _, w := range []string{" camp", " crossing"} {
		for _, q := range k.g.Lookup(p.Name + w) {
			if q.Kind == gazetteer.Camp || q.Kind == gazetteer.Crossing {
				return true
			}
		}
	}
	return false
}

// borders are Syria's neighbours by the adjective captions give their
// borders, with the P-codes of the governorates along each.
var borders = []struct {
	adj  string
	govs []string
}{
	{"Turkish", []string{"SY02", "SY06", "SY07", "SY08", "SY11"}},
	{"Lebanese", []string{"SY03", "SY04", "SY10"}},
	{"Jordanian", []string{"SY12", "SY13"}},
	{"Iraqi", []string{"SY09"}},
}
