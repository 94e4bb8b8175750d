package browsertest

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/story"
)

// writeStory has the signed-in editor write a three-step story in the
// editor — one step of chosen photos (one of them chosen in the
// explorer with Add to story), one of a saved explorer view, one of
// photos with a highlight, moved up by keyboard — and publish it. It
// returns the story's address.
func writeStory(t *testing.T, b *browser, e *editorServer) string {
	t.Helper()
	kafr, aleppo := e.photoID(t, "?place=ocha:C2320"), e.photoID(t, "?q=Aleppo")
	// Chosen in the explorer.
	b.run(t, ready(e.ts.URL+"/?photo="+kafr),
		chromedp.WaitVisible(`[data-testid=add-to-story]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=add-to-story]`, chromedp.ByQuery),
		waitText(`[data-testid=add-to-story]`, "Chosen for a story (1)"))
	set := func(sel, value string) chromedp.Action {
		return eval(`(() => { const el = `+sel+`; el.value = `+jsString(value)+`; el.dispatchEvent(new Event("input")); })()`, nil)
	}
	step := func(i int, testid string) string {
		return `document.querySelectorAll("[data-testid=edit-step]")[` + string(rune('0'+i)) + `].querySelector("[data-testid=` + testid + `]")`
	}
	b.run(t, chromedp.Navigate(e.ts.URL+"/stories"), chromedp.Click(`[data-testid=new-story]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=story-title]`, chromedp.ByQuery),
		set(`document.querySelector("[data-testid=story-title]")`, "Idlib and Aleppo, 2016"),
		set(`document.querySelector("[data-testid=story-summary]")`, "Three steps through two governorates."),
		eval(`document.querySelector("[data-testid=story-status]").value = "published"`, nil),
		chromedp.Click(`[data-testid=add-step]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=add-step]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=add-step]`, chromedp.ByQuery),
		// Written in another order: the view of Aleppo first, moved down.
		set(step(0, "step-heading"), "Aleppo in March"),
		eval(step(0, "step-kind-state")+`.click()`, nil),
		set(step(0, "step-state"), e.ts.URL+"/?from=2016-03&to=2016-03&map=12/36.2000/37.1600"),
		set(step(1, "step-heading"), "Kafr Nabl"),
		set(step(1, "step-text"), "The town's **weekly banners**. <script>alert(1)</script>"),
		eval(step(1, "step-add-chosen")+`.click()`, nil),
		set(step(2, "step-heading"), "Both"),
		set(step(2, "step-photos"), kafr+"\n"+e.ts.URL+"/photos/"+aleppo),
		set(step(2, "step-highlight"), aleppo),
		// Kafr Nabl up, by its button, as a keyboard user presses it.
		chromedp.Focus(`[data-testid=edit-step]:nth-child(2) [data-testid=step-up]`, chromedp.ByQuery),
		chromedp.KeyEvent("\r"),
		chromedp.Click(`[data-testid=save-story]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=preview-story]`, chromedp.ByQuery))
	var headings []string
	b.run(t, eval(`[...document.querySelectorAll("[data-testid=step-heading]")].map((e) => e.value)`, &headings))
	if strings.Join(headings, "|") != "Kafr Nabl|Aleppo in March|Both" {
		t.Fatalf("after saving, the editor shows the steps %q", headings)
	}
	return e.ts.URL + "/stories/idlib-and-aleppo-2016"
}

func jsString(s string) string {
	return "`" + strings.NewReplacer("`", "\\`", "\\", "\\\\", "${", "\\${").Replace(s) + "`"
}

// shownStep is the reader's current step, once it is want (or the
// wait's deadline has passed).
func shownStep(t *testing.T, b *browser, want string) (step string, hash string) {
	t.Helper()
	b.run(t, until(`document.querySelector("[data-testid=story]").dataset.shown === `+jsString(want)),
		eval(`document.querySelector("[data-testid=story]").dataset.shown`, &step), eval(`location.hash`, &hash))
	return step, hash
}

