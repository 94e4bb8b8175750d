package photo

import "testing"

// TestShownWaitingPlacement (issue 65, 5): a placement waiting for its
// second look (or a third editor) is shown to its first editor and the
// archive's own reads alone; everyone else reads the photo unplaced, with
// nothing of the answer, and its wait said. A decided one shows to all.
func TestShownWaitingPlacement(t *testing.T) {
	answer := Place{ID: "gn:9", Name: "Qaryat", Lon: 38.7, Lat: 35.1, Located: true, Precision: "corrected", Note: "the silo"}
	cases := []struct {
		name   string
		viewer Viewer
		look   string
		shown  bool
	}{
		{"the public, waiting", Public, LookWaiting, false},
		{"the second editor, waiting", Viewer{Editor: "omar"}, LookWaiting, false},
		{"another editor, disagreed", Viewer{Editor: "lina"}, LookDisagreed, false},
		{"the first editor", Viewer{Editor: "Rana"}, LookWaiting, true},
		{"the archive's own read", Viewer{Editor: "syriamap", Archive: true}, LookDisagreed, true},
		{"the public, agreed", Public, "agreed", true},
		{"the public, adjudicated", Public, "adjudicated", true},
		{"the public, asked before any placement", Public, "requested", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &Photo{ID: "x", Caption: "A shop.", Place: answer, Geocoded: answer, Review: ReviewCorrected, ReviewedBy: "rana",
				Correction: &Correction{Note: "the silo"}, SecondLook: c.look, Check: Check{Agreement: "agrees", Note: "Qaryat agrees", Parts: "place", IPTCCity: "Idlib"}}
			got := c.viewer.Shown(p)
			placed := got.Place.Located || got.Place.ID != "" || got.Geocoded.ID != "" || got.Correction != nil || got.ReviewedBy != "" || got.Check.Note != "" || got.Check.Agreement != "" || got.Check.Parts != ""
			if placed != c.shown || got.Caption != "A shop." || got.SecondLook != c.look || got.Check.IPTCCity != "Idlib" {
				t.Errorf("shown %v (placed %v, %+v)", c.shown, placed, got)
			}
			f := &Feature{ID: "x", PlaceID: answer.ID, PlaceName: answer.Name, Lon: answer.Lon, Lat: answer.Lat, Located: true, ReviewedBy: "rana",
				Check: Check{Agreement: "agrees", Note: "Qaryat agrees"}}
			c.viewer.ShownFeature(f, c.look)
			if (f.Located || f.PlaceID != "" || f.PlaceName != "" || f.Check.Agreement != "" || f.Check.Note != "") != c.shown {
				t.Errorf("feature shown %v: %+v", c.shown, f)
			}
		})
	}
}

// TestCountEditors: the editors behind something count once each, their
// names compared as SameEditor does; nobody counts for none.
func TestCountEditors(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  int
	}{
		{nil, 0},
		{[]string{""}, 0},
		{[]string{"rana"}, 1},
		{[]string{"rana", "rana"}, 1},
		{[]string{"rana", "Rana ", "RANA"}, 1},
		{[]string{"rana", "omar"}, 2},
		{[]string{"rana", "", "omar", "Omar"}, 2},
	} {
		if got := CountEditors(c.names); got != c.want {
			t.Errorf("CountEditors(%q) = %d, want %d", c.names, got, c.want)
		}
	}
}
