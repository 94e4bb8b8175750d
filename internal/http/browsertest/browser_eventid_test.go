package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/httpapi"
)

// TestBrowserLinkEventByID (issue 69, 5): on a photo's page an editor
// types a malformed id into "Link an event by its id" and is refused
// beside the field, what they typed kept, without leaving the page; types
// "GED <id>", the form the label shows, and the event is linked, the
// page's status (a live region) says so and the custody table's new row names the event; then,
// in Arabic, undoes it and is told so, and is refused in Arabic.
func TestBrowserLinkEventByID(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	if _, _, err := e.a.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "aleppo.txt")
	if err := os.WriteFile(path, []byte("Rebel fighters fire a mortar during clashes in Aleppo, Syria January 1, 2016. REUTERS/Abdalrhman Ismail\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	page := e.ts.URL + "/photos/" + e.photoID(t, "?q=mortar")
	b := newBrowser(t, e.ts, 1280, 900)
	b.run(t, chromedp.Navigate(e.ts.URL+"/signin"), chromedp.SendKeys(`input[name=name]`, "rana", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=password]`, testPassword, chromedp.ByQuery), chromedp.Submit(`[data-testid=signin]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=review-groups]`, chromedp.ByQuery))
	bidi := strings.NewReplacer("\u2068", "", "\u2069", "")
	lastCustody := `[...document.querySelectorAll("[data-testid=custody-record]")].pop().textContent`
	typeAndLink := func(typed string) chromedp.Action {
		return chromedp.Tasks{eval(`document.querySelector("[data-testid=event-id]").value = ""`, nil),
			chromedp.SendKeys(`[data-testid=event-id]`, typed, chromedp.ByQuery), chromedp.Click(`[data-testid=event-link-by-id]`, chromedp.ByQuery)}
	}

	var refused, kept, status, custody string
	var stayed bool
	var links int
	b.run(t, chromedp.Navigate(page), chromedp.WaitVisible(`[data-testid=event-id]`, chromedp.ByQuery), settled(), eval(`window.__stay = true`, nil),
		typeAndLink("GED 24393x"),
		until(`!!document.querySelector("[data-testid=event-id-error]")`),
		chromedp.Text(`[data-testid=event-id-error]`, &refused, chromedp.ByQuery),
		eval(`document.querySelector("[data-testid=event-id]").value`, &kept),
		eval(`window.__stay === true && document.activeElement === document.querySelector("[data-testid=event-id]")`, &stayed))
	if !strings.Contains(refused, `"GED 24393x" is not an event's id`) || kept != "GED 24393x" || !stayed {
		t.Errorf("a malformed id: refused %q, the field holds %q, on the page with the field focused: %v", refused, kept, stayed)
	}

	b.run(t, typeAndLink("GED 214797"),
		until(`document.querySelector("[data-testid=event-status]").textContent.includes("214797")`),
		chromedp.Text(`[data-testid=event-status]`, &status, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=event-link]").length`, &links),
		eval(lastCustody, &custody),
		eval(`!document.querySelector("[data-testid=event-id-error]") && document.querySelector("[data-testid=event-status]").getAttribute("role") === "status"`, &stayed))
	if !strings.Contains(status, "Linked GED 214797 to this photo as documenting it") || links != 1 || !stayed {
		t.Errorf("GED 214797 typed: status %q, %d links, the refusal gone and the status a live region: %v", status, links, stayed)
	}
	if !strings.Contains(custody, "Linked as documenting GED event 214797 (version 19.1)") {
		t.Errorf("the custody table's new row: %q", custody)
	}

	b.run(t, chromedp.Navigate(page+"?lang=ar"), chromedp.WaitVisible(`[data-testid=event-links]`, chromedp.ByQuery), settled(),
		press(`[data-testid="event--214797"]`),
		until(`document.querySelector("[data-testid=event-status]").textContent.includes("أُلغي")`),
		chromedp.Text(`[data-testid=event-status]`, &status, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=event-link]").length`, &links),
		eval(lastCustody, &custody),
		typeAndLink("حدث"),
		until(`!!document.querySelector("[data-testid=event-id-error]")`),
		chromedp.Text(`[data-testid=event-id-error]`, &refused, chromedp.ByQuery))
	if status = bidi.Replace(status); !strings.Contains(status, "أُلغي: لم يعد GED 214797 مرتبطًا بهذه الصورة") || links != 0 {
		t.Errorf("undone, in Arabic: status %q, %d links", status, links)
	}
	if custody = bidi.Replace(custody); !strings.Contains(custody, "فُكّ ربطها بحدث GED رقم 214797") {
		t.Errorf("the custody table's row of the undoing, in Arabic: %q", custody)
	}
	if refused = bidi.Replace(refused); !strings.Contains(refused, "«حدث» ليس معرّف حدث") {
		t.Errorf("refused in Arabic: %q", refused)
	}
	b.check(t)
}
