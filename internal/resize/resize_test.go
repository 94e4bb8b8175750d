package resize

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize/bomb"
)

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Images that declare more pixels than MaxPixels are refused from their
// header, before the decoder allocates anything for their pixels.
func TestBombsAreRefusedFromTheirHeader(t *testing.T) {
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"header-only JPEG, 65,000²", bomb.HeaderJPEG(65000, 65000, false)},
		{"header-only progressive JPEG, 65,000²", bomb.HeaderJPEG(65000, 65000, true)},
		{"valid flat JPEG, 24,000²", bomb.FlatJPEG(24000, 24000, false)},
		{"valid flat progressive JPEG, 30,000²", bomb.FlatJPEG(30000, 30000, true)},
		{"header-only PNG, 30,000²", bomb.HeaderPNG(30000, 30000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New(DefaultBudget)
			var err error
			n := allocated(func() {
				_, err = p.Decode(context.Background(), bytes.NewReader(tc.file), 320, 1)
			})
			if photo.ErrorCode(err) != photo.ETooLarge {
				t.Fatalf("err = %v, want a too_large error", err)
			}
			if n > 1<<20 {
				t.Errorf("refusing it allocated %d bytes; want under 1 MB (the header alone is read)", n)
			}
		})
	}
}

// The error names the image's size and the limit.
func TestTooLargeSaysWhy(t *testing.T) {
	_, err := New(DefaultBudget).Decode(context.Background(), bytes.NewReader(bomb.HeaderJPEG(24000, 24000, false)), 320, 1)
	want := "the image is 24000 × 24000 pixels (576 megapixels); syriamap makes derivatives of images up to 50 megapixels"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// The estimate of a decode's memory is an upper bound of what Go's
// decoder allocates, and not far above it: too low and the budget lets
// too many decodes run at once, too high and it refuses good images.
func TestCostBoundsTheDecoder(t *testing.T) {
	ycc := func(w, h int, q int) []byte {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = byte(i * 7)
		}
		var b bytes.Buffer
		jpeg.Encode(&b, img, &jpeg.Options{Quality: q}) // 4:2:0
		return b.Bytes()
	}
	rgba := func(w, h int) []byte {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		var b bytes.Buffer
		png.Encode(&b, img)
		return b.Bytes()
	}
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"flat grey baseline", bomb.FlatJPEG(3000, 2000, false)},
		{"flat grey progressive", bomb.FlatJPEG(3000, 2000, true)},
		{"colour 4:2:0", ycc(2000, 1500, 90)},
		{"colour 4:4:4", bomb.ColourJPEG(2000, 1500)},
		{"PNG RGBA", rgba(1500, 1000)},
		{"flat PNG RGBA", bomb.FlatPNG(1500, 1000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ReadHeader(bytes.NewReader(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			n := allocated(func() {
				if _, _, err := image.Decode(bytes.NewReader(tc.file)); err != nil {
					t.Fatal(err)
				}
			})
			if uint64(h.Cost) < n {
				t.Errorf("estimated %d bytes; the decoder allocated %d", h.Cost, n)
			}
			if uint64(h.Cost) > 2*n+2<<20 {
				t.Errorf("estimated %d bytes; the decoder allocated only %d", h.Cost, n)
			}
		})
	}
}

// A decode waits until its memory is free in the budget: with the budget
// taken, it waits (here until its context ends).
func TestDecodesWaitForTheBudget(t *testing.T) {
	p := New(64 << 20)
	file := bomb.FlatJPEG(2000, 2000, false)
	if err := p.budget.Acquire(context.Background(), 60<<20); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := p.Decode(ctx, bytes.NewReader(file), 320, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("with the budget taken, err = %v; want it to wait until its deadline", err)
	}
	p.budget.Release(60 << 20)
	img, err := p.Decode(context.Background(), bytes.NewReader(file), 320, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 320 || b.Dy() != 320 {
		t.Errorf("derivative is %v, want 320 × 320", b)
	}
}

// A decode's share of the budget comes back when its memory does: while
// the image a decode returned is kept, the next decode waits; once it is
// dropped, the next one goes ahead (the collector is run for it). The
// share once came back when the decode ended, and nine decodes of 49
// megapixels took 1 GB of a 400 MB budget before the collector ran.
func TestBudgetComesBackWithTheMemory(t *testing.T) {
	file := bomb.ColourJPEG(300, 300) // fits 320: the decoded image is the result
	h, err := ReadHeader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	p := New(h.Cost + smallCost(h, 320, 1))
	kept, err := p.Decode(context.Background(), bytes.NewReader(file), 320, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	if _, err := p.Decode(ctx, bytes.NewReader(file), 320, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("with the first image kept, err = %v; want the second to wait", err)
	}
	runtime.KeepAlive(kept)
	kept = nil
	// Dropped, its share comes back: decodes one after another never wait
	// for good, however many there are.
	for i := range 5 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		img, err := p.Decode(ctx, bytes.NewReader(file), 320, 1)
		cancel()
		if err != nil {
			t.Fatalf("decode %d after the first was dropped: %v", i+2, err)
		}
		if b := img.Bounds(); b.Dx() != 300 {
			t.Fatalf("decoded %v", b)
		}
	}
	// And a larger image, shrunk: its full-size share comes back too.
	big := bomb.ColourJPEG(1000, 1000)
	bh, _ := ReadHeader(bytes.NewReader(big))
	q := New(bh.Cost + smallCost(bh, 320, 1))
	for i := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := q.Derive(ctx, bytes.NewReader(big), 320, 1, 82)
		cancel()
		if err != nil {
			t.Fatalf("derivative %d: %v", i+1, err)
		}
	}
}

