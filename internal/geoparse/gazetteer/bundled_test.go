package gazetteer_test

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// TestBundled checks the gazetteer the binary carries.
func TestBundled(t *testing.T) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() < 15000 {
		t.Errorf("the bundled gazetteer has %d places, want the ~21,000 the sources give", g.Len())
	}
	kinds := map[gazetteer.Kind]int{}
	communities, neighbourhoods, arabic, syrian, chainless := 0, 0, 0, 0, 0
	for i := range g.Places() {
		p := &g.Places()[i]
		kinds[p.Kind]++
		checkBundledPlace(t, p)
		for _, id := range p.IDs() {
			if strings.HasPrefix(id, "ocha:C") {
				communities++
			}
			if strings.HasPrefix(id, "ocha:N") {
				neighbourhoods++
			}
		}
		if p.Country == "SY" && !p.Kind.Admin() {
			syrian++
			if p.NameAr != "" {
				arabic++
			}
			if p.Kind.Populated() && p.Subdistrict.PCode == "" {
				// Desert hamlets more than 10 km from any OCHA community
				// know only their governorate.
				chainless++
			}
		}
	}
	if communities != 7593 || neighbourhoods != 414 {
		t.Errorf("%d OCHA communities and %d neighbourhoods, want 7,593 and 414", communities, neighbourhoods)
	}
	if chainless > syrian*3/100 {
		t.Errorf("%d of %d Syrian places have no subdistrict", chainless, syrian)
	}
	if arabic < syrian*95/100 {
		t.Errorf("%d of %d Syrian places have an Arabic name", arabic, syrian)
	}
	if kinds[gazetteer.Governorate] != 14 {
		t.Errorf("%d governorates, want 14", kinds[gazetteer.Governorate])
	}
	for _, k := range []gazetteer.Kind{gazetteer.City, gazetteer.Town, gazetteer.Neighbourhood, gazetteer.Camp, gazetteer.Crossing, gazetteer.Landmark, gazetteer.Region, gazetteer.District, gazetteer.Subdistrict} {
		if kinds[k] == 0 {
			t.Errorf("no place of kind %s", k)
		}
	}
}

// checkBundledPlace checks one place of the bundled gazetteer: every
// place is a record of a named dataset, or a curated place with the page
// it was read from; its point is one record's; its name is plain Latin;
// a Syrian place lies in Syria and its governorate, another in none.
func checkBundledPlace(t *testing.T, p *gazetteer.Place) {
	t.Helper()
	// Every place is a record of a named dataset, or a curated place
	// with the page it was read from; its point is one record's.
	for _, id := range p.IDs() {
		family, _, _ := strings.Cut(id, ":")
		switch family {
		case "gn", "gnc", "ocha", "wof":
		case "cur":
			if len(p.Sources) == 0 {
				t.Errorf("%s (%s) is curated but names no page", p.ID, p.Name)
			}
		default:
			t.Errorf("%s (%s): %s is no source's id", p.ID, p.Name, id)
		}
	}
	if p.Located && !slices.Contains(p.IDs(), p.PointFrom) {
		t.Errorf("%s (%s): its point is from %q, not one of its records", p.ID, p.Name, p.PointFrom)
	}
	// Names are shown as the press writes them, never in a scholarly
	// romanisation (Ḩamāh) nor in another script.
	for _, r := range p.Name {
		if r > unicode.MaxASCII && !p.Curated() {
			t.Errorf("%s: the display name %q is not plain Latin", p.ID, p.Name)
			break
		}
	}
	if p.Country == "SY" && p.Located {
		// Syria's extent (lon 35.7–42.4, lat 32.3–37.4), with a margin.
		if lon, lat := p.Point.Lon(), p.Point.Lat(); lon < 35.5 || lon > 42.5 || lat < 32.2 || lat > 37.5 {
			t.Errorf("%s (%s) is at %v, outside Syria", p.ID, p.Name, p.Point)
		}
		if p.Governorate.PCode == "" {
			t.Errorf("%s (%s) has no governorate", p.ID, p.Name)
		}
	}
	if p.Country != "SY" && p.Governorate.PCode != "" {
		t.Errorf("%s (%s) is in %s but has a Syrian governorate", p.ID, p.Name, p.Country)
	}
	if !p.Located && p.Parent == "" && p.Country == "SY" {
		t.Errorf("%s (%s) has neither point nor parent", p.ID, p.Name)
	}
}

