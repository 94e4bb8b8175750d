// Package resize makes the derivatives syriamap serves in place of image
// files: decoded, scaled to fit a square, turned upright by the EXIF
// orientation and re-encoded as JPEG, so that they carry none of the
// original's metadata (a photographer's GPS position among it).
//
// Decoding is where an image can hurt a server: a 20 MB JPEG of flat
// blocks may declare 24,000 × 24,000 pixels, and a 500-byte file may
// declare 65,000 × 65,000; the decoder allocates for what the header
// declares before it finds out. So every decode reads the header first and
// refuses an image over MaxPixels, estimates the memory its decode takes
// (per format, sampling and progressive mode), and waits until that much
// of the Pipeline's memory budget is free. Go's JPEG decoder cannot decode
// at a reduced scale (libjpeg's DCT scaling), so a JPEG large enough for
// what is asked of it is read from its DC coefficients instead
// (DecodeReduced, package jpegdc): its 1/8-scale picture, without an
// inverse DCT, from the file's bytes in memory.
package resize

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // decoders the derivatives read
	"image/jpeg"
	_ "image/png"
	"io"
	"runtime"
	"sync/atomic"
	"time"

	_ "golang.org/x/image/webp"
	"golang.org/x/sync/semaphore"

	"github.com/syriamap/syriamap/internal/photo"
)

// MaxPixels is the largest image a derivative is made of: 50 megapixels,
// more than any press camera makes (a 45 MP body gives 8,256 × 5,504).
const MaxPixels = 50_000_000

// DefaultBudget is the memory the decodes in flight may take together.
const DefaultBudget = 400 << 20

// Pipeline makes derivatives within a memory budget.
type Pipeline struct {
	budget     *semaphore.Weighted
	maxBytes   int64
	maxPixels  int64
	collecting atomic.Bool // a waiting decode has the collector run
}

// New returns a Pipeline whose decodes in flight, and the images they
// made that are not yet collected, take at most budget bytes together.
func New(budget int64) *Pipeline {
	return &Pipeline{budget: semaphore.NewWeighted(budget), maxBytes: budget, maxPixels: MaxPixels}
}

// Budget is the memory the pipeline's images may take together.
func (p *Pipeline) Budget() int64 { return p.maxBytes }

// Header is what an image's header says: its format and size, and the
// memory decoding it takes.
type Header struct {
	Format        string // jpeg, png, gif, webp
	Width, Height int
	// Cost is the bytes the decoder allocates for it, estimated.
	Cost int64
}

// ReadHeader reads the header of the image r holds, without decoding it.
func ReadHeader(r io.Reader) (Header, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(2)
	if bytes.Equal(head, []byte{0xFF, 0xD8}) {
		// The JPEG's frame header gives what the standard library's
		// DecodeConfig does not: its sampling and whether it is
		// progressive, which quadruple its decoding cost.
		f, err := readFrame(br)
		if err != nil {
			return Header{}, err
		}
		return Header{Format: "jpeg", Width: f.width, Height: f.height, Cost: f.cost()}, nil
	}
	// An interlaced PNG is decoded a pass at a time into images of their
	// own, then copied into the whole: twice the pixels.
	ihdr, _ := br.Peek(29)
	interlaced := len(ihdr) == 29 && string(ihdr[12:16]) == "IHDR" && ihdr[28] == 1
	cfg, format, err := image.DecodeConfig(br)
	if err != nil {
		return Header{}, photo.Errorf(photo.EForbidden, "not an image syriamap can read (JPEG, PNG, GIF, WebP): %v", err)
	}
	// The decoded image at its colour model's size (4 bytes a pixel at
	// most, 8 for 16-bit PNGs), plus the decoder's own buffers.
	bpp := int64(4)
	if cfg.ColorModel == color.RGBA64Model || cfg.ColorModel == color.NRGBA64Model {
		bpp = 8
	}
	if format == "gif" {
		bpp = 5 // a frame's palette indices, and its RGBA
	}
	px := int64(cfg.Width) * int64(cfg.Height)
	if interlaced {
		px *= 2
	}
	return Header{Format: format, Width: cfg.Width, Height: cfg.Height, Cost: px*bpp + 1<<20}, nil
}

