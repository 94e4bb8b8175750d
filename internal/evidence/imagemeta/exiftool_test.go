package imagemeta

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgainstExiftool reads every good fixture with exiftool, the
// reference reader, in its MWG mode (which reconciles IIM and XMP as the
// guidance says) and checks that Read finds the same caption, creators,
// city, GPS point, capture time and orientation. CI installs exiftool;
// elsewhere the test is skipped without it.
func TestAgainstExiftool(t *testing.T) {
	if _, err := exec.LookPath("exiftool"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("exiftool is not installed (Debian libimage-exiftool-perl; .ci/run installs it)")
		}
		t.Skip("exiftool is not installed")
	}
	names, _ := filepath.Glob("testdata/*.jpg")
	var good []string
	for _, n := range names {
		if !strings.HasPrefix(filepath.Base(n), "bad-") {
			good = append(good, n)
		}
	}
	out, err := exec.Command("exiftool", append([]string{"-use", "MWG", "-j", "-n", "-MWG:Description", "-MWG:Creator",
		"-MWG:City", "-Composite:GPSLatitude", "-Composite:GPSLongitude", "-EXIF:DateTimeOriginal", "-EXIF:Orientation"}, good...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	var refs []struct {
		SourceFile                string
		Description               string
		Creator                   any // a string, or a list
		City                      string
		GPSLatitude, GPSLongitude *float64
		DateTimeOriginal          string
		Orientation               int
	}
	if err := json.Unmarshal(out, &refs); err != nil {
		t.Fatal(err)
	}
	if len(refs) != len(good) {
		t.Fatalf("exiftool read %d of %d files", len(refs), len(good))
	}
	for _, ref := range refs {
		m := read(t, filepath.Base(ref.SourceFile))
		name := filepath.Base(ref.SourceFile)
		if m.Caption != ref.Description {
			t.Errorf("%s: caption %q, exiftool %q", name, m.Caption, ref.Description)
		}
		var creators []string
		switch c := ref.Creator.(type) {
		case string:
			creators = []string{c}
		case []any:
			for _, v := range c {
				creators = append(creators, fmt.Sprint(v))
			}
		}
		if strings.Join(m.Creators, "|") != strings.Join(creators, "|") {
			t.Errorf("%s: creators %q, exiftool %q", name, m.Creators, creators)
		}
		// exiftool's MWG City is the location shown when the XMP
		// extension gives one; syriamap keeps the IPTC city apart.
		if len(m.Shown) == 0 && m.City != ref.City {
			t.Errorf("%s: city %q, exiftool %q", name, m.City, ref.City)
		}
		if (ref.GPSLatitude != nil) != m.EXIF.HasGPS ||
			ref.GPSLatitude != nil && (math.Abs(*ref.GPSLatitude-m.EXIF.Lat) > 1e-6 || math.Abs(*ref.GPSLongitude-m.EXIF.Lon) > 1e-6) {
			t.Errorf("%s: GPS %v %v,%v; exiftool %v,%v", name, m.EXIF.HasGPS, m.EXIF.Lat, m.EXIF.Lon, ref.GPSLatitude, ref.GPSLongitude)
		}
		if got := m.EXIF.Time.Format("2006:01:02 15:04:05"); (ref.DateTimeOriginal != "") != m.EXIF.HasTime || m.EXIF.HasTime && got != ref.DateTimeOriginal {
			t.Errorf("%s: time %v %s; exiftool %q", name, m.EXIF.HasTime, got, ref.DateTimeOriginal)
		}
		if want := max(ref.Orientation, 1); m.EXIF.Orientation != want {
			t.Errorf("%s: orientation %d; exiftool %d", name, m.EXIF.Orientation, want)
		}
	}
}
