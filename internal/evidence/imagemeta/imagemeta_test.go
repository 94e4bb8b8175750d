package imagemeta

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The fixtures are made by testdata/fixtures.sh with exiftool.

func read(t *testing.T, name string) Metadata {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

func TestIIMFields(t *testing.T) {
	m := read(t, "iptc-utf8.jpg")
	want := Metadata{
		Caption:     "Internally displaced Syrian children stand near their tent in Ras al-Ain, Syria January 22, 2017. (Photo by Rodi Said/Reuters)",
		ObjectName:  "SYRIA-CONFLICT/DISPLACED",
		Creators:    []string{"Rodi Said"},
		Credit:      "REUTERS",
		Source:      "Reuters",
		Keywords:    []string{"displaced", "رأس العين"},
		City:        "Ras al-Ain",
		Sublocation: "a camp for displaced people",
		State:       "Hasakah",
		CountryCode: "SYR",
		Country:     "Syria",
		Created:     "2017-01-22T10:15:00+03:00",
		From:        "IPTC IIM",
		EXIF:        EXIF{Orientation: 1},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got  %+v\nwant %+v", m, want)
	}
}

func TestIIMLatin1(t *testing.T) {
	m := read(t, "iptc-latin1.jpg")
	if m.City != "Aïn Issa" || m.Creators[0] != "Zoé Ménard" || m.Caption != "A fighter in Aïn Issa, Syria, June 5, 2016." {
		t.Errorf("Latin-1 IIM read as %q, %q, %q", m.City, m.Creators, m.Caption)
	}
}

func TestXMPFields(t *testing.T) {
	m := read(t, "xmp-only.jpg")
	want := Metadata{
		Caption:     "Smoke rises over Kobani, seen from Suruc, Turkey, October 8, 2014.",
		ObjectName:  "TURKEY-SYRIA",
		Creators:    []string{"Yannis Behrakis", "Second Author"},
		Credit:      "REUTERS",
		Source:      "Reuters",
		Keywords:    []string{"smoke"},
		City:        "Suruc",
		Sublocation: "Mursitpinar border crossing",
		State:       "Sanliurfa",
		CountryCode: "TR",
		Country:     "Turkey",
		Created:     "2014-10-08T14:20:00+03:00",
		Shown:       []Location{{City: "Kobani", State: "Aleppo", Country: "Syria", CountryCode: "SYR"}},
		Taken:       []Location{{City: "Suruc", Country: "Turkey", CountryCode: "TUR"}},
		From:        "XMP",
		EXIF:        EXIF{Orientation: 1},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got  %+v\nwant %+v", m, want)
	}
}

// IIM and XMP disagree on the caption and city: the MWG rule decides.
func TestIIMAgainstXMP(t *testing.T) {
	for _, tc := range []struct {
		file, city, credit, from string
	}{
		{"conflict-nodigest.jpg", "Gaziantep", "XMP Credit", "XMP (IPTC IIM differs; no IPTC digest, so XMP is preferred)"},
		{"conflict-match.jpg", "Gaziantep", "XMP Credit", "XMP"},
		// The stale digest: IIM wins where it has a value, XMP fills the
		// rest (the credit only XMP has).
		{"conflict-stale.jpg", "Aleppo", "XMP Credit", "IPTC IIM (the XMP is out of date: the IPTC digest does not match)"},
	} {
		m := read(t, tc.file)
		if m.City != tc.city || m.Credit != tc.credit || m.From != tc.from {
			t.Errorf("%s: city %q credit %q from %q; want %q, %q, %q", tc.file, m.City, m.Credit, m.From, tc.city, tc.credit, tc.from)
		}
	}
}

func TestGPSHemispheres(t *testing.T) {
	for _, tc := range []struct {
		file     string
		lat, lon float64
	}{
		{"gps-ne.jpg", 36.2021, 37.1343},
		{"gps-nw.jpg", 40.7128, -74.0060},
		{"gps-se.jpg", -33.8688, 151.2093},
		{"gps-sw.jpg", -34.6037, -58.3816},
	} {
		x := read(t, tc.file).EXIF
		if !x.HasGPS || math.Abs(x.Lat-tc.lat) > 1e-4 || math.Abs(x.Lon-tc.lon) > 1e-4 {
			t.Errorf("%s: GPS %v %v,%v; want %v,%v", tc.file, x.HasGPS, x.Lat, x.Lon, tc.lat, tc.lon)
		}
		want := time.Date(2016, 12, 13, 15, 4, 5, 0, time.FixedZone("", 3*3600))
		if !x.HasTime || !x.HasOffset || !x.Time.Equal(want) {
			t.Errorf("%s: time %v (offset %v); want %v", tc.file, x.Time, x.HasOffset, want)
		}
		if x.Make != "Canon" || x.Model != "Canon EOS 5D Mark III" {
			t.Errorf("%s: camera %q %q", tc.file, x.Make, x.Model)
		}
	}
}

func TestOrientationBigEndian(t *testing.T) {
	x := read(t, "orient-6.jpg").EXIF
	if x.Orientation != 6 {
		t.Errorf("orientation %d, want 6", x.Orientation)
	}
	if !x.HasTime || x.HasOffset || !x.Time.Equal(time.Date(2013, 5, 1, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("time %v offset %v", x.Time, x.HasOffset)
	}
	if read(t, "iptc-utf8.jpg").EXIF.Orientation != 1 {
		t.Error("a file without EXIF should have orientation 1")
	}
}

func TestBadFiles(t *testing.T) {
	for _, tc := range []struct{ file, reason string }{
		{"bad-truncated.jpg", "truncated JPEG: the file ends inside its header segments"},
		{"bad-segment.jpg", "truncated JPEG: the file ends inside its header segments"},
		{"bad-notjpeg.jpg", "not a JPEG file (it does not begin with a JPEG start-of-image marker)"},
	} {
		b, _ := os.ReadFile(filepath.Join("testdata", tc.file))
		_, err := Read(bytes.NewReader(b))
		var p *Problem
		if !errors.As(err, &p) || p.Reason != tc.reason {
			t.Errorf("%s: %v; want %q", tc.file, err, tc.reason)
		}
	}
	// A segment whose length is less than its own length field.
	b := []byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01, 0, 0}
	if _, err := Read(bytes.NewReader(b)); err == nil || err.Error() != "damaged JPEG: a segment (marker 0xE1) has the impossible length 1" {
		t.Errorf("short segment: %v", err)
	}
}

// Damage inside one block loses that block only.
func TestDamagedBlocksAreSkipped(t *testing.T) {
	b, _ := os.ReadFile("testdata/gps-ne.jpg")
	i := bytes.Index(b, []byte("Exif\x00\x00"))
	bad := bytes.Clone(b)
	copy(bad[i+6:], "XX") // no byte order: the EXIF block is unreadable
	m, err := Read(bytes.NewReader(bad))
	if err != nil || m.EXIF.HasGPS || m.EXIF.Orientation != 1 {
		t.Errorf("damaged EXIF: %v, %+v", err, m.EXIF)
	}
}

func TestIIMDates(t *testing.T) {
	for _, tc := range []struct{ date, clock, want string }{
		{"20170122", "", "2017-01-22"},
		{"20170122", "101500", "2017-01-22T10:15:00"},
		{"20170122", "101500-0500", "2017-01-22T10:15:00-05:00"},
		{"20170100", "", "2017-01"},
		{"20170000", "", "2017"},
		{"2017012", "", ""},
		{"2017x122", "", ""},
	} {
		if got := iimDateTime(tc.date, tc.clock); got != tc.want {
			t.Errorf("iimDateTime(%q, %q) = %q, want %q", tc.date, tc.clock, got, tc.want)
		}
	}
}

// FuzzRead: no input makes Read panic or hang, and what it returns is
// valid text.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"iptc-utf8.jpg", "xmp-only.jpg", "gps-sw.jpg", "orient-6.jpg", "conflict-stale.jpg"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Read(bytes.NewReader(b))
		if err != nil {
			var p *Problem
			if !errors.As(err, &p) {
				t.Fatalf("an error that is not a Problem: %v", err)
			}
			return
		}
		if m.EXIF.Orientation < 1 || m.EXIF.Orientation > 8 {
			t.Fatalf("orientation %d", m.EXIF.Orientation)
		}
	})
}

// BenchmarkRead reads the metadata of a fixture with IIM, EXIF and the
// image data after them; bytes/s counts the whole file, of which Read
// touches only the header.
func BenchmarkRead(b *testing.B) {
	data, err := os.ReadFile("testdata/check-abroad.jpg")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// A packet with an element nested a hundred deep (exiftool reads it) is
// read, not skipped as damaged.
func TestDeepXMP(t *testing.T) {
	deep := strings.Repeat("<x:n>", 100) + "deep" + strings.Repeat("</x:n>", 100)
	packet := `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
		`<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description><rdf:Alt><rdf:li xml:lang="x-default">A caption in Hama.</rdf:li></rdf:Alt></dc:description>` +
		`<x:other>` + deep + `</x:other></rdf:Description></rdf:RDF></x:xmpmeta>`
	var m Metadata
	if err := readXMP([]byte(packet), &m); err != nil || m.Caption != "A caption in Hama." {
		t.Errorf("caption %q, err %v", m.Caption, err)
	}
}
