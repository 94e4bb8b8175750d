package gazetteer

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/paulmach/orb"
)

// tiny is a gazetteer of a few places, enough to test the mechanics.
func tiny(t testing.TB) *Gazetteer {
	t.Helper()
	g, err := New([]Place{
		{ID: "gn:1", Name: "Aleppo", Names: []string{"Halab", "حلب"}, Kind: City, Point: orb.Point{37.16, 36.20}, Located: true, Country: "SY", Governorate: AdminRef{"Aleppo", "SY02"}},
		{ID: "ocha:SY02", Name: "Aleppo", Names: []string{"Aleppo Governorate"}, Kind: Governorate, Point: orb.Point{37.6, 36.25}, Located: true, Country: "SY", Governorate: AdminRef{"Aleppo", "SY02"}},
		{ID: "ocha:N0130", Name: "Bostan Bash", Names: []string{"بستان الباشا"}, Kind: Neighbourhood, Point: orb.Point{37.165, 36.225}, Located: true, Parent: "gn:1", Country: "SY", Governorate: AdminRef{"Aleppo", "SY02"}},
		{ID: "gn:2", Name: "Ra’s al ‘Ayn", Names: []string{"Ras el Ain"}, Kind: Town, Point: orb.Point{40.07, 36.85}, Located: true, Country: "SY"},
		{ID: "gn:3", Name: "Dūmā", Names: []string{"Duma"}, Kind: City, Point: orb.Point{36.40, 33.57}, Located: true, Country: "SY"},
		{ID: "gn:4", Name: "Kafranbel", Names: []string{"Kafr Nabl"}, Kind: Town, Point: orb.Point{36.56, 35.61}, Located: true, Country: "SY"},
		{ID: "cur:castello-road", Name: "Castello Road", Kind: Landmark, Parent: "gn:1", Country: "SY"},
		{ID: "cur:old-city-of-aleppo", Name: "Old City of Aleppo", Kind: Neighbourhood, Point: orb.Point{37.16, 36.20}, Located: true, Parent: "gn:1", Country: "SY"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestLookup(t *testing.T) {
	g := tiny(t)
	tests := []struct {
		name string
		want []string
	}{
		{"Bustan Pasha", []string{"ocha:N0130"}},
		{"Bustan al-Basha", []string{"ocha:N0130"}},
		{"Ras al-Ain", []string{"gn:2"}},
		{"Ra's al-'Ayn", []string{"gn:2"}},
		{"Douma", []string{"gn:3"}},
		{"Kafrnabel", []string{"gn:4"}},
		{"aleppo", []string{"gn:1", "ocha:SY02"}}, // the city first: it is more specific
		{"Halab", []string{"gn:1"}},
		{"حلب", []string{"gn:1"}},
		{"Damascus", nil},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range g.Lookup(tt.name) {
			got = append(got, p.ID)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("Lookup(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestScan(t *testing.T) {
	g := tiny(t)
	text := "Rebels in the Bustan al-Basha neighbourhood of Aleppo and in the old city of Aleppo, near Kafr Nabl. REUTERS/Name"
	var got []string
	for _, h := range g.Scan(text, nil) {
		got = append(got, fmt.Sprintf("%s=%s/%v", text[h.Start:h.End], h.Place.ID, h.Exact))
	}
	want := []string{
		"Bustan al-Basha=ocha:N0130/false", // a spelling, not a name it has
		"Aleppo=gn:1/true", "Aleppo=ocha:SY02/true",
		"old city of Aleppo=cur:old-city-of-aleppo/true",
		"Aleppo=gn:1/true", "Aleppo=ocha:SY02/true",
		"Kafr Nabl=gn:4/true",
	}
	// Hits come in text order; the order of places on one span is not
	// part of the contract.
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Scan found\n  %v\nwant\n  %v", got, want)
	}
}

func TestScanDoesNotCrossPunctuation(t *testing.T) {
	g := tiny(t)
	for _, h := range g.Scan("Kafr, Nabl. Ras. al-Ain", nil) {
		t.Errorf("found %s across punctuation", h.Place.Name)
	}
}

func TestScanSpellings(t *testing.T) {
	g := tiny(t)
	for _, text := range []string{"in Kafranbel", "in Kafr Nabl", "in Kafrnabel", "in Kafr-Nabl"} {
		hits := g.Scan(text, nil)
		if len(hits) != 1 || hits[0].Place.ID != "gn:4" {
			t.Errorf("Scan(%q) = %+v, want Kafranbel", text, hits)
		}
	}
	// An article written onto the end of a word, as in "Karmel Jabl" for
	// Karm al-Jabal: a loose spelling, and only for a name that goes on.
	if hits := g.Scan("in Kafral Nabl", nil); len(hits) != 1 || hits[0].Place.ID != "gn:4" || hits[0].Exact {
		t.Errorf("Scan(Kafral Nabl) = %+v, want Kafr Nabl, loose", hits)
	}
	if hits := g.Scan("in Kafral", nil); len(hits) != 0 {
		t.Errorf("Scan(Kafral) found %s: a glued article needs the next word", hits[0].Place.Name)
	}
	// Stop words do not begin names: "in Syria" is not ‘Ayn an Nasr.
	if hits := g.Scan("A rebel in Syria", nil); len(hits) != 0 {
		t.Errorf("Scan found %s", hits[0].Place.Name)
	}
}

func TestNewRejects(t *testing.T) {
	p := Place{ID: "gn:1", Name: "A", Kind: Town, Country: "SY"}
	bad := map[string][]Place{
		"no id":          {{Name: "A", Kind: Town}},
		"unknown kind":   {{ID: "x:1", Name: "A", Kind: "hamlet"}},
		"repeated id":    {p, p},
		"unknown parent": {{ID: "x:1", Name: "A", Kind: Town, Parent: "x:2"}},
		"point range":    {{ID: "x:1", Name: "A", Kind: Town, Located: true, Point: orb.Point{200, 0}}},
	}
	for name, places := range bad {
		if _, err := New(places); err == nil {
			t.Errorf("%s: New accepted %+v", name, places)
		} else if !strings.HasPrefix(err.Error(), "gazetteer: ") {
			t.Errorf("%s: error %q has no package prefix", name, err)
		}
	}
}

func TestContains(t *testing.T) {
	g := tiny(t)
	city, gov, quarter := g.ByID("gn:1"), g.ByID("ocha:SY02"), g.ByID("ocha:N0130")
	switch {
	case !g.Contains(city, quarter):
		t.Error("Aleppo does not hold Bostan Bash")
	case !g.Contains(gov, quarter):
		t.Error("the governorate does not hold Bostan Bash")
	case g.Contains(quarter, city):
		t.Error("Bostan Bash holds Aleppo")
	case g.Contains(city, city):
		t.Error("Aleppo holds itself")
	}
}

func ExampleGazetteer_Lookup() {
	g, _ := New([]Place{{ID: "gn:170592", Name: "Dūmā", Names: []string{"Duma", "Douma"}, Kind: City, Country: "SY"}})
	for _, spelling := range []string{"Douma", "Duma", "Dūmā", "DOUMA"} {
		fmt.Println(spelling, "→", g.Lookup(spelling)[0].ID)
	}
	// Output:
	// Douma → gn:170592
	// Duma → gn:170592
	// Dūmā → gn:170592
	// DOUMA → gn:170592
}

// A gazetteer made With more places answers as one made anew, and the one
// it was made from still answers as before (its index is shared, never
// written to).
func TestWithAnswersAsNew(t *testing.T) {
	base := []Place{
		{ID: "a", Name: "Aleppo", Kind: City, Located: true, Country: "SY"},
		{ID: "b", Name: "Bab al-Hawa", Kind: Crossing, Located: true, Country: "SY"},
		{ID: "c", Name: "Kafr Nabl", Names: []string{"Kafranbel"}, Kind: Town, Located: true, Country: "SY"},
	}
	g, err := New(slices.Clone(base))
	if err != nil {
		t.Fatal(err)
	}
	more := append(slices.Clone(base),
		Place{ID: "d", Name: "Bab al-Salama", Kind: Crossing, Located: true, Country: "SY", Parent: "a"},
		Place{ID: "e", Name: "Kafr Nabel", Kind: Village, Located: true, Country: "SY"})
	with, err := g.With(slices.Clone(more))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := New(slices.Clone(more))
	if err != nil {
		t.Fatal(err)
	}
	ids := func(g *Gazetteer, text string) []string {
		var out []string
		for _, h := range g.Scan(text, nil) {
			out = append(out, h.Place.ID)
		}
		slices.Sort(out)
		return out
	}
	for _, text := range []string{"A crossing at Bab al-Salama near Aleppo", "Protest in Kafr Nabl and Kafr Nabel", "Bab al-Hawa"} {
		if a, b := ids(with, text), ids(fresh, text); !slices.Equal(a, b) {
			t.Errorf("%q: With finds %v, New %v", text, a, b)
		}
	}
	if got := ids(g, "A crossing at Bab al-Salama, Kafr Nabel"); len(got) != 0 && slices.Contains(got, "d") {
		t.Errorf("the gazetteer With was made from now finds %v", got)
	}
	if got := ids(g, "Kafranbel"); !slices.Equal(got, []string{"c"}) {
		t.Errorf("the base after With: Kafranbel finds %v", got)
	}
}

// Two gazetteers made With from one base never write into each other's
// names: a name three places share has room to grow in its slices.
func TestWithSiblingsStayApart(t *testing.T) {
	var base []Place
	for _, id := range []string{"t1", "t2", "t3"} {
		base = append(base, Place{ID: id, Name: "Tell Abyad", Kind: Village, Located: true, Country: "SY"})
	}
	g, err := New(base)
	if err != nil {
		t.Fatal(err)
	}
	one, err := g.With(append(slices.Clone(base), Place{ID: "x", Name: "Tell Abyad", Kind: Camp, Located: true, Country: "SY"}))
	if err != nil {
		t.Fatal(err)
	}
	// (y at another index than x: the same slot written twice over
	// would otherwise hold the same ref.)
	two, err := g.With(append(slices.Clone(base), Place{ID: "z", Name: "Zabadani", Kind: Town, Located: true, Country: "SY"},
		Place{ID: "y", Name: "Tell Abyad", Kind: Town, Located: true, Country: "SY"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		g    *Gazetteer
		want string
	}{{one, "x"}, {two, "y"}} {
		var got []string
		for _, h := range c.g.Scan("in Tell Abyad", nil) {
			got = append(got, h.Place.ID)
		}
		slices.Sort(got)
		if !slices.Equal(got, []string{"t1", "t2", "t3", c.want}) {
			t.Errorf("a sibling made With %s finds %v", c.want, got)
		}
	}
	if n := len(g.Lookup("Tell Abyad")); n != 3 {
		t.Errorf("the base finds %d Tell Abyads after two siblings were made from it", n)
	}
}

// A quarter is found by a part of its name, in its city or in any city;
// never by words quarters share, nor when two quarters hold the part.
func TestQuarterByPart(t *testing.T) {
	g, err := New([]Place{
		{ID: "c", Name: "Aleppo", Kind: City, Located: true, Country: "SY"},
		{ID: "h", Name: "Homs", Kind: City, Located: true, Country: "SY"},
		{ID: "q1", Name: "Karm Al-Qaterji", NameAr: "كرم القاطرجي", Kind: Neighbourhood, Parent: "c", Located: true, Country: "SY"},
		{ID: "q2", Name: "Al-Ansari Mashhad", Kind: Neighbourhood, Parent: "c", Located: true, Country: "SY"},
		{ID: "q3", Name: "East Al-Ansari", Kind: Neighbourhood, Parent: "c", Located: true, Country: "SY"},
		{ID: "q4", Name: "Karm Al-Jabal", Kind: Neighbourhood, Parent: "c", Located: true, Country: "SY"},
		{ID: "q5", Name: "Bab Tadmor", Kind: Neighbourhood, Parent: "h", Located: true, Country: "SY"},
		{ID: "q6", Name: "Ikrima", Kind: Neighbourhood, Parent: "h", Located: true, Country: "SY"},
		{ID: "q7", Name: "Abbasiyeh-Muhajreen", Kind: Neighbourhood, Parent: "h", Located: true, Country: "SY"},
	})
	if err != nil {
		t.Fatal(err)
	}
	aleppo, homs := g.ByID("c"), g.ByID("h")
	for _, tc := range []struct {
		city *Place
		name string
		want string
	}{
		{aleppo, "al-Qaterji", "q1"},
		{aleppo, "Qatirji", "q1"},
		{aleppo, "القاطرجي", "q1"},
		{aleppo, "al-Mashhad", "q2"},
		{nil, "Mashad", "q2"},
		{aleppo, "Ansari", ""}, // two quarters hold it
		{aleppo, "Karm", ""},   // a head quarters share
		{aleppo, "East", ""},
		{homs, "al-Qaterji", ""}, // another city's
		{homs, "Tadmor", "q5"},
		// Inside the city named, a one-word name spelt with other vowels,
		// and either half of a hyphenated pair of quarters.
		{homs, "Akrama", "q6"},
		{nil, "Akrama", ""}, // no city named: too loose
		{homs, "Abbasiyeh", "q7"},
		{homs, "al-Muhajreen", "q7"},
		{aleppo, "Akrama", ""},
	} {
		got := ""
		if p := g.QuarterByPart(tc.city, tc.name); p != nil {
			got = p.ID
		}
		if got != tc.want {
			t.Errorf("%q in %v: %q, want %q", tc.name, tc.city != nil, got, tc.want)
		}
	}
}
