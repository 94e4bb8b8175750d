package httpapi

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
)

// raqqaArchive holds photos placed at the city of Raqqa (3, one in Arabic), at one of
// its quarters (Mansour, 1), at the governorate's centroid (1) and at a
// town in the governorate (Ein Issa, 1).
func raqqaArchive(t *testing.T) *httptestServer {
	t.Helper()
	a, dir := httpapitest.EmptyArchive(t)
	path := filepath.Join(dir, "raqqa.txt")
	writeTestFile(t, path, "Smoke over Raqqa, Syria, June 6, 2017.\n\n"+
		"Fighters in the Al-Mashlab district of Raqqa, Syria, June 2017.\n\n"+
		"A street in Al-Mansour quarter, Raqqa, Syria.\n\n"+
		"Displaced families in Raqqa governorate, Syria, 2017.\n\n"+
		"A camp in Ain Issa, Raqqa province, Syria.\n\n"+
		"دخان فوق الرقة\n\n")
	if _, err := a.ImportFile(context.Background(), path, "", nil); err != nil {
		t.Fatal(err)
	}
	ts, _ := serveArchive(t, a, Options{})
	return &httptestServer{ts.URL, t}
}

type httptestServer struct {
	url string
	t   *testing.T
}

func (s *httptestServer) json(path string, v any) {
	s.t.Helper()
	resp, body := httpapitest.Do(s.t, nil, "GET", s.url+path, "")
	if resp.StatusCode != 200 {
		s.t.Fatalf("%s: %s %s", path, resp.Status, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		s.t.Fatalf("%s: %v", path, err)
	}
}

func (s *httptestServer) count(query string) int {
	s.t.Helper()
	var fc struct{ Features []any }
	s.json("/api/photos.geojson?limit=1000&"+query, &fc)
	return len(fc.Features)
}

// TestPlaceSearchOffersTheCityAndTheGovernorate (issue 68, 3): a search
// for the places holding photos by the name "Raqqa", in either script,
// finds the city — though most of its photos are in a quarter — with the
// quarter within it, so that its filter counts them all, and the
// governorate with its filter's value; the city's filter then finds the
// photos at it and in it, the governorate's every photo in it (not the
// one at its centroid).
func TestPlaceSearchOffersTheCityAndTheGovernorate(t *testing.T) {
	s := raqqaArchive(t)
	for _, q := range []string{"Raqqa", "Raqqah", "الرقة"} {
		var found []pagemodel.PlaceFound
		s.json("/api/places/search?with_photos=true&limit=10&q="+url.QueryEscape(q), &found)
		byID := map[string]pagemodel.PlaceFound{}
		for _, p := range found {
			byID[p.ID] = p
		}
		city, gov := byID["gn:172955"], byID["ocha:SY11"]
		if city.Kind != "city" || !city.Spelling || !slices.Equal(city.Within, []string{"ocha:N0469"}) {
			t.Errorf("%q: the city is %+v; want a city, spelled, with its quarter Mansour within", q, city)
		}
		if gov.Kind != "governorate" || !gov.Spelling || gov.Governorate != "SY11" || gov.Within != nil {
			t.Errorf("%q: the governorate is %+v; want its filter's value SY11", q, gov)
		}
	}
	if n := s.count("place=gn:172955&place=ocha:N0469"); n != 4 {
		t.Errorf("the city's filter finds %d photos; want 4 (3 at the city, 1 in its quarter)", n)
	}
	if n := s.count("governorate=SY11"); n != 6 {
		t.Errorf("the governorate's filter finds %d photos; want all 6 in it", n)
	}
	var facets struct {
		Places, Governorates []struct {
			Value string
			Count int
		}
	}
	s.json("/api/facets?limit=100", &facets)
	for _, v := range facets.Places {
		if v.Value == "ocha:SY11" && v.Count != 1 {
			t.Errorf("%d photos at the governorate's centroid; want 1", v.Count)
		}
	}
}

// TestSearchSpellingsAPI (issue 68, 3): /api/search/spellings names the
// place a caption search reads and the spellings it finds as one, in
// both scripts; a search that names none, none. The photos each
// spelling finds are the same.
func TestSearchSpellingsAPI(t *testing.T) {
	s := raqqaArchive(t)
	var want int
	for i, q := range []string{"Raqqa", "raqqah", "ar-Raqqah", "الرقة", "بالرقة"} {
		var out struct {
			Places []struct {
				ID    string
				Names []string
			}
		}
		s.json("/api/search/spellings?q="+url.QueryEscape(q), &out)
		if len(out.Places) != 1 || out.Places[0].ID != "gn:172955" || !slices.Contains(out.Places[0].Names, "Raqqah") ||
			!slices.Contains(out.Places[0].Names, "الرقة") {
			t.Errorf("%q: %+v; want the city of Raqqa, spelled Raqqah and الرقة among others", q, out)
		}
		n := s.count("q=" + url.QueryEscape(q))
		if i == 0 {
			want = n
		}
		if n != want || n < 5 {
			t.Errorf("%q finds %d photos; Raqqa %d (want the same, at least 5)", q, n, want)
		}
	}
	var none struct{ Places []any }
	s.json("/api/search/spellings?q=smoke", &none)
	if none.Places == nil || len(none.Places) != 0 {
		t.Errorf("smoke: %+v; want no place", none)
	}
}

func writeTestFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
