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

// TestBrowserArabicSaysItInArabic (issue 68, 8): on Arabic pages a
// refused search is said in Arabic beside the field, an event's page
// names its place and sides in Arabic and its id in Arabic digits, and a
// photo's point is written in Arabic digits, its longitude read first
// (at the right).
func TestBrowserArabicSaysItInArabic(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	if _, _, err := e.a.ImportBundledEvents(context.Background()); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)

	// A search the server refuses (a prefix of one letter).
	var refused string
	b.run(t, ready(e.ts.URL+"/?lang=ar"), chromedp.SetValue(`input[name=q]`, "A*", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=q]`, " ", chromedp.ByQuery),
		until(`!!document.querySelector("[data-testid=q-error]")`),
		chromedp.Text(`[data-testid=q-error]`, &refused, chromedp.ByQuery))
	if !strings.Contains(refused, "يحتاج البحث ببداية الكلمة") || strings.Contains(refused, "prefix search") {
		t.Errorf("the Arabic explorer refuses a search with %q", refused)
	}

	// An event's page.
	var facts, title string
	b.run(t, chromedp.Navigate(e.ts.URL+"/events/ucdp-ged/214808?lang=ar"), chromedp.WaitVisible(`[data-testid=event] dl`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=event] dl`, &facts, chromedp.ByQuery), chromedp.Text(`h1`, &title, chromedp.ByQuery))
	for _, want := range []string{"حلب", "الحكومة السورية", "٢١٤٨٠٨"} {
		if !strings.Contains(facts+title, want) {
			t.Errorf("the Arabic event page lacks %q: %q %q", want, title, facts)
		}
	}
	if strings.Contains(facts+title, "Aleppo") || strings.Contains(facts+title, "214808") {
		t.Errorf("the Arabic event page in Latin: %q %q", title, facts)
	}
	arabicPage(t, b, "an event's page")

	// A photo's point: Arabic digits, the longitude at the right.
	id := e.photoID(t, "?place=cur:zamalka")
	var coords string
	var lonRight bool
	b.run(t, chromedp.Navigate(e.ts.URL+"/photos/"+id+"?lang=ar"), chromedp.WaitVisible(`[data-testid=coordinates]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=coordinates]`, &coords, chromedp.ByQuery),
		eval(`(() => {
			const dd = document.querySelector("[data-testid=coordinates]");
			const text = dd.firstChild, at = (i, j) => { const r = document.createRange(); r.setStart(text, i); r.setEnd(text, j); return r.getBoundingClientRect(); };
			const cut = text.textContent.indexOf("،");
			return at(0, cut).left > at(cut + 2, text.textContent.length).left;
		})()`, &lonRight))
	if !strings.HasPrefix(coords, "٣٦٫٣٥") || !lonRight {
		t.Errorf("the Arabic photo page writes its point %q, longitude at the right: %v", coords, lonRight)
	}
	b.check(t)
}

// TestBrowserArabicLooksSayItInArabic (issue 68, 8): omar's blind look,
// in Arabic, says which of the date and the photographer is unknown
// ("Unknown · Unknown / AFP" said neither), and after his answer
// disagrees the agreement page names the governorate in Arabic; both
// read as Arabic pages.
func TestBrowserArabicLooksSayItInArabic(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	httpapitest.AddEditor(t, e.a, "omar")
	path := filepath.Join(t.TempDir(), "looks.txt")
	os.WriteFile(path, []byte("Smoke rises over a market in Aleppo, Syria. AFP PHOTO\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=market")
	rana := []string{"Authorization", "Bearer " + e.token}
	if res, _ := do(t, nil, "POST", e.ts.URL+"/review/second-looks/setting", "two_person=on", append([]string{"Content-Type", "application/x-www-form-urlencoded"}, rana...)...); res.StatusCode >= 400 {
		t.Fatalf("two-person confirmation: %d", res.StatusCode)
	}
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/photos/"+id+"/placement", `{"confirm":true}`, rana...); res.StatusCode != 200 {
		t.Fatalf("rana's confirmation: %d %s", res.StatusCode, body)
	}
	b := newBrowser(t, e.ts, 1440, 900)
	browserSignIn(t, b, e.ts.URL, "omar")
	var meta string
	b.run(t, chromedp.Navigate(e.ts.URL+"/review/second-looks?lang=ar"), chromedp.Click(`[data-testid=look] a`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=look-meta]`, chromedp.ByQuery), settled(),
		chromedp.Text(`[data-testid=look-meta]`, &meta, chromedp.ByQuery))
	if !strings.Contains(meta, "تاريخ غير معروف") || !strings.Contains(meta, "مصوّر غير معروف") || strings.Contains(meta, "Unknown") {
		t.Errorf("the Arabic blind look says %q", meta)
	}
	arabicPage(t, b, "the blind look")
	// omar answers Damascus: the answers disagree, in Aleppo's governorate.
	var govs string
	b.run(t, chromedp.SetValue(`[data-testid=place-search]`, "gn:170654", chromedp.ByQuery),
		eval(`document.querySelector("[data-testid=save-place]").click()`, nil), chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery),
		chromedp.Navigate(e.ts.URL+"/review/agreement?lang=ar"), chromedp.WaitVisible(`[data-testid=by-governorate]`, chromedp.ByQuery), settled(),
		chromedp.Text(`[data-testid=by-governorate]`, &govs, chromedp.ByQuery))
	if !strings.Contains(govs, "حلب") || strings.Contains(govs, "Aleppo") {
		t.Errorf("the Arabic agreement page's governorates: %q", govs)
	}
	arabicPage(t, b, "the agreement page")
	b.check(t)
}
