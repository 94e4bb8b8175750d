package store

import (
	"context"
	"testing"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestSetEventLinksOneIncident (issue 69, 3): the rows of one incident
// are decided together, in one transaction, each its own custody
// record; one unknown or retired row refuses them all.
func TestSetEventLinksOneIncident(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, archivePath(t, "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	importFixture(t, db)
	id := fixture[0].ID
	evs := gedSample(t)
	if _, err := db.ImportEvents(ctx, conflict.GED, "19.1", evs, "test"); err != nil {
		t.Fatal(err)
	}
	confirmed := func() map[string]bool {
		t.Helper()
		links, err := db.EventLinks(photo.AsEditor(ctx, "test"), id)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, l := range links {
			out[l.EventID] = l.Decision == photo.LinkConfirmed
		}
		return out
	}
	group := []string{evs[0].ID, evs[1].ID, evs[2].ID}
	// One unknown row: nothing is linked.
	if _, err := db.SetEventLinks(ctx, id, conflict.GED, append(group, "999999999"), photo.LinkConfirmed, "rana"); photo.ErrorCode(err) != photo.ENotFound {
		t.Fatalf("an unknown row among them: %v, want not found", err)
	}
	if got := confirmed(); len(got) != 0 {
		t.Fatalf("a refused group linked %v", got)
	}
	records := func() int {
		t.Helper()
		recs, err := db.CustodyOf(photo.AsEditor(ctx, "test"), id)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range recs {
			if r.Action == "event-link" {
				n++
			}
		}
		return n
	}
	changed, err := db.SetEventLinks(ctx, id, conflict.GED, group, photo.LinkConfirmed, "rana")
	if err != nil || !changed {
		t.Fatalf("confirm the group: %v %v", changed, err)
	}
	if got := confirmed(); len(got) != 3 || !got[group[0]] || !got[group[1]] || !got[group[2]] {
		t.Errorf("confirmed %v, want all of %v", got, group)
	}
	if n := records(); n != 3 {
		t.Errorf("%d custody records of the links, want 3", n)
	}
	// Again: nothing changes, nothing is recorded.
	if changed, err := db.SetEventLinks(ctx, id, conflict.GED, group, photo.LinkConfirmed, "rana"); err != nil || changed {
		t.Errorf("the same decision again: changed %v, %v", changed, err)
	}
	if n := records(); n != 3 {
		t.Errorf("%d custody records after the same decision again, want 3", n)
	}
}
