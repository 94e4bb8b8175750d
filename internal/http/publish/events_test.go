package publish

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestPublishEventPhotos (issue 68, 5): a site writes the photos of its
// own linked to each event (data/event-photos, by the event's key, as
// the numbers of the points' rows), which its list's event filter and
// its popups' links read; an event's count of photos is of those in the
// site (a photo left out of the selection is not counted); the explorer
// offers the event filter; the manifest says the points limit, above
// which the map needs range requests.
func TestPublishEventPhotos(t *testing.T) {
	ctx := context.Background()
	a := testArchive(t, 40)
	if _, _, err := a.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	events, _, err := a.Events(ctx, conflict.EventQuery{Limit: 2})
	if err != nil || len(events) != 2 {
		t.Fatalf("two events: %d, %v", len(events), err)
	}
	x, y := photo.EventKey(events[0].Dataset, events[0].ID), photo.EventKey(events[1].Dataset, events[1].ID)
	all, err := a.Photos(ctx, photo.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var placed []string
	unplaced := ""
	for i := range all {
		p := &all[i]
		if p.Placed() {
			placed = append(placed, p.ID)
		} else {
			unplaced = p.ID
		}
	}
	if len(placed) < 2 || unplaced == "" {
		t.Fatalf("%d placed photos, unplaced %q", len(placed), unplaced)
	}
	links := []struct{ photo, key string }{{placed[0], x}, {placed[1], x}, {unplaced, x}, {placed[1], y}}
	for _, l := range links {
		dataset, id, _ := photo.SplitEventKey(l.key)
		if _, err := a.SetEventLink(ctx, l.photo, dataset, id, photo.LinkConfirmed, "editor rana"); err != nil {
			t.Fatal(err)
		}
	}

	dir := t.TempDir()
	if _, err := Publish(ctx, a, dir, Options{PointsLimit: 5}); err != nil { // the unplaced photo left out
		t.Fatal(err)
	}
	m := readManifest(t, dir)
	if m.EventPhotos == "" || m.PointsLimit != 5 {
		t.Fatalf("site.json: event_photos %q, points_limit %d", m.EventPhotos, m.PointsLimit)
	}
	var linked map[string][]int
	if err := json.Unmarshal(gunzipFile(t, filepath.Join(dir, m.EventPhotos)), &linked); err != nil {
		t.Fatal(err)
	}
	var points struct{ Points [][]any }
	if err := json.Unmarshal(gunzipFile(t, filepath.Join(dir, m.Points)), &points); err != nil {
		t.Fatal(err)
	}
	ids := func(ks []int) []string {
		var out []string
		for _, k := range ks {
			if k < 0 || k >= len(points.Points) {
				t.Fatalf("photo number %d of %d", k, len(points.Points))
			}
			out = append(out, points.Points[k][0].(string))
		}
		slices.Sort(out)
		return out
	}
	for key, want := range map[string][]string{x: {placed[0], placed[1]}, y: {placed[1]}} {
		slices.Sort(want)
		if got := ids(linked[key]); !slices.Equal(got, want) {
			t.Errorf("%s: the site's photos %v, want %v", key, got, want)
		}
	}
	if len(linked) != 2 {
		t.Errorf("event_photos holds %d events, want 2: %v", len(linked), linked)
	}

	// The events' counts are the site's: x has 2 photos here (3 in the
	// archive, one unplaced and not published).
	var ev struct{ Events [][]any }
	if err := json.Unmarshal(gunzipFile(t, filepath.Join(dir, m.Events)), &ev); err != nil {
		t.Fatal(err)
	}
	counts := map[string]float64{}
	for _, e := range ev.Events {
		counts[photo.EventKey(conflict.GED, e[0].(string))] = e[8].(float64)
	}
	if counts[x] != 2 || counts[y] != 1 {
		t.Errorf("the events' photos: %s %v, %s %v; want 2 and 1", x, counts[x], y, counts[y])
	}

	for _, page := range []string{"index.html", "ar/index.html"} {
		b, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil || !strings.Contains(string(b), `data-testid="event-filter"`) {
			t.Errorf("%s offers no event filter (%v)", page, err)
		}
	}
}

// TestPublishWithoutEvents: a site of an archive with no events names no
// events' photos and offers no event filter; its points limit is the
// explorer's own.
func TestPublishWithoutEvents(t *testing.T) {
	a := testArchive(t, 5)
	dir := t.TempDir()
	if _, err := Publish(context.Background(), a, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	m := readManifest(t, dir)
	if m.Events != "" || m.EventPhotos != "" || m.PointsLimit != pointsLimit {
		t.Errorf("site.json: events %q, event_photos %q, points_limit %d", m.Events, m.EventPhotos, m.PointsLimit)
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil || strings.Contains(string(b), `data-testid="event-filter"`) {
		t.Errorf("index.html offers an event filter with no events (%v)", err)
	}
}
