package browsertest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// linksWithoutAr lists the page's links to the site that do not say
// lang=ar (the header's switch aside).
const linksWithoutAr = `[...document.querySelectorAll("a[href^='/']")].map((a) => new URL(a.href)).filter((u) => u.searchParams.get("lang") !== "ar" && !u.searchParams.has("chosen")).map((u) => u.pathname + u.search)`

// TestBrowserOneLanguagePerAddress (issue 68, item 7): a page opened at
// ?lang=ar is Arabic, and the plain address opened after it is English
// (the language stuck to a cookie, so one link read differently to
// different readers); the links an Arabic page holds, and "Cite this
// view", say lang=ar; the header's language switch is remembered for
// plain addresses, and the address it lands on says the language.
func TestBrowserOneLanguagePerAddress(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1440, 900)
	lang := func(what, want string) {
		t.Helper()
		var got string
		b.run(t, until(`document.readyState === "complete" && document.documentElement.lang === "`+want+`"`),
			eval(`document.documentElement.lang`, &got))
		if got != want {
			t.Errorf("%s: <html lang=%q>, want %q", what, got, want)
		}
	}
	// An Arabic link's page, and the links on it.
	b.run(t, chromedp.Navigate(ts.URL+"/about?lang=ar"), chromedp.WaitReady(`[data-testid=lang-switch]`, chromedp.ByQuery))
	lang("/about?lang=ar", "ar")
	var plain []string
	b.run(t, eval(linksWithoutAr, &plain))
	for _, p := range plain {
		t.Errorf("a link on an Arabic page does not say lang=ar: %s", p)
	}
	// The plain address after it: English, whatever was visited before.
	b.run(t, chromedp.Navigate(ts.URL+"/about"), chromedp.WaitReady(`[data-testid=lang-switch]`, chromedp.ByQuery))
	lang("/about after /about?lang=ar", "en")

	// The explorer in Arabic: the links its scripts build (the list's
	// rows, the downloads), its address and its citation say lang=ar.
	var search, citation string
	var rows int
	b.run(t, ready(ts.URL+"/?lang=ar"), until(`document.querySelectorAll("[data-testid=caption]").length > 0`),
		eval(`document.querySelectorAll("[data-testid=caption]").length`, &rows), eval(linksWithoutAr, &plain))
	if rows == 0 {
		t.Error("the Arabic explorer lists no photo")
	}
	for _, p := range plain {
		t.Errorf("a link on the Arabic explorer does not say lang=ar: %s", p)
	}
	b.run(t, press(`[data-testid=cite]`),
		chromedp.WaitVisible(`[data-testid=citation]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=citation]`, &citation, chromedp.ByQuery), eval(`location.search`, &search))
	if !strings.Contains(citation, "lang=ar") || !strings.Contains(search, "lang=ar") {
		t.Errorf("the Arabic explorer's address %q, its citation %q: no lang=ar", search, citation)
	}

	// The switch: chosen, remembered, and said in the address.
	b.run(t, chromedp.Navigate(ts.URL+"/about"), chromedp.WaitReady(`[data-testid=lang-switch]`, chromedp.ByQuery),
		press(`[data-testid=lang-switch]`))
	lang("the switch to Arabic", "ar")
	b.run(t, eval(`location.search`, &search))
	if search != "?lang=ar" {
		t.Errorf("after the switch the address says %q, want ?lang=ar", search)
	}
	b.run(t, chromedp.Navigate(ts.URL+"/about"), chromedp.WaitReady(`[data-testid=lang-switch]`, chromedp.ByQuery))
	lang("/about after choosing Arabic", "ar")
	b.run(t, chromedp.Navigate(ts.URL+"/about?lang=en"), chromedp.WaitReady(`[data-testid=lang-switch]`, chromedp.ByQuery))
	lang("/about?lang=en after choosing Arabic", "en")
	b.check(t)
}
