package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

// TestBrowserNestedAnswersNotVerified (issue 68, 1): rana places a photo
// at a quarter of Aleppo; omar, blind, answers "Aleppo" in his browser.
// The quarter lies within the city's 12 km, but omar never named it: his
// answer is not a check of hers. The round says the answers nest and
// waits for a third editor; the photo's public page does not say the
// quarter was checked by omar; the agreement page counts the look as
// nested, not agreed, and says κ cannot be read from one look.
func TestBrowserNestedAnswersNotVerified(t *testing.T) {
	t.Parallel() // its own server, archive and browser contexts
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	httpapitest.AddEditor(t, e.a, "omar")
	g := e.a.Gazetteer()
	aleppo := g.ByID("gn:170063")
	var quarter string
	for _, p := range g.Places() {
		if p.Kind == "neighbourhood" && p.Parent == aleppo.ID && p.Located {
			quarter = p.ID
			break
		}
	}
	path := filepath.Join(t.TempDir(), "nested.txt")
	os.WriteFile(path, []byte("Residents inspect damage in Aleppo, Syria, May 3, 2016. (Photo by A. Person/Reuters)\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=residents")

	ranaB := newBrowser(t, e.ts, 1440, 900)
	browserSignIn(t, ranaB, e.ts.URL, "rana")
	ranaB.run(t, chromedp.Navigate(e.ts.URL+"/review/second-looks"), chromedp.Click(`[data-testid=two-person-on]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=two-person-off]`, chromedp.ByQuery))
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/photos/"+id+"/placement", `{"place_id":"`+quarter+`"}`,
		"Authorization", "Bearer "+e.token); res.StatusCode != 200 {
		t.Fatalf("rana's placement: %d %s", res.StatusCode, body)
	}

	omarB := newBrowser(t, e.ts, 1440, 900)
	browserSignIn(t, omarB, e.ts.URL, "omar")
	var flash string
	omarB.run(t, chromedp.Navigate(e.ts.URL+"/review/second-looks"), chromedp.Click(`[data-testid=look] a`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=place-search]`, chromedp.ByQuery),
		chromedp.SetValue(`[data-testid=place-search]`, aleppo.ID, chromedp.ByQuery),
		eval(`document.querySelector("[data-testid=save-place]").click()`, nil), chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=flash]`, &flash, chromedp.ByQuery))
	if strings.Contains(flash, "agree") || !strings.Contains(flash, "not verified") || !strings.Contains(flash, "third editor") {
		t.Errorf("after omar answers the city of rana's quarter: %q; want the answers nest and a third editor decides", flash)
	}

	// A reader's page of the photo says nothing was checked.
	readerB := newBrowser(t, e.ts, 1440, 900)
	var page string
	readerB.run(t, chromedp.Navigate(e.ts.URL+"/photos/"+id), chromedp.WaitVisible(`[data-testid=place]`, chromedp.ByQuery),
		eval(`document.querySelector("main").innerText`, &page))
	if strings.Contains(page, "checked by omar") || strings.Contains(page, "Verified") {
		t.Errorf("the public page of a quarter omar never named: %q", page)
	}
	readerB.check(t)

	// The agreement page: one look, nested, not agreed; κ and α cannot be read.
	var agreed, nested, kappa, alpha string
	omarB.run(t, chromedp.Navigate(e.ts.URL+"/review/agreement"), chromedp.WaitVisible(`[data-testid=agreement-team]`, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=agreement-team] td")[3].innerText`, &nested),
		eval(`document.querySelectorAll("[data-testid=agreement-team] td")[5].innerText`, &agreed),
		chromedp.Text(`[data-testid=agreement-team] [data-testid=kappa]`, &kappa, chromedp.ByQuery),
		chromedp.Text(`[data-testid=alpha]`, &alpha, chromedp.ByQuery))
	if !strings.Contains(kappa, "cannot be read") || !strings.Contains(alpha, "cannot be read") {
		t.Errorf("κ from one look: %q, α: %q; want each 'cannot be read: …'", kappa, alpha)
	}
	if !strings.HasPrefix(nested, "1 ") || !strings.HasPrefix(agreed, "0 ") {
		t.Errorf("the team's row: nested %q, agreed %q; want the one look nested and none agreed", nested, agreed)
	}
	omarB.check(t)
}
