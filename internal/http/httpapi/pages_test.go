package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"golang.org/x/net/html"
)

// doc is a parsed page, queried by data-testid as a person's eye would
// find things, never by matching the markup as text.
type doc struct {
	t    *testing.T
	root *html.Node
}

func page(t *testing.T, resp *http.Response, body []byte) doc {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("Content-Type %q, want HTML:\n%s", ct, body)
	}
	root, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc{t, root}
}

// getPage gets path and parses it as a page.
func getPage(t *testing.T, ts *httptest.Server, path string) doc {
	t.Helper()
	resp, body := get(t, ts, path)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d\n%s", path, resp.StatusCode, body)
	}
	return page(t, resp, body)
}

// all returns the elements with the test id.
func (d doc) all(id string) []*html.Node {
	return find(d.root, func(n *html.Node) bool { return attr(n, "data-testid") == id })
}

// find returns the elements under n (n included) that match, in document
// order.
func find(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

// one returns the element with the test id, failing when there is not
// exactly one.
func (d doc) one(id string) *html.Node {
	d.t.Helper()
	ns := d.all(id)
	if len(ns) != 1 {
		d.t.Fatalf("%d elements with data-testid=%q, want 1", len(ns), id)
	}
	return ns[0]
}

// text is the element's text with white space collapsed.
func (d doc) text(id string) string {
	d.t.Helper()
	return textOf(d.one(id))
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

// elements returns the elements named tag under n.
func elements(n *html.Node, tag string) []*html.Node {
	return find(n, func(e *html.Node) bool { return e.Data == tag })
}

func TestExplorerPage(t *testing.T) {
	_, ts, _ := newTestServer(t)
	d := getPage(t, ts, "/")
	if got := d.text("count"); !strings.HasPrefix(got, "18 of 18 photos") {
		t.Errorf("count = %q", got)
	}
	if n := len(d.all("photo-row")); n != 18 {
		t.Errorf("%d rows, want 18", n)
	}

	// A window: the count, the rows and the downloads all follow it.
	_, body := get(t, ts, "/api/photos.geojson?from=2016&to=2016&agency=Reuters")
	want := len(features(t, body).Features)
	d = getPage(t, ts, "/?from=2016&to=2016&agency=Reuters")
	if got := d.text("count"); !strings.HasPrefix(got, fmt.Sprintf("%d of 18 photos", want)) || want < 2 {
		t.Errorf("2016, Reuters: count = %q, the API has %d", got, want)
	}
	rows := d.all("photo-row")
	if len(rows) != want {
		t.Errorf("2016, Reuters: %d rows, want %d", len(rows), want)
	}
	for _, o := range elements(d.one("filter-agency"), "option") {
		if _, sel := attrOK(o, "selected"); sel != (attr(o, "value") == "Reuters") {
			t.Errorf("agency option %q selected = %v", attr(o, "value"), sel)
		}
	}
	links := elements(d.one("downloads"), "a")
	if len(links) != 2 {
		t.Fatalf("%d download links, want 2", len(links))
	}
	resp, body := get(t, ts, attr(links[0], "href"))
	if fc := features(t, body); len(fc.Features) != len(rows) || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("the GeoJSON download has %d features (%s), the page shows %d", len(fc.Features), resp.Header.Get("Content-Disposition"), len(rows))
	}
	if _, body := get(t, ts, attr(links[1], "href")); bytes.Count(body, []byte("\n")) != len(rows)+1 {
		t.Errorf("the CSV download has %d lines for %d rows", bytes.Count(body, []byte("\n")), len(rows))
	}

	// Paging: the second page starts where the first ended.
	d = getPage(t, ts, "/?offset=10")
	if n := len(d.all("photo-row")); n != 8 || !strings.Contains(d.text("count"), "showing 11–18") {
		t.Errorf("offset 10: %d rows, %q", n, d.text("count"))
	}
	if href := attr(d.one("prev"), "href"); href != "/" {
		t.Errorf("prev = %q", href)
	}

	// A bad filter is a page that says what is wrong, with a 400.
	resp, body = get(t, ts, "/?from=yesterday", "Accept", "text/html")
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(page(t, resp, body).text("error"), "from") {
		t.Errorf("bad from: %d %s", resp.StatusCode, body)
	}
}

func attrOK(n *html.Node, key string) (string, bool) { return httpapitest.Attr(n, key) }

func TestPhotoPage(t *testing.T) {
	_, ts, _ := newTestServer(t)
	_, body := get(t, ts, "/api/photos.geojson?place=cur:zamalka")
	fc := features(t, body)
	if len(fc.Features) != 1 {
		t.Fatalf("%d Zamalka photos, want 1", len(fc.Features))
	}
	url := fc.Features[0].Properties["url"].(string)
	d := getPage(t, ts, strings.TrimPrefix(url, ts.URL))
	for id, want := range map[string]string{
		"date": "19 September 2016 (day)", "photographer": "Bassam Khabieh", "agency": "Reuters",
		"place": "Zamalka", "governorate": "Rif Dimashq", "confidence": fmt.Sprintf("%.2f (exact)", sampleConfidence(t, "Zamalka")), "mention": "“Zamalka”",
		"coordinates": "36.353610, 33.524720",
	} {
		if got := d.text(id); got != want {
			t.Errorf("%s = %q, want %q", id, got, want)
		}
	}
	if !strings.Contains(d.text("caption"), "Zamalka") || len(elements(d.one("sources"), "li")) == 0 {
		t.Errorf("caption %q, sources missing", d.text("caption"))
	}
	if m := d.one("place-map"); attr(m, "data-lon") != "36.353610" || attr(m, "data-lat") != "33.524720" || attr(m, "data-label") != "Zamalka" {
		t.Errorf("the small map is at %q, %q (%q)", attr(m, "data-lon"), attr(m, "data-lat"), attr(m, "data-label"))
	}
	if href := attr(d.one("place"), "href"); href != "/places/ocha:C2320" {
		t.Errorf("place link %q", href)
	}
	if resp, _ := get(t, ts, attr(d.one("geojson"), "href")); resp.StatusCode != 200 {
		t.Errorf("the GeoJSON link: %d", resp.StatusCode)
	}

	resp, body := get(t, ts, "/photos/0000000000000000", "Accept", "text/html,*/*")
	if resp.StatusCode != http.StatusNotFound || page(t, resp, body).text("error") == "" {
		t.Errorf("unknown photo: %d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, ts, "/photos/0000000000000000"); resp.StatusCode != 404 || !strings.Contains(resp.Header.Get("Content-Type"), "json") {
		t.Errorf("unknown photo, not a browser: %d %s", resp.StatusCode, body)
	}
}

func TestPlacePage(t *testing.T) {
	_, ts, _ := newTestServer(t)
	d := getPage(t, ts, "/places/gn:170063") // Aleppo
	if got := d.text("kind"); got != "city" {
		t.Errorf("kind = %q", got)
	}
	count := d.text("count")
	if !strings.HasSuffix(count, " photo") && !strings.HasSuffix(count, " photos") || count == "0 photos" {
		t.Fatalf("count = %q", count)
	}
	if len(elements(d.one("histogram"), "rect")) == 0 || len(d.all("photo-row")) == 0 {
		t.Error("no histogram bars or photos")
	}
	all := attr(d.one("all-photos"), "href")
	e := getPage(t, ts, all)
	selected := ""
	for _, o := range elements(e.one("filter-place"), "option") {
		if _, ok := attrOK(o, "selected"); ok {
			selected = attr(o, "value")
		}
	}
	if got := e.text("count"); !strings.HasPrefix(got, strings.Fields(count)[0]+" of 18") || selected != "gn:170063" {
		t.Errorf("the explorer for the place says %q (place %q chosen), the place page %q", got, selected, count)
	}
	if resp, _ := get(t, ts, "/places/gn:0"); resp.StatusCode != 404 {
		t.Errorf("unknown place: %d", resp.StatusCode)
	}
	// A border crossing names its gate across the border, linked, and
	// the link comes back.
	d = getPage(t, ts, "/places/cur:bab-al-hawa-crossing")
	if got, href := d.text("other-side"), attr(d.one("other-side").FirstChild, "href"); got != "Cilvegözü crossing (Turkey)" || href != "/places/cur:cilvegozu-crossing" {
		t.Errorf("Bab al-Hawa's other side: %q → %q", got, href)
	}
	if got := getPage(t, ts, "/places/cur:cilvegozu-crossing").text("other-side"); got != "Bab al-Hawa crossing (Syria)" {
		t.Errorf("Cilvegözü's other side: %q", got)
	}
	if len(d.all("other-side")) != 1 || len(getPage(t, ts, "/places/gn:170063").all("other-side")) != 0 {
		t.Error("other-side shown where there is none")
	}
}

func TestAboutPageAndAssets(t *testing.T) {
	_, ts, _ := newTestServer(t)
	resp, body := get(t, ts, "/about")
	d := page(t, resp, body)
	if !strings.Contains(d.text("attribution"), "GeoNames") || !strings.Contains(d.text("counts"), "18 photos") {
		t.Errorf("about: %q / %q", d.text("counts"), d.text("attribution"))
	}
	var css string
	for _, l := range elements(d.root, "link") {
		if attr(l, "rel") == "stylesheet" {
			css = attr(l, "href")
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
	_, ts, a := newTestServer(t)
	file := filepath.Join(t.TempDir(), "evil.txt")
	os.WriteFile(file, []byte(`A man walks in Idlib <script>alert(1)</script><img src=x onerror=alert(2)>, Syria, May 2, 2016. REUTERS/Ammar Abdullah`+"\n"), 0o644)
	if _, err := a.ImportFile(context.Background(), file, "", nil); err != nil {
		t.Fatal(err)
	}
	d := getPage(t, ts, "/?q=alert")
	if n := len(d.all("photo-row")); n != 1 {
		t.Fatalf("%d rows, want 1", n)
	}
	for _, sc := range elements(d.root, "script") {
		if !strings.HasPrefix(attr(sc, "src"), "/assets/app.") || sc.FirstChild != nil {
			t.Errorf("a script that is not the app's: src %q", attr(sc, "src"))
		}
	}
	if len(elements(d.one("photo-list"), "img")) != 0 || len(elements(d.one("photo-list"), "script")) != 0 {
		t.Error("the caption's markup became elements")
	}
	if !strings.Contains(d.text("caption"), "<script>alert(1)</script>") {
		t.Errorf("caption text = %q", d.text("caption"))
	}
}

// TestPageRenderedBeforeWritten: a page whose template fails half way is
// a 500 error page, not a 200 with half a page; an error page that fails
// too is a plain 500.
func TestPageRenderedBeforeWritten(t *testing.T) {
	s, _, _ := newTestServer(t)
	half := templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		io.WriteString(w, "<html><body><h1>Half a page")
		return fmt.Errorf("a template's fault")
	})
	req := httptest.NewRequest("GET", "/photos/x", nil)
	req.Header.Set("Accept", "text/html") // a browser's
	rec := httptest.NewRecorder()
	s.Render(rec, req, http.StatusOK, half)
	if body := rec.Body.String(); rec.Code != http.StatusInternalServerError || strings.Contains(body, "Half a page") || !strings.Contains(body, "<html") {
		t.Errorf("a failing page: %d %q", rec.Code, body)
	}
	rec = httptest.NewRecorder()
	s.Render(rec, req, http.StatusInternalServerError, half)
	if body := rec.Body.String(); rec.Code != http.StatusInternalServerError || strings.Contains(body, "Half a page") {
		t.Errorf("a failing error page: %d %q", rec.Code, body)
	}
}
