package browsertest

import (
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestBrowserUpload (issue 58, 1): an editor chooses a folder's files —
// JPEGs with IPTC captions and a CSV of captions — on the upload page;
// each is sent (tus) with its progress, imported, and the page says what
// the import did, file by file, with a link to the new photos in the
// review queue; then drops a caption file on the page's zone, and a
// file import refuses is said with import's own message.
func TestBrowserUpload(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{Uploads: t.TempDir()})
	httpapitest.KeepOriginals(t, e.a)
	dir := t.TempDir()
	var files []string
	for _, n := range []string{"check-arabic.jpg", "check-abroad.jpg"} {
		b, err := os.ReadFile(filepath.Join("../../evidence/imagemeta/testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.Join(dir, n))
		os.WriteFile(files[len(files)-1], b, 0o644)
	}
	files = append(files, filepath.Join(dir, "captions.csv"))
	os.WriteFile(files[2], []byte("text,byline\n\"A man walks past a damaged building in Saraqeb, Idlib province, Syria January 15, 2018.\",Ammar Abdullah\n"), 0o644)
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	var status, summary, href string
	var rows int
	b.run(t, chromedp.Navigate(e.ts.URL+"/review"), chromedp.Click(`[data-testid=upload-link]`, chromedp.ByQuery),
		chromedp.WaitReady(`#upload[data-ready="1"]`, chromedp.ByQuery),
		chromedp.SetUploadFiles(`[data-testid=upload-files]`, files, chromedp.ByQuery),
		chromedp.Poll(`document.querySelectorAll("[data-testid=summary-file]").length === 3`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Text(`[data-testid=upload-status]`, &status, chromedp.ByQuery),
		chromedp.Text(`[data-testid=upload-summary]`, &summary, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=upload-file] progress").length`, &rows),
		chromedp.AttributeValue(`[data-testid=review-new]`, "href", &href, nil, chromedp.ByQuery))
	if !strings.HasPrefix(status, "Done: 3 added") || rows != 3 || !strings.Contains(summary, "captions.csv — 1 added") || href != "/review" {
		t.Errorf("after the upload: status %q, %d progress bars, summary %q, review link %q", status, rows, summary, href)
	}
	// Each photo of the upload, to its review page.
	var photos int
	var first string
	b.run(t, eval(`document.querySelectorAll("[data-testid=upload-photos] a[href^='/review/photos/']").length`, &photos),
		chromedp.AttributeValue(`[data-testid=upload-photos] a`, "href", &first, nil, chromedp.ByQuery))
	if photos != 3 {
		t.Errorf("the upload lists %d photos (first %q), want 3", photos, first)
	}
	// A caption file dropped on the zone; import refuses it, and says why.
	b.run(t, eval(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File(["id,url\n1,x\n"], "no-caption.csv", {type: "text/csv"}));
		document.querySelector("[data-testid=drop-zone]").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		return true;
	})()`, nil),
		chromedp.Poll(`document.querySelector("[data-testid=summary-file][data-state=refused]") !== null`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Text(`[data-testid=upload-summary]`, &summary, chromedp.ByQuery))
	if !strings.Contains(summary, "no-caption.csv:1: no caption column in the header: looked for caption, description, text") {
		t.Errorf("a refused file: %q", summary)
	}
	// The new photos are in the review queue; the page reads in Arabic.
	var groups int
	b.run(t, chromedp.Navigate(e.ts.URL+href), chromedp.WaitVisible(`[data-testid=review-groups]`, chromedp.ByQuery),
		eval(`[...document.querySelectorAll("[data-testid=review-group]")].filter((g) => /Saraqeb|Aleppo|حلب/.test(g.textContent)).length`, &groups),
		chromedp.Navigate(e.ts.URL+"/upload?lang=ar"), chromedp.WaitReady(`#upload[data-ready="1"]`, chromedp.ByQuery))
	if groups == 0 {
		t.Error("the uploaded photos are not in the review queue")
	}
	arabicPage(t, b, "the upload page")
	b.check(t)
}

// TestBrowserUploadAccessible (issue 58, 1): the upload page, before and
// after an upload, in English and Arabic, at 1440×900 and on a phone
// (375×812): axe-core finds nothing serious or critical, the choosers
// are reached from the keyboard, and nothing is wider than the screen.
func TestBrowserUploadAccessible(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	axe := axeScript(t)
	e := newEditorServer(t, httpapi.Options{Uploads: t.TempDir()})
	csv := filepath.Join(t.TempDir(), "captions.csv")
	os.WriteFile(csv, []byte("caption\n\"A man walks past a damaged building in Saraqeb, Syria January 15, 2018.\"\nno-caption-here\n"), 0o644)
	for _, size := range [][2]int{{1440, 900}, {375, 812}} {
		b := newBrowser(t, e.ts, size[0], size[1])
		signIn(t, b, e)
		for _, lang := range []string{"en", "ar"} {
			url := e.ts.URL + "/upload?lang=" + lang
			for _, v := range axeViolations(t, b, axe, url) {
				t.Errorf("%s %dx%d: %s", lang, size[0], size[1], v)
			}
			var focusable bool
			var scroll, inner float64
			b.run(t, eval(`[...document.querySelectorAll("[data-testid=upload-files], [data-testid=upload-folder]")].every((e) => {
					e.focus();
					const s = getComputedStyle(e);
					return document.activeElement === e && e.tabIndex >= 0 && s.display !== "none" && s.visibility !== "hidden" && e.labels.length === 1 && e.labels[0].textContent.trim() !== "";
				})`, &focusable),
				chromedp.SetUploadFiles(`[data-testid=upload-files]`, []string{csv}, chromedp.ByQuery),
				chromedp.Poll(`document.querySelectorAll("[data-testid=summary-file]").length === 1`, nil, chromedp.WithPollingTimeout(30*time.Second)),
				eval(`document.documentElement.scrollWidth`, &scroll), eval(`window.innerWidth`, &inner))
			if !focusable {
				t.Errorf("%s %dx%d: a file chooser is not reached from the keyboard, or has no label", lang, size[0], size[1])
			}
			if scroll > inner+0.5 {
				t.Errorf("%s %dx%d: the page is %v px wide in a %v px window", lang, size[0], size[1], scroll, inner)
			}
			for _, v := range axeHere(t, b, axe) {
				t.Errorf("%s %dx%d, after an upload: %s", lang, size[0], size[1], v)
			}
		}
		b.check(t)
	}
}

// TestBrowserDropFolder (issue 58, target): a folder — JPEGs with IPTC
// captions and a CSV, one of them in a subfolder — dragged onto the
// upload page's zone by Chromium's own drag and drop: every file in it is
// sent and imported, and the summary says so.
func TestBrowserDropFolder(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{Uploads: t.TempDir()})
	httpapitest.KeepOriginals(t, e.a)
	folder := filepath.Join(t.TempDir(), "from-the-field")
	os.MkdirAll(filepath.Join(folder, "day-2"), 0o755)
	for i, n := range []string{"check-arabic.jpg", "check-abroad.jpg"} {
		b, err := os.ReadFile(filepath.Join("../../evidence/imagemeta/testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(folder, n)
		if i == 1 {
			dst = filepath.Join(folder, "day-2", n)
		}
		os.WriteFile(dst, b, 0o644)
	}
	os.WriteFile(filepath.Join(folder, "captions.csv"), []byte("text\n\"A man walks past a damaged building in Saraqeb, Syria January 15, 2018.\"\n"), 0o644)
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	var status string
	var x, y float64
	b.run(t, chromedp.Navigate(e.ts.URL+"/upload"), chromedp.WaitReady(`#upload[data-ready="1"]`, chromedp.ByQuery),
		eval(`(() => { const r = document.querySelector("[data-testid=drop-zone]").getBoundingClientRect(); return r.x + r.width / 2; })()`, &x),
		eval(`(() => { const r = document.querySelector("[data-testid=drop-zone]").getBoundingClientRect(); return r.y + r.height / 2; })()`, &y))
	data := &input.DragData{Files: []string{folder}, DragOperationsMask: 1}
	b.run(t, input.DispatchDragEvent(input.DragEnter, x, y, data), input.DispatchDragEvent(input.DragOver, x, y, data),
		input.DispatchDragEvent(input.Drop, x, y, data),
		chromedp.Poll(`document.querySelectorAll("[data-testid=summary-file]").length === 3`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Text(`[data-testid=upload-status]`, &status, chromedp.ByQuery))
	if !strings.HasPrefix(status, "Done: 3 added") {
		t.Errorf("the dropped folder: %q", status)
	}
	b.check(t)
}