// The shrinking reads an NRGBA image (a PNG) as premultiplied RGBA, as
// image.Image's At does.
func TestShrinkReadsNRGBA(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 4, 1))
	for x, c := range []color.NRGBA{{255, 0, 0, 255}, {255, 255, 255, 128}, {10, 200, 30, 0}, {90, 60, 30, 200}} {
		src.SetNRGBA(x, 0, c)
	}
	fast, slow := make([]uint8, 16), make([]uint8, 16)
	rowReader(src)(0, fast)
	for x := range 4 {
		r, g, b, a := src.At(x, 0).RGBA()
		slow[4*x], slow[4*x+1], slow[4*x+2], slow[4*x+3] = uint8(r>>8), uint8(g>>8), uint8(b>>8), uint8(a>>8)
	}
	for i := range fast {
		if d := int(fast[i]) - int(slow[i]); d < -1 || d > 1 {
			t.Errorf("byte %d: %d, At gives %d", i, fast[i], slow[i])
		}
	}
}

// An image under the pixel limit whose decode would take more than the
// whole budget is refused too: it could never be admitted.
func TestOverTheBudgetIsRefused(t *testing.T) {
	p := New(32 << 20)
	_, err := p.Decode(context.Background(), bytes.NewReader(bomb.HeaderJPEG(8000, 6000, true)), 320, 1)
	if photo.ErrorCode(err) != photo.ETooLarge {
		t.Fatalf("err = %v, want too_large", err)
	}
}

func TestShrinkAndOrient(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 64, 32))
	for x := 0; x < 64; x++ {
		src.Set(x, 0, color.RGBA{255, 0, 0, 255}) // red on top
	}
	for _, tc := range []struct {
		orientation int
		w, h        int
	}{{1, 32, 16}, {3, 32, 16}, {6, 16, 32}, {8, 16, 32}} {
		got := Orient(Shrink(src, 32), tc.orientation)
		if b := got.Bounds(); b.Dx() != tc.w || b.Dy() != tc.h {
			t.Errorf("orientation %d: %v, want %d × %d", tc.orientation, b, tc.w, tc.h)
		}
	}
	// Orientation 6 (turned clockwise to show): the top row goes right.
	got := Orient(src, 6)
	if r, _, _, _ := got.At(31, 10).RGBA(); r>>8 != 255 {
		t.Errorf("orientation 6: the red top row is not on the right")
	}
}

// Shrinking averages the area each pixel covers: whole blocks at whole
// ratios, and the image's mean kept at any ratio.
func TestShrinkAverages(t *testing.T) {
	src := image.NewGray(image.Rect(0, 0, 9, 3))
	for x := range 9 {
		for y := range 3 {
			src.SetGray(x, y, color.Gray{uint8(30 * (x / 3))}) // 0, 30, 60 in blocks
		}
	}
	got := Shrink(src, 3)
	for x, want := range []uint8{0, 30, 60} {
		if r, _, _, _ := got.At(x, 0).RGBA(); uint8(r>>8) != want {
			t.Errorf("block %d: %d, want %d", x, r>>8, want)
		}
	}
	// A fine checkerboard (what aliases when sampled) shrinks to grey.
	board := image.NewGray(image.Rect(0, 0, 1000, 700))
	for x := range 1000 {
		for y := range 700 {
			if (x+y)%2 == 0 {
				board.SetGray(x, y, color.Gray{255})
			}
		}
	}
	small := Shrink(board, 77).(*image.RGBA)
	if b := small.Bounds(); b.Dx() != 77 || b.Dy() != 53 {
		t.Fatalf("size %v", b)
	}
	for i := 0; i < len(small.Pix); i += 4 {
		if v := small.Pix[i]; v < 120 || v > 135 {
			t.Fatalf("pixel %d is %d, want mid-grey", i/4, v)
		}
	}
}