// tooLarge refuses an image for its size, saying which limit it is over.
func tooLarge(h Header, what string) error {
	return photo.Errorf(photo.ETooLarge, "the image is %d × %d pixels (%.0f megapixels); %s",
		h.Width, h.Height, float64(int64(h.Width)*int64(h.Height))/1e6, what)
}

// Check refuses an image the pipeline would not make a derivative of.
func (p *Pipeline) Check(h Header) error { return p.check(h, "makes derivatives of") }

// CheckWhole refuses an image the pipeline would not decode whole (see
// DecodeWhole), saying which limit it is over.
func (p *Pipeline) CheckWhole(h Header) error { return p.check(h, "decodes") }

// check refuses an image over the pipeline's limits; does is what
// syriamap does with images of up to MaxPixels, for the message.
func (p *Pipeline) check(h Header, does string) error {
	if h.Width <= 0 || h.Height <= 0 {
		return photo.Errorf(photo.EForbidden, "the image declares no size (%d × %d pixels)", h.Width, h.Height)
	}
	if int64(h.Width)*int64(h.Height) > p.maxPixels {
		return tooLarge(h, fmt.Sprintf("syriamap %s images up to %d megapixels", does, p.maxPixels/1_000_000))
	}
	if h.Cost > p.maxBytes {
		return tooLarge(h, fmt.Sprintf("decoding it (%s) would take %d MB, more than the %d MB images may take", h.Format, h.Cost>>20, p.maxBytes>>20))
	}
	return nil
}

// Decode decodes the image src holds, scaled to fit a side × side square
// and turned upright by orientation (EXIF, 1–8; 0 or 1 as it is): its
// header first, refused when over the limits, then the whole image once
// the memory it takes is free in the budget.
//
// The budget is given back when the memory is, not when the decode ends:
// a decoded image is garbage from the moment it is shrunk, yet the
// garbage collector frees it only later, and a budget given back at once
// let the next decodes allocate beside it (nine 49-megapixel JPEGs took
// 1 GB of a 400 MB budget). So the full-size image's share returns in a
// cleanup that runs once it is collected, and the share of the result
// (the shrunk and turned image, and the encoder's buffers, Cost's
// smallCost) once the caller has dropped it.
func (p *Pipeline) Decode(ctx context.Context, src io.ReadSeeker, side, orientation int) (image.Image, error) {
	h, err := ReadHeader(src)
	if err != nil {
		return nil, err
	}
	small := smallCost(h, side, orientation)
	all := h
	all.Cost += small
	if err := p.Check(all); err != nil {
		return nil, err
	}
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if err := p.acquire(ctx, small); err != nil {
		return nil, err
	}
	// A JPEG whose 1/8-scale picture still fills side × side is read from
	// its DC coefficients (DecodeReduced): the short side it needs.
	long, short := max(h.Width, h.Height), min(h.Width, h.Height)
	red, err := p.DecodeReduced(ctx, bufio.NewReaderSize(src, 64<<10), (side*short+long-1)/long)
	if err != nil {
		p.budget.Release(small)
		return nil, err
	}
	out := Orient(Shrink(red.Image, side), orientation)
	p.releaseWhenCollected(out, small)
	return out, nil
}

