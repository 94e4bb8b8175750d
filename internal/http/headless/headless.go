// Package headless starts Chromium without a display for the explorer's
// browser tests and the bench command: one place knows where Debian puts
// the browser and which flags it needs in a container.
package headless

import (
	"context"
	"errors"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// ErrNotInstalled says no Chromium was found on PATH.
var ErrNotInstalled = errors.New("chromium is not installed (Debian's chromium package)")

// Path returns the first Chromium-like browser on PATH.
func Path() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotInstalled
}

// Start launches headless Chromium with a window of width × height CSS
// pixels and returns a chromedp context for its first tab; cancel closes
// the browser. No sandbox and no /dev/shm: containers lack both.
func Start(parent context.Context, width, height int) (ctx context.Context, cancel context.CancelFunc, err error) {
	path, err := Path()
	if err != nil {
		return nil, nil, err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(width, height), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(parent, opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	return ctx, func() { cancelCtx(); cancelAlloc() }, nil
}
