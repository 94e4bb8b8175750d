package geocode_test

import (
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// TestForeignCountryIsAbroad: a name followed by a country the gazetteer
// does not cover, or after that country's adjective, is abroad, whatever
// Syrian village shares its name; and so is a photo the caption puts on
// a city abroad while naming where its people came from.
func TestForeignCountryIsAbroad(t *testing.T) {
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	gc := geocode.New(g)
	for _, text := range []string{
		"A Syrian refugee boy plays inside lockers at a corridor of a refugee camp in Sofia, Bulgaria, November 22, 2013. REUTERS/Stoyan Nenov",
		"Migrants disembark in the Sicilian harbor of Augusta, June 3, 2015. REUTERS/Antonio Parrinello",
		"Syrian refugees from Kobani celebrate as they arrive on a dinghy at a beach on the Greek island of Kos, August 10, 2015. REUTERS/Yannis Behrakis",
		"Refugees wait at a refugee centre in Milan, Italy, June 14, 2014. REUTERS/Stefano Rellandini",
		"Bostan and his friend from Syria celebrate reaching Lesbos on December 3, 2015.",
		"Syrian refugees from Kobani pose for a selfie, moments after arriving on a dinghy on the island of Lesbos, Greece August 23, 2015. REUTERS/Alkis Konstantinidis",
		"Refugees rest after arriving in the Egyptian capital of Cairo, September 17, 2015. REUTERS/Amr Dalsh",
		"Children carry bread moments after arriving from Aleppo in Sofia, Bulgaria, on May 3, 2014. REUTERS/Stoyan Nenov",
	} {
		r := gc.Geocode(caption.Parse(text))
		if r.Place != nil && r.Place.Country == "SY" {
			t.Errorf("%q: placed in Syria at %s (%s, %.2f)", text, r.Place.Name, r.Place.Kind, r.Confidence)
		}
	}
}

// TestTownInProvince: a town named in a province the gazetteer holds only
// by its capital ("the town of Suruc in Sanliurfa province") is the town,
// not the capital, with any adjective before "town".
func TestTownInProvince(t *testing.T) {
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	gc := geocode.New(g)
	for text, want := range map[string]string{
		"An elderly Syrian Kurd woman sleeps in her wheelchair after she crossed the border between Syria and Turkey near the southeastern town of Suruc in Sanliurfa province, on September 20, 2014. (Bulent Kilic/AFP/Getty Images)": "Suruc",
		"Women walk past damaged buildings near the frontier town of Narli in Gaziantep province December 16, 2014. REUTERS/Osman Khabieh":                                                                                              "Narli",
	} {
		r := gc.Geocode(caption.Parse(text))
		if r.Place == nil || r.Place.Name != want {
			t.Errorf("%q: got %v, want %s", text, r.Place, want)
		}
	}
}

// TestArabicBorderWithIsNoCountry: "X الحدودي مع الأردن", X on the border
// with Jordan, is X in Syria; the country only names the border.
func TestArabicBorderWithIsNoCountry(t *testing.T) {
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	gc := geocode.New(g)
	for text, want := range map[string]string{
		"توزيع مساعدات في مخيم الركبان الحدودي مع الأردن (عنب بلدي)": "Rukban camp",
		"أطفال في مخيم الركبان على الحدود مع الأردن":                 "Rukban camp",
	} {
		r := gc.Geocode(caption.Parse(text))
		if r.Place == nil || r.Place.Name != want {
			t.Errorf("%q: got %v, want %s", text, r.Place, want)
		}
	}
}
