package pages_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

func TestExplorerPage(t *testing.T) {
	ts := newServer(t).TS
	d := httpapitest.GetPage(t, ts, "/")
	if got := d.Text("count"); !strings.HasPrefix(got, "18 of 18 photos") {
		t.Errorf("count = %q", got)
	}
	if n := len(d.All("photo-row")); n != 18 {
		t.Errorf("%d rows, want 18", n)
	}

	// A window: the count, the rows and the downloads all follow it.
	_, body := get(t, ts, "/api/photos.geojson?from=2016&to=2016&agency=Reuters")
	want := len(features(t, body).Features)
	d = httpapitest.GetPage(t, ts, "/?from=2016&to=2016&agency=Reuters")
	if got := d.Text("count"); !strings.HasPrefix(got, fmt.Sprintf("%d of 18 photos", want)) || want < 2 {
		t.Errorf("2016, Reuters: count = %q, the API has %d", got, want)
	}
	rows := d.All("photo-row")
	if len(rows) != want {
		t.Errorf("2016, Reuters: %d rows, want %d", len(rows), want)
	}
	for _, o := range httpapitest.Elements(d.One("filter-agency"), "option") {
		if _, sel := httpapitest.Attr(o, "selected"); sel != (httpapitest.AttrOf(o, "value") == "Reuters") {
			t.Errorf("agency option %q selected = %v", httpapitest.AttrOf(o, "value"), sel)
		}
	}
	links := httpapitest.Elements(d.One("downloads"), "a")
	if len(links) != 2 {
		t.Fatalf("%d download links, want 2", len(links))
	}
	resp, body := get(t, ts, httpapitest.AttrOf(links[0], "href"))
	if fc := features(t, body); len(fc.Features) != len(rows) || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("the GeoJSON download has %d features (%s), the page shows %d", len(fc.Features), resp.Header.Get("Content-Disposition"), len(rows))
	}
	if _, body := get(t, ts, httpapitest.AttrOf(links[1], "href")); bytes.Count(body, []byte("\n")) != len(rows)+1 {
		t.Errorf("the CSV download has %d lines for %d rows", bytes.Count(body, []byte("\n")), len(rows))
	}

	// Paging: the second page starts where the first ended.
	d = httpapitest.GetPage(t, ts, "/?offset=10")
	if n := len(d.All("photo-row")); n != 8 || !strings.Contains(d.Text("count"), "showing 11–18") {
		t.Errorf("offset 10: %d rows, %q", n, d.Text("count"))
	}
	if href := httpapitest.AttrOf(d.One("prev"), "href"); href != "/?lang=en" {
		t.Errorf("prev = %q", href)
	}

	// A bad filter is a page that says what is wrong, with a 400.
	resp, body = get(t, ts, "/?from=yesterday", "Accept", "text/html")
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(httpapitest.ParsePage(t, resp, body).Text("error"), "from") {
		t.Errorf("bad from: %d %s", resp.StatusCode, body)
	}
}

