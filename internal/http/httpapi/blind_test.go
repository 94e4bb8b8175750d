package httpapi

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// TestBlindEverywhere (issue 65, 5): while rana's placement waits for its
// second look, every route a reader or an editor can reach — walked from
// the router itself, with the queries that select by place, point or
// window added — answers omar (the second editor) and a signed-out
// reader with none of her answer: not its place's id or name, not its
// point, not her note. Each string is looked for only where the same
// route did not already hold it before her answer (a gazetteer place's
// name is in the labels whoever placed what). rana herself sees her
// answer; once omar's look agrees, readers see the placement as usual.
func TestBlindEverywhere(t *testing.T) {
	e := newEditorServer(t, Options{Uploads: t.TempDir()})
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "blind.txt")
	os.WriteFile(path, []byte("Smoke rises after an air strike in Aleppo, Syria, May 3, 2016. (Photo by A. Person/Reuters)\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	as := func(token string) []string { return []string{"Authorization", "Bearer " + token} }
	f := &blindFlow{e: e, id: e.photoID(t, "?q=smoke"), village: blindVillage(t, e.a.Gazetteer()), note: "NOTE-blind-7f3c-the-minaret-left-of-the-silo",
		rana: as(e.token), omar: as(tokenOf(t, e.a, "omar")), leaked: map[string]bool{}}
	f.viewers = map[string][]string{"omar": f.omar, "lina": as(tokenOf(t, e.a, "lina")), "a reader": nil}
	lon, lat := f.village.Point.Lon(), f.village.Point.Lat()
	f.leaks = []string{f.village.ID, url.QueryEscape(f.village.ID), f.village.Name, f.note, trunc4(lon), trunc4(lat),
		strconv.FormatFloat(lon, 'f', 4, 64), strconv.FormatFloat(lat, 'f', 4, 64)}
	before := f.placed(t)
	f.walk(t, before)
	f.selects(t)
	if bag := blindBag(t, e, f.id, f.omar); !strings.Contains(bag, "Left-Out-Waiting-For-A-Second-Look: "+f.id) || strings.Contains(bag, f.note) ||
		strings.Contains(bag, f.village.ID) {
		f.leaked["/evidence.zip"] = true
		t.Errorf("omar's evidence bag of the photo holds rana's waiting answer (or nothing: %d bytes)", len(bag))
	}
	t.Logf("routes that leaked: %q", slices.Sorted(maps.Keys(f.leaked)))
	f.decided(t)
}

// blindFlow is TestBlindEverywhere's photo, answer and viewers, its steps
// in order.
type blindFlow struct {
	e              *editorServer
	id, note, look string
	village        *gazetteer.Place
	leaks, paths   []string
	rana, omar     []string
	viewers        map[string][]string
	leaked         map[string]bool // the routes that showed the answer
}

// placed: a second look is asked, every route read as each viewer, then
// rana places the photo; it returns the bodies read before.
func (f *blindFlow) placed(t *testing.T) map[string]string {
	e, id := f.e, f.id
	if res, body := do(t, nil, "POST", e.ts.URL+"/api/photos/"+id+"/second-look", "", f.rana...); res.StatusCode != 200 {
		t.Fatalf("asking a second look: %d %s", res.StatusCode, body)
	}
	before := map[string]string{}
	for who, h := range f.viewers {
		for _, p := range blindPaths(t, e, id, f.village, "1") {
			before[who+" "+p] = blindBody(t, e, p, h)
		}
	}
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/photos/"+id+"/placement", `{"place_id":"`+f.village.ID+`","note":"`+f.note+`"}`, f.rana...); res.StatusCode != 200 {
		t.Fatalf("rana's placement: %d %s", res.StatusCode, body)
	}
	var queue struct {
		Looks []struct {
			ID int64 `json:"id"`
		} `json:"second_looks"`
	}
	if _, body := do(t, nil, "GET", e.ts.URL+"/api/second-looks", "", f.omar...); json.Unmarshal([]byte(body), &queue) != nil || len(queue.Looks) != 1 {
		t.Fatalf("omar's queue: %s", body)
	}
	f.look = strconv.FormatInt(queue.Looks[0].ID, 10)
	f.paths = blindPaths(t, e, id, f.village, f.look)
	return before
}

