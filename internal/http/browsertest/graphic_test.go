package browsertest

import (
	"context"
	"github.com/chromedp/chromedp"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/imagery"
	"github.com/syriamap/syriamap/internal/http/lane"
	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/resize"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// blurred reports, for every image of the photo whose image file is sha
// on the page: how many there are, how many show blurred behind a "show"
// choice, and how many show after it is ticked.
const blurred = `(async (sha) => {
  const imgs = [...document.querySelectorAll("img")].filter((i) => i.src.includes(sha));
  const blur = (i) => getComputedStyle(i).filter.includes("blur");
  const out = { images: imgs.length, blurred: imgs.filter((i) => i.closest(".graphic") && blur(i)).length, shown: 0 };
  for (const i of imgs) i.closest(".graphic")?.querySelector("[data-testid=show-graphic]")?.click();
  await new Promise((r) => requestAnimationFrame(r));
  out.shown = imgs.filter((i) => !blur(i)).length;
  return out;
})`

// TestBrowserGraphicIsBlurred (issue 42, part 6): an image an editor
// marked graphic is never shown unblurred to a reader who has not asked —
// on its page, in the explorer's list and popup, in a story, and on the
// published site's photo page, list and story, in both languages — and
// shows once the reader ticks "show".
func TestBrowserGraphicIsBlurred(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	h := httpapitest.HarmArchive(t)
	live, _ := serveArchive(t, h.A, httpapi.Options{Media: h.Media})
	dir := t.TempDir()
	images := &publish.Images{Files: imagery.NewFiles(h.A, h.Media, true),
		Derivatives: imagery.NewDerivatives(resize.New(resize.DefaultBudget), lane.Default(), "")}
	if _, err := publish.Publish(context.Background(), h.A, dir, publish.Options{IncludeUnplaced: true, Images: images}); err != nil {
		t.Fatal(err)
	}
	static := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(static.Close)
	g := h.Graphic
	type seen struct{ Images, Blurred, Shown int }
	for _, page := range []struct {
		name, url string
		wait      chromedp.Action
	}{
		{"photo page", live.URL + "/photos/" + g.ID, chromedp.WaitReady(`[data-testid=image]`, chromedp.ByQuery)},
		{"photo page, Arabic", live.URL + "/photos/" + g.ID + "?lang=ar", chromedp.WaitReady(`[data-testid=image]`, chromedp.ByQuery)},
		{"explorer's list", live.URL + "/", chromedp.WaitReady(`[data-testid=photo-row][data-id="`+g.ID+`"] img`, chromedp.ByQuery)},
		{"explorer's popup", live.URL + "/?photo=" + g.ID, chromedp.WaitReady(`[data-testid=popup] img`, chromedp.ByQuery)},
		{"story", live.URL + "/stories/shelters", chromedp.WaitReady(`[data-testid=photo-row] img`, chromedp.ByQuery)},
		{"published photo page", static.URL + "/photo.html?id=" + g.ID, chromedp.WaitReady(`[data-testid=popup] img`, chromedp.ByQuery)},
		{"published photo page, Arabic", static.URL + "/ar/photo.html?id=" + g.ID, chromedp.WaitReady(`[data-testid=popup] img`, chromedp.ByQuery)},
		{"published list", static.URL + "/", chromedp.WaitReady(`[data-testid=photo-row][data-id="`+g.ID+`"] img`, chromedp.ByQuery)},
		{"published story", static.URL + "/stories/shelters.html", chromedp.WaitReady(`[data-testid=photo-row] img`, chromedp.ByQuery)},
	} {
		srv := live
		if strings.HasPrefix(page.url, static.URL) {
			srv = static
		}
		b := newBrowser(t, srv, 1440, 900)
		var s seen
		b.run(t, chromedp.Navigate(page.url), page.wait)
		if shot, ok := map[string]string{"photo page": "photo-graphic-en.png", "photo page, Arabic": "photo-graphic-ar.png"}[page.name]; ok {
			shoot(t, b, shot)
		}
		b.run(t, eval(blurred+`(`+strconv.Quote(g.ImageFile)+`)`, &s))
		if s.Images == 0 || s.Blurred != s.Images || s.Shown != s.Images {
			t.Errorf("%s: %d images of the graphic photo, %d blurred, %d shown when asked", page.name, s.Images, s.Blurred, s.Shown)
		}
		b.check(t)
	}
}
