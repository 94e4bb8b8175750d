package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/publish"
)

// TestBrowserSearchOffersWhatWasMeant (issue 68, 3): "Raqqa" offered the
// governorate as a point with the few photos at its centroid, and
// searched the captions literally ("Raqqa" and "الرقة" found different
// photos). Now, live and published, typing Raqqa offers the city first,
// named a city, with its true count (the photos at it and in its
// quarter), then the governorate as its filter with the photos in it;
// the page says the search found the place's other spellings as one
// ("also spelled … Raqqah … الرقة"), and Raqqa, ar-Raqqah, الرقة and
// بالرقة show the same photos.
func TestBrowserSearchOffersWhatWasMeant(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	a, dir := httpapitest.EmptyArchive(t)
	captions := filepath.Join(dir, "raqqa.txt")
	if err := os.WriteFile(captions, []byte("Smoke over Raqqa, Syria, June 6, 2017.\n\n"+
		"Fighters in the Al-Mashlab district of Raqqa, Syria, June 2017.\n\n"+
		"A street in Al-Mansour quarter, Raqqa, Syria.\n\n"+
		"Displaced families in Raqqa governorate, Syria, 2017.\n\n"+
		"A camp in Ain Issa, Raqqa province, Syria.\n\n"+
		"Children in ar-Raqqah, Syria, 2017.\n\n"+
		"دخان فوق الرقة\n\n"+
		"أطفال بالرقة\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ImportFile(context.Background(), captions, "", nil); err != nil {
		t.Fatal(err)
	}
	live, _ := serveArchive(t, a, httpapi.Options{})
	city := apiCount(t, live, "?place=gn:172955&place=ocha:N0469")
	gov := apiCount(t, live, "?governorate=SY11")
	if city < 4 || gov <= city {
		t.Fatalf("the fixture: %d photos at the city of Raqqa and in its quarter, %d in the governorate", city, gov)
	}
	dir = t.TempDir()
	if _, err := publish.Publish(context.Background(), a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	static := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(static.Close)

	for _, site := range []struct {
		name string
		ts   *httptest.Server
	}{{"live", live}, {"published", static}} {
		b := newBrowser(t, site.ts, 1440, 900)
		var kinds, offers []string
		var also, count, field string
		b.run(t, ready(site.ts.URL+"/?q=Raqqa"),
			chromedp.Poll(`document.querySelectorAll("[data-testid=place-offer]").length >= 2 && !!document.querySelector("[data-testid=also-spelled]")`,
				nil, chromedp.WithPollingTimeout(20*time.Second)),
			eval(`[...document.querySelectorAll("[data-testid=place-offer]")].map((b) => b.dataset.kind || "")`, &kinds),
			eval(`[...document.querySelectorAll("[data-testid=place-offer]")].map((b) => b.textContent)`, &offers),
			chromedp.Text(`[data-testid=also-spelled]`, &also, chromedp.ByQuery),
			chromedp.Value(`input[name=q]`, &field, chromedp.ByQuery))
		shoot(t, b, "explorer-place-offered-"+site.name+".png")
		if field != "Raqqa" {
			t.Errorf("%s: the search field reads %q beside the offers for Raqqa", site.name, field)
		}
		if len(kinds) < 2 || kinds[0] != "city" || kinds[1] != "governorate" ||
			!strings.Contains(offers[0], "Raqqa, city: "+strconv.Itoa(city)+" photos") || !strings.Contains(offers[1], "Raqqa, governorate: "+strconv.Itoa(gov)+" photos") {
			t.Errorf("%s: typing Raqqa offers %q (kinds %q); want the city first with %d photos, then the governorate with %d", site.name, offers, kinds, city, gov)
		}
		if !strings.Contains(also, "also spelled") || !strings.Contains(also, "Raqqah") || !strings.Contains(also, "الرقة") {
			t.Errorf("%s: the note %q; want the spellings searched, Raqqah and الرقة among them", site.name, also)
		}
		shown := map[string]int{}
		for _, q := range []string{"Raqqa", "ar-Raqqah", "الرقة", "بالرقة"} {
			b.run(t, ready(site.ts.URL+"/?q="+url.QueryEscape(q)), chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery))
			shown[q] = shownCount(t, count)
		}
		for q, n := range shown {
			if n != shown["Raqqa"] || n < 8 {
				t.Errorf("%s: %q shows %d photos, Raqqa %d; want the same, all 8 captions", site.name, q, n, shown["Raqqa"])
			}
		}
		// Choosing the city: its photos, at it and in its quarter.
		b.run(t, ready(site.ts.URL+"/?q=Raqqa"), chromedp.WaitVisible(`[data-testid=place-offer]`, chromedp.ByQuery),
			press(`[data-testid=place-offer]`), waitText(`[data-testid=count]`, strconv.Itoa(city)+" of"), settled(),
			chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery))
		if n := shownCount(t, count); n != city {
			t.Errorf("%s: the city's offer shows %d photos; want %d", site.name, n, city)
		}
		shoot(t, b, "explorer-place-offers-"+site.name+".png")
		b.check(t)
	}

	// In Arabic on a phone: the same offers, the kinds in Arabic, the note
	// beside them, nothing past the screen's edge, and axe finds nothing
	// serious or critical.
	axe := axeScript(t)
	for _, lang := range []string{"en", "ar"} {
		b := newBrowser(t, live, 375, 812)
		var kinds []string
		var offers, also string
		var wide bool
		b.run(t, ready(live.URL+"/?lang="+lang+"&q="+url.QueryEscape("الرقة")),
			chromedp.Poll(`document.querySelectorAll("[data-testid=place-offer]").length >= 2 && !!document.querySelector("[data-testid=also-spelled]")`,
				nil, chromedp.WithPollingTimeout(20*time.Second)),
			press(`[data-testid=sheet-handle]`), // the filters, on a phone, are in the sheet
			chromedp.WaitVisible(`[data-testid=place-offers]`, chromedp.ByQuery),
			eval(`[...document.querySelectorAll("[data-testid=place-offer]")].map((b) => b.dataset.kind || "")`, &kinds),
			chromedp.Text(`[data-testid=place-offers]`, &offers, chromedp.ByQuery),
			chromedp.Text(`[data-testid=also-spelled]`, &also, chromedp.ByQuery),
			eval(`[...document.querySelectorAll("[data-testid=place-offers] *")].some((e) => { const r = e.getBoundingClientRect(); return r.right > innerWidth + 1 || r.left < -1; })`, &wide))
		city := map[string]string{"en": "city", "ar": "مدينة"}[lang]
		if len(kinds) < 2 || kinds[0] != "city" || !strings.Contains(offers, city) || !strings.Contains(also, "Raqqah") || wide {
			t.Errorf("%s at 375 px: offers %q (kinds %q), note %q, past the edge %v", lang, offers, kinds, also, wide)
		}
		shoot(t, b, "explorer-place-offers-"+lang+"-375.png")
		for _, v := range axeHere(t, b, axe) {
			t.Errorf("%s at 375 px with the offers: %s", lang, v)
		}
		b.check(t)
	}
}