// walk: no route shows any viewer a string of the answer it did not hold
// before.
func (f *blindFlow) walk(t *testing.T, before map[string]string) {
	already := 0 // strings a route held before the answer, not looked for there
	for who, h := range f.viewers {
		for _, p := range f.paths {
			body := blindBody(t, f.e, p, h)
			for _, leak := range f.leaks {
				was := strings.Contains(before[who+" "+p], leak)
				if was {
					already++ // the place's own page, the gazetteer's labels, a filter said back
				}
				if !was && strings.Contains(body, leak) {
					f.leaked[strings.SplitN(p, "?", 2)[0]] = true
					t.Errorf("%s's %s shows %q of rana's waiting answer", who, p, leak)
				}
			}
		}
	}
	t.Logf("%d routes walked as %d viewers; %d strings already there before the answer", len(f.paths), len(f.viewers), already)
}

// selects: what selects by the answer's place or point finds no photo.
func (f *blindFlow) selects(t *testing.T) {
	for who, h := range f.viewers {
		for _, p := range f.paths {
			selects := strings.Contains(p, "place=") || strings.Contains(p, "bbox=") || strings.HasPrefix(p, "/places/"+f.village.ID) ||
				strings.HasPrefix(p, "/ogc/") && strings.Contains(p, "place_id=") // (the API's own name of it is place)
			if !selects {
				continue
			}
			if body := blindBody(t, f.e, p, h); strings.Contains(body, f.id) || strings.Contains(body, "Smoke rises") {
				f.leaked[strings.SplitN(p, "?", 2)[0]] = true
				t.Errorf("%s's %s finds the photo by rana's waiting answer", who, p)
			}
		}
	}
}

// decided: the page says the placement waits; rana sees hers; once omar
// agrees, a reader sees it.
func (f *blindFlow) decided(t *testing.T) {
	e, id := f.e, f.id
	if body := blindBody(t, e, "/photos/"+id, nil); !strings.Contains(body, "It waits for a second editor") || !strings.Contains(body, "Smoke rises") {
		t.Errorf("a reader's photo page does not say its placement waits for a second look")
	}
	if _, body := do(t, nil, "GET", e.ts.URL+"/api/photos/"+id+".geojson", "", f.rana...); !strings.Contains(body, f.village.ID) {
		t.Errorf("rana's own photo does not show her placement: %.300s", body)
	}
	// omar's review page sends him to the second looks, with no form
	// that would place the photo (and end the look) instead; rana's keeps
	// hers.
	if body := blindBody(t, e, "/review/photos/"+id, f.omar); !strings.Contains(body, `data-testid="awaits-look"`) || strings.Contains(body, `data-testid="review-form"`) {
		t.Errorf("omar's review page of a photo waiting for his look offers its forms, or does not send him to the second looks")
	}
	if body := blindBody(t, e, "/review/photos/"+id, f.rana); strings.Contains(body, `data-testid="awaits-look"`) || !strings.Contains(body, `data-testid="review-form"`) {
		t.Errorf("rana's review page of her own waiting placement lost its form")
	}
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/second-looks/"+f.look, `{"place_id":"`+f.village.ID+`"}`, f.omar...); res.StatusCode != 200 || !strings.Contains(body, `"state":"agreed"`) {
		t.Fatalf("omar's answer: %d %s", res.StatusCode, body)
	}
	for _, p := range []string{"/api/photos/" + id + ".geojson", "/photos/" + id, "/api/photos.csv?q=smoke"} {
		if body := blindBody(t, e, p, nil); !strings.Contains(body, f.village.Name) && !strings.Contains(body, f.village.ID) {
			t.Errorf("a reader's %s after the look agreed does not show the placement: %.400s", p, body)
		}
	}
}

