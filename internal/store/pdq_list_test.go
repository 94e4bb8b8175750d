package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestEachPhotoPDQ: the PDQ hashes of the photos a viewer may see, in
// import order: the public's read leaves the withheld photo out, an
// editor's lists it, marked; an image not hashed yet is listed without a
// hash; a picture imported twice is one hash; a photo without an image
// is not listed (issue 70, item 3).
func TestEachPhotoPDQ(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, archivePath(t, "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hash := func(c string) string { return strings.Repeat(c, 64) }
	var recs []Record
	ids := make([]string, 5)
	for i, f := range []*Frame{
		{Hash: 1, PDQ: hash("a"), PDQQuality: 93},
		{Hash: 2, PDQ: hash("b"), PDQQuality: 20}, // low quality: listed, the archive leaves it out
		{Hash: 3, PDQ: hash("c"), PDQQuality: 88}, // to be withheld
		nil, // not hashed yet
		nil, // no image
	} {
		p := *fixture[i]
		ids[i] = p.ID
		if i < 4 {
			p.File = &photo.File{Path: fmt.Sprintf("/in/%d.jpg", i), SHA256: strings.Repeat(fmt.Sprintf("%02d", i), 32), Size: 10, ModTime: time.Unix(1e9, 0).UTC(), Meta: "{}"}
		}
		recs = append(recs, Record{Photo: &p, Source: fmt.Sprintf("/in/%d.jpg", i), Frame: f})
	}
	if _, err := db.ImportFile(ctx, "images", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	// The first photo's picture imported again under another name (one
	// hash, listed once), and another not hashed yet (listed unhashed).
	for _, q := range []string{
		`INSERT INTO files (path, photo, sha256, size, mtime, imported) SELECT '/in/0-again.jpg', photo, sha256, size, mtime, imported FROM files WHERE path = '/in/0.jpg'`,
		`INSERT INTO files (path, photo, sha256, size, mtime, imported) SELECT '/in/0-other.jpg', photo, '` + strings.Repeat("ef", 32) + `', size, mtime, imported FROM files WHERE path = '/in/0.jpg'`,
	} {
		if _, err := db.write.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	editor := photo.AsEditor(ctx, "rana")
	if _, err := db.SetHarm(editor, ids[2], photo.HarmWithheld, "rana", "a test"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want []PhotoPDQ
	}{
		{"public", photo.WithViewer(ctx, photo.Public), []PhotoPDQ{
			{PhotoID: ids[0]},
			{PhotoID: ids[0], PDQ: hash("a"), Quality: 93},
			{PhotoID: ids[1], PDQ: hash("b"), Quality: 20},
			{PhotoID: ids[3]},
		}},
		{"editor", editor, []PhotoPDQ{
			{PhotoID: ids[0]},
			{PhotoID: ids[0], PDQ: hash("a"), Quality: 93},
			{PhotoID: ids[1], PDQ: hash("b"), Quality: 20},
			{PhotoID: ids[2], PDQ: hash("c"), Quality: 88, Withheld: true},
			{PhotoID: ids[3]},
		}},
	} {
		var got []PhotoPDQ
		if err := db.EachPhotoPDQ(tc.ctx, func(h PhotoPDQ) error { got = append(got, h); return nil }); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}
