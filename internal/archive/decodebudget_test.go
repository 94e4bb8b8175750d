package archive

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/resize/bomb"
)

// allocated is the bytes fn allocated, as the runtime counts them.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestImportRefusesAPixelBombBeforeDecoding (issue 65, fault 5): a 560 KB
// JPEG of 12,000 × 12,000 flat grey pixels would take 144 MB to decode
// for its frame hash, outside the image budget. The import reads its
// frame header, names its size and skips it without decoding, whether
// frames are hashed on arrival or later; a picture within the limits is
// imported beside it.
func TestImportRefusesAPixelBombBeforeDecoding(t *testing.T) {
	for _, later := range []bool{false, true} {
		name := "frames on arrival"
		if later {
			name = "frames later"
		}
		t.Run(name, func(t *testing.T) {
			a := newArchive(t)
			a.FramesLater = later
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "bomb.jpg"), bomb.WithCaption(bomb.FlatJPEG(12000, 12000, false),
				"Men walk through rubble in Aleppo, Syria, May 12, 2013."), 0o644)
			os.WriteFile(filepath.Join(dir, "fine.jpg"), bomb.WithCaption(bomb.FlatJPEG(2000, 1500, false),
				"People shop in a market in Damascus, Syria, June 2, 2015."), 0o644)
			var res ImageResult
			var err error
			n := allocated(func() { res, err = a.ImportImages(context.Background(), []string{dir}, nil, nil) })
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Skipped) != 1 || filepath.Base(res.Skipped[0].Path) != "bomb.jpg" ||
				!strings.Contains(res.Skipped[0].Reason, "12000 × 12000 pixels (144 megapixels)") {
				t.Errorf("skipped %+v, want bomb.jpg named with its size", res.Skipped)
			}
			if res.Added != 1 {
				t.Errorf("added %d, want the fine picture", res.Added)
			}
			if n > 64<<20 {
				t.Errorf("the import allocated %d MB: the bomb was decoded", n>>20)
			}
		})
	}
}

// TestFramesRefusesAPixelBombBeforeDecoding: `syriamap frames` decodes
// the kept originals; one that is a bomb (here an original replaced on
// disk) is counted unreadable from its header, not decoded.
func TestFramesRefusesAPixelBombBeforeDecoding(t *testing.T) {
	a := newArchive(t)
	a.FramesLater = true
	dir := t.TempDir()
	d, err := originals.NewDir(filepath.Join(dir, "originals"))
	if err != nil {
		t.Fatal(err)
	}
	a.Originals = d
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	os.WriteFile(filepath.Join(in, "small.jpg"), bomb.WithCaption(bomb.FlatJPEG(64, 64, false),
		"Men walk through rubble in Aleppo, Syria, May 12, 2013."), 0o644)
	ctx := context.Background()
	if _, err := a.ImportImages(ctx, []string{in}, nil, nil); err != nil {
		t.Fatal(err)
	}
	p := photoByCaption(t, a, "Men walk")
	path := d.Path(p.File.SHA256)
	os.Remove(path)
	if err := os.WriteFile(path, bomb.FlatJPEG(12000, 12000, false), 0o644); err != nil {
		t.Fatal(err)
	}
	var r FramesResult
	n := allocated(func() { r, err = a.Frames(ctx, "test", nil) })
	if err != nil {
		t.Fatal(err)
	}
	if r.Hashed != 0 || r.Unreadable != 1 {
		t.Errorf("frames: %+v, want the bomb unreadable", r)
	}
	if n > 64<<20 {
		t.Errorf("frames allocated %d MB: the bomb was decoded", n>>20)
	}
}
