package browsertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestBrowserUploadFormDate (issue 69, item 1): on the upload page an
// editor gives the photos' date; a date not written as one is said
// before anything is sent; the photos whose captions give none take it,
// and their pages say the date is an editor's, while a caption's "on
// Sunday" is read against it and said to be the caption's.
func TestBrowserUploadFormDate(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{Uploads: t.TempDir()})
	undated, sunday := "Smoke rises over Nawa after shelling.", "Smoke rises over Busra al-Harir on Sunday."
	csv := filepath.Join(t.TempDir(), "dated.csv")
	os.WriteFile(csv, []byte("caption\n\""+undated+"\"\n\""+sunday+"\"\n"), 0o644)
	first := filepath.Join(t.TempDir(), "first.csv") // the same, tried with a bad date
	os.WriteFile(first, []byte("caption\n\""+undated+"\"\n"), 0o644)
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	var bad, status, undatedSource, sundayDate, sundaySource string
	b.run(t, chromedp.Navigate(e.ts.URL+"/upload"), chromedp.WaitReady(`#upload[data-ready="1"]`, chromedp.ByQuery),
		chromedp.SendKeys(`[data-testid=upload-date]`, "17/07/2018", chromedp.ByQuery),
		chromedp.SetUploadFiles(`[data-testid=upload-files]`, []string{first}, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector("[data-testid=upload-status]").textContent !== ""`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`[data-testid=upload-status]`, &bad, chromedp.ByQuery),
		chromedp.SetValue(`[data-testid=upload-date]`, "2018-07-17", chromedp.ByQuery),
		chromedp.SetUploadFiles(`[data-testid=upload-files]`, []string{csv}, chromedp.ByQuery),
		chromedp.Poll(`document.querySelectorAll("[data-testid=summary-file]").length === 1`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Text(`[data-testid=upload-status]`, &status, chromedp.ByQuery),
		chromedp.Navigate(e.ts.URL+"/photos/"+photo.ID(undated)), chromedp.WaitVisible(`[data-testid=date-source]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=date-source]`, &undatedSource, chromedp.ByQuery),
		chromedp.Navigate(e.ts.URL+"/photos/"+photo.ID(sunday)), chromedp.WaitVisible(`[data-testid=date-source]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=date]`, &sundayDate, chromedp.ByQuery),
		chromedp.Text(`[data-testid=date-source]`, &sundaySource, chromedp.ByQuery))
	if !strings.Contains(bad, "YYYY-MM-DD") {
		t.Errorf("a date not written as one: the page says %q", bad)
	}
	if !strings.HasPrefix(status, "Done: 2 added") {
		t.Errorf("after the upload: %q", status)
	}
	if undatedSource != "set by an editor" || !strings.HasPrefix(sundayDate, "15 July 2018") || sundaySource != "from the caption" {
		t.Errorf("the photos' pages: undated %q; on Sunday %q %q", undatedSource, sundayDate, sundaySource)
	}
	b.check(t)
}
