package archive

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize/bomb"
	"github.com/syriamap/syriamap/internal/store"
)

// fixtureFolder copies the imagemeta fixtures (made by exiftool, see
// internal/evidence/imagemeta/testdata/fixtures.sh) into a new folder, some in a
// subfolder, and returns it.
func fixtureFolder(t *testing.T) string {
	t.Helper()
	src := "../evidence/imagemeta/testdata"
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "2017", "january"), 0o755)
	names, _ := filepath.Glob(filepath.Join(src, "*.jpg"))
	if len(names) < 10 {
		t.Fatalf("%d fixtures", len(names))
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.Base(n))
		if strings.HasPrefix(filepath.Base(n), "iptc-") {
			dst = filepath.Join(dir, "2017", "january", strings.ToUpper(filepath.Base(n))) // IPTC-UTF8.JPG
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not an image, and not included"), 0o644)
	return dir
}

func photoByCaption(t *testing.T, a *Archive, prefix string) *photo.Photo {
	t.Helper()
	ps, err := a.db.Photos(context.Background(), photo.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if strings.HasPrefix(p.Caption, prefix) {
			full, err := a.db.Photo(context.Background(), p.ID)
			if err != nil {
				t.Fatal(err)
			}
			return full
		}
	}
	t.Fatalf("no photo with a caption beginning %q", prefix)
	return nil
}

func TestImportImageFolder(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	dir := fixtureFolder(t)
	// A 200 MB file: sparse, so the test costs no disk.
	big := filepath.Join(dir, "huge.jpg")
	if f, err := os.Create(big); err == nil {
		f.Truncate(200 << 20)
		f.Close()
	}
	// A link out of the folder is not followed.
	outside := filepath.Join(t.TempDir(), "outside.jpg")
	os.WriteFile(outside, must(os.ReadFile(filepath.Join(dir, "gps-nw.jpg"))), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "link.jpg")); err != nil {
		t.Fatal(err)
	}

	// Cut short: at half, and without the end marker's two bytes.
	whole := bomb.WithCaption(bomb.FlatJPEG(2000, 2000, false), "A picture cut short in Hama, Syria, May 3, 2016.")
	os.WriteFile(filepath.Join(dir, "cut-half.jpg"), whole[:len(whole)/2], 0o644)
	os.WriteFile(filepath.Join(dir, "cut-end.jpg"), whole[:len(whole)-2], 0o644)

	res, err := a.ImportImages(ctx, []string{dir}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, s := range res.Skipped {
		reasons[filepath.Base(s.Path)] = s.Reason
	}
	wantSkipped := map[string]string{
		"bad-notjpeg.jpg":   "not a JPEG file (it does not begin with a JPEG start-of-image marker)",
		"bad-segment.jpg":   "truncated JPEG: the file ends inside its header segments",
		"bad-truncated.jpg": "truncated JPEG: the file ends inside its header segments",
		"huge.jpg":          "200 MB is larger than the 100 MB an image may be",
		"link.jpg":          "not a regular file (links are not followed)",
		"cut-half.jpg":      "truncated JPEG: the file ends before its end-of-image marker (it was cut short)",
		"cut-end.jpg":       "truncated JPEG: the file ends before its end-of-image marker (it was cut short)",
	}
	for name, want := range wantSkipped {
		if reasons[name] != want {
			t.Errorf("%s: skipped for %q, want %q", name, reasons[name], want)
		}
	}
	if len(res.Skipped) != len(wantSkipped) {
		t.Errorf("skipped %v", res.Skipped)
	}
	// 14 good images; the three conflict files hold two captions (IIM wins
	// in one): the two XMP-preferred ones are one photo.
	if res.Added != 12 || res.Updated != 1 || res.Unchanged != 0 {
		t.Errorf("first import: %+v", res.Summary)
	}

	checkImportedFiles(t, a)
	checkImportedAgain(t, a, dir, len(wantSkipped))
}

