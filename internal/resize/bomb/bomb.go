// Package bomb crafts the images that attack a decoder, for tests and the
// reliability bench: valid JPEGs of flat grey whose pixels cost two bits a
// block (a 24,000 × 24,000 one is 18 MB), JPEGs and PNGs whose header
// alone declares a size, and progressive ones. Nothing here is committed
// as a file: the bytes are made when needed.
package bomb

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
)

// FlatJPEG returns a valid greyscale JPEG of w × h pixels, all one grey:
// every 8 × 8 block is coded as "no change, end of block" (two bits), so
// its size is about w × h / 256 bytes while a decoder allocates w × h
// bytes or more. progressive marks the frame progressive (SOF2) and codes
// the same picture as one DC scan, which makes Go's decoder keep every
// block's coefficients besides.
func FlatJPEG(w, h int, progressive bool) []byte {
	return flatJPEG(w, h, 1, progressive)
}

// ColourJPEG returns a valid YCbCr JPEG of w × h pixels at full colour
// resolution (4:4:4, what a camera's finest setting writes), all one
// colour, coded as FlatJPEG codes its blocks: its decoder allocates
// three bytes a pixel.
func ColourJPEG(w, h int) []byte {
	return flatJPEG(w, h, 3, false)
}

func flatJPEG(w, h, components int, progressive bool) []byte {
	var b bytes.Buffer
	b.Write([]byte{0xFF, 0xD8})
	// DQT: table 0, all ones.
	b.Write([]byte{0xFF, 0xDB, 0, 67, 0})
	b.Write(bytes.Repeat([]byte{1}, 64))
	sof := byte(0xC0)
	if progressive {
		sof = 0xC2
	}
	// SOF: 8 bits, h, w, the components (ids 1…, 1×1 sampling, table 0).
	n := byte(components)
	b.Write([]byte{0xFF, sof, 0, 8 + 3*n, 8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), n})
	for c := range n {
		b.Write([]byte{c + 1, 0x11, 0})
	}
	// DHT: DC table 0 and AC table 0, each with one code of one bit
	// ("0") for symbol 0: a DC difference of 0, and end of block.
	for _, class := range []byte{0x00, 0x10} {
		b.Write([]byte{0xFF, 0xC4, 0, 20, class, 1})
		b.Write(make([]byte, 15))
		b.WriteByte(0)
	}
	// SOS: every component with tables 0; then spectral selection (a
	// progressive image's one DC-first scan: 0–0) and no approximation.
	b.Write([]byte{0xFF, 0xDA, 0, 6 + 2*n, n})
	for c := range n {
		b.Write([]byte{c + 1, 0x00})
	}
	if progressive {
		b.Write([]byte{0, 0, 0})
	} else {
		b.Write([]byte{0, 63, 0})
	}
	blocks := components * ((w + 7) / 8) * ((h + 7) / 8)
	bits := 2 * blocks
	if progressive {
		bits = blocks // a DC scan codes the difference only
	}
	b.Write(make([]byte, bits/8))
	if bits%8 != 0 {
		b.WriteByte(0xFF >> (bits % 8)) // pad with ones (never 0xFF, so unstuffed)
	}
	b.Write([]byte{0xFF, 0xD9})
	return b.Bytes()
}

// HeaderJPEG returns a JPEG of a few hundred bytes whose frame header
// declares w × h pixels and whose image data is missing.
func HeaderJPEG(w, h int, progressive bool) []byte {
	j := FlatJPEG(8, 8, progressive)
	sof := bytes.Index(j, []byte{0xFF, 0xC0})
	if progressive {
		sof = bytes.Index(j, []byte{0xFF, 0xC2})
	}
	binary.BigEndian.PutUint16(j[sof+5:], uint16(h))
	binary.BigEndian.PutUint16(j[sof+7:], uint16(w))
	sos := bytes.Index(j, []byte{0xFF, 0xDA})
	return append(j[:sos+10:sos+10], 0, 0xFF, 0xD9)
}

// FlatPNG returns a valid RGBA PNG of w × h pixels, all transparent
// black: its rows compress to almost nothing, while its decoder
// allocates four bytes a pixel.
func FlatPNG(w, h int) []byte {
	var idat bytes.Buffer
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestCompression)
	row := make([]byte, 1+4*w) // filter type 0, then the pixels
	for range h {
		z.Write(row)
	}
	z.Close()
	return rgbaPNG(w, h, idat.Bytes())
}

// HeaderPNG returns a PNG whose header declares w × h RGBA pixels and whose
// image data is empty.
func HeaderPNG(w, h int) []byte {
	// A stored (uncompressed) empty zlib stream: the data ends at once.
	return rgbaPNG(w, h, []byte{0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01})
}

// rgbaPNG is a PNG of w × h 8-bit RGBA pixels whose image data is idat.
func rgbaPNG(w, h int, idat []byte) []byte {
	var b bytes.Buffer
	b.Write([]byte("\x89PNG\r\n\x1a\n"))
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 6 // 8 bits, RGBA
	chunk(&b, "IHDR", ihdr)
	chunk(&b, "IDAT", idat)
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

func chunk(b *bytes.Buffer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	b.Write(n[:])
	c := crc32.NewIEEE()
	c.Write([]byte(kind))
	c.Write(data)
	b.WriteString(kind)
	b.Write(data)
	binary.BigEndian.PutUint32(n[:], c.Sum32())
	b.Write(n[:])
}

// WithCaption returns the JPEG with an IPTC caption (2:120, UTF-8), in a
// Photoshop APP13 segment after its start marker, so that it imports as a
// photo.
func WithCaption(jpeg []byte, caption string) []byte {
	var iim bytes.Buffer
	iim.Write([]byte{0x1C, 1, 90, 0, 3, 0x1B, 0x25, 0x47}) // UTF-8
	iim.Write([]byte{0x1C, 2, 120, byte(len(caption) >> 8), byte(len(caption))})
	iim.WriteString(caption)
	if iim.Len()%2 == 1 {
		iim.WriteByte(0)
	}
	var seg bytes.Buffer
	seg.WriteString("Photoshop 3.0\x008BIM\x04\x04\x00\x00")
	binary.Write(&seg, binary.BigEndian, uint32(iim.Len()))
	seg.Write(iim.Bytes())
	out := append([]byte{}, jpeg[:2]...)
	out = append(out, 0xFF, 0xED, byte((seg.Len()+2)>>8), byte(seg.Len()+2))
	out = append(out, seg.Bytes()...)
	return append(out, jpeg[2:]...)
}
