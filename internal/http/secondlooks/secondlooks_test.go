package secondlooks_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

// TestSecondLooks walks two-person confirmation over HTTP (issue 57, 1
// and 3): the second editor's page and API hold nothing of the first
// answer; nobody confirms, second-checks or adjudicates their own
// placement; a third editor's decision verifies the photo; verified=1
// then selects it in the API, the CSV, OGC and the explorer, and its page
// says who placed and who checked it.
func TestSecondLooks(t *testing.T) {
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	g := e.a.Gazetteer()
	aleppo := g.ByID("gn:170063")
	var quarter string
	for _, p := range g.Places() {
		if p.Kind == "neighbourhood" && p.Parent == aleppo.ID && p.Located {
			quarter = p.ID
			break
		}
	}
	q := g.ByID(quarter)
	path := filepath.Join(t.TempDir(), "looks.txt")
	os.WriteFile(path, []byte("Smoke rises after an air strike in Aleppo, Syria, May 3, 2016. (Photo by A. Person/Reuters)\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=smoke")
	as := func(token string) []string { return []string{"Authorization", "Bearer " + token} }
	rana, omar, lina := as(e.token), as(tokenOf(t, e.a, "omar")), as(tokenOf(t, e.a, "lina"))
	form := func(h []string) []string {
		return append([]string{"Content-Type", "application/x-www-form-urlencoded"}, h...)
	}

	if res, _ := do(t, nil, "POST", e.ts.URL+"/review/second-looks/setting", "two_person=on", form(rana)...); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("turning two-person confirmation on: %d", res.StatusCode)
	}
	// rana places it in a quarter of the city, with a note.
	secret := "SECRET-NOTE-the-minaret-on-the-left"
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/photos/"+id+"/placement", `{"place_id":"`+quarter+`","note":"`+secret+`"}`, rana...); res.StatusCode != 200 {
		t.Fatalf("rana's placement: %d %s", res.StatusCode, body)
	}
	// omar's queue and look: nothing of rana's answer, in the page's
	// source or the API.
	res, body := do(t, nil, "GET", e.ts.URL+"/api/second-looks", "", omar...)
	var queue struct {
		Looks []struct {
			ID int64 `json:"id"`
		} `json:"second_looks"`
	}
	if err := json.Unmarshal([]byte(body), &queue); err != nil || res.StatusCode != 200 || len(queue.Looks) != 1 {
		t.Fatalf("omar's queue: %d %s", res.StatusCode, body)
	}
	f := looksFlow{e: e, id: id, look: strconv.FormatInt(queue.Looks[0].ID, 10), quarter: quarter, secret: secret, rana: rana, omar: omar, lina: lina}
	f.blind(t, body, []string{quarter, q.Name, strconv.FormatFloat(q.Point.Lon(), 'f', 6, 64), secret, "rana", aleppo.ID})
	f.refused(t)
	f.decided(t)
	f.readersSee(t)
	f.recorded(t)
}

// looksFlow is TestSecondLooks' photo and editors, its steps in order.
type looksFlow struct {
	e                         *editorServer
	id, look, quarter, secret string
	rana, omar, lina          []string
}

// blind: omar's queue (body), page and look hold nothing of leaks.
func (f looksFlow) blind(t *testing.T, body string, leaks []string) {
	e, look, omar := f.e, f.look, f.omar
	_, page := do(t, nil, "GET", e.ts.URL+"/review/second-looks/"+look, "", omar...)
	_, one := do(t, nil, "GET", e.ts.URL+"/api/second-looks/"+look, "", omar...)
	for what, text := range map[string]string{"queue": body, "page": page, "look": one} {
		for _, leak := range leaks {
			if strings.Contains(text, leak) {
				t.Errorf("omar's %s shows %q of the first answer (or the geocoder's reading)", what, leak)
			}
		}
	}
	if !strings.Contains(page, `data-testid="review-form"`) || !strings.Contains(page, "Smoke rises") {
		t.Errorf("omar's page has no form or no caption")
	}
}

// refused: rana's own look, and her confirmation, are refused.
func (f looksFlow) refused(t *testing.T) {
	e, look, rana, id, quarter := f.e, f.look, f.rana, f.id, f.quarter
	// rana's own: refused, each way.
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/second-looks/"+look, `{"place_id":"`+quarter+`"}`, rana...); res.StatusCode != http.StatusForbidden ||
		!strings.Contains(body, "another editor") {
		t.Errorf("rana's second look at her own placement: %d %s", res.StatusCode, body)
	}
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/photos/"+id+"/placement", `{"confirm":true}`, rana...); res.StatusCode != http.StatusForbidden ||
		!strings.Contains(body, "you placed photo") {
		t.Errorf("rana confirming her own placement: %d %s", res.StatusCode, body)
	}
	if _, page := do(t, nil, "GET", e.ts.URL+"/review/second-looks/"+look, "", rana...); strings.Contains(page, `data-testid="review-form"`) ||
		!strings.Contains(page, "You placed this photo") {
		t.Errorf("rana's look at her own placement offers the form, or says nothing")
	}
}

