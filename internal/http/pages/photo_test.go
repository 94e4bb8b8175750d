package pages_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestPhotoPageHidesImportPaths: visitors see a source file's name, not
// where it sat on the importing machine.
func TestPhotoPageHidesImportPaths(t *testing.T) {
	e := newServer(t)
	ts, a := e.TS, e.A
	_, body := get(t, ts, "/api/photos.geojson?q=Katan")
	id := features(t, body).Features[0].ID.(string)
	dir := a.Path()[:strings.LastIndex(a.Path(), "/")]
	for _, path := range []string{"/photos/" + id, "/api/photos/" + id + ".geojson"} {
		_, body := get(t, ts, path)
		if bytes.Contains(body, []byte(dir)) || !bytes.Contains(body, []byte("images.csv")) {
			t.Errorf("%s shows the import folder %s or not the file's name", path, dir)
		}
	}
}

// TestEveryImageOfACaption: two rows with one caption and two images keep
// both; the photo's image stays the first.
func TestEveryImageOfACaption(t *testing.T) {
	e := newServer(t)
	ts, a := e.TS, e.A
	caption := "Smoke rises over Darayya, Syria, June 3, 2016. REUTERS/Bassam Khabieh"
	importText(t, a, "series.csv", fmt.Sprintf("caption,image_url\n%q,https://example.org/1.jpg\n%q,https://example.org/2.jpg\n", caption, caption))
	importText(t, a, "again.csv", fmt.Sprintf("caption,image_url\n%q,https://example.org/3.jpg\n", caption))
	id := photo.ID(caption)
	p, err := a.Photo(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if p.ImageURL != "https://example.org/1.jpg" || len(p.Images) != 3 {
		t.Errorf("image %s, images %v", p.ImageURL, p.Images)
	}
	_, body := get(t, ts, "/photos/"+id)
	for _, n := range []string{"1", "2", "3"} {
		if !bytes.Contains(body, []byte("https://example.org/"+n+".jpg")) {
			t.Errorf("the photo page does not show image %s", n)
		}
	}
}

// importText imports a file of the given name and content.
func importText(t *testing.T, a *archive.Archive, name, content string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ImportFile(context.Background(), path, "", nil); err != nil {
		t.Fatal(err)
	}
}

// TestConfidenceWordIsTheBadges (issue 68, 8): the word beside a photo's
// confidence is the badge's (web.PlacementOf), in both languages: a
// place the geocoder read as the one named but is unsure of is "low",
// never "exact"; a word inside a camp's longer name is no exact place.
func TestConfidenceWordIsTheBadges(t *testing.T) {
	e := newServer(t)
	for _, c := range []struct {
		name, caption string
		en, ar        string // the word, without the confidence
	}{
		{"read from a person's name", "Saad, a teen from Raqqa, Syria, collects scrap metal to sell. Spencer Platt / Getty Images", "low", "ضعيفة"},
		{"a word inside a camp's name", "Children in Qutaybat al-Ward camp, Syria, January 3, 2019. REUTERS/Khalil Ashawi", "fallback", "تقريبية"},
		{"a town named whole", "Smoke rises over Darayya, Syria, June 3, 2016. REUTERS/Bassam Khabieh", "exact", "دقيقة"},
	} {
		t.Run(c.name, func(t *testing.T) {
			importText(t, e.A, "one.csv", fmt.Sprintf("caption\n%q\n", c.caption))
			for lang, want := range map[string]string{"en": c.en, "ar": c.ar} {
				d := httpapitest.GetPage(t, e.TS, "/photos/"+photo.ID(c.caption)+"?lang="+lang)
				got := d.Text("confidence")
				if !strings.HasSuffix(got, "("+want+")") {
					t.Errorf("%s: confidence %q, want the word %q", lang, got, want)
				}
			}
		})
	}
}

// TestCoordinatesInTheReadersDigits (issue 68, 8): an Arabic photo page
// and place page write a point in Arabic digits, as every other number
// beside it, longitude first.
func TestCoordinatesInTheReadersDigits(t *testing.T) {
	ts := newServer(t).TS
	_, body := get(t, ts, "/api/photos.geojson?place=cur:zamalka")
	url := strings.TrimPrefix(features(t, body).Features[0].Properties["url"].(string), ts.URL)
	for _, c := range []struct{ path, testid, want string }{
		{url + "?lang=ar", "coordinates", "٣٦٫٣٥٣٦١٠، ٣٣٫٥٢٤٧٢٠"},
		{url + "?lang=en", "coordinates", "36.353610, 33.524720"},
		{"/places/ocha:C2320?lang=ar", "coordinates", "٣٦٫٣٥٣٦١٠، ٣٣٫٥٢٤٧٢٠"},
	} {
		if got := httpapitest.GetPage(t, ts, c.path).Text(c.testid); got != c.want {
			t.Errorf("%s: %q, want %q", c.path, got, c.want)
		}
	}
}

// TestPlacePageSpellings (issue 68, 8): Damascus's page lists its
// spellings without the gazetteer's rewrites of them ("د مشق",
// "Dimaejk").
func TestPlacePageSpellings(t *testing.T) {
	ts := newServer(t).TS
	names := httpapitest.GetPage(t, ts, "/places/gn:170654").Text("names")
	for _, junk := range []string{"د مشق", "Dimaejk"} {
		if strings.Contains(names, junk) {
			t.Errorf("Damascus is also written %q: %.300s", junk, names)
		}
	}
	if !strings.Contains(names, "Dimashq") {
		t.Errorf("Damascus's spellings: %.300s", names)
	}
}

// TestRefusedSearchPageInArabic (issue 68, 8): the page a refused search
// is answered with, without the explorer's script, says why in the
// page's language; an English page keeps the server's words.
func TestRefusedSearchPageInArabic(t *testing.T) {
	ts := newServer(t).TS
	for _, c := range []struct{ lang, want, not string }{
		{"ar", "يحتاج البحث ببداية الكلمة إلى ٢ من الأحرف", "prefix search"},
		{"en", "a prefix search needs at least 2 letters before the *", "يحتاج"},
	} {
		res, body := get(t, ts, "/?q=A*&lang="+c.lang, "Accept", "text/html")
		msg := strings.NewReplacer("\u2068", "", "\u2069", "").Replace(httpapitest.ParsePage(t, res, body).Text("error"))
		if res.StatusCode != 400 || !strings.Contains(msg, c.want) || strings.Contains(msg, c.not) {
			t.Errorf("%s: %d %q; want %q", c.lang, res.StatusCode, msg, c.want)
		}
	}
}

// TestPhotoPageSaysWhereTheDateCameFrom: the photo page says whether its
// date is the caption's or the import's (a page's, which may be a day or
// two after the photo's), in English and in Arabic, and the photo's
// GeoJSON carries it as date_source (issue 69, item 1).
func TestPhotoPageSaysWhereTheDateCameFrom(t *testing.T) {
	e := newServer(t)
	own := "Smoke rises over Darayya, Syria, June 3, 2016. REUTERS/Bassam Khabieh"
	page := "Smoke rises over Darayya after shelling. REUTERS/Bassam Khabieh"
	importText(t, e.A, "dated.csv", fmt.Sprintf("caption,date\n%q,\n%q,2016-06-05\n", own, page))
	for _, c := range []struct{ caption, source, en, ar string }{
		{own, "caption", "from the caption", "من التعليق"},
		{page, "import", "the date the import gives", "التاريخ الذي يعطيه ملف الاستيراد"},
	} {
		id := photo.ID(c.caption)
		if got := httpapitest.GetPage(t, e.TS, "/photos/"+id).Text("date-source"); !strings.Contains(got, c.en) {
			t.Errorf("%s: the page says %q of its date, want %q", c.source, got, c.en)
		}
		if got := httpapitest.GetPage(t, e.TS, "/photos/"+id+"?lang=ar").Text("date-source"); !strings.Contains(got, c.ar) {
			t.Errorf("%s: the Arabic page says %q of its date, want %q", c.source, got, c.ar)
		}
		_, body := get(t, e.TS, "/api/photos/"+id+".geojson")
		var f struct{ Properties map[string]any }
		if err := json.Unmarshal(body, &f); err != nil || f.Properties["date_source"] != c.source {
			t.Errorf("%s: GeoJSON date_source %v (%v), want %q", c.source, f.Properties["date_source"], err, c.source)
		}
	}
}
