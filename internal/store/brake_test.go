package store

import (
	"context"
	"testing"
	"time"
)

// TestUpdateBrake: the sign-in brake's records go into the archive and
// come back as they were left (two guesses at one time stay two), from a
// second handle on the same archive too (another server); a record the
// change deletes is forgotten, and so is one past the bounds, named or
// not.
func TestUpdateBrake(t *testing.T) {
	ctx := context.Background()
	path := archivePath(t, "a.db")
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	now := time.Date(2026, 12, 1, 10, 0, 0, 123456789, time.UTC)
	long := now.Add(-48 * time.Hour)
	err = a.UpdateBrake(ctx, []string{"addr:1", "name:rana", "addr:old"}, []string{"rana", "omar"}, long, long, func(r *BrakeRecords) {
		if len(r.Strikes) != 0 || len(r.Guesses) != 0 {
			t.Errorf("a new archive holds %+v", r)
		}
		r.Strikes["addr:1"] = BrakeStrike{Failures: 3, Until: now.Add(4 * time.Second)}
		r.Strikes["name:rana"] = BrakeStrike{Failures: 1, Until: now.Add(time.Second)}
		r.Strikes["addr:old"] = BrakeStrike{Failures: 1, Until: now.Add(-time.Hour)}
		r.Strikes["addr:unnamed"] = BrakeStrike{Failures: 9, Until: now} // not named: not kept
		r.Guesses["rana"] = []time.Time{now, now, now.Add(time.Millisecond)}
		r.Guesses["omar"] = []time.Time{now.Add(-2 * time.Hour)}
	})
	if err != nil {
		t.Fatal(err)
	}
	// The other server reads them, and sees them as it updates; the
	// bounds now forget the old ones.
	read, err := b.ReadBrake(ctx, []string{"addr:1", "addr:unnamed"}, []string{"rana"})
	if err != nil {
		t.Fatal(err)
	}
	if s := read.Strikes["addr:1"]; len(read.Strikes) != 1 || s.Failures != 3 || len(read.Guesses["rana"]) != 3 {
		t.Errorf("another handle reads %+v", read)
	}
	err = b.UpdateBrake(ctx, []string{"addr:1", "name:rana", "addr:old", "addr:unnamed"}, []string{"rana", "omar"}, now.Add(-time.Minute), now.Add(-time.Hour),
		func(r *BrakeRecords) {
			if s := r.Strikes["addr:1"]; s.Failures != 3 || !s.Until.Equal(now.Add(4*time.Second)) {
				t.Errorf("addr:1 came back as %+v", s)
			}
			if _, ok := r.Strikes["addr:unnamed"]; ok {
				t.Error("a key the update did not name was kept")
			}
			if g := r.Guesses["rana"]; len(g) != 3 || !g[0].Equal(now) || !g[1].Equal(now) || !g[2].Equal(now.Add(time.Millisecond)) {
				t.Errorf("rana's guesses came back as %v", g)
			}
			delete(r.Strikes, "name:rana")
		})
	if err != nil {
		t.Fatal(err)
	}
	err = a.UpdateBrake(ctx, []string{"addr:1", "name:rana", "addr:old"}, []string{"rana", "omar"}, now.Add(-time.Minute), now.Add(-time.Hour), func(r *BrakeRecords) {
		if _, ok := r.Strikes["name:rana"]; ok {
			t.Error("a strike the change deleted is still kept")
		}
		if _, ok := r.Strikes["addr:old"]; ok {
			t.Error("a strike past the bound is still kept")
		}
		if _, ok := r.Guesses["omar"]; ok {
			t.Error("a guess past the bound is still kept")
		}
		if len(r.Strikes) != 1 || len(r.Guesses["rana"]) != 3 {
			t.Errorf("the records are %+v", r)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}
