package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize/bomb"
	"github.com/syriamap/syriamap/internal/store"
)

// imageServer serves an archive of the imagemeta fixtures (made by
// exiftool) imported as images, from a copy of them.
func imageServer(t *testing.T, opts Options) (*httptest.Server, string) {
	t.Helper()
	a, photos := imageArchive(t)
	ts, _ := serveArchive(t, a, opts)
	return ts, photos
}

// imageArchive imports a copy of the imagemeta fixtures as images.
func imageArchive(t *testing.T) (*archive.Archive, string) {
	t.Helper()
	return httpapitest.ImageArchive(t)
}

// serveArchive serves a with opts, at the test server's own address.
func serveArchive(t testing.TB, a *archive.Archive, opts Options) (*httptest.Server, *Server) {
	t.Helper()
	ts := httptest.NewServer(nil)
	t.Cleanup(ts.Close)
	opts.BaseURL = ts.URL
	s, err := New(a, opts)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s.Handler()
	return ts, s
}

// featureWith returns the properties of the one feature whose caption
// begins with prefix.
func featureWith(t *testing.T, ts *httptest.Server, prefix string) map[string]any {
	t.Helper()
	_, body := get(t, ts, "/api/photos.geojson")
	for _, f := range features(t, body).Features {
		if c, _ := f.Properties["caption"].(string); strings.HasPrefix(c, prefix) {
			return f.Properties
		}
	}
	t.Fatalf("no feature with a caption beginning %q", prefix)
	return nil
}

// segments lists the markers of a JPEG's header segments, up to the
// image data.
func segments(t *testing.T, b []byte) []byte {
	t.Helper()
	var out []byte
	for i := 2; i+4 <= len(b) && b[i] == 0xFF; {
		m := b[i+1]
		out = append(out, m)
		if m == 0xDA {
			break
		}
		i += 2 + int(binary.BigEndian.Uint16(b[i+2:]))
	}
	return out
}

func TestImportedImagesAreServedWithoutMetadata(t *testing.T) {
	ts, photos := imageServer(t, Options{})
	p := featureWith(t, ts, "A boy stands in a street of Douma") // orientation 6, EXIF
	small, _ := p["thumbnail_url"].(string)
	large, _ := p["image_url"].(string)
	if !strings.HasSuffix(small, "/320.jpg") || !strings.HasSuffix(large, "/1280.jpg") {
		t.Fatalf("image links %q, %q", small, large)
	}
	for _, u := range []string{small, large} {
		resp, body := get(t, ts, strings.TrimPrefix(u, ts.URL))
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/jpeg" ||
			!strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
			t.Fatalf("%s: %d %v", u, resp.StatusCode, resp.Header)
		}
		// No APP1 (EXIF, XMP), APP13 (IPTC) or any other APPn segment.
		for _, m := range segments(t, body) {
			if m >= 0xE1 && m <= 0xEF {
				t.Errorf("%s: the derivative has an APP%d segment", u, m-0xE0)
			}
		}
		// Turned upright: the 64×32 picture, red left and blue right,
		// was taken turned; shown, it stands 32×64, red on top.
		img, err := jpeg.Decode(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != 32 || b.Dy() != 64 {
			t.Errorf("%s: %v, want 32×64", u, b)
		}
		if r, _, bl, _ := img.At(16, 8).RGBA(); r < bl {
			t.Errorf("%s: the top is not red", u)
		}
		if r, _, bl, _ := img.At(16, 56).RGBA(); r > bl {
			t.Errorf("%s: the bottom is not blue", u)
		}
	}
	// The original keeps its GPS: it is not served unless asked for.
	orig := strings.Replace(strings.TrimPrefix(large, ts.URL), "/1280.jpg", "/original.jpg", 1)
	if resp, body := get(t, ts, orig); resp.StatusCode != http.StatusForbidden || !bytes.Contains(body, []byte("--serve-originals")) {
		t.Errorf("original without --serve-originals: %d %s", resp.StatusCode, body)
	}
	// The API carries what the file says (but the GPS point: see
	// TestGPSIsPrivate).
	gps := featureWith(t, ts, "A test picture made at 34.6037 S")
	if gps["exif_time"] != "2016-12-13T15:04:05+03:00" {
		t.Errorf("EXIF time: %v", gps["exif_time"])
	}
	ras := featureWith(t, ts, "Internally displaced")
	if ras["iptc_city"] != "Ras al-Ain" || ras["iptc_country"] != "Syria" || ras["agreement"] != "agrees" || ras["agreement_note"] == nil {
		t.Errorf("IPTC properties: %v %v %v %v", ras["iptc_city"], ras["iptc_country"], ras["agreement"], ras["agreement_note"])
	}
	// A file changed on disk since its import is not served under its
	// old hash.
	os.WriteFile(filepath.Join(photos, "iptc-utf8.jpg"), []byte("changed"), 0o644)
	u := strings.TrimPrefix(ras["image_url"].(string), ts.URL)
	if resp, _ := get(t, ts, u); resp.StatusCode != http.StatusConflict {
		t.Errorf("changed file: %d", resp.StatusCode)
	}
	if resp, _ := get(t, ts, "/images/not-a-hash/320.jpg"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("bad hash: %d", resp.StatusCode)
	}
}

