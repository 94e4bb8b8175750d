package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/httpapi"
)

// TestBrowserConfirmIncident (issue 69, 3): on a photo's page, GED's two
// rows of one incident (Aleppo, 24 April 2016, one SOHR headline) are one
// candidate, and its one "It documents this" links both.
func TestBrowserConfirmIncident(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	if _, _, err := e.a.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "aleppo.txt")
	os.WriteFile(path, []byte("Smoke rises after barrel bombs hit Aleppo, Syria April 24, 2016. REUTERS/Abdalrhman Ismail\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=barrel")
	b := newBrowser(t, e.ts, 1440, 900)
	var candidates, links int
	b.run(t, chromedp.Navigate(e.ts.URL+"/signin"), chromedp.SendKeys(`input[name=name]`, "rana", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=password]`, testPassword, chromedp.ByQuery), chromedp.Submit(`[data-testid=signin]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=review-groups]`, chromedp.ByQuery),
		chromedp.Navigate(e.ts.URL+"/photos/"+id), chromedp.WaitVisible(`[data-testid=event-candidates]`, chromedp.ByQuery),
		eval(`document.querySelectorAll('[data-testid=event-candidate] [data-testid="event-confirmed-219180"], [data-testid=event-candidate] [data-testid="event-confirmed-219182"]').length`, &candidates),
		chromedp.Click(`[data-testid="event-confirmed-219182"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=event-links]`, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=event-link]").length`, &links))
	if candidates != 1 {
		t.Errorf("the incident's rows are %d candidates' buttons, want one", candidates)
	}
	if links != 2 {
		t.Errorf("after confirming the incident, %d links on the page, want its 2 rows", links)
	}
	b.check(t)
}