// decided: omar finds it unplaceable, neither decides, lina does.
func (f looksFlow) decided(t *testing.T) {
	e, look, rana, omar, lina, quarter, secret := f.e, f.look, f.rana, f.omar, f.lina, f.quarter, f.secret
	// omar finds it unplaceable: they disagree.
	res, body := do(t, nil, "PUT", e.ts.URL+"/api/second-looks/"+look, `{"unplaceable":true,"note":"the caption names the city only"}`, omar...)
	var rd struct {
		State string
		First struct {
			PlaceID string `json:"place_id"`
		}
	}
	if err := json.Unmarshal([]byte(body), &rd); err != nil || res.StatusCode != 200 || rd.State != "disagreed" || rd.First.PlaceID != quarter {
		t.Fatalf("omar's answer: %d %s", res.StatusCode, body)
	}
	if _, body := get(t, e.ts, "/api/photos.geojson?verified=1"); len(httpapitest.Features(t, body).Features) != 0 {
		t.Error("a photo two editors disagree on is verified")
	}
	// Neither decides; lina sees both answers and names, and does.
	for name, who := range map[string][]string{"rana": rana, "omar": omar} {
		if res, body := do(t, nil, "PUT", e.ts.URL+"/api/second-looks/"+look+"/decision", `{"choice":"first"}`, who...); res.StatusCode != http.StatusForbidden ||
			!strings.Contains(body, "third editor") {
			t.Errorf("%s deciding her own disagreement: %d %s", name, res.StatusCode, body)
		}
	}
	_, page := do(t, nil, "GET", e.ts.URL+"/review/adjudications/"+look, "", lina...)
	for _, want := range []string{"rana", "omar", secret, "the caption names the city only", `data-testid="keep-first"`, "choice-point"} {
		if !strings.Contains(page, want) {
			t.Errorf("the adjudication page lacks %q", want)
		}
	}
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/second-looks/"+look+"/decision", `{"choice":"first","note":"the minaret is there"}`, lina...); res.StatusCode != 200 ||
		!strings.Contains(body, `"state":"adjudicated"`) {
		t.Fatalf("lina's decision: %d %s", res.StatusCode, body)
	}
}

// readersSee: verified=1 everywhere a reader decides, and the mark.
func (f looksFlow) readersSee(t *testing.T) {
	e, id := f.e, f.id
	// verified=1 everywhere a reader decides.
	for _, u := range []string{"/api/photos.geojson?verified=1", "/ogc/collections/photos/items?verified=1"} {
		if _, body := get(t, e.ts, u); len(httpapitest.Features(t, body).Features) != 1 || !strings.Contains(string(body), `"verified":true`) {
			t.Errorf("%s: want the one verified photo: %.300s", u, body)
		}
	}
	// The photo's own Feature says it as the lists do.
	if _, body := get(t, e.ts, "/api/photos/"+id+".geojson"); !strings.Contains(string(body), `"verified":true`) {
		t.Errorf("the photo's GeoJSON does not say it is verified: %.300s", body)
	}
	if _, body := get(t, e.ts, "/api/photos.csv?verified=1"); strings.Count(strings.TrimSpace(string(body)), "\n") != 1 || !strings.Contains(string(body), ",true\n") {
		t.Errorf("the CSV of verified photos: %s", body)
	}
	if res, body := get(t, e.ts, "/api/photos.geojson?verified=maybe"); res.StatusCode != 400 || !strings.Contains(string(body), "verified") {
		t.Errorf("verified=maybe: %d %s", res.StatusCode, body)
	}
	if _, page := get(t, e.ts, "/?verified=1"); !strings.Contains(string(page), `data-testid="verified-filter"`) {
		t.Error("the explorer has no verified filter")
	}
	_, photoPage := get(t, e.ts, "/photos/"+id)
	page := string(photoPage)
	if !strings.Contains(page, "Placed by rana and by omar without seeing each other") || !strings.Contains(page, "lina decided") {
		t.Errorf("the photo page does not say who placed and checked it")
	}
}

// recorded: the bag, the agreement page and its CSV.
func (f looksFlow) recorded(t *testing.T) {
	e, id, quarter, lina := f.e, f.id, f.quarter, f.lina
	// The bag carries both answers, how they compared and the decision.
	var rec struct {
		Verification struct {
			First, Second, Decision struct{ By, Decision, Place_ID, Note, Choice string }
			Judgement               map[string]any
		}
	}
	if b := bagRecord(t, e.a, id); json.Unmarshal(b, &rec) != nil || rec.Verification.First.By != "rana" || rec.Verification.First.Place_ID != quarter ||
		rec.Verification.Second.Decision != "unplaceable" || rec.Verification.Decision.By != "lina" || rec.Verification.Decision.Choice != "first" ||
		rec.Verification.Judgement["agreed"] != false {
		t.Errorf("the bag's record of the verification: %s", b)
	}
	// The agreement page and its CSV count the look.
	res, page := do(t, nil, "GET", e.ts.URL+"/review/agreement", "", lina...)
	if res.StatusCode != 200 || !strings.Contains(page, "omar · rana") {
		t.Errorf("the agreement page: %d", res.StatusCode)
	}
	if _, csv := do(t, nil, "GET", e.ts.URL+"/review/agreement.csv?of=looks", "", lina...); strings.Count(csv, "\n") != 2 || !strings.Contains(csv, "unplaceable") {
		t.Errorf("the looks' CSV: %s", csv)
	}
	if res, _ := get(t, e.ts, "/review/agreement"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a reader's agreement page: %d, want 401", res.StatusCode)
	}
	if res, _ := do(t, nil, "GET", e.ts.URL+"/review/agreement?from=soon", "", lina...); res.StatusCode != 400 {
		t.Errorf("a bad window: %d, want 400", res.StatusCode)
	}
}