// A decode that fails, or is cancelled while it waits, gives its share of
// the budget back at once: the whole budget is free after each (a share
// kept by an error would shrink the budget for good, one bad file at a
// time).
func TestBudgetComesBackAfterAnErrorOrACancel(t *testing.T) {
	file := bomb.ColourJPEG(300, 300)
	h, err := ReadHeader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	full := h.Cost + smallCost(h, 320, 1)
	p := New(full)
	whole := func(after string) {
		t.Helper()
		if !p.budget.TryAcquire(full) {
			t.Fatalf("after %s, the budget is not whole", after)
		}
		p.budget.Release(full)
	}
	// A header that reads, a body that does not.
	broken := file[:len(file)/2]
	if _, err := p.Decode(context.Background(), bytes.NewReader(broken), 320, 1); photo.ErrorCode(err) != photo.EUndecodable {
		t.Fatalf("a broken file: err = %v; want it refused", err)
	}
	whole("a decode error")
	// Cancelled while it waits for the budget.
	if err := p.budget.Acquire(context.Background(), full); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan error, 1)
	gcs := collections()
	go func() {
		_, err := p.Decode(ctx, bytes.NewReader(file), 320, 1)
		got <- err
	}()
	// The decode waits for the budget: waiting, it has the collector run
	// (acquire), the state the cancel is for.
	for deadline := time.Now().Add(20 * time.Second); collections() == gcs && time.Now().Before(deadline); {
		runtime.Gosched()
	}
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled while waiting: err = %v", err)
	}
	p.budget.Release(full)
	whole("a cancelled request")
}

// TestFullSizeShareWaitsForItsMemory (issue 55, 3): a JPEG shrunk from
// 1000 to 320 pixels leaves its full-size pixels to the collector, and
// their share of the budget comes back only once collected, however soon
// the decode ends. (The earlier test decoded a 300-pixel image, its own
// result, so a share given back at the end of the decode passed it.)
func TestFullSizeShareWaitsForItsMemory(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // nothing collected unless asked
	big := bomb.ColourJPEG(1000, 1000)
	h, err := ReadHeader(bytes.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	p := New(h.Cost + smallCost(h, 320, 1))
	out, err := p.Decode(context.Background(), bytes.NewReader(big), 320, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b := out.Bounds(); b.Dx() != 320 {
		t.Fatalf("decoded %v, want it shrunk to 320", b)
	}
	if p.budget.TryAcquire(h.Cost) {
		t.Fatal("the full-size share came back when the decode ended, its pixels not yet collected")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !p.budget.TryAcquire(h.Cost) {
		if time.Now().After(deadline) {
			t.Fatal("the full-size share did not come back once its pixels were collected")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(out)
}

// TestDecodeWholeWaitsForTheBudget: a whole decode (the frame hash's)
// takes the budget as a derivative's does: with the budget taken it
// waits; then it decodes the picture at its full size. A bomb is refused
// from its header, naming its size, having allocated next to nothing.
func TestDecodeWholeWaitsForTheBudget(t *testing.T) {
	p := New(64 << 20)
	file := bomb.FlatJPEG(3000, 2000, false)
	if err := p.budget.Acquire(context.Background(), 60<<20); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := p.DecodeWhole(ctx, bytes.NewReader(file)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("with the budget taken, err = %v; want it to wait until its deadline", err)
	}
	p.budget.Release(60 << 20)
	img, err := p.DecodeWhole(context.Background(), bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 3000 || b.Dy() != 2000 {
		t.Errorf("decoded %v, want 3000 × 2000", b)
	}
	big := bomb.FlatJPEG(30000, 30000, false)
	n := allocated(func() { _, err = p.DecodeWhole(context.Background(), bytes.NewReader(big)) })
	want := "the image is 30000 × 30000 pixels (900 megapixels); syriamap decodes images up to 50 megapixels"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if n > 1<<20 {
		t.Errorf("refusing it allocated %d bytes; want under 1 MB", n)
	}
}

// collections is how many garbage collections have run.
func collections() uint32 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NumGC
}
