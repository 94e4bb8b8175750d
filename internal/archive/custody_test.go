package archive

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// A reader's custody table of a photo names nothing of a withheld one:
// neither the re-use record that points to it nor the one that took the
// flag off when it was withheld; an editor sees both (issue 52, fault
// 4: "Same frame found" told readers another copy existed, when an
// editor hid it, and who).
func TestCustodyForAReaderNamesNoWithheldPhoto(t *testing.T) {
	ctx := context.Background()
	a := openTest(t, filepath.Join(t.TempDir(), "archive.db"))
	public, hidden := "Boys play in Aleppo, Syria, July 12, 2016. (Photo by A. Person/AFP)", "Boys play in Idlib, Syria, July 12, 2013. (Photo by B. Person/AP)"
	other := "A market in Damascus, Syria, August 1, 2016. (Photo by C. Person/Reuters)"
	file := filepath.Join(t.TempDir(), "captions.txt")
	os.WriteFile(file, []byte(public+"\n\n"+hidden+"\n\n"+other+"\n"), 0o644)
	if _, err := a.ImportFile(ctx, file, "", nil); err != nil {
		t.Fatal(err)
	}
	pub, hid, oth := photo.ID(public), photo.ID(hidden), photo.ID(other)
	reuse := func(r map[string]store.Reuse) {
		t.Helper()
		if _, err := a.db.SetReuse(ctx, "syriamap frames", r); err != nil {
			t.Fatal(err)
		}
	}
	reuse(map[string]store.Reuse{pub: {Kind: photo.ReuseConflict, Of: hid}})
	if _, err := a.db.SetHarm(ctx, hid, photo.HarmWithheld, "rana", "a source's safety"); err != nil {
		t.Fatal(err)
	}
	reuse(map[string]store.Reuse{})                                      // the frames' next run: the withheld photo is no one's twin
	reuse(map[string]store.Reuse{pub: {Kind: photo.ReuseCopy, Of: oth}}) // a public twin, later
	actions := func(editor bool) (out []string) {
		read := ctx
		if editor {
			read = photo.AsEditor(ctx, "rana")
		}
		recs, err := a.CustodyFor(read, pub)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range recs {
			out = append(out, c.Action)
		}
		return out
	}
	if got := actions(true); len(got) != 4 {
		t.Errorf("an editor sees %v, want the import and three re-use records", got)
	}
	if got := actions(false); len(got) != 2 || got[0] != "import" || got[1] != "reuse" {
		t.Errorf("a reader sees %v, want the import and the re-use record of the public twin", got)
	}
}
