package archive

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// A place an editor adds is where the next caption naming it lands, it
// survives regeocode and the archive's reopening, its kind, point and
// parent are checked, and a batch with a bad place keeps none.
func TestAddedPlaceIsWhereTheNextCaptionLands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "archive.db")
	a := openTest(t, path)
	caption := "Displaced families gather at the Qarqur Tent Shelter in the countryside, Syria, March 3, 2017. (Photo by A. Person/Reuters)"
	if got := a.Build(ingestCaption(caption)).Place; got.ID != "" && got.Name == "Qarqur Tent Shelter" {
		t.Fatalf("the bundled gazetteer already knows the shelter: %+v", got)
	}
	for _, bad := range []struct {
		p    photo.AddedPlace
		want string
	}{
		{photo.AddedPlace{Name: "", Kind: "camp", Lon: 36.5, Lat: 35.9}, "name"},
		{photo.AddedPlace{Name: "X", Kind: "tent", Lon: 36.5, Lat: 35.9}, "kind"},
		{photo.AddedPlace{Name: "X", Kind: "camp", Lon: 200, Lat: 35.9}, "lon"},
		{photo.AddedPlace{Name: "X", Kind: "camp", Lon: 36.5, Lat: 35.9, Parent: "gn:0"}, "parent"},
		{photo.AddedPlace{Name: "X", Kind: "camp", Lon: 36.5, Lat: 35.9, Source: "javascript:alert(1)"}, "source"},
	} {
		_, err := a.AddPlaces(ctx, []photo.AddedPlace{{Name: "Good Camp", Kind: "camp", Lon: 36.6, Lat: 36.0}, bad.p}, "editor")
		if photo.ErrorCode(err) != photo.EInvalid || paramOf(err) != bad.want {
			t.Errorf("%+v: err %v, want invalid %s", bad.p, err, bad.want)
		}
	}
	if added, _ := a.AddedPlaces(ctx); len(added) != 0 {
		t.Fatalf("a refused batch kept %d places", len(added))
	}
	idlib := a.Gazetteer().Lookup("Idlib")[0]
	kept, err := a.AddPlaces(ctx, []photo.AddedPlace{{Name: "Qarqur Tent Shelter", Names: []string{"Qarqour Shelter"}, Kind: "camp",
		Lon: 36.3627, Lat: 35.8912, Parent: idlib.ID, Source: "https://example.org/the-page-the-point-was-read-from"}}, "editor")
	if err != nil {
		t.Fatal(err)
	}
	if kept[0].ID != "arc:qarqur-tent-shelter" || kept[0].AddedBy != "editor" || kept[0].AddedAt == "" {
		t.Errorf("kept %+v", kept[0])
	}
	check := func(a *Archive, when string) {
		t.Helper()
		for _, c := range []string{caption, "Children at the Qarqour Shelter, Syria, March 4, 2017. (Photo by B. Person/AFP)"} {
			got := a.Build(ingestCaption(c)).Place
			if got.ID != kept[0].ID || got.Lon != 36.3627 || got.Governorate != idlib.Governorate.Name {
				t.Errorf("%s: %q is placed at %s %q (%v,%v, %s), want the added shelter", when, c, got.ID, got.Name, got.Lon, got.Lat, got.Governorate)
			}
		}
	}
	check(a, "once added")
	a.Close()
	a = openTest(t, path)
	check(a, "reopened")
	if found := a.SearchPlaces("Qarqur Tent Shelter", 5); len(found) == 0 || found[0].ID != kept[0].ID {
		t.Errorf("the place search does not find the added place first: %v", found)
	}
	// Exported and imported into another archive: the same place, the
	// same author; imported twice, nothing new.
	b := openTest(t, filepath.Join(dir, "other.db"))
	for want := range []int{1, 0} {
		n, err := b.ImportPlaces(ctx, kept)
		if err != nil || n != 1-want {
			t.Fatalf("import %d: %d places, %v", want+1, n, err)
		}
	}
	if got, _ := b.AddedPlaces(ctx); len(got) != 1 || got[0].AddedBy != "editor" || got[0].AddedAt != kept[0].AddedAt {
		t.Errorf("imported %+v", got)
	}
}

// openTest opens the archive at path as a command does (Open: its added
// places loaded), closed at the test's end.
func openTest(t *testing.T, path string) *Archive {
	t.Helper()
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	a, err := Open(context.Background(), path, g, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func paramOf(err error) string {
	var e *photo.Error
	if errors.As(err, &e) {
		return e.Parameter
	}
	return ""
}
