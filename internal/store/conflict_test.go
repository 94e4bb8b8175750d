package store

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/photo"
)

func gedSample(t *testing.T) []conflict.Event {
	t.Helper()
	f, err := os.Open("../conflict/testdata/ged-syria-sample.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs, err := conflict.Read(f, "ged-syria-sample.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestImportEventsVersions: a version imported twice changes nothing; a
// newer one updates what changed and retires what the dataset dropped,
// each change recorded; an event back again is restored; a mixed import
// writes nothing.
func TestImportEventsVersions(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	evs := gedSample(t)
	sum, err := db.ImportEvents(ctx, conflict.GED, "19.1", evs, "test")
	if err != nil || sum != (EventsSummary{Added: 11}) {
		t.Fatalf("first import: %+v, %v", sum, err)
	}
	if sum, err := db.ImportEvents(ctx, conflict.GED, "19.1", evs, "test"); err != nil || sum != (EventsSummary{Unchanged: 11}) {
		t.Errorf("again: %+v, %v", sum, err)
	}
	// 20.1: the first event's deaths revised, the last dropped.
	next := slices.Clone(evs[:len(evs)-1])
	next[0].Deaths++
	sum, err = db.ImportEvents(ctx, conflict.GED, "20.1", next, "test")
	if err != nil || sum != (EventsSummary{Changed: 1, Unchanged: 9, Retired: 1}) {
		t.Errorf("a newer version: %+v, %v", sum, err)
	}
	if ch, _ := db.EventChanges(ctx, conflict.GED, evs[1].ID); !slices.Equal(ch, []string{"19.1 added"}) {
		t.Errorf("an event only the version moved: changes %q", ch)
	}
	if held, _ := db.EventDatasets(ctx); len(held) != 1 || held[0].Events != 10 || held[0].Version != "20.1" {
		t.Errorf("after one was dropped: %+v, want 10 events of 20.1", held)
	}
	dropped := evs[len(evs)-1]
	if _, retired, err := db.Event(ctx, conflict.GED, dropped.ID); err != nil || retired != "20.1" {
		t.Errorf("the dropped event: retired %q, %v", retired, err)
	}
	if e, _, _ := db.Event(ctx, conflict.GED, evs[0].ID); e.Deaths != evs[0].Deaths+1 || e.Version != "20.1" {
		t.Errorf("the revised event: %+v", e)
	}
	if sum, err := db.ImportEvents(ctx, conflict.GED, "20.2", evs, "test"); err != nil || sum.Restored != 1 {
		t.Errorf("the dropped event back: %+v, %v", sum, err)
	}
	if ch, _ := db.EventChanges(ctx, conflict.GED, dropped.ID); !slices.Equal(ch, []string{"19.1 added", "20.1 retired", "20.2 restored"}) {
		t.Errorf("the dropped event's changes: %q", ch)
	}
	// All or nothing: an ACLED event among GED's.
	mixed := slices.Clone(evs)
	mixed[3].Dataset = conflict.ACLED
	mixed[0].Deaths += 100
	if _, err := db.ImportEvents(ctx, conflict.GED, "21.1", mixed, "test"); photo.ErrorCode(err) != photo.EInvalid {
		t.Errorf("a mixed import: %v, want refused", err)
	}
	if e, _, _ := db.Event(ctx, conflict.GED, evs[0].ID); e.Version != "20.2" {
		t.Errorf("a refused import wrote the first event: %+v", e)
	}
}
