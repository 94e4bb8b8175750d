package httpapitest

import (
	"testing"
	"time"
)

// Eventually calls cond until it reports true, every 20 ms for up to 20
// seconds: a state the test waits for (a job done, a connection let go),
// never a time. It does not fail on its own: the check after it says
// what there is.
func Eventually(t testing.TB, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(20 * time.Second); !cond() && time.Now().Before(deadline); <-tick.C {
	}
}
