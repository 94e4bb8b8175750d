package httpapitest

import (
	"context"
	"image"
	"image/color"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// Harm is an archive of image files (ImageArchive's) and of a photo from
// a media folder, with one photo of each kind withheld (an imported
// image file, found by its hash; a media file, by its path), one marked
// graphic, and a published story, shelters, that shows all three.
type Harm struct {
	A                   *archive.Archive
	Media               string       // the media folder
	Withheld, FromMedia *photo.Photo // both withheld
	Graphic             *photo.Photo
	Public              int    // photos the public may see
	Token               string // Editor's bearer token
}

// HarmArchive makes a Harm archive.
func HarmArchive(t testing.TB) *Harm {
	t.Helper()
	a, dir := ImageArchive(t)
	ctx := context.Background()
	media := filepath.Join(dir, "media")
	img := image.NewRGBA(image.Rect(0, 0, 300, 200))
	for x := range 300 {
		img.Set(x, 100, color.RGBA{200, 0, 0, 255})
	}
	writeFile(t, filepath.Join(media, "hidden-family.png"), pngOf(t, img))
	csvPath := filepath.Join(dir, "media.csv")
	writeFile(t, csvPath, "caption,image_path\n"+
		"\"A family shelters in a basement in Qalb Lozeh, Idlib province, Syria, February 9, 2015. REUTERS/Ammar Abdullah\",hidden-family.png\n")
	if _, err := a.ImportFile(ctx, csvPath, "", nil); err != nil {
		t.Fatal(err)
	}
	all, err := a.Photos(ctx, photo.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	h := &Harm{A: a, Media: media, Public: len(all) - 2}
	for i := range all {
		p := &all[i]
		switch {
		case p.ImagePath == "hidden-family.png":
			h.FromMedia = p
		case p.ImageFile != "" && p.Place.Located && h.Withheld == nil:
			h.Withheld = p
		case p.ImageFile != "" && h.Graphic == nil:
			h.Graphic = p
		}
	}
	if h.Withheld == nil || h.FromMedia == nil || h.Graphic == nil {
		t.Fatal("the fixtures lack a photo of each kind")
	}
	for _, m := range []struct {
		p    *photo.Photo
		harm string
	}{{h.Withheld, photo.HarmWithheld}, {h.FromMedia, photo.HarmWithheld}, {h.Graphic, photo.HarmGraphic}} {
		if _, err := a.SetHarm(ctx, m.p.ID, m.harm, "editor rana", "people in it can be recognised"); err != nil {
			t.Fatal(err)
		}
		m.p.Harm = m.harm
	}
	st := story.Story{Slug: "shelters", Title: "Shelters", Status: story.Published, Steps: []story.Step{{
		Heading: "Basements", Highlight: h.Withheld.ID,
		Photos: []story.PhotoRef{{ID: h.Withheld.ID, Caption: h.Withheld.Caption}, {ID: h.FromMedia.ID, Caption: h.FromMedia.Caption}, {ID: h.Graphic.ID, Caption: h.Graphic.Caption}},
	}}}
	if _, err := a.SaveStory(ctx, st, "", "rana", ""); err != nil {
		t.Fatal(err)
	}
	h.Token = AddEditor(t, a, Editor)
	return h
}
