package browsertest

import (
	"context"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// settleJS runs in every page before its own scripts and counts the work
// the page has in hand: fetches (the published site's own fetch too, set
// over the browser's) and their bodies being read, timers of up to five
// seconds (a pause before redrawing the list, a search typed), and
// animation frames asked for (a map panning). window.__settle.idle()
// resolves once none is left on two checks in a row, a frame apart (an
// IntersectionObserver's callbacks come with a frame, and may set more
// going): the page has done what the last action set going. Its own
// checks use the timer it saved, uncounted; setInterval (the timeline
// playing) is not counted. window.__settle.pushedAt is when the page
// last added a step of history.
const settleJS = `(() => {
  const w = window, st = w.setTimeout.bind(w), ct = w.clearTimeout.bind(w);
  const raf = w.requestAnimationFrame.bind(w), caf = w.cancelAnimationFrame.bind(w);
  const s = { pending: 0, timers: new Set(), frames: new Set() };
  const track = (p) => {
    s.pending++;
    const done = () => { s.pending--; };
    p.then(done, done);
    return p;
  };
  const wrap = (f) => typeof f === "function" ? function (...a) { return track(f.apply(this, a)); } : f;
  let fetchNow = wrap(w.fetch);
  Object.defineProperty(w, "fetch", { configurable: true, get: () => fetchNow, set: (v) => { fetchNow = wrap(v); } });
  for (const m of ["json", "text", "blob", "arrayBuffer"]) {
    const read = Response.prototype[m];
    Response.prototype[m] = function () { return track(read.call(this)); };
  }
  w.setTimeout = function (fn, ms, ...a) {
    if (typeof fn !== "function" || Number(ms || 0) > 5000) return st(fn, ms, ...a);
    const id = st(function (...x) { s.timers.delete(id); return fn.apply(this, x); }, ms, ...a);
    s.timers.add(id);
    return id;
  };
  w.clearTimeout = (id) => { s.timers.delete(id); return ct(id); };
  w.requestAnimationFrame = (fn) => {
    const id = raf((t) => { s.frames.delete(id); fn(t); });
    s.frames.add(id);
    return id;
  };
  w.cancelAnimationFrame = (id) => { s.frames.delete(id); return caf(id); };
  const push = history.pushState.bind(history);
  history.pushState = (...a) => { s.pushedAt = performance.now(); return push(...a); };
  const busy = () => document.readyState !== "complete" || s.pending > 0 || s.timers.size > 0 || s.frames.size > 0;
  s.idle = () => new Promise((resolve) => {
    let quiet = 0;
    const check = () => {
      quiet = busy() ? 0 : quiet + 1;
      if (quiet >= 2) resolve(true);
      else raf(() => st(check, 10)); // a frame between checks: observers' callbacks come with it
    };
    check();
  });
  w.__settle = s;
})()`

// watchWork makes every page of the tab count its work (settleJS).
func watchWork() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(settleJS).Do(ctx)
		return err
	})
}

// settled waits, for up to 30 seconds, until the page has no fetch, body,
// short timer or animation frame left (settleJS): what the last action
// set going has reached the page. It is a state, not a time: on a busy
// machine it waits longer, on an idle one less.
func settled() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		return chromedp.Run(ctx, eval(`window.__settle ? window.__settle.idle() : true`, nil))
	})
}

// until waits, for up to 20 seconds, until the expression cond is true:
// the state the test goes on to check. It does not fail on its own when
// the state never comes: the reading after it says what the page shows.
// A page replaced under it (a form sent) is asked again.
func until(cond string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		for {
			err := chromedp.Run(ctx, chromedp.Poll(cond, nil))
			switch {
			case err == nil:
				return nil
			case ctx.Err() != nil:
				return nil // the deadline: the check after says what there is
			case !strings.Contains(err.Error(), "context") && !strings.Contains(err.Error(), "navigated"):
				return err
			}
			// "Execution context was destroyed", "Cannot find context",
			// "Inspected target navigated or closed": the page went while
			// being asked; ask the new one.
		}
	})
}

// leave marks the page, so that arrived can tell the next one from it.
func leave() chromedp.Action { return eval(`window.__left = true`, nil) }

// arrived waits until a page other than the one leave marked is loaded
// and settled: a form's answer, a redirect's end.
func arrived() chromedp.Action {
	return chromedp.Tasks{until(`document.readyState === "complete" && !window.__left`), settled()}
}

// eventually waits for a state of the server or the archive that
// follows a page's request (httpapitest.Eventually).
func eventually(t testing.TB, cond func() bool) {
	t.Helper()
	httpapitest.Eventually(t, cond)
}

// atRest waits, for up to 20 seconds, until the page's scroll has come to
// rest (the same on three frames in a row): a smooth scroll a step set
// going is over, which a script's own scroll would not otherwise undo.
func atRest() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		return chromedp.Run(ctx, eval(`new Promise((done) => {
			let last = NaN, same = 0;
			const look = () => {
				same = scrollY === last ? same + 1 : 0;
				last = scrollY;
				if (same >= 3) done(true); else requestAnimationFrame(look);
			};
			look();
		})`, nil))
	})
}
