package bag

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestBagLeavesOutAWaitingAnswer (issue 65, 5): while rana's placement
// waits for its second look, an editor's bag — omar's, and hers too —
// leaves the photo out (a bag holds the photo's whole custody, which
// names the answers of an undecided round) and says so; the command's
// (the archive's own read) holds it and proves its custody.
func TestBagLeavesOutAWaitingAnswer(t *testing.T) {
	ctx := context.Background()
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	a, err := archive.Open(ctx, filepath.Join(t.TempDir(), "a.db"), g, false)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	caption := "A shop in Idlib, Syria, November 7, 2015. (Photo by C. Person/Reuters)"
	file := filepath.Join(t.TempDir(), "captions.txt")
	os.WriteFile(file, []byte(caption+"\n"), 0o644)
	if _, err := a.ImportFile(ctx, file, "", nil); err != nil {
		t.Fatal(err)
	}
	id := photo.ID(caption)
	if err := a.SetTwoPerson(ctx, true, "lead"); err != nil {
		t.Fatal(err)
	}
	note := "NOTE-bag-the-silo"
	at := photo.Place{Lon: 38.7771, Lat: 35.1117, Located: true, Precision: "corrected"}
	if _, err := a.Apply(ctx, []string{id}, photo.Change{Author: "rana", Note: note, Place: &at}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		who  string
		ctx  context.Context
		left bool
	}{
		{"omar", photo.AsEditor(ctx, "omar"), true},
		{"rana", photo.AsEditor(ctx, "rana"), true},
		{"the command", ctx, false},
	} {
		bag := filepath.Join(t.TempDir(), "bag")
		r, err := Export(c.ctx, a, photo.Filter{IDs: []string{id}}, bag, c.who)
		if err != nil {
			t.Fatalf("%s's bag: %v", c.who, err)
		}
		info, _ := os.ReadFile(filepath.Join(bag, "bag-info.txt"))
		record, _ := os.ReadFile(filepath.Join(bag, "data", id, "custody.json"))
		switch {
		case c.left && (r.Photos != 0 || !slices.Equal(r.Waiting, []string{id}) || !strings.Contains(string(info), "Left-Out-Waiting-For-A-Second-Look: "+id) || len(record) > 0):
			t.Errorf("%s's bag: %+v, %s; want the photo left out and said so", c.who, r, info)
		case !c.left && (r.Photos != 1 || len(r.Waiting) != 0 || !strings.Contains(string(record), note)):
			t.Errorf("%s's bag: %+v; want the photo with rana's answer (the archive's own read)", c.who, r)
		case !c.left:
			if err := checkBag(bag, id); err != nil {
				t.Errorf("%s's bag does not prove its custody: %v", c.who, err)
			}
		}
	}
}