// TestBundledSpellings: the spellings the issues named resolve to one
// place each, and places across the border keep their country.
func TestBundledSpellings(t *testing.T) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	// Spellings the issue names resolve to one place each.
	for _, group := range [][]string{
		{"Kafranbel", "Kafr Nabl", "Kafrnabel"},
		{"Douma", "Duma"},
		{"Ras al-Ain", "Ra's al-'Ayn", "Ras al Ayn"},
		{"Bustan Pasha", "Bustan al-Basha"},
		{"Sukkari", "al-Sukkari", "Sukkary"},
		{"Raqqa", "Ar-Raqqah", "Rakka"},
		{"Deir ez-Zor", "Deir al-Zour", "Dayr az Zawr"},
		{"Maarat al-Numan", "Ma'arrat al-Nu'man"},
	} {
		first := settlement(g.Lookup(group[0]))
		if first == nil {
			t.Errorf("%s is not in the gazetteer", group[0])
			continue
		}
		for _, name := range group[1:] {
			if p := settlement(g.Lookup(name)); p != first {
				t.Errorf("%s finds %v, want %s (%s)", name, p, first.ID, group[0])
			}
		}
	}
	// Places across the border keep their country.
	for name, country := range map[string]string{"Kilis": "TR", "Reyhanli": "TR", "Zaatari camp": "JO", "Arsal": "LB"} {
		if ps := g.Lookup(name); len(ps) == 0 || ps[0].Country != country {
			t.Errorf("%s: %v, want a place in %s", name, ps, country)
		}
	}
}

// settlement returns the first place that is not an administrative area.
func settlement(ps []*gazetteer.Place) *gazetteer.Place {
	for _, p := range ps {
		if !p.Kind.Admin() {
			return p
		}
	}
	return nil
}

// TestScanFindsEveryName scans each Latin name of each bundled place in a
// sentence and expects to find that place: the fold, the trie and the stop
// words must agree on every spelling the gazetteer holds.
func TestScanFindsEveryName(t *testing.T) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	missed, total := 0, 0
	for i := range g.Places() {
		p := &g.Places()[i]
		for _, name := range p.AllNames() {
			if !latinName(name) || stopName(name) {
				continue
			}
			total++
			text := "People walk in " + name + ", on a Monday."
			found := false
			for _, h := range g.Scan(text, nil) {
				found = found || h.Place == p
			}
			if !found {
				missed++
				if missed <= 20 {
					t.Errorf("Scan(%q) does not find %s (%s)", text, p.Name, p.ID)
				}
			}
		}
	}
	if missed > 0 {
		t.Errorf("%d of %d names not found", missed, total)
	}
}

// stopName reports whether a name is one Scan passes over on purpose: a
// stop word ("Muslim", a Turkish village) or an article alone, or written
// with marks that end a name in a caption ("Northern & Western Hawayeq").
func stopName(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && !strings.ContainsRune(" -'’‘`ʿʾ", r) {
			return true
		}
	}
	words := strings.Fields(strings.ToLower(s))
	return len(words) > 0 && gazetteer.IsStopWord(words[0])
}

// latinName reports whether a name is capitalised Latin text with at
// least one letter: the names captions print.
func latinName(s string) bool {
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			if !unicode.Is(unicode.Latin, r) {
				return false
			}
			letters++
		}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return letters > 0 && unicode.IsUpper(r)
}