// DecodeWhole decodes the image r holds at its full size (for a frame
// hash, which averages every pixel), within the budget as Decode is: its
// header first, refused when over the limits (see CheckWhole) before
// anything is decoded, then the image once the memory its decode takes
// is free. That share of the budget comes back once the image is
// collected. r need not seek: the header's bytes are read again from
// memory.
func (p *Pipeline) DecodeWhole(ctx context.Context, r io.Reader) (image.Image, error) {
	var head bytes.Buffer
	h, err := ReadHeader(io.TeeReader(r, &head))
	if err != nil {
		return nil, err
	}
	if err := p.CheckWhole(h); err != nil {
		return nil, err
	}
	if err := p.acquire(ctx, h.Cost); err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bufio.NewReaderSize(io.MultiReader(&head, r), 64<<10))
	if err != nil {
		p.budget.Release(h.Cost)
		return nil, photo.Errorf(photo.EUndecodable, "the image cannot be decoded: %v", err)
	}
	p.releaseWhenCollected(img, h.Cost)
	return img, nil
}

// Derive makes a derivative's JPEG: Decode, then Encode at quality.
func (p *Pipeline) Derive(ctx context.Context, src io.ReadSeeker, side, orientation, quality int) ([]byte, error) {
	img, err := p.Decode(ctx, src, side, orientation)
	if err != nil {
		return nil, err
	}
	return Encode(img, quality)
}

// smallCost is the memory of what a decode makes besides the decoded
// image: the shrunk image (4 bytes a pixel), its turned copy, the
// shrinking's rows and spans, and the encoder's output (under a byte a
// pixel at any quality syriamap uses).
func smallCost(h Header, side, orientation int) int64 {
	w, hh := int64(h.Width), int64(h.Height)
	dw, dh := w, hh
	if w > int64(side) || hh > int64(side) {
		dw, dh = int64(side), max(1, hh*int64(side)/w)
		if hh > w {
			dw, dh = max(1, w*int64(side)/hh), int64(side)
		}
	}
	px := dw * dh
	cost := px*4 + px + 4*w + 8*(w+hh) + 3*16*dw
	if orientation > 1 {
		cost += px * 4
	}
	return cost + 64<<10
}

