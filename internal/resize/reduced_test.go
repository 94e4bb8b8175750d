package resize

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize/bomb"
)

// photoJPEG is a w × h JPEG of gradients and noise, as Go's encoder
// writes it (baseline, 4:2:0), at quality 90.
func photoJPEG(tb testing.TB, w, h int) []byte {
	return gradientJPEG(tb, w, h, 30, 90)
}

// gradientJPEG is a w × h JPEG of gradients in each channel plus noise up
// to noise levels, at quality.
func gradientJPEG(tb testing.TB, w, h, noise, quality int) []byte {
	tb.Helper()
	r := rand.New(rand.NewPCG(uint64(w), uint64(h)))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, color.RGBA{uint8(x*(255-noise)/w + r.IntN(noise)), uint8(y*(255-noise)/h + r.IntN(noise)),
				uint8((x+y)*(255-noise)/(w+h) + r.IntN(noise)), 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: quality}); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// TestDecodeReduced: a JPEG that leaves minSide pixels on its short side
// at 1/8 scale is read from its DC plane; a smaller one, a PNG, and a
// JPEG the DC reader refuses (CMYK) are decoded whole. Each says its
// own size and the scale it was read at.
func TestDecodeReduced(t *testing.T) {
	p := New(DefaultBudget)
	large := photoJPEG(t, 3000, 1800)
	cmyk, err := os.ReadFile("testdata/cmyk-64x48.jpg")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name                string
		file                []byte
		minSide             int
		scale, dx, dy, w, h int
	}{
		{"a large JPEG", large, 96, 8, 375, 225, 3000, 1800},
		{"a large JPEG that needs more", large, 300, 1, 3000, 1800, 3000, 1800},
		{"a PNG", bomb.FlatPNG(1600, 1600), 96, 1, 1600, 1600, 1600, 1600},
		{"a CMYK JPEG", cmyk, 1, 1, 64, 48, 64, 48},
	} {
		got, err := p.DecodeReduced(context.Background(), bytes.NewReader(tc.file), tc.minSide)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b := got.Image.Bounds()
		if got.Scale != tc.scale || b.Dx() != tc.dx || b.Dy() != tc.dy || got.Width != tc.w || got.Height != tc.h {
			t.Errorf("%s: scale %d, %v of %d × %d; want scale %d, %d × %d of %d × %d",
				tc.name, got.Scale, b.Size(), got.Width, got.Height, tc.scale, tc.dx, tc.dy, tc.w, tc.h)
		}
	}
	// A header that reads and a body that does not: refused, not a plane
	// of zeros.
	if _, err := p.DecodeReduced(context.Background(), bytes.NewReader(large[:len(large)/2]), 96); err == nil {
		t.Error("half a JPEG decoded")
	}
}

// onlyReader hides a reader's Seek: an original from S3 does not seek.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestDecodeReducedRefusesBombsFromTheirHeader (issue 65, fault 5, where
// the frame hash decoded a 30,000 × 30,000 JPEG whole and the server went
// from 198 MB to 1.7 GB): the hashes' decode reads the header first, from
// a reader that does not seek, and refuses a picture over the limits,
// its size named, having allocated next to nothing — whether the picture
// would have been read from its DC plane or whole.
func TestDecodeReducedRefusesBombsFromTheirHeader(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		file       []byte
	}{
		{"valid flat JPEG, 30,000²", "30000 × 30000 pixels (900 megapixels); syriamap decodes images up to 50 megapixels", bomb.FlatJPEG(30000, 30000, false)},
		{"valid flat progressive JPEG, 12,000²", "12000 × 12000 pixels (144 megapixels)", bomb.FlatJPEG(12000, 12000, true)},
		{"header-only JPEG, 65,000²", "65000 × 65000 pixels", bomb.HeaderJPEG(65000, 65000, false)},
		{"header-only PNG, 30,000²", "30000 × 30000 pixels", bomb.HeaderPNG(30000, 30000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A bomb not refused would wait for more budget than there
			// is: the deadline turns that wait into the failure below.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var err error
			n := allocated(func() {
				_, err = New(DefaultBudget).DecodeReduced(ctx, onlyReader{bytes.NewReader(tc.file)}, 96)
			})
			if photo.ErrorCode(err) != photo.ETooLarge || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a too_large error naming %q", err, tc.want)
			}
			if n > 1<<20 {
				t.Errorf("refusing it allocated %d bytes; want under 1 MB (the header alone is read)", n)
			}
		})
	}
}

// TestDerivativeFromTheDCPlane: a 320-pixel derivative of a 3,000-pixel
// JPEG, made from its DC plane, is the one made from the full decode to
// within a couple of levels.
func TestDerivativeFromTheDCPlane(t *testing.T) {
	file := photoJPEG(t, 3000, 1800)
	p := New(DefaultBudget)
	got, err := p.Decode(context.Background(), bytes.NewReader(file), 320, 1)
	if err != nil {
		t.Fatal(err)
	}
	full, err := jpeg.Decode(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	want := Shrink(full, 320)
	if got.Bounds() != want.Bounds() {
		t.Fatalf("derivative %v, want %v", got.Bounds(), want.Bounds())
	}
	var sum float64
	b := got.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := got.At(x, y).RGBA()
			r2, g2, b2, _ := want.At(x, y).RGBA()
			for _, d := range [][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}} {
				sum += math.Abs(float64(d[0]>>8) - float64(d[1]>>8))
			}
		}
	}
	mean := sum / float64(3*b.Dx()*b.Dy())
	if mean > 2 {
		t.Errorf("the derivative is %.2f levels from the full decode's on average, want ≤ 2", mean)
	}
	t.Logf("%.2f levels from the full decode's on average", mean)
}

// TestDCPlaneShareWaitsForItsMemory: the file's bytes a DC plane is read
// from are garbage once it is, and their share of the budget comes back
// when they are collected, not before.
func TestDCPlaneShareWaitsForItsMemory(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	file := photoJPEG(t, 1600, 1600)
	share := int64(1600*1600*3 + 1<<20)
	p := New(share)
	got, err := p.DecodeReduced(context.Background(), bytes.NewReader(file), 96)
	if err != nil || got.Scale != DCScale {
		t.Fatalf("scale %d, err %v; want the DC plane", got.Scale, err)
	}
	if p.budget.TryAcquire(share) {
		t.Fatal("the file's share came back before its bytes were collected")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !p.budget.TryAcquire(share) {
		if time.Now().After(deadline) {
			t.Fatal("the file's share did not come back once its bytes were collected")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(got)
}

// noisyJPEG is an agency-sized picture (3,000 × 1,800, quality 95, noisy:
// several MB), as `make bench-images` imports.
func noisyJPEG(b *testing.B) []byte { return gradientJPEG(b, 3000, 1800, 120, 95) }

// BenchmarkDecodeReduced is the frame hashes' decode of an agency JPEG:
// its DC plane; BenchmarkDecodeWhole the full decode it replaced.
func BenchmarkDecodeReduced(b *testing.B) {
	file := noisyJPEG(b)
	p := New(DefaultBudget)
	b.SetBytes(int64(len(file)))
	b.ResetTimer()
	for range b.N {
		if _, err := p.DecodeReduced(context.Background(), bytes.NewReader(file), 96); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeWhole(b *testing.B) {
	file := noisyJPEG(b)
	p := New(DefaultBudget)
	b.SetBytes(int64(len(file)))
	b.ResetTimer()
	for range b.N {
		if _, err := p.DecodeWhole(context.Background(), bytes.NewReader(file)); err != nil {
			b.Fatal(err)
		}
	}
}
