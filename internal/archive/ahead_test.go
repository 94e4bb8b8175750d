package archive

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// TestFramesHashedAhead: a picture hashed as it arrives (an upload's,
// before its job runs) is imported with that frame, not decoded again;
// a frame hashed from bytes that are not the sum's is never taken, and
// the import hashes the picture itself.
func TestFramesHashedAhead(t *testing.T) {
	a, dir := archiveWithOriginals(t)
	var err error
	ctx := context.Background()
	folder := filepath.Join(dir, "upload")
	os.MkdirAll(folder, 0o755)
	captions := []string{
		"Men walk through rubble in Aleppo, Syria, May 12, 2013. (AP Photo/Hussein Malla)",
		"People shop in a market in Damascus, Syria, June 2, 2015. REUTERS/Omar Sanadiki",
	}
	var paths, sums []string
	for i, c := range captions {
		var b bytes.Buffer
		jpeg.Encode(&b, picture(uint64(i+1)), &jpeg.Options{Quality: 90})
		body := append(append(append([]byte{}, b.Bytes()[:2]...), imagemeta.IIMSegment(map[int][]string{120: {c}})...), b.Bytes()[2:]...)
		path := filepath.Join(folder, []string{"first.jpg", "second.jpg"}[i])
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(body)
		paths, sums = append(paths, path), append(sums, hex.EncodeToString(sum[:]))
	}
	// The first picture as it arrives; the second's sum with the first's
	// bytes (a file changed since it was hashed).
	a.HashAhead(ctx, sums[0], paths[0])
	a.HashAhead(ctx, sums[1], paths[0])
	hashed := func(sum string) *ahead {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			a.aheadMu.Lock()
			e := a.ahead[sum]
			a.aheadMu.Unlock()
			select {
			case <-e.done:
				return e
			default:
			}
		}
		t.Fatalf("%s: not hashed ahead", sum)
		return nil
	}
	f, _ := os.Open(paths[0])
	want, err := a.readFrame(ctx, f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if e := hashed(sums[0]); e.frame == nil || *e.frame != want {
		t.Errorf("the first picture hashed ahead: %+v, want %+v", e.frame, want)
	}
	if e := hashed(sums[1]); e.frame != nil {
		t.Errorf("bytes that are not the sum's were hashed ahead as it: %+v", e.frame)
	}
	res, err := a.ImportImages(ctx, []string{folder}, nil, nil)
	if err != nil || res.Added != 2 {
		t.Fatalf("the import: %+v, %v", res, err)
	}
	if len(a.ahead) != 0 {
		t.Errorf("%d frames hashed ahead left after their import", len(a.ahead))
	}
	frames, err := a.db.PhotoFrames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]store.Frame{}
	for _, f := range frames {
		got[f.PhotoID] = f.Frame
	}
	for i, c := range captions {
		f, _ := os.Open(paths[i])
		want, _ := a.readFrame(ctx, f)
		f.Close()
		if got[photo.ID(c)] != want {
			t.Errorf("%s: its frame %+v, want its own picture's %+v", filepath.Base(paths[i]), got[photo.ID(c)], want)
		}
	}
}
