package archive

import (
	"strings"
	"testing"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/ingest"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestCheckSentences: the caption's place against the file's IPTC city
// and GPS point, in each case the issue names. Points are the
// gazetteer's own, moved by a bearing and a distance.
func TestCheckSentences(t *testing.T) {
	a := newArchive(t)
	aleppo := a.Build(ingestCaption("Men walk through rubble in Aleppo, Syria, December 13, 2016. REUTERS/Abdalrhman Ismail"))
	if aleppo.Geocoded.Name != "Aleppo" {
		t.Fatalf("caption placed at %q", aleppo.Geocoded.Name)
	}
	at := orb.Point{aleppo.Geocoded.Lon, aleppo.Geocoded.Lat}
	gaziantep := a.Gazetteer().Lookup("Gaziantep")
	if len(gaziantep) == 0 {
		t.Fatal("no Gaziantep in the gazetteer")
	}
	gpsAt := func(p orb.Point) imagemeta.EXIF { return imagemeta.EXIF{HasGPS: true, Lon: p.Lon(), Lat: p.Lat()} }
	arabic := map[string]string{
		"agrees": "يذكر التعليق حلب؛ مدينة IPTC في الملف هي Aleppo؛ ونقطة GPS في الملف تقع داخل حلب، وهي متّفقة.",
		"near":   "يذكر التعليق حلب؛ ونقطة GPS في الملف تقع خارج حلب، وهي قريبة لكنها أبعد من ١٥ كم، وهو المدى الذي يمتدّ إليه مكانٌ من نوع «مدينة».",
		"abroad": "يذكر التعليق حلب؛ مدينة IPTC في الملف هي Gaziantep (تركيا)؛ ونقطة GPS في الملف تقع في تركيا.",
	}
	for _, tc := range []struct {
		name      string
		md        imagemeta.Metadata
		agreement string
		note      string
	}{
		{"agrees", imagemeta.Metadata{City: "Aleppo", Country: "Syria", EXIF: gpsAt(geo.PointAtBearingAndDistance(at, 45, 2000))},
			photo.AgreementAgrees, "The caption says Aleppo; the file's IPTC city is Aleppo; its GPS point lies in Aleppo: they agree."},
		{"near", imagemeta.Metadata{EXIF: gpsAt(geo.PointAtBearingAndDistance(at, 0, 30000))},
			photo.AgreementNear, "The caption says Aleppo; its GPS point lies outside Aleppo: near, but beyond the 15 km a city spreads."},
		{"far", imagemeta.Metadata{EXIF: gpsAt(geo.PointAtBearingAndDistance(at, 200, 120000))},
			photo.AgreementDisagrees, "The caption says Aleppo; its GPS point lies far from Aleppo."},
		{"abroad", imagemeta.Metadata{City: "Gaziantep", CountryCode: "TUR", EXIF: gpsAt(gaziantep[0].Point)},
			photo.AgreementDisagrees, "The caption says Aleppo; the file's IPTC city is Gaziantep (Turkey); its GPS point is in Turkey."},
		// IPTC written in Arabic is read against the gazetteer's Arabic
		// names (issue 41, defect 4).
		{"agrees in Arabic", imagemeta.Metadata{City: "حلب", Country: "سوريا", EXIF: gpsAt(geo.PointAtBearingAndDistance(at, 90, 1000))},
			photo.AgreementAgrees, "The caption says Aleppo; the file's IPTC city is \u2068حلب\u2069; its GPS point lies in Aleppo: they agree."},
		{"Arabic, another country", imagemeta.Metadata{City: "غازي عنتاب", Country: "تركيا", EXIF: gpsAt(gaziantep[0].Point)},
			photo.AgreementDisagrees, "The caption says Aleppo; the file's IPTC city is \u2068غازي عنتاب\u2069 (Turkey); its GPS point is in Turkey."},
		{"nothing to compare", imagemeta.Metadata{}, "", ""},
	} {
		c := a.check(aleppo, tc.md)
		if c.Agreement != tc.agreement || c.Note != tc.note {
			t.Errorf("%s: %q %q\nwant %q %q", tc.name, c.Agreement, c.Note, tc.agreement, tc.note)
		}
		// The same findings said on an Arabic page (issue 41, defect 13):
		// the gazetteer's Arabic names, the catalogue's countries.
		if want, ok := arabic[tc.name]; ok {
			if got := strings.NewReplacer("\u2068", "", "\u2069", "").Replace(CheckNote(i18n.Locale{Lang: i18n.Arabic}, a.Gazetteer(), c.Findings)); got != want {
				t.Errorf("%s in Arabic: %q\nwant %q", tc.name, got, want)
			}
		}
		// The note is public: no figure of the GPS point's distance.
		if strings.Contains(c.Note, "km from") {
			t.Errorf("%s: the note gives a distance: %q", tc.name, c.Note)
		}
	}
}

func TestCheckDates(t *testing.T) {
	a := newArchive(t)
	p := a.Build(ingestCaption("Men walk through rubble in Aleppo, Syria, December 13, 2016. REUTERS/Abdalrhman Ismail"))
	for _, tc := range []struct {
		camera       time.Time
		agreement    string
		note, arabic string
	}{
		{time.Date(2016, 12, 14, 1, 0, 0, 0, time.UTC), photo.AgreementAgrees, "The camera's clock says 14 December 2016, as the caption does.",
			"تقول ساعة الكاميرا ١٤ كانون الأول/ديسمبر ٢٠١٦، كما يقول التعليق."},
		{time.Date(2017, 1, 22, 9, 0, 0, 0, time.UTC), photo.AgreementDisagrees,
			"The camera's clock says 22 January 2017, 40 days from the caption's date (13 December 2016); camera clocks are often wrong, so the caption's date is kept.",
			"تقول ساعة الكاميرا ٢٢ كانون الثاني/يناير ٢٠١٧، على بعد ٤٠ يومًا من تاريخ التعليق (١٣ كانون الأول/ديسمبر ٢٠١٦)؛ كثيرًا ما تخطئ ساعات الكاميرات، لذا يبقى تاريخ التعليق."},
	} {
		c := a.check(p, imagemeta.Metadata{EXIF: imagemeta.EXIF{HasTime: true, Time: tc.camera}})
		if got := strings.NewReplacer("\u2068", "", "\u2069", "").Replace(CheckNote(i18n.Locale{Lang: i18n.Arabic}, a.Gazetteer(), c.Findings)); got != tc.arabic {
			t.Errorf("%v in Arabic: %q\nwant %q", tc.camera, got, tc.arabic)
		}
		if c.Agreement != tc.agreement || c.Note != tc.note {
			t.Errorf("%v: %q %q\nwant %q %q", tc.camera, c.Agreement, c.Note, tc.agreement, tc.note)
		}
		if p.Date.String() != "2016-12-13" {
			t.Errorf("the caption's date became %s", p.Date)
		}
	}
}

func ingestCaption(text string) ingest.Record { return ingest.Record{Caption: text} }

// TestCheckParts: the check names which parts reach its level, so a page
// can say "only the camera's clock disagrees" (issue 26, 14).
func TestCheckParts(t *testing.T) {
	a := newArchive(t)
	p := a.Build(ingestCaption("Men walk through rubble in Aleppo, Syria, December 13, 2016. REUTERS/Abdalrhman Ismail"))
	at := orb.Point{p.Geocoded.Lon, p.Geocoded.Lat}
	clock := func(d time.Time) imagemeta.EXIF { return imagemeta.EXIF{HasTime: true, Time: d} }
	right, wrong := time.Date(2016, 12, 13, 9, 0, 0, 0, time.UTC), time.Date(2017, 1, 22, 9, 0, 0, 0, time.UTC)
	withGPS := func(x imagemeta.EXIF, km float64) imagemeta.Metadata {
		pt := geo.PointAtBearingAndDistance(at, 90, km*1000)
		x.HasGPS, x.Lon, x.Lat = true, pt.Lon(), pt.Lat()
		return imagemeta.Metadata{EXIF: x}
	}
	for _, tc := range []struct {
		name             string
		md               imagemeta.Metadata
		agreement, parts string
	}{
		{"all agree", withGPS(clock(right), 2), photo.AgreementAgrees, ""},
		{"only the clock", withGPS(clock(wrong), 2), photo.AgreementDisagrees, "clock"},
		{"only the place", withGPS(clock(right), 120), photo.AgreementDisagrees, "place"},
		{"both", withGPS(clock(wrong), 120), photo.AgreementDisagrees, "place clock"},
		{"near, clock right", withGPS(clock(right), 30), photo.AgreementNear, "place"},
		{"near, clock wrong", withGPS(clock(wrong), 30), photo.AgreementDisagrees, "clock"},
	} {
		c := a.check(p, tc.md)
		if c.Agreement != tc.agreement || c.Parts != tc.parts {
			t.Errorf("%s: %q %q, want %q %q", tc.name, c.Agreement, c.Parts, tc.agreement, tc.parts)
		}
	}
}

// TestCheckCreatedAndCredit (issue 42, part 5): the caption's date
// against the file's IPTC date created, and its credit against the
// file's by-line and credit, read as credits are ("REUTERS" is Reuters);
// a disagreement is named as such, in the note and its parts.
func TestCheckCreatedAndCredit(t *testing.T) {
	a := newArchive(t)
	p := a.Build(ingestCaption("Men walk through rubble in Aleppo, Syria, December 13, 2016. REUTERS/Abdalrhman Ismail"))
	for _, tc := range []struct {
		name      string
		md        imagemeta.Metadata
		agreement string
		parts     string
		note      string
	}{
		{"same day", imagemeta.Metadata{Created: "2016-12-13T10:20:00"}, photo.AgreementAgrees, "",
			"The file's IPTC date created is 13 December 2016, as the caption says."},
		{"a month before", imagemeta.Metadata{Created: "2016-11-01"}, photo.AgreementDisagrees, "created",
			"The file's IPTC date created is 1 November 2016, 42 days from the caption's date (13 December 2016)."},
		{"same credit, written otherwise", imagemeta.Metadata{Creators: []string{"ABDALRHMAN ISMAIL"}, Credit: "REUTERS"}, photo.AgreementAgrees, "",
			"The file's IPTC by-line and credit say Abdalrhman Ismail/Reuters, as the caption does."},
		{"another photographer", imagemeta.Metadata{Creators: []string{"Khalil Ashawi"}, Credit: "Reuters"}, photo.AgreementDisagrees, "credit",
			"The file's IPTC by-line and credit say Khalil Ashawi/Reuters; the caption says Abdalrhman Ismail/Reuters."},
		{"another agency", imagemeta.Metadata{Credit: "AFP"}, photo.AgreementDisagrees, "credit",
			"The file's IPTC by-line and credit say AFP; the caption says Abdalrhman Ismail/Reuters."},
	} {
		c := a.check(p, tc.md)
		if c.Agreement != tc.agreement || c.Parts != tc.parts || c.Note != tc.note {
			t.Errorf("%s: %q %q %q\nwant %q %q %q", tc.name, c.Agreement, c.Parts, c.Note, tc.agreement, tc.parts, tc.note)
		}
	}
	// A credit the file gave the photo (the caption had none) is not
	// compared with itself.
	bare := a.buildFromImage("Men walk through rubble in Aleppo, Syria.", imagemeta.Metadata{Creators: []string{"Khalil Ashawi"}, Credit: "Reuters", Created: "2016-12-13"}, photo.Date{})
	if bare.Check.Agreement != "" {
		t.Errorf("a credit and date the file gave: %q %q", bare.Check.Agreement, bare.Check.Note)
	}
}