// checkImportedFiles checks what TestImportImageFolder's import read of
// its files: captions, credits, the GPS and the clock, and the check.
func checkImportedFiles(t *testing.T, a *Archive) {
	t.Helper()
	// The IIM fields: caption read and geocoded, the credit from the
	// caption, the file recorded, the IPTC city kept.
	p := photoByCaption(t, a, "Internally displaced Syrian children")
	if p.Place.Name != "Ras al-Ayn" || p.Photographer != "Rodi Said" || p.Agency != "Reuters" || p.Date.String() != "2017-01-22" {
		t.Errorf("IIM photo: %s, %s, %s, %s", p.Place.Name, p.Photographer, p.Agency, p.Date)
	}
	if p.File == nil || !strings.HasSuffix(p.File.Path, filepath.Join("2017", "january", "IPTC-UTF8.JPG")) || len(p.ImageFile) != 64 {
		t.Errorf("file: %+v, image %q", p.File, p.ImageFile)
	}
	if p.Check.IPTCCity != "Ras al-Ain" || p.Check.IPTCCountry != "Syria" || p.Check.Agreement != photo.AgreementAgrees {
		t.Errorf("check: %+v", p.Check)
	}
	// The caption gives no credit: the file's by-line and credit fill it
	// in, as values the file gave.
	p = photoByCaption(t, a, "A fighter in Aïn Issa")
	if p.Photographer != "Zoé Ménard" || p.Agency != "AFP" {
		t.Errorf("credit from IPTC: %q, %q", p.Photographer, p.Agency)
	}
	// EXIF GPS and time are kept; no place is taken from them.
	p = photoByCaption(t, a, "A test picture made at 33.8688 S")
	if !p.Check.HasGPS || p.Check.GPSLat > -33 || p.Check.GPSLon < 151 || p.Check.EXIFTime != "2016-12-13T15:04:05+03:00" {
		t.Errorf("GPS and time: %+v", p.Check)
	}

	// The file contradicts its caption, in place and in time.
	p = photoByCaption(t, a, "Men walk through rubble in Aleppo")
	if p.Check.Agreement != photo.AgreementDisagrees || !strings.HasPrefix(p.Check.Note, "The caption says Aleppo; the file's IPTC city is Gaziantep (Turkey); its GPS point is in Turkey.") ||
		!strings.Contains(p.Check.Note, "The camera's clock says 22 January 2017, 40 days from the caption's date") || p.Date.String() != "2016-12-13" {
		t.Errorf("abroad: %+v, date %s", p.Check, p.Date)
	}
}

