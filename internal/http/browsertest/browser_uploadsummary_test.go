package browsertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/httpapi"
)

// TestBrowserUploadSaysWhatHappened (issue 68, 6): an editor uploads a
// good caption file, one import refuses and a PDF; the page says first,
// above each file's line, how many files were imported, refused and
// skipped, each refused file with why and the skipped one by its name,
// the reused frames a link to the review filter — and, before anything
// is sent, what a .txt holds.
func TestBrowserUploadSaysWhatHappened(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{Uploads: t.TempDir()})
	dir := t.TempDir()
	files := map[string]string{
		"captions.csv":   "caption\n\"A man walks past a damaged building in Saraqeb, Syria January 15, 2018.\"\n",
		"no-caption.csv": "id,url\n1,x\n",
		"report.pdf":     "%PDF-1.4\n",
	}
	var paths []string
	for _, n := range []string{"captions.csv", "no-caption.csv", "report.pdf"} {
		paths = append(paths, filepath.Join(dir, n))
		os.WriteFile(paths[len(paths)-1], []byte(files[n]), 0o644)
	}
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	var kinds, outcome, refused, skipped string
	var first bool
	b.run(t, chromedp.Navigate(e.ts.URL+"/upload"), chromedp.WaitReady(`#upload[data-ready="1"]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=upload-kinds]`, &kinds, chromedp.ByQuery),
		// The job says one photo arrived as a frame the archive holds
		// under a caption that disagrees (a reused frame takes JPEGs
		// this test does not make): the page links to them.
		eval(`(() => {
			const real = window.fetch;
			window.fetch = async (url, opts) => {
				const res = await real(url, opts);
				if (!String(url).includes("/api/imports/")) return res;
				const job = await res.clone().json();
				if (job.summary) job.summary.Conflicts = 1;
				return new Response(JSON.stringify(job), {status: res.status, headers: res.headers});
			};
			return true;
		})()`, nil),
		chromedp.SetUploadFiles(`[data-testid=upload-files]`, paths, chromedp.ByQuery),
		chromedp.Poll(`document.querySelectorAll("[data-testid=summary-file]").length === 2`, nil, chromedp.WithPollingTimeout(60*time.Second)))
	if !strings.Contains(kinds, "separated by a blank line") {
		t.Errorf("before the upload, the page does not say a .txt's captions are separated by a blank line: %q", kinds)
	}
	var has bool
	var reused string
	// The summary comes with the job's last answer, after the files' lines.
	b.run(t, until(`document.querySelector("a[data-testid=upload-reused]") !== null`),
		eval(`document.querySelector("[data-testid=upload-outcome]") !== null`, &has),
		eval(`document.querySelector("a[data-testid=upload-reused]")?.getAttribute("href") || ""`, &reused))
	if reused != "/review?reuse=conflict" {
		t.Errorf("the reused frames' link goes to %q; want the review filter /review?reuse=conflict", reused)
	}
	if !has {
		t.Fatal("the summary has no outcome (imported, refused, skipped) at its top")
	}
	b.run(t, chromedp.Text(`[data-testid=upload-outcome]`, &outcome, chromedp.ByQuery),
		chromedp.Text(`[data-testid=upload-refused]`, &refused, chromedp.ByQuery),
		chromedp.Text(`[data-testid=upload-skipped]`, &skipped, chromedp.ByQuery),
		// The outcome comes first: above the refused and skipped files,
		// each file's line and the files' progress bars.
		eval(`(() => {
			const top = (s) => document.querySelector(s).getBoundingClientRect().top;
			const o = top("[data-testid=upload-outcome]");
			return o < top("[data-testid=upload-refused]") && top("[data-testid=upload-refused]") < top("[data-testid=summary-file][data-state=done]") && o < top("[data-testid=upload-list]");
		})()`, &first))
	if !strings.Contains(outcome, "Files imported: 1") || !strings.Contains(outcome, "refused: 1") || !strings.Contains(outcome, "skipped: 1") {
		t.Errorf("the outcome reads %q; want 1 imported, 1 refused, 1 skipped", outcome)
	}
	if !strings.Contains(refused, "no-caption.csv:1: no caption column in the header") {
		t.Errorf("the refused files read %q; want no-caption.csv with why", refused)
	}
	if !strings.Contains(skipped, "report.pdf") || !strings.Contains(skipped, "not a kind of file syriamap imports") {
		t.Errorf("the skipped files read %q; want report.pdf with why", skipped)
	}
	if !first {
		t.Error("the outcome is not at the top of the summary")
	}
	// The same in Arabic: the summary reads as an Arabic page, the files'
	// names and import's own messages set apart.
	b.run(t, chromedp.Navigate(e.ts.URL+"/upload?lang=ar"), chromedp.WaitReady(`#upload[data-ready="1"]`, chromedp.ByQuery),
		chromedp.SetUploadFiles(`[data-testid=upload-files]`, paths, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector("[data-testid=upload-outcome]") !== null`, nil, chromedp.WithPollingTimeout(60*time.Second)),
		chromedp.Text(`[data-testid=upload-outcome]`, &outcome, chromedp.ByQuery))
	if !strings.Contains(outcome, "رُفضت: ١") || !strings.Contains(outcome, "تُركت: ١") {
		t.Errorf("the Arabic outcome reads %q", outcome)
	}
	arabicPage(t, b, "the upload summary")
	b.check(t)
}