func TestOriginalsWhenAskedFor(t *testing.T) {
	cache := t.TempDir()
	ts, photos := imageServer(t, Options{ServeOriginals: true, ImageCache: cache})
	p := featureWith(t, ts, "A boy stands in a street of Douma")
	// A derivative is made once and kept on disk.
	small := strings.TrimPrefix(p["thumbnail_url"].(string), ts.URL)
	_, first := get(t, ts, small)
	kept, _ := filepath.Glob(filepath.Join(cache, "*", "*-320.jpg"))
	if len(kept) != 1 {
		t.Fatalf("cached derivatives: %v", kept)
	}
	if b, _ := os.ReadFile(kept[0]); !bytes.Equal(b, first) {
		t.Error("the cached derivative is not the one served")
	}
	orig := strings.Replace(strings.TrimPrefix(p["image_url"].(string), ts.URL), "/1280.jpg", "/original.jpg", 1)
	resp, body := get(t, ts, orig)
	want, _ := os.ReadFile(filepath.Join(photos, "orient-6.jpg"))
	if resp.StatusCode != 200 || !bytes.Equal(body, want) {
		t.Errorf("original: %d, %d bytes, want %d", resp.StatusCode, len(body), len(want))
	}
}

func TestImageCSVColumns(t *testing.T) {
	ts, _ := imageServer(t, Options{})
	_, body := get(t, ts, "/api/photos.csv")
	header, _, _ := strings.Cut(string(body), "\n")
	for _, col := range []string{"image_url", "thumbnail_url", "iptc_city", "iptc_country", "gps_lon", "gps_lat", "gps_distance_km", "exif_time", "agreement", "agreement_note"} {
		if !strings.Contains(","+header+",", ","+col+",") {
			t.Errorf("CSV header lacks %s: %s", col, header)
		}
	}
	if !strings.Contains(string(body), ",Ras al-Ain,Syria,,,,,agrees,") {
		t.Errorf("CSV row of the IPTC photo not found:\n%s", body)
	}
}

// The map marks photos whose image metadata disagrees with the caption,
// and the agreement filter selects them.
func TestAgreementOnTheMap(t *testing.T) {
	ts, _ := imageServer(t, Options{})
	_, body := get(t, ts, "/api/points.json")
	var pts struct{ Points [][]any }
	if err := json.Unmarshal(body, &pts); err != nil {
		t.Fatal(err)
	}
	_, body = get(t, ts, "/api/photos.geojson?agreement=disagrees")
	disagree := map[string]bool{}
	for _, f := range features(t, body).Features {
		if f.Properties["agreement"] != "disagrees" {
			t.Errorf("agreement=disagrees gave %v", f.Properties["agreement"])
		}
		disagree[fmt.Sprint(f.ID)] = true
	}
	if len(disagree) == 0 {
		t.Fatal("no fixture disagrees")
	}
	for _, p := range pts.Points {
		if (p[6] == float64(2)) != disagree[p[0].(string)] {
			t.Errorf("point %v: metadata %v", p[0], p[6])
		}
	}
	if resp, body := get(t, ts, "/api/photos.geojson?agreement=maybe"); resp.StatusCode != 400 || !strings.Contains(string(body), "agreement") {
		t.Errorf("agreement=maybe: %d %s", resp.StatusCode, body)
	}
}

func TestPhotoPageShowsTheFile(t *testing.T) {
	ts, photos := imageServer(t, Options{})
	p := featureWith(t, ts, "Men walk through rubble in Aleppo")
	resp, body := get(t, ts, strings.TrimPrefix(p["url"].(string), ts.URL))
	page := string(body)
	if resp.StatusCode != 200 {
		t.Fatalf("%d", resp.StatusCode)
	}
	for _, want := range []string{
		"The file&#39;s place and the camera&#39;s clock disagree with the caption",
		"its GPS point is in Turkey",
		"check-abroad.jpg",
		"/images/" + p["image_url"].(string)[strings.Index(p["image_url"].(string), "/images/")+8:],
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, photos) {
		t.Error("the page shows the file's folder")
	}
}

