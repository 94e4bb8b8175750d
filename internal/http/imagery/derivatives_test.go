package imagery

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/lane"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize"
)

// TestSmallFromTheDCPlane (issue 70): a thumbnail of a JPEG whose
// 1/8-scale picture fills it is made straight from the original's DC
// plane, without the large derivative's full decode first; a JPEG too
// small for that is still thumbnailed from its large derivative, which is
// kept; and once the large one is kept, thumbnails come from it.
func TestSmallFromTheDCPlane(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, w, h int) func() (*os.File, int, error) {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				img.SetRGBA(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), 90, 255})
			}
		}
		var b bytes.Buffer
		if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return func() (*os.File, int, error) {
			f, err := os.Open(path)
			return f, 1, err
		}
	}
	d := NewDerivatives(resize.New(resize.DefaultBudget), lane.New(2, 10), filepath.Join(dir, "cache"))
	ctx := context.Background()
	for _, tc := range []struct {
		key       string
		w, h      int
		wantLarge bool
	}{
		{"aa-agency", 3000, 1800, false}, // a 375-pixel DC plane fills 320
		{"bb-web", 1200, 800, true},      // 150 pixels do not
	} {
		open := write(tc.key+".jpg", tc.w, tc.h)
		body, err := d.Get(ctx, tc.key, SmallSide, true, open)
		if err != nil {
			t.Fatalf("%s: %v", tc.key, err)
		}
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(body))
		if err != nil || max(cfg.Width, cfg.Height) != SmallSide {
			t.Errorf("%s: thumbnail %d × %d (%v), want %d on its long side", tc.key, cfg.Width, cfg.Height, err, SmallSide)
		}
		if got := d.has(tc.key, LargeSide, true); got != tc.wantLarge {
			t.Errorf("%s %d × %d: large derivative made for the thumbnail: %v, want %v", tc.key, tc.w, tc.h, got, tc.wantLarge)
		}
	}
	// The agency picture's large derivative, made now, is what its next
	// thumbnail is made from: the original is not opened again.
	open := write("cc-agency.jpg", 3000, 1800)
	if _, err := d.Get(ctx, "cc-agency", LargeSide, true, open); err != nil {
		t.Fatal(err)
	}
	opened := 0
	if _, err := d.Get(ctx, "cc-agency", SmallSide, true, func() (*os.File, int, error) {
		opened++
		return open()
	}); err != nil {
		t.Fatal(err)
	}
	if opened != 0 {
		t.Errorf("the thumbnail opened the original %d times with its large derivative kept", opened)
	}
}

// TestUndecodableIs422: a picture no decoder reads (an arithmetic-coded
// JPEG), large or small, gives no derivative: answered 422 with why, not
// 409 (which says the file changed on disk since its import).
func TestUndecodableIs422(t *testing.T) {
	dir := t.TempDir()
	d := NewDerivatives(resize.New(resize.DefaultBudget), lane.New(2, 10), "")
	for _, size := range [][2]int{{3000, 1800}, {1200, 800}} {
		var b bytes.Buffer
		if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, size[0], size[1])), nil); err != nil {
			t.Fatal(err)
		}
		body := b.Bytes()
		sof := bytes.Index(body, []byte{0xFF, 0xC0})
		body[sof+1] = 0xC9 // SOF9: arithmetic coding
		path := filepath.Join(dir, "arith.jpg")
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := d.Get(context.Background(), "arith", SmallSide, false, func() (*os.File, int, error) {
			f, err := os.Open(path)
			return f, 1, err
		})
		if web.Status(err) != http.StatusUnprocessableEntity || !strings.Contains(photo.ErrorMessage(err), "cannot be decoded") {
			t.Errorf("%d × %d arithmetic-coded: %d %v; want 422, cannot be decoded", size[0], size[1], web.Status(err), err)
		}
	}
}
