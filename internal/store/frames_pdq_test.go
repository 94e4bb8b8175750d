package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestFramePDQKept: an image's PDQ hash and quality are stored beside its
// frame hash, by import and by AddFrames, and read back by PhotoFrames; a
// frame without one (hashed before PDQ was) is stored with none and is
// listed by FramesMissing, so that `syriamap frames` recomputes it; an
// archive written before the columns keeps its frames, PDQ null (issue
// 70, item 2).
func TestFramePDQKept(t *testing.T) {
	ctx := context.Background()
	path := archivePath(t, "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	pdq := "f8f8f0cce0f4e84d0e370a22028f67f0b36e2ed596623e1d33e6339c4e9c9b22"
	withPDQ, without := *fixture[0], *fixture[1]
	withPDQ.File = &photo.File{Path: "/in/a.jpg", SHA256: strings.Repeat("a1", 32), Size: 10, ModTime: time.Unix(1e9, 0).UTC(), Meta: "{}"}
	without.File = &photo.File{Path: "/in/b.jpg", SHA256: strings.Repeat("b2", 32), Size: 10, ModTime: time.Unix(1e9, 0).UTC(), Meta: "{}"}
	recs := []Record{
		{Photo: &withPDQ, Source: withPDQ.File.Path, Frame: &Frame{Hash: 7, Mirrored: 8, PDQ: pdq, PDQQuality: 93}},
		{Photo: &without, Source: without.File.Path},
	}
	if _, err := db.ImportFile(ctx, "images", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.AddFrames(ctx, map[string]Frame{without.File.SHA256: {Hash: 9, Mirrored: 10}}); err != nil {
		t.Fatal(err)
	}
	check := func(when string, want map[string]Frame, missing []string) {
		t.Helper()
		frames, err := db.PhotoFrames(photo.WithViewer(ctx, photo.Public))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]Frame{}
		for _, f := range frames {
			got[f.PhotoID] = f.Frame
		}
		for id, w := range want {
			if got[id] != w {
				t.Errorf("%s: %s's frame %+v, want %+v", when, id, got[id], w)
			}
		}
		refs, err := db.FramesMissing(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range refs {
			ids = append(ids, r.PhotoID)
		}
		if strings.Join(ids, ",") != strings.Join(missing, ",") {
			t.Errorf("%s: FramesMissing %v, want %v", when, ids, missing)
		}
	}
	check("as stored", map[string]Frame{
		withPDQ.ID: {Hash: 7, Mirrored: 8, PDQ: pdq, PDQQuality: 93},
		without.ID: {Hash: 9, Mirrored: 10},
	}, []string{without.ID})

	// As an archive written before the columns holds its frames.
	if !olderSchema(t) {
		return
	}
	for _, q := range []string{`ALTER TABLE frames DROP COLUMN pdq`, `ALTER TABLE frames DROP COLUMN pdq_quality`,
		`DELETE FROM schema_migrations WHERE name = '0035_frames_pdq.sql'`} {
		if _, err := db.write.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if db, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	check("after the migration", map[string]Frame{
		withPDQ.ID: {Hash: 7, Mirrored: 8},
		without.ID: {Hash: 9, Mirrored: 10},
	}, []string{withPDQ.ID, without.ID})
}