// blindVillage is a located village of the gazetteer far from Aleppo, its
// name distinctive enough to look for.
func blindVillage(t *testing.T, g *gazetteer.Gazetteer) *gazetteer.Place {
	t.Helper()
	for _, p := range g.Places() {
		if p.Kind == "village" && p.Located && len(p.Name) >= 9 && !strings.ContainsAny(p.Name, " '-’") && p.Point.Lon() > 39.5 {
			return g.ByID(p.ID)
		}
	}
	t.Fatal("no village in the east")
	return nil
}

// trunc4 is v to four decimals, cut rather than rounded: what any writing
// of the number with four or more decimals begins with.
func trunc4(v float64) string {
	return strconv.FormatFloat(math.Trunc(v*1e4)/1e4, 'f', 4, 64)
}

// blindPaths are every GET route of the router with sample values, and
// the queries that select the photo by its place, point or words.
func blindPaths(t *testing.T, e *editorServer, id string, village *gazetteer.Place, look string) []string {
	t.Helper()
	lon, lat := village.Point.Lon(), village.Point.Lat()
	z := 9
	n := math.Exp2(float64(z))
	x := int((lon + 180) / 360 * n)
	y := int((1 - math.Log(math.Tan(lat*math.Pi/180)+1/math.Cos(lat*math.Pi/180))/math.Pi) / 2 * n)
	sample := map[string]string{"id": id, "collection": "photos", "z": strconv.Itoa(z), "x": strconv.Itoa(x), "y": strconv.Itoa(y),
		"file": "app.js", "path": "2016/kafranbel.png", "sha": strings.Repeat("0", 64), "slug": "a-story", "dataset": "ucdp-ged", "event": "1",
		"look": look}
	var out []string
	for _, r := range routesOf(t, e.s, sample) {
		if slices.Contains(r.methods, http.MethodGet) {
			out = append(out, r.path)
		}
	}
	bbox := fmt.Sprintf("%f,%f,%f,%f", lon-0.05, lat-0.05, lon+0.05, lat+0.05)
	place := url.QueryEscape(village.ID)
	for _, q := range []string{"?q=smoke", "?bbox=" + bbox, "?place=" + place, "?place_id=" + place, "?verified=0", "?unplaced=1", "?limit=1000"} {
		for _, p := range []string{"/api/photos.geojson", "/api/photos.geojsonl", "/api/photos.csv", "/api/points.json", "/api/clusters",
			"/api/facets", "/api/timeline", "/api/places.geojson", "/", "/review", "/ogc/collections/photos/items"} {
			out = append(out, p+q)
		}
	}
	return append(out, "/places/"+place, "/places/"+village.ID, "/api/places/search?q="+url.QueryEscape(village.Name)+"&with_photos=true",
		"/review/photos/"+id+"?group=aleppo", "/review/log", "/api/photos/"+id+"/history", "/ogc/collections/photos/items/"+id,
		"/api/photos.geojson?id="+id, "/api/clusters?zoom=12&bbox="+bbox, "/api/labels?zoom=12&bbox="+bbox)
}

// blindBody is the body of GET p with the headers h, any status.
func blindBody(t *testing.T, e *editorServer, p string, h []string) string {
	t.Helper()
	_, body := do(t, nil, "GET", e.ts.URL+p, "", h...)
	return body
}

// blindBag is the text of every file of the evidence bag of photo id
// that the editor of h asks for.
func blindBag(t *testing.T, e *editorServer, id string, h []string) string {
	t.Helper()
	res, body := do(t, nil, "POST", e.ts.URL+"/evidence.zip", url.Values{"id": {id}}.Encode(),
		append([]string{"Content-Type", "application/x-www-form-urlencoded"}, h...)...)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the evidence bag: %s %.300s", res.Status, body)
	}
	zr, err := zip.NewReader(strings.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		all.WriteString(f.Name + "\n")
		all.Write(b)
	}
	return all.String()
}