// TestBrowserStory: an editor writes and publishes a story; a signed-out
// reader steps through it by keyboard, by the buttons and by scrolling,
// each step's address restores it, and "explore from here" opens the
// explorer at the step's view; on a phone too.
func TestBrowserStory(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	story := writeStory(t, b, e)
	// Signed out: a reader.
	b.run(t, network.ClearBrowserCookies())
	var title string
	var steps int
	// Each visit waits for the page to settle: 0.9 s after it opens the
	// story starts following the scroll, which shows the step in view;
	// a key or a button pressed before that is undone by it.
	b.run(t, chromedp.Navigate(story), chromedp.WaitVisible(`[data-testid=story-step].current`, chromedp.ByQuery), settled(),
		chromedp.Text(`h1`, &title, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=story-step]").length`, &steps))
	if title != "Idlib and Aleppo, 2016" || steps != 3 {
		t.Fatalf("the reader sees %q with %d steps", title, steps)
	}
	var inert bool
	b.run(t, eval(`!document.querySelector(".story-text script") && document.querySelector(".story-text").textContent.includes("<script>")`, &inert))
	if !inert {
		t.Error("the step's text ran or dropped its <script>: it should show as text")
	}
	if step, _ := shownStep(t, b, "1"); step != "1" {
		t.Errorf("the story opens at step %s", step)
	}
	// Keyboard: down, then up.
	b.run(t, chromedp.KeyEvent("\u0301")) // ArrowDown
	if step, hash := shownStep(t, b, "2"); step != "2" || hash != "#step-2" {
		t.Errorf("after ArrowDown: step %s at %q", step, hash)
	}
	var window string
	b.run(t, until(`document.querySelector("[data-testid=story-window]")?.textContent === "March 2016"`),
		chromedp.Text(`[data-testid=story-window]`, &window, chromedp.ByQuery))
	if window != "March 2016" {
		t.Errorf("step 2's window reads %q; want March 2016", window)
	}
	// A saved view's photos are clusters that say how many they hold
	// (issue 41, defect 16), and the map is no longer busy once they are in.
	var labels []string
	var busy bool
	b.run(t, chromedp.Poll(`document.querySelector("[data-shown]").dataset.settled === "2"`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		eval(`[...document.querySelectorAll("[data-testid=story-map] .story-cluster span")].map((s) => s.textContent)`, &labels),
		eval(`document.querySelector("[data-testid=story-map]").hasAttribute("aria-busy")`, &busy))
	if len(labels) == 0 || labels[0] == "" || busy {
		t.Errorf("step 2's view: cluster labels %q, map busy %v", labels, busy)
	}
	// Buttons.
	b.run(t, chromedp.Click(`[data-testid=story-next]`, chromedp.ByQuery))
	if step, _ := shownStep(t, b, "3"); step != "3" {
		t.Errorf("after Next: step %s", step)
	}
	var highlighted int
	b.run(t, eval(`document.querySelectorAll("#story-3 .highlight, #step-3 .highlight").length`, &highlighted))
	if highlighted != 1 {
		t.Errorf("step 3 highlights %d photos; want its one", highlighted)
	}
	// Scrolling back to the first step.
	// (once Next's smooth scroll to step 3 is over, which would carry on
	// past a scroll made during it)
	b.run(t, atRest(), eval(`document.querySelector("#step-1").scrollIntoView({block: "start"})`, nil))
	if step, _ := shownStep(t, b, "1"); step != "1" {
		t.Errorf("after scrolling to the first step: step %s", step)
	}
	// A step's address restores it.
	b.run(t, chromedp.Navigate(story+"#step-2"), chromedp.WaitVisible(`[data-testid=story-step].current`, chromedp.ByQuery), settled())
	if step, _ := shownStep(t, b, "2"); step != "2" {
		t.Errorf("%s#step-2 opens at step %s", story, step)
	}
	// Explore from here: the explorer at the step's view.
	var label, search string
	b.run(t, chromedp.Click(`#step-2 [data-testid=explore-from-here]`, chromedp.ByQuery),
		chromedp.WaitReady(`#explorer`, chromedp.ByQuery),
		chromedp.Poll(`performance.getEntriesByName("syriamap:ready").length > 0`, nil, chromedp.WithPollingTimeout(20*time.Second)),
		// The window says the step's months once the photos are in, not
		// "Loading photos…" (what a busy machine read after a fixed pause).
		until(`document.querySelector("[data-testid=window]")?.textContent.startsWith("March 2016") && location.search.includes("map=12/36.2")`),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery), eval(`location.search`, &search))
	if !strings.HasPrefix(label, "March 2016") || !strings.Contains(search, "map=12/36.2") {
		t.Errorf("explore from here: window %q at %q", label, search)
	}
	b.check(t)

	// On a phone: the map above the text, steps by the buttons, nothing
	// wider than the screen.
	p := newBrowser(t, e.ts, 375, 812)
	var wide bool
	p.run(t, chromedp.Navigate(story), chromedp.WaitVisible(`[data-testid=story-step].current`, chromedp.ByQuery), settled(),
		chromedp.Click(`[data-testid=story-next]`, chromedp.ByQuery),
		eval(`document.documentElement.scrollWidth > window.innerWidth`, &wide))
	if step, _ := shownStep(t, p, "2"); step != "2" || wide {
		t.Errorf("on a phone: step %s after Next; wider than the screen: %v", step, wide)
	}
	p.check(t)
}

// TestBrowserStoryAccessibility: axe-core finds nothing serious on the
// story pages, as an editor and as a reader, at a desktop's and a
// phone's size, in English and in Arabic.
func TestBrowserStoryAccessibility(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	axe := axeScript(t)
	e := newEditorServer(t, httpapi.Options{})
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	story := writeStory(t, b, e)
	pages := []string{"/stories", story, story + "/edit", "/stories/new"}
	for _, size := range [][2]int{{1440, 900}, {375, 812}} {
		b.run(t, chromedp.EmulateViewport(int64(size[0]), int64(size[1])))
		for _, lang := range []string{"en", "ar"} {
			for _, page := range pages {
				if !strings.HasPrefix(page, "http") {
					page = e.ts.URL + page
				}
				for _, v := range axeViolations(t, b, axe, page+"?lang="+lang) {
					t.Errorf("%dx%d, %s, %s: %s", size[0], size[1], lang, page, v)
				}
			}
		}
	}
	b.check(t)
}

// TestBrowserStoryDragReorder: in the editor a step dragged above
// another moves there, and the save keeps the new order. (The drag is
// made of the DragEvents a browser fires: headless Chromium does not
// start an HTML5 drag from synthetic mouse events.)
func TestBrowserStoryDragReorder(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	c, csrf := e.signIn(t)
	body := `{"title": "Order", "status": "published", "steps": [{"heading": "One"}, {"heading": "Two"}, {"heading": "Three"}]}`
	if resp, out := do(t, c, "POST", e.ts.URL+"/api/stories", body, "Content-Type", "application/json", "X-CSRF-Token", csrf); resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %s %s", resp.Status, out)
	}
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	var headings []string
	b.run(t, chromedp.Navigate(e.ts.URL+"/stories/order/edit"), chromedp.WaitVisible(`[data-testid=edit-step]`, chromedp.ByQuery),
		eval(`(() => {
			const steps = document.querySelectorAll("[data-testid=edit-step]");
			const dt = new DataTransfer();
			const top = steps[0].getBoundingClientRect();
			steps[2].dispatchEvent(new DragEvent("dragstart", { bubbles: true, dataTransfer: dt }));
			steps[0].dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: dt, clientY: top.top + 2 }));
			steps[2].dispatchEvent(new DragEvent("dragend", { bubbles: true, dataTransfer: dt }));
		})()`, nil),
		chromedp.Click(`[data-testid=save-story]`, chromedp.ByQuery),
		waitText(`[data-testid=story-message]`, "Saved"))
	// Steps of chosen photos with none are saved, never silently (issue
	// 41, defect 16): the message names them and their fields are marked.
	var message string
	var marked int
	b.run(t, chromedp.Text(`[data-testid=story-message]`, &message, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=step-photos][aria-invalid=true]").length`, &marked))
	if !strings.Contains(message, "Step 1 is to show chosen photos, but has none") || marked != 3 {
		t.Errorf("saving steps with no photos: %q, %d fields marked", message, marked)
	}
	_, js := do(t, nil, "GET", e.ts.URL+"/api/stories/order", "")
	var st struct{ Steps []struct{ Heading string } }
	json.Unmarshal([]byte(js), &st)
	for _, s := range st.Steps {
		headings = append(headings, s.Heading)
	}
	if strings.Join(headings, "|") != "Three|One|Two" {
		t.Errorf("after dragging the third step to the top and saving: %q", headings)
	}
	b.check(t)
}

// TestBrowserStoryViewStepHowever (issue 54, defect 3): a saved-view step
// without a map of its own shows its photos however the reader arrives —
// by the down key, by Next, or by its address — fitted to them, not the
// map the step before left (1 km over Kafr Nabl, where none of Aleppo's
// photos are).
func TestBrowserStoryViewStepHowever(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	kafr := e.photoID(t, "?place=gn:168661")
	if _, err := e.a.SaveStory(ctx, story.Story{Slug: "aleppo-view", Title: "Aleppo, seen", Status: story.Published, Steps: []story.Step{
		{Heading: "Kafr Nabl", Photos: []story.PhotoRef{{ID: kafr}}, Highlight: kafr},
		{Heading: "Aleppo", State: "q=Aleppo"},
	}}, "", "rana", "created"); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e.ts, 1440, 900)
	url := e.ts.URL + "/stories/aleppo-view"
	clusters := func(arrive chromedp.Action, url string) (n int) {
		t.Helper()
		b.run(t, chromedp.Navigate(url), chromedp.WaitVisible(`[data-testid=story-step].current`, chromedp.ByQuery),
			until(`document.querySelector("[data-shown]").dataset.settled === document.querySelector("[data-shown]").dataset.shown`),
			settled()) // the story follows the scroll from now on (see TestBrowserStory)
		if arrive != nil {
			b.run(t, arrive)
		}
		b.run(t, chromedp.Poll(`document.querySelector("[data-shown]").dataset.settled === "2"`, nil, chromedp.WithPollingTimeout(10*time.Second)),
			eval(`[...document.querySelectorAll("[data-testid=story-map] .story-cluster span")].reduce((n, s) => n + Number(s.textContent), 0)`, &n))
		return n
	}
	want := apiCount(t, e.ts, "?q=Aleppo")
	for _, tc := range []struct {
		name   string
		arrive chromedp.Action
		url    string
	}{
		{"the down key", chromedp.KeyEvent("\u0301"), url},
		{"Next", chromedp.Click(`[data-testid=story-next]`, chromedp.ByQuery), url},
		{"its address", nil, url + "#step-2"},
	} {
		if got := clusters(tc.arrive, tc.url); got != want {
			t.Errorf("the Aleppo view reached by %s shows %d photos; the view holds %d", tc.name, got, want)
		}
	}
	b.check(t)
}

