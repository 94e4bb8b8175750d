package browsertest

import (
	"context"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/photo"
)

// browserSignIn signs name in, in the browser b.
func browserSignIn(t *testing.T, b *browser, base, name string) {
	t.Helper()
	b.run(t, chromedp.Navigate(base+"/signin"), chromedp.SendKeys(`input[name=name]`, name, chromedp.ByQuery),
		chromedp.SendKeys(`input[name=password]`, testPassword, chromedp.ByQuery), chromedp.Submit(`[data-testid=signin]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=review-groups]`, chromedp.ByQuery))
}

// TestBrowserSecondLooks (issue 57): three editors in three browsers.
// rana turns two-person confirmation on and places a photo; in omar's
// browser the second look shows nothing of her answer (the page's
// source), and he finds it cannot be placed; rana's own look is refused;
// lina sees both answers on one map and keeps rana's; the photo page
// says so, and the explorer's verified filter finds it. make screenshots
// keeps the adjudication view.
func TestBrowserSecondLooks(t *testing.T) {
	t.Parallel() // its own server, archive and browser contexts
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	httpapitest.AddEditor(t, e.a, "omar")
	httpapitest.AddEditor(t, e.a, "lina")
	g := e.a.Gazetteer()
	aleppo := g.ByID("gn:170063")
	var quarter string
	for _, p := range g.Places() {
		if p.Kind == "neighbourhood" && p.Parent == aleppo.ID && p.Located {
			quarter = p.ID
			break
		}
	}
	path := filepath.Join(t.TempDir(), "looks.txt")
	os.WriteFile(path, []byte("Smoke rises after an air strike in Aleppo, Syria, May 3, 2016. (Photo by A. Person/Reuters)\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=smoke")
	secret := "the minaret on the left"

	ranaB := newBrowser(t, e.ts, 1440, 900)
	browserSignIn(t, ranaB, e.ts.URL, "rana")
	var flash string
	ranaB.run(t, chromedp.Navigate(e.ts.URL+"/review/second-looks"), chromedp.Click(`[data-testid=two-person-on]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=two-person-off]`, chromedp.ByQuery))
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/photos/"+id+"/placement", `{"place_id":"`+quarter+`","note":"`+secret+`"}`,
		"Authorization", "Bearer "+e.token); res.StatusCode != 200 {
		t.Fatalf("rana's placement: %d %s", res.StatusCode, body)
	}

	omarB := newBrowser(t, e.ts, 1440, 900)
	browserSignIn(t, omarB, e.ts.URL, "omar")
	var source string
	var pins int
	omarB.run(t, chromedp.Navigate(e.ts.URL+"/review/second-looks"), chromedp.Click(`[data-testid=look] a`, chromedp.ByQuery),
		chromedp.WaitVisible(`#review-map.leaflet-container`, chromedp.ByQuery),
		eval(`document.documentElement.outerHTML`, &source),
		eval(`document.querySelectorAll("#review-map path.leaflet-interactive").length`, &pins))
	for _, leak := range []string{quarter, g.ByID(quarter).Name, secret, "rana", aleppo.ID} {
		if strings.Contains(source, leak) {
			t.Errorf("omar's second look shows %q", leak)
		}
	}
	if pins != 0 {
		t.Errorf("omar's map draws %d readings, want none", pins)
	}
	omarB.run(t, chromedp.Click(`[data-testid=unplaceable]`, chromedp.ByQuery), chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=flash]`, &flash, chromedp.ByQuery))
	if !strings.Contains(flash, "differ") {
		t.Errorf("after omar's answer: %q", flash)
	}
	omarB.check(t)

	// rana may not look at her own, nor decide.
	var refusal string
	ranaB.run(t, chromedp.Navigate(e.ts.URL+"/review/second-looks"), chromedp.WaitVisible(`[data-testid=looks-none]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=decide-none]`, chromedp.ByQuery))
	looks, _ := e.a.LookRounds(ctx, "disagreed", "", "", 5)
	if len(looks) != 1 {
		t.Fatalf("%d disagreements", len(looks))
	}
	adjudication := e.ts.URL + "/review/adjudications/" + strconv.FormatInt(looks[0].ID, 10)
	ranaB.run(t, chromedp.Navigate(adjudication), chromedp.WaitVisible(`[data-testid=refusal]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=refusal]`, &refusal, chromedp.ByQuery))
	if !strings.Contains(refusal, "third editor") {
		t.Errorf("rana's adjudication page: %q", refusal)
	}
	ranaB.check(t)

	linaB := newBrowser(t, e.ts, 1440, 900)
	browserSignIn(t, linaB, e.ts.URL, "lina")
	var answers string
	linaB.run(t, chromedp.Navigate(e.ts.URL+"/review/second-looks"), chromedp.Click(`[data-testid=disagreement] a`, chromedp.ByQuery),
		chromedp.WaitVisible(`#review-map.leaflet-container`, chromedp.ByQuery),
		chromedp.Poll(`document.querySelectorAll("#review-map .leaflet-interactive").length >= 1`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`[data-testid=answers]`, &answers, chromedp.ByQuery))
	for _, want := range []string{"rana", "omar", secret, "cannot be placed"} {
		if !strings.Contains(answers, want) {
			t.Errorf("lina's adjudication view lacks %q: %q", want, answers)
		}
	}
	shoot(t, linaB, "adjudication-1440x900.png")
	linaB.run(t, chromedp.Click(`[data-testid=keep-first]`, chromedp.ByQuery), chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=flash]`, &flash, chromedp.ByQuery))
	if !strings.Contains(flash, "verified") {
		t.Errorf("after lina's decision: %q", flash)
	}
	var mark, count string
	linaB.run(t, chromedp.Navigate(e.ts.URL+"/photos/"+id), chromedp.WaitVisible(`[data-testid=verified-mark]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=verified-mark]`, &mark, chromedp.ByQuery))
	if !strings.Contains(mark, "Placed by rana and by omar without seeing each other's answer") || !strings.Contains(mark, "lina decided") {
		t.Errorf("the photo page's mark: %q", mark)
	}
	linaB.check(t)

	// A reader's explorer: the verified filter leaves the one photo.
	readerB := newBrowser(t, e.ts, 1440, 900)
	readerB.run(t, ready(e.ts.URL+"/"), chromedp.SetValue(`[data-testid=verified-filter]`, "1", chromedp.ByQuery),
		eval(`document.querySelector("[data-testid=verified-filter]").dispatchEvent(new Event("change", {bubbles: true}))`, nil),
		chromedp.Poll(`location.search.includes("verified=1")`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		until(`document.querySelector("[data-testid=count]").textContent.startsWith("1 of")`),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery))
	if !strings.HasPrefix(count, "1 of") {
		t.Errorf("verified placements in the explorer: %q", count)
	}
	readerB.check(t)
}

// TestBrowserStaleWrite (issue 57, 4): two editors open one photo's review
// page in two browsers; omar puts it at a point first; rana's confirmation
// of what she was shown is refused with a page that says omar changed it
// and what, in words (issue 68, 8: not the records' "correct"), and what
// her refused change was; her "keep my change" saves hers over his.
func TestBrowserStaleWrite(t *testing.T) {
	t.Parallel() // its own server, archive and browser contexts
	e := newEditorServer(t, httpapi.Options{})
	httpapitest.AddEditor(t, e.a, "omar")
	id := e.photoID(t, "?place=ocha:C2320")
	ranaB, omarB := newBrowser(t, e.ts, 1440, 900), newBrowser(t, e.ts, 1440, 900)
	browserSignIn(t, ranaB, e.ts.URL, "rana")
	browserSignIn(t, omarB, e.ts.URL, "omar")
	page := e.ts.URL + "/review/photos/" + id
	ranaB.run(t, chromedp.Navigate(page), chromedp.WaitVisible(`[data-testid=review-form]`, chromedp.ByQuery))
	omarB.run(t, chromedp.Navigate(page), chromedp.WaitVisible(`[data-testid=review-form]`, chromedp.ByQuery),
		chromedp.SetValue(`[data-testid=lon]`, "36.36", chromedp.ByQuery), chromedp.SetValue(`[data-testid=lat]`, "33.53", chromedp.ByQuery),
		chromedp.Click(`[data-testid=save-point]`, chromedp.ByQuery), chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery))
	omarB.check(t)
	var stale, changes string
	ranaB.run(t, chromedp.Click(`[data-testid=confirm]`, chromedp.ByQuery), chromedp.WaitVisible(`[data-testid=stale]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=stale]`, &stale, chromedp.ByQuery), chromedp.Text(`[data-testid=history]`, &changes, chromedp.ByQuery))
	if !strings.Contains(stale, "omar placed it elsewhere") || !strings.Contains(stale, "Not saved: confirming its place at Zamalka") || !strings.Contains(changes, "omar") {
		t.Errorf("rana's stale confirmation: %q; changes %q", stale, changes)
	}
	if p, _ := e.a.Photo(context.Background(), id); p.ReviewedBy != "omar" || p.Place.Lon != 36.36 {
		t.Fatalf("omar's point was overwritten: %+v", p.Place)
	}
	ranaB.run(t, chromedp.Click(`[data-testid=keep-mine-button]`, chromedp.ByQuery), chromedp.WaitNotPresent(`[data-testid=stale]`, chromedp.ByQuery))
	var p *photo.Photo
	eventually(t, func() bool {
		p, _ = e.a.Photo(context.Background(), id)
		return p != nil && p.ReviewedBy == "rana" && p.Place.ID == "ocha:C2320"
	})
	if p == nil || p.ReviewedBy != "rana" || p.Place.ID != "ocha:C2320" {
		t.Errorf("after keeping hers: %s by %s at %s, want Zamalka, the place she confirmed", p.Review, p.ReviewedBy, p.Place.ID)
	}
	ranaB.check(t)
}

// TestBrowserPublishVerified (issue 57, 3): a site published with
// --verified holds only the placements a second editor confirmed blind,
// and its explorer's verified filter keeps them all.
func TestBrowserPublishVerified(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, _, a := newTestServer(t)
	httpapitest.VerifyPlacements(t, a, photo.Filter{Agencies: []string{"Reuters"}, BBox: &orb.Bound{Min: orb.Point{35, 32}, Max: orb.Point{43, 38}}, Limit: 3})
	dir := t.TempDir()
	r, err := publish.Publish(context.Background(), a, dir, publish.Options{Filter: photo.Filter{Verified: true}})
	if err != nil || r.Photos != 3 {
		t.Fatalf("publish --verified: %+v, %v", r, err)
	}
	static := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(static.Close)
	b := newBrowser(t, static, 1440, 900)
	var all, verified string
	b.run(t, ready(static.URL+"/"), chromedp.Text(`[data-testid=count]`, &all, chromedp.ByQuery),
		chromedp.SetValue(`[data-testid=verified-filter]`, "1", chromedp.ByQuery),
		eval(`document.querySelector("[data-testid=verified-filter]").dispatchEvent(new Event("change", {bubbles: true}))`, nil),
		chromedp.Poll(`location.search.includes("verified=1")`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		until(`document.querySelector("[data-testid=count]").textContent.startsWith("3 of 3")`),
		chromedp.Text(`[data-testid=count]`, &verified, chromedp.ByQuery))
	if !strings.HasPrefix(all, "3 of 3") || !strings.HasPrefix(verified, "3 of 3") {
		t.Errorf("the verified site: %q, filtered %q; want its 3 photos", all, verified)
	}
	b.check(t)
}
