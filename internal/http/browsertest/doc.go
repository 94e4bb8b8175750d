// Package browsertest holds the browser tests: the explorer, the review
// pages and the published site driven in headless Chromium, against
// servers built on the HTTP tests' harness (httpapi/httpapitest). They
// wait for the state they check (chromedp.Poll, WaitVisible, waitText),
// never for a time: a test that passes only on an idle machine is broken.
//
// Without Chromium the package says so once (go test prints "[no tests
// to run]" beside its ok; -v, the reason) and runs none of them, except
// under CI (CI=true), where a missing Chromium is a failure.
package browsertest