// An agreement filter alone is a filter: the download is not the whole
// archive.
func TestAgreementAloneFilters(t *testing.T) {
	ts, _ := imageServer(t, Options{})
	_, all := get(t, ts, "/api/photos.geojsonl")
	_, some := get(t, ts, "/api/photos.geojsonl?agreement=disagrees")
	if n, m := bytes.Count(all, []byte{0x1e}), bytes.Count(some, []byte{0x1e}); m != 1 || n <= m {
		t.Errorf("all %d, agreement=disagrees %d", n, m)
	}
}

// Decompression bombs: valid images of flat blocks, and headers that
// declare more pixels than the file holds, imported or in --media. Each is
// refused from its header with a 422 naming its size, having allocated
// next to nothing; a large image under the limit is made once however
// many ask for it at once.
func TestImageBombsAreRefused(t *testing.T) {
	media := filepath.Join(t.TempDir(), "media")
	os.MkdirAll(media, 0o755)
	files := map[string][]byte{
		"flat-24000.jpg":   bomb.WithCaption(bomb.FlatJPEG(24000, 24000, false), "Flat blocks in Aleppo, Syria, May 1, 2016."),
		"header-65000.jpg": bomb.WithCaption(bomb.HeaderJPEG(65000, 65000, true), "A header in Homs, Syria, May 2, 2016."),
		"header-30000.png": bomb.HeaderPNG(30000, 30000),
		"big-8000.jpg":     bomb.WithCaption(bomb.FlatJPEG(8000, 6000, false), "A big picture in Hama, Syria, May 3, 2016."),
	}
	for name, b := range files {
		os.WriteFile(filepath.Join(media, name), b, 0o644)
	}
	a, _ := emptyArchive(t)
	res, err := a.ImportImages(context.Background(), []string{media}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	sha := func(name string) string {
		sum := sha256.Sum256(files[name])
		return hex.EncodeToString(sum[:])
	}
	// The import refuses the JPEG bombs from their headers (issue 65);
	// an archive imported before it did may hold them, as these do.
	var recs []store.Record
	for _, s := range res.Skipped {
		name := filepath.Base(s.Path)
		if !strings.Contains(s.Reason, "pixels") {
			t.Errorf("%s skipped: %s", name, s.Reason)
		}
		p := a.Build(ingestRecord("A bomb in Idlib, Syria, May 4, 2016: " + name))
		st, _ := os.Stat(s.Path)
		p.File = &photo.File{Path: s.Path, SHA256: sha(name), Size: st.Size(), ModTime: st.ModTime().UTC(), Meta: "{}"}
		recs = append(recs, store.Record{Photo: p, Source: s.Path})
	}
	if len(recs) != 2 {
		t.Errorf("skipped %+v, want the two JPEG bombs", res.Skipped)
	}
	// Written past the archive's import, straight into its file.
	if _, err := rawStore(t, a).ImportFile(context.Background(), "images", store.Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	ts, _ := serveArchive(t, a, Options{Media: media})
	for _, tc := range []struct{ path, want string }{
		{"/images/" + sha("flat-24000.jpg") + "/1280.jpg", "24000 × 24000 pixels (576 megapixels)"},
		{"/images/" + sha("flat-24000.jpg") + "/320.jpg", "24000 × 24000 pixels"},
		{"/images/" + sha("header-65000.jpg") + "/1280.jpg", "65000 × 65000 pixels"},
		{"/media/thumb/flat-24000.jpg", "24000 × 24000 pixels"},
		{"/media/flat-24000.jpg", "24000 × 24000 pixels"},
		{"/media/thumb/header-30000.png", "30000 × 30000 pixels"},
	} {
		var resp *http.Response
		var body []byte
		n := allocatedBy(func() { resp, body = get(t, ts, tc.path) })
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %s; want 422 saying %q", tc.path, resp.StatusCode, body, tc.want)
		}
		if n > 30<<20 {
			t.Errorf("%s: refusing it allocated %d MB", tc.path, n>>20)
		}
	}
	// 48 megapixels is under the limit: twenty asking at once share one
	// decode (about 50 MB of pixels, not twenty times that).
	var wg sync.WaitGroup
	codes := make(chan int, 20)
	n := allocatedBy(func() {
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, _ := get(t, ts, "/media/thumb/big-8000.jpg?size=200")
				codes <- resp.StatusCode
			}()
		}
		wg.Wait()
	})
	close(codes)
	for c := range codes {
		if c != http.StatusOK {
			t.Errorf("a thumbnail of 8,000 × 6,000: %d", c)
		}
	}
	if n > 200<<20 {
		t.Errorf("twenty thumbnails of one 48 MP image allocated %d MB; want one decode's worth", n>>20)
	}
}

