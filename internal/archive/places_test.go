package archive

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
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
	if found := a.SearchPlaces("Qarqur Tent Shelter", 5, nil); len(found) == 0 || found[0].ID != kept[0].ID {
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

// A correction teaches: the words a caption used for a place the
// gazetteer could not read become that place's name in the archive, from
// its next opening, and stop being one when the correction is undone. A
// correction of words the gazetteer reads teaches nothing.
func TestCorrectionsTeachSpellings(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "archive.db")
	a := openTest(t, path)
	quarter := "Residents inspect damage in the Jisr al-Haj neighbourhood of Aleppo, Syria, May 3, 2016. (Photo by A. Person/Reuters)"
	city := "Men walk through rubble in Aleppo, Syria, December 13, 2016. (Photo by B. Person/AFP)"
	before := a.Build(ingestCaption(quarter)).Place
	if before.Precision != "fallback" || before.Mention != "Jisr al-Haj" {
		t.Fatalf("the quarter reads %+v; the test wants a fallback for Jisr al-Haj", before)
	}
	// A quarter of Aleppo the gazetteer has under another name.
	var target string
	g := a.Gazetteer()
	for _, p := range g.Places() {
		if p.Kind == "neighbourhood" && p.Parent == before.ID && p.Located {
			target = p.ID
			break
		}
	}
	if target == "" {
		t.Fatal("no neighbourhood of Aleppo in the gazetteer")
	}
	file := filepath.Join(t.TempDir(), "captions.txt")
	os.WriteFile(file, []byte(quarter+"\n"+city+"\n"), 0o644)
	if _, err := a.ImportFile(ctx, file, "", nil); err != nil {
		t.Fatal(err)
	}
	at, err := a.PlaceOf(target, nil)
	if err != nil {
		t.Fatal(err)
	}
	azaz, err := a.PlaceOf(g.Lookup("Azaz")[0].ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, batch, err := a.db.ApplyBatch(ctx, []string{photo.ID(quarter)}, photo.Change{Place: &at, Author: "rana"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.db.Apply(ctx, []string{photo.ID(city)}, photo.Change{Place: &azaz, Author: "rana"}); err != nil {
		t.Fatal(err)
	}
	a.Close()
	a = openTest(t, path)
	again := "Children play in the Jisr al-Haj neighbourhood of Aleppo, Syria, June 1, 2016. (Photo by C. Person/AP)"
	if got := a.Build(ingestCaption(again)).Place; got.ID != target {
		t.Errorf("after the correction a caption naming Jisr al-Haj is placed at %s %q (%s), want %s", got.ID, got.Name, got.Precision, target)
	}
	if got := a.Build(ingestCaption("A market in Aleppo, Syria, June 2, 2016. (Photo by D. Person/AFP)")).Place; got.ID != before.ID {
		t.Errorf("a correction of a photo said to be in Aleppo taught Aleppo as a name of %s", got.ID)
	}
	if _, err := a.db.Undo(ctx, batch, "rana", ""); err != nil {
		t.Fatal(err)
	}
	a.Close()
	a = openTest(t, path)
	if got := a.Build(ingestCaption(again)).Place; got.ID == target {
		t.Errorf("the undone correction still teaches Jisr al-Haj as %s", target)
	}
}

// Places added at once, as editors of one server may: each rebuild of the
// archive's gazetteer keeps the others' places.
func TestPlacesAddedAtOnceAreAllKept(t *testing.T) {
	a := openTest(t, filepath.Join(t.TempDir(), "archive.db"))
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := a.AddPlaces(context.Background(), []photo.AddedPlace{{Name: fmt.Sprintf("Shelter Number %d", i), Kind: "camp", Lon: 36.5 + float64(i)/100, Lat: 36}}, "rana"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i := range 6 {
		if a.Gazetteer().ByID(fmt.Sprintf("arc:shelter-number-%d", i)) == nil {
			t.Errorf("shelter %d is missing from the archive's gazetteer", i)
		}
	}
}