// BenchmarkLoad measures reading the bundled gazetteer, as every command
// does at start-up (the target is under 300 ms).
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := gazetteer.Load(geodata.Gazetteer); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLookupFindsEveryArabicName looks each place up by its Arabic name,
// as an editor types it in the place search: the place must be among the
// answers (its Arabic name was once only a field, not a name it was found
// by).
func TestLookupFindsEveryArabicName(t *testing.T) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	missed, total := 0, 0
	for i := range g.Places() {
		p := &g.Places()[i]
		if p.NameAr == "" {
			continue
		}
		total++
		if !slices.Contains(g.Lookup(p.NameAr), p) {
			if missed++; missed <= 20 {
				t.Errorf("Lookup(%q) does not find %s (%s)", p.NameAr, p.Name, p.ID)
			}
		}
	}
	if missed > 0 || total < 10_000 {
		t.Errorf("%d of %d Arabic names not found", missed, total)
	}
}

// TestCrossingsArePairs checks that each border crossing captions name is
// two places, one per country, each found by its own gate's name only:
// "the Cilvegozu border gate, in Turkey" is never the Syrian Bab al-Hawa.
func TestCrossingsArePairs(t *testing.T) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ syrian, other, otherCountry, otherName string }{
		{"cur:bab-al-hawa-crossing", "cur:cilvegozu-crossing", "TR", "Cilvegozu"},
		{"cur:bab-al-salameh-crossing", "cur:oncupinar-crossing", "TR", "Oncupinar"},
		{"cur:semalka-crossing", "cur:peshkhabour-crossing", "IQ", "Peshkhabur"},
		{"cur:jdeidet-yabous", "cur:masnaa-crossing", "LB", "Masnaa crossing"},
	} {
		sy, other := g.ByID(tc.syrian), g.ByID(tc.other)
		if sy == nil || other == nil {
			t.Fatalf("missing %s or %s", tc.syrian, tc.other)
		}
		if other.Country != tc.otherCountry || other.Kind != gazetteer.Crossing || len(other.Sources) == 0 {
			t.Errorf("%s: country %s kind %s sources %v, want a %s crossing with its page", other.ID, other.Country, other.Kind, other.Sources, tc.otherCountry)
		}
		if got := g.OtherSide(sy); got != other {
			t.Errorf("OtherSide(%s) = %v, want %s", sy.ID, got, other.ID)
		}
		if got := g.OtherSide(other); got != sy {
			t.Errorf("OtherSide(%s) = %v, want %s", other.ID, got, sy.ID)
		}
		for _, p := range g.Lookup(tc.otherName) {
			if p.Country == "SY" {
				t.Errorf("%q names the Syrian %s (%s): a gate's name is its own side's", tc.otherName, p.ID, p.Name)
			}
		}
	}
	// A crossing without a point has no other side to move to.
	if got := g.OtherSide(g.ByID("cur:nasib-crossing")); got != nil {
		t.Errorf("Nasib crossing has no point, OtherSide gave %s", got.ID)
	}
}

// A curated place without a point sits at the settlement its source says
// it is near: the Atmeh camps at Atmeh, not at Idlib city 40 km off.
func TestUnlocatedPlacesSitWhereTheyAreNear(t *testing.T) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	camps := g.ByID("cur:atmeh-camps")
	if camps == nil || camps.Located {
		t.Fatalf("cur:atmeh-camps: %+v, want a curated camp without a point", camps)
	}
	if parent := g.ByID(camps.Parent); parent == nil || parent.Name != "Atmeh" {
		t.Errorf("the Atmeh camps are held by %v, want the town of Atmeh", parent)
	}
	// Abroad, a place without a point sits at the district seat it is
	// near when the datasets hold the seat only as its district's record
	// (Nizip, the Turkish district seat), and at the village or town a
	// crossing is named after.
	for id, want := range map[string]string{"cur:nizip-camp": "gn:303798", "cur:jaber-crossing": "gn:248913",
		"cur:rabia-crossing": "gn:383608", "cur:mursitpinar-crossing": "gn:304089", "cur:nasib-crossing": "ocha:C5999"} {
		if p := g.ByID(id); p == nil || p.Located || p.Parent != want {
			t.Errorf("%s: %+v, want no point and the parent %s", id, p, want)
		}
	}
}