// allocatedBy returns the bytes the process allocates while fn runs.
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A file swapped in place, with the same size and modification time, is
// not served under the old hash (which caches call immutable): neither its
// derivatives nor, with --serve-originals, itself.
func TestASwappedFileIsNotServed(t *testing.T) {
	ts, photos := imageServer(t, Options{ServeOriginals: true})
	p := featureWith(t, ts, "A boy stands in a street of Douma")
	path := filepath.Join(photos, "orient-6.jpg")
	st, _ := os.Stat(path)
	b, _ := os.ReadFile(path)
	b[len(b)-3] ^= 0x01 // a bit of the image data, before the end marker
	os.WriteFile(path, b, 0o644)
	os.Chtimes(path, st.ModTime(), st.ModTime())
	large := strings.TrimPrefix(p["image_url"].(string), ts.URL)
	for _, u := range []string{large, strings.Replace(large, "/1280.jpg", "/320.jpg", 1), strings.Replace(large, "/1280.jpg", "/original.jpg", 1)} {
		resp, body := get(t, ts, u)
		if resp.StatusCode != http.StatusConflict || !strings.Contains(string(body), "changed on disk") {
			t.Errorf("%s: %d %s; want 409", u, resp.StatusCode, body)
		}
	}
}

// The camera's GPS point says where the photographer stood: the public
// routes give the agreement in words, neither the point nor its distance;
// editors see both; --public-gps publishes them.
func TestGPSIsPrivate(t *testing.T) {
	a, _ := imageArchive(t)
	token := addEditor(t, a)
	ts, _ := serveArchive(t, a, Options{})
	// check-abroad.jpg: a caption in Aleppo, GPS in Turkey, 98 km away.
	const lat, lon = "37.066", "37.383" // its GPS point (fixtures.sh)
	p := featureWith(t, ts, "Men walk through rubble in Aleppo")
	if p["gps_lat"] != nil || p["gps_lon"] != nil {
		t.Errorf("public GeoJSON gives the point: %v, %v", p["gps_lon"], p["gps_lat"])
	}
	// Its distance from the place is as private as the point (with two
	// of them, before and after a correction, the point is found).
	if p["gps_distance_km"] != nil || p["agreement"] != "disagrees" {
		t.Errorf("public GeoJSON: gps_distance_km %v, agreement %v; want null and disagrees", p["gps_distance_km"], p["agreement"])
	}
	id := strings.TrimPrefix(p["url"].(string), ts.URL+"/photos/")
	public := map[string]string{}
	for _, u := range []string{"/api/photos.geojson", "/api/photos.csv", "/api/photos.geojsonl", "/ogc/collections/photos/items?limit=100",
		"/ogc/collections/photos/items/" + id, "/api/photos/" + id + ".geojson", "/photos/" + id} {
		_, body := get(t, ts, u)
		public[u] = string(body)
		if strings.Contains(string(body), lat) || strings.Contains(string(body), lon) {
			t.Errorf("%s gives the GPS point", u)
		}
	}
	if !strings.Contains(public["/photos/"+id], "shown to editors only") {
		t.Errorf("the photo page does not say the point is kept for editors")
	}
	if !strings.Contains(public["/api/photos.csv"], ",gps_distance_km,") {
		t.Errorf("the CSV has no gps_distance_km column")
	}
	// An editor sees it and its distance, in a response no cache keeps.
	for _, u := range []string{"/api/photos/" + id + ".geojson", "/photos/" + id} {
		resp, body := get(t, ts, u, "Authorization", "Bearer "+token)
		if !strings.Contains(string(body), lat) || !strings.Contains(resp.Header.Get("Cache-Control"), "no-store") {
			t.Errorf("%s for an editor: point shown %v, Cache-Control %q", u, strings.Contains(string(body), lat), resp.Header.Get("Cache-Control"))
		}
		if !regexp.MustCompile(`"gps_distance_km":9\d|9\d km from Aleppo`).Match(body) {
			t.Errorf("%s for an editor: no distance of about 98 km", u)
		}
	}
	// --public-gps publishes it.
	ts, _ = serveArchive(t, a, Options{PublicGPS: true})
	if p := featureWith(t, ts, "Men walk through rubble in Aleppo"); p["gps_lat"] == nil {
		t.Errorf("with --public-gps the GeoJSON lacks the point")
	}
}
