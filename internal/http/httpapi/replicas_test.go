package httpapi

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

// Two servers on one archive (replicas behind a load balancer) brake
// sign-ins with one budget: a client's wrong password through one makes
// it wait through the other, and a name's budget for unknown browsers is
// spent by guesses through both together. (On PostgreSQL, through the
// built binary: TestReplicas in cmd/syriamap.)
func TestReplicasShareTheBrake(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	var servers [2]string
	for i := range servers {
		a, err := archive.Open(context.Background(), db, httpapitest.Gazetteer(t), false)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		if i == 0 {
			addEditor(t, a)
		}
		ts, _ := serveArchive(t, a, Options{})
		servers[i] = ts.URL
	}
	guesser := clientFrom("127.0.0.2")
	if resp := signInAs(t, guesser, servers[0], "rana", "not the password at all"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a wrong password through the first server: %s", resp.Status)
	}
	if resp := signInAs(t, guesser, servers[1], "rana", testPassword); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("at once through the second server: %s, want 429", resp.Status)
	}
	checked := 1
	for i := range 4 * auth.NameGuesses {
		c := clientFrom("127.2.0." + itoa(1+i))
		if resp := signInAs(t, c, servers[i%2], "rana", "guess number "+itoa(i)); resp.StatusCode == http.StatusUnauthorized {
			checked++
		}
	}
	if checked != auth.NameGuesses {
		t.Errorf("guesses spread over two servers: %d checked, want the one budget of %d", checked, auth.NameGuesses)
	}
}
