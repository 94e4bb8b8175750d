package resize

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"image"
	"io"
	"io/fs"
	"runtime"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize/jpegdc"
)

// Reduced is a picture decoded at a reduced scale: Image is the Width ×
// Height picture at 1/Scale of its size, each of its pixels the mean of a
// Scale × Scale block (Scale 1: the picture whole).
type Reduced struct {
	Image         image.Image
	Width, Height int
	Scale         int
}

// DCScale is the scale of a JPEG's DC plane: one pixel an 8 × 8 block.
const DCScale = 8

// DecodeReduced decodes the picture r holds at the smallest scale that
// leaves minSide pixels on its short side: a JPEG large enough from its
// DC coefficients alone (jpegdc: 1/8 scale, no inverse DCT), anything
// else whole, as DecodeWhole does. Within the budget: its header first,
// refused when over the limits before anything is decoded; then the
// file's bytes, which the DC plane is read from in memory (a JPEG over 3
// bytes a pixel, as no camera writes, is decoded whole instead).
func (p *Pipeline) DecodeReduced(ctx context.Context, r io.Reader, minSide int) (Reduced, error) {
	var head bytes.Buffer
	h, err := ReadHeader(io.TeeReader(r, &head))
	if err != nil {
		return Reduced{}, err
	}
	if err := p.CheckWhole(h); err != nil {
		return Reduced{}, err
	}
	rest := io.MultiReader(&head, r)
	whole := func(r io.Reader) (Reduced, error) {
		img, err := p.DecodeWhole(ctx, r)
		return Reduced{Image: img, Width: h.Width, Height: h.Height, Scale: 1}, err
	}
	if h.Format != "jpeg" || min(h.Width, h.Height) < DCScale*minSide {
		return whole(rest)
	}
	limit := int64(h.Width)*int64(h.Height)*3 + 1<<20
	if err := p.acquire(ctx, limit); err != nil {
		return Reduced{}, err
	}
	data, err := readAll(io.LimitReader(rest, limit+1), sizeOf(r, limit+1))
	if err != nil {
		p.budget.Release(limit)
		return Reduced{}, err
	}
	if int64(len(data)) > limit {
		p.budget.Release(limit)
		return whole(io.MultiReader(bytes.NewReader(data), r))
	}
	img, err := jpegdc.Decode(data)
	// The file's bytes are garbage now; their share comes back once they
	// are collected (see Decode).
	runtime.AddCleanup(&data[0], func(n int64) { p.budget.Release(n) }, limit)
	switch {
	case errors.Is(err, jpegdc.ErrUnsupported):
		return whole(bufio.NewReader(bytes.NewReader(data)))
	case err != nil:
		return Reduced{}, photo.Errorf(photo.EUndecodable, "the image cannot be decoded: %v", err)
	}
	return Reduced{Image: img, Width: h.Width, Height: h.Height, Scale: DCScale}, nil
}

// readAll reads r whole into a buffer of size bytes at first (a file's
// own size: io.ReadAll's doublings copied 9 MB and allocated 16 for an
// agency JPEG).
func readAll(r io.Reader, size int64) ([]byte, error) {
	b := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := b.ReadFrom(r)
	return b.Bytes(), err
}

// sizeOf is the size of the file r reads (a file, or a reader that knows
// its length), at most limit; 0 when it cannot say.
func sizeOf(r io.Reader, limit int64) int64 {
	var n int64
	switch f := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			n = fi.Size()
		}
	case interface{ Size() int64 }:
		n = f.Size()
	case interface{ Len() int }:
		n = int64(f.Len())
	}
	return min(max(n, 0), limit)
}