// checkImportedAgain imports TestImportImageFolder's folder again: the
// unchanged files are not even read (skipped of them are), and a file
// changed on disk updates its photo.
func checkImportedAgain(t *testing.T, a *Archive, dir string, skipped int) {
	t.Helper()
	ctx := context.Background()
	// Again: nothing changes, and the good files are not even read.
	again, err := a.ImportImages(ctx, []string{dir}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Added != 0 || again.Updated != 0 || again.Read != skipped-2 {
		t.Errorf("re-import: %+v, %d read", again.Summary, again.Read)
	}

	// A file changed on disk (another hash) updates its photo.
	ne := filepath.Join(dir, "gps-ne.jpg")
	b := must(os.ReadFile(ne))
	os.WriteFile(ne, append(b, 0, 0), 0o644) // bytes after the image's end
	changed, err := a.ImportImages(ctx, []string{ne}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if changed.Updated != 1 || changed.Read != 1 {
		t.Errorf("changed file: %+v, %d read", changed.Summary, changed.Read)
	}
}

// An image whose caption is already in the archive joins that photo.
func TestImageJoinsItsCaption(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	dir := fixtureFolder(t)
	text := write(t, "captions.txt", "Internally displaced Syrian children stand near their tent in Ras al-Ain, Syria January 22, 2017. (Photo by Rodi Said/Reuters)\n")
	if _, err := a.ImportFile(ctx, text, "", nil); err != nil {
		t.Fatal(err)
	}
	res, err := a.ImportImages(ctx, []string{filepath.Join(dir, "2017", "january", "IPTC-UTF8.JPG")}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 0 || res.Updated != 1 {
		t.Errorf("joining: %+v", res.Summary)
	}
	p := photoByCaption(t, a, "Internally displaced")
	var files []string
	for _, s := range p.Sources {
		files = append(files, filepath.Base(s.File))
	}
	if !slices.Equal(files, []string{"IPTC-UTF8.JPG", "captions.txt"}) && !slices.Equal(files, []string{"captions.txt", "IPTC-UTF8.JPG"}) {
		t.Errorf("sources %v", files)
	}
	if p.ImageFile == "" || p.Check.IPTCCity != "Ras al-Ain" {
		t.Errorf("the image was not attached: %q, %+v", p.ImageFile, p.Check)
	}
	// The text file again does not undo the image.
	if _, err := a.ImportFile(ctx, text, "", nil); err != nil {
		t.Fatal(err)
	}
	if p := photoByCaption(t, a, "Internally displaced"); p.ImageFile == "" || p.Check.IPTCCity == "" {
		t.Error("a text re-import dropped the image")
	}
}

func TestIncludePatterns(t *testing.T) {
	a := newArchive(t)
	dir := fixtureFolder(t)
	res, err := a.ImportImages(context.Background(), []string{dir}, []string{"iptc-*.jpg"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 2 || res.Added != 2 {
		t.Errorf("--include iptc-*.jpg: %d files, %+v", res.Files, res.Summary)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Photos whose image file disagrees with the caption head the review
// queue.
func TestDisagreementsHeadTheReview(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	if _, err := a.ImportSamples(ctx); err != nil { // unplaced and fallback photos among them
		t.Fatal(err)
	}
	if _, err := a.ImportImages(ctx, []string{fixtureFolder(t)}, nil, nil); err != nil {
		t.Fatal(err)
	}
	groups, err := a.db.ReviewGroups(ctx, photo.Filter{}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) < 2 || groups[0].Disagrees == 0 || groups[0].Worst != 4 || groups[1].Worst > 3 {
		t.Errorf("review groups: %+v", groups)
	}
}

// Re-geocoding checks each photo against its image file again.
func TestRegeocodeChecksFilesAgain(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	if _, err := a.ImportImages(ctx, []string{fixtureFolder(t)}, nil, nil); err != nil {
		t.Fatal(err)
	}
	p := photoByCaption(t, a, "Men walk through rubble in Aleppo")
	want := p.Check
	if _, err := a.db.SetChecks(ctx, map[string]photo.Check{p.ID: {Agreement: "agrees", Note: "stale"}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Regeocode(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got := photoByCaption(t, a, "Men walk through rubble in Aleppo").Check; got.Agreement != want.Agreement || got.Note != want.Note {
		t.Errorf("after regeocode: %q %q, want %q %q", got.Agreement, got.Note, want.Agreement, want.Note)
	}
}

// A caption that names no place is placed by the file's IPTC location,
// as a value the file gave: re-geocoding the caption keeps it.
func TestIPTCLocationPlacesAPlacelessCaption(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	p := a.buildFromImage("A boy carries bread past a checkpoint, May 1, 2013.", imagemeta.Metadata{City: "Aleppo", Country: "Syria"}, photo.Date{})
	if p.Geocoded.Name != "Aleppo" || p.Given&photo.GivenPoint == 0 || !strings.Contains(p.Geocoded.Note, "IPTC location") {
		t.Fatalf("placed at %q (given %b): %s", p.Geocoded.Name, p.Given, p.Geocoded.Note)
	}
	if _, err := a.db.ImportFile(ctx, "image.jpg", store.Records([]store.Record{{Photo: p, Line: 1}}), nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Regeocode(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := a.db.Photo(ctx, p.ID); err != nil || got.Place.Name != "Aleppo" {
		t.Errorf("after regeocode: %v, %v", got.Place.Name, err)
	}
}

// TestGPSAloneDoesNotPlace: a file whose only place is the camera's GPS
// point leaves a caption that names no place unplaced — the point is
// checked against the caption, never published as the photo's place —
// through the import and a re-geocode.
func TestGPSAloneDoesNotPlace(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	md := imagemeta.Metadata{EXIF: imagemeta.EXIF{HasGPS: true, Lon: 37.16, Lat: 36.2}}
	p := a.buildFromImage("A boy carries bread past a checkpoint, May 1, 2013.", md, photo.Date{})
	if p.Geocoded.Located || p.Given&photo.GivenPoint != 0 {
		t.Fatalf("placed by its GPS at %v,%v (%q)", p.Geocoded.Lon, p.Geocoded.Lat, p.Geocoded.Name)
	}
	if _, err := a.db.ImportFile(ctx, "image.jpg", store.Records([]store.Record{{Photo: p, Line: 1}}), nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Regeocode(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := a.db.Photo(ctx, p.ID); err != nil || got.Place.Located {
		t.Errorf("after import and regeocode: located %v at %v,%v (%v)", got.Place.Located, got.Place.Lon, got.Place.Lat, err)
	}
}

// TestRightToLeftNamesAreIsolated: an IPTC name written right to left is
// a unit of its own in the agreement sentence, so that the sentence's
// punctuation is not pulled into it (issue 26, 14).
func TestRightToLeftNamesAreIsolated(t *testing.T) {
	a := newArchive(t)
	p := a.buildFromImage("A boy in Homs, Syria, May 1, 2013.", imagemeta.Metadata{City: "حلب", Country: "تركيا"}, photo.Date{})
	if !strings.Contains(p.Check.Note, "\u2068حلب\u2069") {
		t.Errorf("the sentence %q does not isolate حلب", p.Check.Note)
	}
	if strings.Contains(p.Check.Note, "\u2068Homs") {
		t.Errorf("a name written left to right was isolated: %q", p.Check.Note)
	}
}