func TestPhotoPage(t *testing.T) {
	ts := newServer(t).TS
	_, body := get(t, ts, "/api/photos.geojson?place=cur:zamalka")
	fc := features(t, body)
	if len(fc.Features) != 1 {
		t.Fatalf("%d Zamalka photos, want 1", len(fc.Features))
	}
	url := fc.Features[0].Properties["url"].(string)
	d := httpapitest.GetPage(t, ts, strings.TrimPrefix(url, ts.URL))
	for id, want := range map[string]string{
		"date": "19 September 2016 (day)", "photographer": "Bassam Khabieh", "agency": "Reuters",
		"place": "Zamalka", "governorate": "Rif Dimashq", "confidence": fmt.Sprintf("%.2f (exact)", httpapitest.SampleConfidence(t, "Zamalka")), "mention": "“Zamalka”",
		"coordinates": "36.353610, 33.524720",
	} {
		if got := d.Text(id); got != want {
			t.Errorf("%s = %q, want %q", id, got, want)
		}
	}
	if !strings.Contains(d.Text("caption"), "Zamalka") || len(httpapitest.Elements(d.One("sources"), "li")) == 0 {
		t.Errorf("caption %q, sources missing", d.Text("caption"))
	}
	if m := d.One("place-map"); httpapitest.AttrOf(m, "data-lon") != "36.353610" || httpapitest.AttrOf(m, "data-lat") != "33.524720" || httpapitest.AttrOf(m, "data-label") != "Zamalka" {
		t.Errorf("the small map is at %q, %q (%q)", httpapitest.AttrOf(m, "data-lon"), httpapitest.AttrOf(m, "data-lat"), httpapitest.AttrOf(m, "data-label"))
	}
	if href := httpapitest.AttrOf(d.One("place"), "href"); href != "/places/ocha:C2320?lang=en" {
		t.Errorf("place link %q", href)
	}
	if resp, _ := get(t, ts, httpapitest.AttrOf(d.One("geojson"), "href")); resp.StatusCode != 200 {
		t.Errorf("the GeoJSON link: %d", resp.StatusCode)
	}

	resp, body := get(t, ts, "/photos/0000000000000000", "Accept", "text/html,*/*")
	if resp.StatusCode != http.StatusNotFound || httpapitest.ParsePage(t, resp, body).Text("error") == "" {
		t.Errorf("unknown photo: %d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, ts, "/photos/0000000000000000"); resp.StatusCode != 404 || !strings.Contains(resp.Header.Get("Content-Type"), "json") {
		t.Errorf("unknown photo, not a browser: %d %s", resp.StatusCode, body)
	}
}

func TestPlacePage(t *testing.T) {
	ts := newServer(t).TS
	d := httpapitest.GetPage(t, ts, "/places/gn:170063") // Aleppo
	if got := d.Text("kind"); got != "city" {
		t.Errorf("kind = %q", got)
	}
	count := d.Text("count")
	if !strings.HasSuffix(count, " photo") && !strings.HasSuffix(count, " photos") || count == "0 photos" {
		t.Fatalf("count = %q", count)
	}
	if len(httpapitest.Elements(d.One("histogram"), "rect")) == 0 || len(d.All("photo-row")) == 0 {
		t.Error("no histogram bars or photos")
	}
	all := httpapitest.AttrOf(d.One("all-photos"), "href")
	e := httpapitest.GetPage(t, ts, all)
	selected := ""
	for _, o := range httpapitest.Elements(e.One("filter-place"), "option") {
		if _, ok := httpapitest.Attr(o, "selected"); ok {
			selected = httpapitest.AttrOf(o, "value")
		}
	}
	if got := e.Text("count"); !strings.HasPrefix(got, strings.Fields(count)[0]+" of 18") || selected != "gn:170063" {
		t.Errorf("the explorer for the place says %q (place %q chosen), the place page %q", got, selected, count)
	}
	if resp, _ := get(t, ts, "/places/gn:0"); resp.StatusCode != 404 {
		t.Errorf("unknown place: %d", resp.StatusCode)
	}
	// A border crossing names its gate across the border, linked, and
	// the link comes back.
	d = httpapitest.GetPage(t, ts, "/places/cur:bab-al-hawa-crossing")
	if got, href := d.Text("other-side"), httpapitest.AttrOf(d.One("other-side").FirstChild, "href"); got != "Cilvegözü crossing (Turkey)" || href != "/places/cur:cilvegozu-crossing?lang=en" {
		t.Errorf("Bab al-Hawa's other side: %q → %q", got, href)
	}
	if got := httpapitest.GetPage(t, ts, "/places/cur:cilvegozu-crossing").Text("other-side"); got != "Bab al-Hawa crossing (Syria)" {
		t.Errorf("Cilvegözü's other side: %q", got)
	}
	if len(d.All("other-side")) != 1 || len(httpapitest.GetPage(t, ts, "/places/gn:170063").All("other-side")) != 0 {
		t.Error("other-side shown where there is none")
	}
}

func TestAboutPageAndAssets(t *testing.T) {
	ts := newServer(t).TS
	resp, body := get(t, ts, "/about")
	d := httpapitest.ParsePage(t, resp, body)
	if !strings.Contains(d.Text("attribution"), "GeoNames") || !strings.Contains(d.Text("counts"), "18 photos") {
		t.Errorf("about: %q / %q", d.Text("counts"), d.Text("attribution"))
	}
	var css string
	for _, l := range httpapitest.Elements(d.Root, "link") {
		if httpapitest.AttrOf(l, "rel") == "stylesheet" {
			css = httpapitest.AttrOf(l, "href")
		}
	}
	resp, body = get(t, ts, css)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/css") ||
		!strings.Contains(resp.Header.Get("Cache-Control"), "immutable") || len(body) == 0 {
		t.Errorf("%s: %d %q %q", css, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
	}
	// The credits in the reader's language (issue 41, defect 13): the
	// licences' names, the curated places by their Arabic names, each
	// page's point longitude first as every page writes one.
	if _, en := get(t, ts, "/about"); !strings.Contains(string(en), "Zamalka") || !strings.Contains(string(en), "(36.35361, 33.52472)") {
		t.Error("the English about page lacks Zamalka's page with its point longitude first")
	}
	_, ar := get(t, ts, "/about?lang=ar")
	for _, want := range []string{"ملك عام", "زملكا", "(٣٦٫٣٥٣٦١، ٣٣٫٥٢٤٧٢)", "ملحق syriamap المنتقى"} {
		if !strings.Contains(string(ar), want) {
			t.Errorf("the Arabic about page lacks %q", want)
		}
	}
	for _, never := range []string{">public domain<", "facts read from the pages below", ">syriamap's curated supplement<"} {
		if strings.Contains(string(ar), never) {
			t.Errorf("the Arabic about page writes %q", never)
		}
	}
	resp, body = get(t, ts, "/basemap.geojson")
	fc := features(t, body)
	layers := map[string]int{}
	for _, f := range fc.Features {
		layers[f.Properties.MustString("layer", "")]++
	}
	if layers["governorate"] != 14 || layers["label"] != 14 || layers["river"] == 0 || layers["country"] < 5 {
		t.Errorf("basemap layers: %v", layers)
	}
	if resp, _ := get(t, ts, "/basemap.geojson", "If-None-Match", resp.Header.Get("ETag")); resp.StatusCode != http.StatusNotModified {
		t.Errorf("basemap revalidation: %d", resp.StatusCode)
	}
	if resp, _ := get(t, ts, "/assets/style.0000000000.css"); resp.StatusCode != 404 {
		t.Errorf("an unknown asset: %d", resp.StatusCode)
	}
}

// TestPagesEscapeCaptions imports a caption that carries markup: it is
// shown as text, never run.
func TestPagesEscapeCaptions(t *testing.T) {
	e := newServer(t)
	ts, a := e.TS, e.A
	file := filepath.Join(t.TempDir(), "evil.txt")
	os.WriteFile(file, []byte(`A man walks in Idlib <script>alert(1)</script><img src=x onerror=alert(2)>, Syria, May 2, 2016. REUTERS/Ammar Abdullah`+"\n"), 0o644)
	if _, err := a.ImportFile(context.Background(), file, "", nil); err != nil {
		t.Fatal(err)
	}
	d := httpapitest.GetPage(t, ts, "/?q=alert")
	if n := len(d.All("photo-row")); n != 1 {
		t.Fatalf("%d rows, want 1", n)
	}
	for _, sc := range httpapitest.Elements(d.Root, "script") {
		if !strings.HasPrefix(httpapitest.AttrOf(sc, "src"), "/assets/app.") || sc.FirstChild != nil {
			t.Errorf("a script that is not the app's: src %q", httpapitest.AttrOf(sc, "src"))
		}
	}
	if len(httpapitest.Elements(d.One("photo-list"), "img")) != 0 || len(httpapitest.Elements(d.One("photo-list"), "script")) != 0 {
		t.Error("the caption's markup became elements")
	}
	if !strings.Contains(d.Text("caption"), "<script>alert(1)</script>") {
		t.Errorf("caption text = %q", d.Text("caption"))
	}
}