// TestBrowserStoryStaleSaysWhatChanged (issue 68, 8): a story save
// refused because omar saved after rana opened it says, in the page's
// language and digits, when (not an ISO time) and what his save changed.
func TestBrowserStoryStaleSaysWhatChanged(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	omar := httpapitest.AddEditor(t, e.a, "omar")
	c, csrf := e.signIn(t)
	body := `{"slug": "stale", "title": "Stale", "status": "draft", "steps": [{"heading": "One"}]}`
	if resp, out := do(t, c, "POST", e.ts.URL+"/api/stories", body, "Content-Type", "application/json", "X-CSRF-Token", csrf); resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %s %s", resp.Status, out)
	}
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	for _, tc := range []struct{ lang, title string }{
		{"en", "the title"}, {"ar", "العنوان"},
	} {
		b.run(t, chromedp.Navigate(e.ts.URL+"/stories/stale/edit?lang="+tc.lang), chromedp.WaitVisible(`[data-testid=edit-step]`, chromedp.ByQuery))
		if resp, out := do(t, nil, "PUT", e.ts.URL+"/api/stories/stale", strings.Replace(body, `"Stale"`, `"Omar's `+tc.lang+`"`, 1),
			"Content-Type", "application/json", "Authorization", "Bearer "+omar); resp.StatusCode != 200 {
			t.Fatalf("omar's save: %s %s", resp.Status, out)
		}
		var message string
		b.run(t, chromedp.Click(`[data-testid=save-story]`, chromedp.ByQuery),
			chromedp.Poll(`!!document.querySelector("[data-testid=story-keep-mine]") || (document.querySelector("[data-testid=story-message]")?.textContent || "…").slice(-1) !== "…"`,
				nil, chromedp.WithPollingTimeout(20*time.Second)),
			chromedp.Text(`[data-testid=story-message]`, &message, chromedp.ByQuery))
		message = strings.NewReplacer("\u2068", "", "\u2069", "").Replace(message)
		year := map[string]string{"en": time.Now().UTC().Format("2006"), "ar": "٢٠"}[tc.lang]
		if !strings.Contains(message, "omar") || !strings.Contains(message, tc.title) || !strings.Contains(message, year) ||
			regexp.MustCompile(`\d{4}-\d\d-\d\dT`).MatchString(message) || strings.Contains(message, "⟦") {
			t.Errorf("%s: the refused save says %q; want omar, when in words, and %q", tc.lang, message, tc.title)
		}
	}
	b.check(t)
}
