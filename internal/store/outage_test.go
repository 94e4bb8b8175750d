package store

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/pgtest"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestAServerGoneAwayIsUnavailable: PostgreSQL killed in the middle of an
// import, and down after: the import, a read, a write and the health probe
// each answer EUnavailable, naming the archive without its password; the
// import is refused whole (no photo, no custody record of it; the chain
// verifies); once the server is back, the same *DB reads and writes again.
func TestAServerGoneAwayIsUnavailable(t *testing.T) {
	if !onPostgres {
		t.Skip("a PostgreSQL server to stop")
	}
	ctx := context.Background()
	start, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	// A cluster of its own: the package's is shared by the other tests.
	c, err := pgtest.Start(start)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	u, _ := url.Parse(c.URL + "postgres")
	u.User = url.UserPassword("syriamap", "s3cret") // trust: any password goes
	db, err := Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	importFixture(t, db)
	head, err := db.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}

	var recs []Record
	for i := range 5000 {
		p := mk(fmt.Sprintf("Photo %d of a cut import in Aleppo.", i), "2016-01-02", "AFP", "A B", "gn:1", "Aleppo", "Aleppo", 37.16, 36.2, 0.9)
		recs = append(recs, Record{Photo: p, Line: i + 1})
	}
	killed := false
	_, err = db.ImportFile(ctx, "cut.txt", Records(recs), func(int) {
		if !killed {
			killed = true
			c.Kill() // half way through the import's transaction
		}
	})
	if !killed {
		t.Fatal("the import ended before the server was killed")
	}
	down := map[string]error{"the import": err, "health": db.Health(ctx)}
	_, down["a count"] = db.Count(ctx)
	_, down["a harm mark"] = db.SetHarm(ctx, fixture[0].ID, photo.HarmGraphic, "rana", "a body")
	for what, err := range down {
		// The log names the archive, without its password; a reader is
		// told neither its address nor its user.
		msg := photo.ErrorMessage(err)
		if photo.ErrorCode(err) != photo.EUnavailable || !strings.Contains(msg, "cannot be reached") || strings.Contains(msg, "127.0.0.1") ||
			strings.Contains(msg, "syriamap@") || !strings.Contains(err.Error(), "127.0.0.1") || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s with the server down: %v (%s: %q); want it unavailable, the log naming the archive without its password, the reader neither", what, err, photo.ErrorCode(err), msg)
		}
	}

	if err := c.Restart(start); err != nil {
		t.Fatal(err)
	}
	// The same handle comes back: database/sql drops the broken
	// connections and makes new ones.
	deadline := time.Now().Add(30 * time.Second)
	for err := db.Health(ctx); err != nil; err = db.Health(ctx) {
		if time.Now().After(deadline) {
			t.Fatalf("the archive still unavailable with its server back: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n, err := db.Count(ctx); err != nil || n != len(fixture) {
		t.Errorf("after the cut import: %d photos, %v; want the %d before it", n, err, len(fixture))
	}
	if now, err := db.Head(ctx); err != nil || now != head {
		t.Errorf("the chain's head %+v, %v; want it as before the cut import, %+v", now, err, head)
	}
	if checked, problems, err := db.VerifyCustody(ctx, nil); err != nil || len(problems) != 0 || checked != head.Seq {
		t.Errorf("verify after the cut import: %d records, %+v, %v", checked, problems, err)
	}
	if changed, err := db.SetHarm(ctx, fixture[0].ID, photo.HarmGraphic, "rana", "a body"); err != nil || !changed {
		t.Errorf("a write with the server back: %v, %v", changed, err)
	}
}
