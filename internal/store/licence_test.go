package store

import (
	"context"
	"os"
	"testing"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestLicencesNameTheDatasets: the licence table (photo.Licences) is
// keyed on the datasets the archive reads: GED anyone's, ACLED editors'.
func TestLicencesNameTheDatasets(t *testing.T) {
	if !photo.LicenceOf(conflict.GED).Public || photo.LicenceOf(conflict.ACLED).Public || len(photo.Licences) != 2 {
		t.Errorf("licences %+v: want GED public, ACLED editors'", photo.Licences)
	}
}

// TestEventsAsTheViewerMaySee (issue 67, 1a and 4h): the reads of
// conflict events follow the datasets' licences, not the withheld rule —
// a reader never reads ACLED's events or links to them, an editor reads
// them one at a time, and a collection is the public datasets' for
// everyone — and an event's photos, counted for its OGC item
// (LinksToEvent) or its collection (Events), are the ones the viewer may
// see: a withheld photo linked to a GED event is no reader's.
func TestEventsAsTheViewerMaySee(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	editor := photo.AsEditor(ctx, "rana")
	ged := gedSample(t)
	f, err := os.Open("../conflict/testdata/acled-synthetic.csv")
	if err != nil {
		t.Fatal(err)
	}
	acled, err := conflict.Read(f, "acled-synthetic.csv", "2020-01")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ImportEvents(ctx, conflict.GED, "19.1", ged, "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ImportEvents(ctx, conflict.ACLED, "2020-01", acled, "test"); err != nil {
		t.Fatal(err)
	}
	shown, hidden, other := fixture[0].ID, fixture[2].ID, fixture[3].ID
	for _, l := range []struct{ photo, dataset, event string }{
		{shown, conflict.GED, ged[0].ID}, {hidden, conflict.GED, ged[0].ID}, {other, conflict.ACLED, acled[0].ID},
	} {
		if _, err := db.SetEventLink(ctx, l.photo, l.dataset, l.event, photo.LinkConfirmed, "rana"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.SetHarm(editor, hidden, photo.HarmWithheld, "rana", "the family asked"); err != nil {
		t.Fatal(err)
	}
	for _, v := range []eventsView{{"a reader", ctx, 1, 0}, {"an editor", editor, 2, 1}} {
		v.check(t, db, ged[0], acled[0], other)
	}
	// The public's events column (the features' links) is GED's alone.
	if p, err := db.Photo(editor, other); err != nil || p.Events != "" {
		t.Errorf("the ACLED-linked photo's public events: %q, %v", p.Events, err)
	}
}

// eventsView is who reads the events, and how many photos of the GED
// and the ACLED event they may see.
type eventsView struct {
	who                  string
	ctx                  context.Context
	gedPhotos, aclPhotos int
}

func (v eventsView) check(t *testing.T, db *DB, gedEvent, acledEvent conflict.Event, other string) {
	t.Helper()
	gedKey, acledKey := conflict.GED+":"+gedEvent.ID, conflict.ACLED+":"+acledEvent.ID
	links, err := db.LinksToEvent(v.ctx, conflict.GED, gedEvent.ID)
	if err != nil || len(links) != v.gedPhotos {
		t.Errorf("%s: the GED event's item counts %d photos (%v); want %d", v.who, len(links), err, v.gedPhotos)
	}
	rows, _, err := db.Events(v.ctx, EventQuery{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Dataset != conflict.GED {
			t.Errorf("%s: the collection holds %s event %s", v.who, r.Dataset, r.ID)
		}
		if r.ID == gedEvent.ID && r.Photos != v.gedPhotos {
			t.Errorf("%s: the collection counts %d photos of the GED event; want %d", v.who, r.Photos, v.gedPhotos)
		}
	}
	if links, err := db.LinksToEvent(v.ctx, conflict.ACLED, acledEvent.ID); err != nil || len(links) != v.aclPhotos {
		t.Errorf("%s: the ACLED event's links: %d, %v; want %d", v.who, len(links), err, v.aclPhotos)
	}
	if links, err := db.EventLinks(v.ctx, other); err != nil || len(links) != v.aclPhotos {
		t.Errorf("%s: the photo's links to ACLED: %d, %v; want %d", v.who, len(links), err, v.aclPhotos)
	}
	if n, err := db.CountPhotos(v.ctx, photo.Filter{Event: acledKey}); err != nil || n != v.aclPhotos {
		t.Errorf("%s: photos of the ACLED event: %d, %v; want %d", v.who, n, err, v.aclPhotos)
	}
	if n, err := db.CountPhotos(v.ctx, photo.Filter{Event: gedKey}); err != nil || n != v.gedPhotos {
		t.Errorf("%s: photos of the GED event: %d, %v; want %d", v.who, n, err, v.gedPhotos)
	}
	all, err := db.AllEvents(v.ctx)
	if saw := sawDataset(all, conflict.ACLED); err != nil || saw != (v.aclPhotos > 0) {
		t.Errorf("%s: AllEvents holds ACLED's: %v (%v)", v.who, saw, err)
	}
	meeting, err := db.EventsMeeting(v.ctx, 19000101, 21000101)
	if saw := sawDataset(meeting, conflict.ACLED); err != nil || saw != (v.aclPhotos > 0) {
		t.Errorf("%s: EventsMeeting holds ACLED's: %v (%v)", v.who, saw, err)
	}
}

// sawDataset reports whether events holds one of dataset's.
func sawDataset(events []conflict.Event, dataset string) bool {
	for _, e := range events {
		if e.Dataset == dataset {
			return true
		}
	}
	return false
}