// acquire takes n bytes of the budget, waiting for them. While it waits,
// it has the garbage collector run now and then: the budget of the
// images already dropped comes back only once they are collected, and a
// quiet server may not collect for minutes.
func (p *Pipeline) acquire(ctx context.Context, n int64) error {
	for !p.budget.TryAcquire(n) {
		if p.collecting.CompareAndSwap(false, true) {
			runtime.GC()
			p.collecting.Store(false)
		}
		wait, cancel := context.WithTimeout(ctx, 250*time.Millisecond)
		err := p.budget.Acquire(wait, n)
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// releaseWhenCollected gives n bytes back to the budget once img's pixels
// are collected, or at once for an image type it does not know.
func (p *Pipeline) releaseWhenCollected(img image.Image, n int64) {
	release := func(n int64) { p.budget.Release(n) }
	if pix := pixels(img); pix != nil {
		runtime.AddCleanup(pix, release, n)
		return
	}
	release(n)
}

// pixels is the first byte of img's largest allocation, its pixels, or
// nil.
func pixels(img image.Image) *uint8 {
	var pix []uint8
	switch m := img.(type) {
	case *image.YCbCr:
		pix = m.Y
	case *image.NYCbCrA:
		pix = m.Y
	case *image.RGBA:
		pix = m.Pix
	case *image.NRGBA:
		pix = m.Pix
	case *image.RGBA64:
		pix = m.Pix
	case *image.NRGBA64:
		pix = m.Pix
	case *image.Gray:
		pix = m.Pix
	case *image.Gray16:
		pix = m.Pix
	case *image.CMYK:
		pix = m.Pix
	case *image.Paletted:
		pix = m.Pix
	}
	if len(pix) == 0 {
		return nil
	}
	return &pix[0]
}

// Encode encodes img as a JPEG: Go's encoder writes no APPn segment, so
// the result has no EXIF, XMP or IPTC.
func Encode(img image.Image, quality int) ([]byte, error) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Orient turns img upright as its EXIF orientation (1–8) says.
func Orient(img image.Image, o int) image.Image {
	if o <= 1 || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var dx, dy int
			switch o {
			case 2: // mirrored
				dx, dy = w-1-x, y
			case 3: // turned 180°
				dx, dy = w-1-x, h-1-y
			case 4: // mirrored upside down
				dx, dy = x, h-1-y
			case 5: // mirrored, turned 90° anticlockwise
				dx, dy = y, x
			case 6: // turned 90° clockwise to show
				dx, dy = h-1-y, x
			case 7: // mirrored, turned 90° clockwise
				dx, dy = h-1-y, w-1-x
			case 8: // turned 90° anticlockwise to show
				dx, dy = y, w-1-x
			}
			dst.Set(dx, dy, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return dst
}

// frame is a JPEG's start-of-frame header.
type frame struct {
	width, height int
	progressive   bool
	// Per component, its horizontal and vertical sampling factors.
	h, v []int
}

// cost estimates the bytes Go's JPEG decoder allocates for the frame: one
// plane a component at its sampled size (padded to whole blocks), and for
// a progressive image every component's coefficients besides (64 int32s a
// block: 4 bytes a sample) until the last scan.
func (f frame) cost() int64 {
	hmax, vmax := 1, 1
	for i := range f.h {
		hmax, vmax = max(hmax, f.h[i]), max(vmax, f.v[i])
	}
	mcuW, mcuH := int64(8*hmax), int64(8*vmax)
	mcusX := (int64(f.width) + mcuW - 1) / mcuW
	mcusY := (int64(f.height) + mcuH - 1) / mcuH
	var samples int64
	for i := range f.h {
		samples += mcusX * int64(8*f.h[i]) * mcusY * int64(8*f.v[i])
	}
	cost := samples
	if len(f.h) == 4 {
		cost += int64(f.width) * int64(f.height) * 4 // CMYK is converted
	}
	if f.progressive {
		cost += samples * 4
	}
	return cost + 1<<20
}

var errNoFrame = photo.Errorf(photo.EForbidden, "not a JPEG image syriamap can read: no frame header before the image data")

// readFrame reads a JPEG's segments up to its frame header.
func readFrame(br *bufio.Reader) (frame, error) {
	if _, err := br.Discard(2); err != nil {
		return frame{}, errNoFrame
	}
	for n := 0; n < 1000; n++ {
		b, err := br.ReadByte()
		if err != nil {
			return frame{}, errNoFrame
		}
		if b != 0xFF {
			return frame{}, errNoFrame
		}
		marker := byte(0xFF)
		for marker == 0xFF {
			if marker, err = br.ReadByte(); err != nil {
				return frame{}, errNoFrame
			}
		}
		if marker == 0x01 || marker >= 0xD0 && marker <= 0xD8 {
			continue
		}
		if marker == 0xD9 || marker == 0xDA {
			return frame{}, errNoFrame
		}
		var lb [2]byte
		if _, err := io.ReadFull(br, lb[:]); err != nil {
			return frame{}, errNoFrame
		}
		size := int(lb[0])<<8 | int(lb[1]) - 2
		if size < 0 {
			return frame{}, errNoFrame
		}
		// SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC).
		if marker < 0xC0 || marker > 0xCF || marker == 0xC4 || marker == 0xC8 || marker == 0xCC {
			if _, err := br.Discard(size); err != nil {
				return frame{}, errNoFrame
			}
			continue
		}
		seg := make([]byte, size)
		if _, err := io.ReadFull(br, seg); err != nil || size < 6 {
			return frame{}, errNoFrame
		}
		f := frame{height: int(seg[1])<<8 | int(seg[2]), width: int(seg[3])<<8 | int(seg[4])}
		f.progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
		comps := int(seg[5])
		if comps < 1 || comps > 4 || len(seg) < 6+3*comps {
			return frame{}, errNoFrame
		}
		for i := range comps {
			s := seg[6+3*i+1]
			f.h = append(f.h, max(1, int(s>>4)))
			f.v = append(f.v, max(1, int(s&15)))
		}
		return f, nil
	}
	return frame{}, errNoFrame
}
