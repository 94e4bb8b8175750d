package browsertest

import (
	"fmt"
	"os"
	"testing"

	"github.com/syriamap/syriamap/internal/http/headless"
)

func TestMain(m *testing.M) {
	if _, err := headless.Path(); err != nil {
		if os.Getenv("CI") == "true" {
			fmt.Fprintf(os.Stderr, "browsertest: %v; CI must install it\n", err)
			os.Exit(1)
		}
		// The line go test reads to say "[no tests to run]" beside the
		// package's ok, which a run of ./... shows: the skip is said once.
		fmt.Printf("browsertest: %v: the browser tests did not run\ntesting: warning: no tests to run\n", err)
		os.Exit(0)
	}
	code := m.Run()
	if chromium.cancel != nil {
		chromium.cancel() // the browser the tests shared
	}
	os.Exit(code)
}
