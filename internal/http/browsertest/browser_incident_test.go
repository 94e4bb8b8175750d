package browsertest

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserConfirmIncident (issue 69, 3): on a photo's page, GED's two
// rows of one incident (Aleppo, 24 April 2016, one SOHR headline) are one
// candidate, and its one "It documents this" links both.
func TestBrowserConfirmIncident(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e, id := withEvents(t, "Smoke rises after barrel bombs hit Aleppo, Syria April 24, 2016. REUTERS/Abdalrhman Ismail", "barrel")
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
