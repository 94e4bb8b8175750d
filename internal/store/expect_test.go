package store

import (
	"context"
	"errors"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestIfMatchWrites: a write carrying an If-Match header (read by
// photo.IfMatch) goes through only when the header names the photo's
// version as it stands, compared strongly: a weak tag of the current
// version is refused as stale, as is a tag of an older version (which
// says who changed it since); "*" and no header expect no version.
func TestIfMatchWrites(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	id := fixture[0].ID
	for _, c := range []struct {
		name, header string
		stale        bool
	}{
		{"the current version", "current", false},
		{"a weak tag of the current version", "weak", true},
		{"an older version", "older", true},
		{"another kind's tag", `"story-1"`, true},
		{"any version", "*", false},
		{"no header", "", false},
	} {
		p, err := db.Photo(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		header := c.header
		switch header {
		case "current":
			header = photo.ETag(photo.VersionPhoto, p.Rev)
		case "weak":
			header = "W/" + photo.ETag(photo.VersionPhoto, p.Rev)
		case "older":
			header = photo.ETag(photo.VersionPhoto, p.Rev-1)
		}
		wctx := ctx
		if v, ok := photo.IfMatch(header, photo.VersionPhoto); ok {
			wctx = photo.Expect(ctx, photo.VersionPhoto, id, v)
		}
		note := "note " + c.name
		_, err = db.Apply(wctx, []string{id}, photo.Change{Author: "rana", Note: note, Photographer: ptr(c.name)})
		var e *photo.Error
		switch {
		case c.stale && (!errors.As(err, &e) || e.Code != photo.EStale):
			t.Errorf("%s (%s): %v; want it refused as stale", c.name, header, err)
		case c.stale && c.name == "an older version" && e.Current.(photo.Stale).By != "rana":
			t.Errorf("%s: the refusal says %+v; want rana's last change", c.name, e.Current)
		case !c.stale && err != nil:
			t.Errorf("%s (%s): %v; want the write", c.name, header, err)
		}
		after, _ := db.Photo(ctx, id)
		if changed := after.Photographer == c.name; changed == c.stale {
			t.Errorf("%s: photographer %q after the write", c.name, after.Photographer)
		}
	}
}

// TestStaleNamesTheLastChange: a refusal names the last change of the
// photo, not a record that changed nothing (an export, a fixity check)
// written after it by someone else.
func TestStaleNamesTheLastChange(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	id := fixture[0].ID
	before, err := db.Photo(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Apply(ctx, []string{id}, photo.Change{Author: "rana", Photographer: ptr("R. Said")}); err != nil {
		t.Fatal(err)
	}
	for _, action := range recordsOnly {
		if err := db.AddCustody(ctx, "omar", action, map[string]any{id: map[string]any{"bag": "x"}}); err != nil {
			t.Fatal(err)
		}
	}
	wctx := photo.Expect(ctx, photo.VersionPhoto, id, before.Rev)
	_, err = db.Apply(wctx, []string{id}, photo.Change{Author: "omar", Photographer: ptr("someone")})
	var e *photo.Error
	if !errors.As(err, &e) || e.Code != photo.EStale {
		t.Fatalf("a write over an older version: %v; want it refused as stale", err)
	}
	if st := e.Current.(photo.Stale); st.By != "rana" || st.Action == "export" || st.Action == "fixity" {
		t.Errorf("the refusal says %+v; want rana's change", st)
	}
}
