// Package jpegdc reads a JPEG's picture at one eighth of its size without
// decoding it: the DC coefficient of each 8×8 block is eight times the
// block's mean, so the DC coefficients alone are the picture box-filtered
// to 1/8 scale (libjpeg's scale 1/8 computes the same). It skips every
// inverse DCT, every AC coefficient's value and, in a progressive JPEG,
// every AC scan; what it cannot skip is the Huffman decoding of a
// sequential scan, whose blocks are found only by reading the codes before
// them.
//
// It reads baseline, extended sequential and progressive Huffman JPEGs
// of 8-bit samples, in every chroma subsampling, with restart markers.
// What it does not read (12-bit samples, arithmetic coding, lossless and
// hierarchical JPEGs, four-component CMYK) it refuses with an error that
// wraps ErrUnsupported, so that a caller can decode such a file whole.
package jpegdc

import (
	"errors"
	"fmt"
	"image"
)

// ErrUnsupported is wrapped by the error for a JPEG this package does not
// read (see the package documentation); a full decoder may.
var ErrUnsupported = errors.New("jpegdc: unsupported JPEG")

// MaxPixels is the largest JPEG Decode reads (its planes then take under
// 20 MB); a caller that bounds memory checks its own limit first.
const MaxPixels = 100_000_000

// FormatError is a JPEG this package finds malformed.
type FormatError string

func (e FormatError) Error() string { return "jpegdc: invalid JPEG: " + string(e) }

func unsupported(what string) error { return fmt.Errorf("%w: %s", ErrUnsupported, what) }

// component is one colour component and the DC plane read of it.
type component struct {
	id     byte
	h, v   int // sampling factors
	tq     byte
	bw, bh int // blocks that cover the component (a non-interleaved scan's extent)
	stride int // the plane's width in blocks, padded to whole MCUs
	dc     []int32
	pred   int32
}

// decoder holds a JPEG in memory and what its markers have said so far.
type decoder struct {
	data []byte
	pos  int

	width, height int
	progressive   bool
	frameSeen     bool
	comps         []component
	hmax, vmax    int
	mcusX, mcusY  int
	quant         [4]uint16 // each table's DC step
	quantSeen     [4]bool
	dcTables      [4]*table
	acTables      [4]*table
	restart       int
	jfif          bool
	adobe         bool
	adobeRGB      bool // Adobe APP14 transform 0: the components are R, G, B

	bits bitReader
}

// Decode reads the JPEG data holds into its 1/8-scale picture: an
// *image.Gray for a greyscale JPEG, an *image.YCbCr for a YCbCr JPEG of a
// subsampling Go's image package names, and an *image.RGBA otherwise.
// Each side is the JPEG's divided by 8, rounded up.
func Decode(data []byte) (image.Image, error) {
	d := &decoder{data: data}
	if err := d.parse(); err != nil {
		return nil, err
	}
	return d.image()
}

// Marker bytes (ITU T.81, table B.1).
const (
	sof0  = 0xC0 // baseline
	sof1  = 0xC1 // extended sequential, Huffman
	sof2  = 0xC2 // progressive, Huffman
	sof3  = 0xC3 // lossless
	dht   = 0xC4
	sof5  = 0xC5
	dac   = 0xCC
	rst0  = 0xD0
	rst7  = 0xD7
	soi   = 0xD8
	eoi   = 0xD9
	sos   = 0xDA
	dqt   = 0xDB
	dnl   = 0xDC
	dri   = 0xDD
	app0  = 0xE0
	app14 = 0xEE
)

// parse walks the marker segments in order, reading those that matter
// (and the scans) and skipping the rest, up to EOI.
func (d *decoder) parse() error {
	if len(d.data) < 2 || d.data[0] != 0xFF || d.data[1] != soi {
		return FormatError("missing SOI marker")
	}
	d.pos = 2
	for {
		m, err := d.nextMarker()
		if err != nil {
			return err
		}
		switch {
		case m == eoi:
			if !d.frameSeen {
				return FormatError("no frame before EOI")
			}
			return nil
		case m >= rst0 && m <= rst7:
			d.pos = nextMarker(d.data, d.pos) // within a skipped scan
			continue
		case m == 0x01:
			continue // TEM: no segment follows
		}
		seg, err := d.segment()
		if err != nil {
			return err
		}
		if m == sos {
			if !d.frameSeen {
				return FormatError("scan before the frame header")
			}
			if err := d.scan(seg); err != nil {
				return err
			}
			continue
		}
		if err := d.segmentOf(m, seg); err != nil {
			return err
		}
	}
}

// segmentOf reads the marker segment seg of marker m (any but SOS): a
// frame header, tables, the restart interval, or what says the file is
// JFIF or Adobe's; it refuses the frames this package does not read.
func (d *decoder) segmentOf(m byte, seg []byte) error {
	switch {
	case m == sof0 || m == sof1 || m == sof2:
		return d.frame(seg, m == sof2)
	case m == sof3:
		return unsupported("lossless JPEG")
	case m == dac || m >= 0xC9 && m <= 0xCF:
		return unsupported("arithmetic-coded JPEG")
	case m >= sof5 && m <= 0xC7:
		return unsupported("hierarchical JPEG")
	case m == dht:
		return d.huffman(seg)
	case m == dqt:
		return d.quantisation(seg)
	case m == dri:
		if len(seg) != 2 {
			return FormatError("bad DRI length")
		}
		d.restart = int(seg[0])<<8 | int(seg[1])
	case m == dnl:
		return unsupported("height given by a DNL marker")
	case m == app0:
		d.jfif = len(seg) >= 5 && string(seg[:5]) == "JFIF\x00"
	case m == app14:
		if len(seg) >= 12 && string(seg[:5]) == "Adobe" {
			d.adobe, d.adobeRGB = true, seg[11] == 0
		}
	}
	return nil
}

// nextMarker finds the next marker from d.pos (fill bytes 0xFF skipped)
// and returns its code.
func (d *decoder) nextMarker() (byte, error) {
	for d.pos < len(d.data) && d.data[d.pos] != 0xFF {
		d.pos++ // stray bytes between segments, which decoders tolerate
	}
	for d.pos < len(d.data) && d.data[d.pos] == 0xFF {
		d.pos++
	}
	if d.pos >= len(d.data) {
		return 0, FormatError("truncated: no EOI marker")
	}
	m := d.data[d.pos]
	d.pos++
	return m, nil
}

// segment returns the marker segment at d.pos (its length's two bytes
// not included) and moves past it.
func (d *decoder) segment() ([]byte, error) {
	if d.pos+2 > len(d.data) {
		return nil, FormatError("truncated marker segment")
	}
	n := int(d.data[d.pos])<<8 | int(d.data[d.pos+1])
	if n < 2 || d.pos+n > len(d.data) {
		return nil, FormatError("truncated marker segment")
	}
	seg := d.data[d.pos+2 : d.pos+n]
	d.pos += n
	return seg, nil
}

// frame reads the frame header (SOF0–2) and makes each component's plane.
func (d *decoder) frame(seg []byte, progressive bool) error {
	if d.frameSeen {
		return FormatError("more than one frame header")
	}
	if len(seg) < 6 {
		return FormatError("short frame header")
	}
	if seg[0] != 8 {
		return unsupported(fmt.Sprintf("%d-bit samples (only 8-bit JPEGs are read)", seg[0]))
	}
	d.height = int(seg[1])<<8 | int(seg[2])
	d.width = int(seg[3])<<8 | int(seg[4])
	n := int(seg[5])
	if d.height == 0 {
		return unsupported("height given by a DNL marker")
	}
	if d.width == 0 {
		return FormatError("zero width")
	}
	if d.width*d.height > MaxPixels {
		return unsupported(fmt.Sprintf("%d × %d pixels, over %d million", d.width, d.height, MaxPixels/1_000_000))
	}
	switch {
	case n == 4:
		return unsupported("four-component (CMYK or YCCK) JPEG")
	case n != 1 && n != 3:
		return FormatError(fmt.Sprintf("%d components", n))
	case len(seg) != 6+3*n:
		return FormatError("bad frame header length")
	}
	d.progressive, d.frameSeen = progressive, true
	d.comps = make([]component, n)
	d.hmax, d.vmax = 1, 1
	for i := range d.comps {
		c := &d.comps[i]
		c.id, c.h, c.v, c.tq = seg[6+3*i], int(seg[7+3*i]>>4), int(seg[7+3*i]&15), seg[8+3*i]
		if c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 || c.tq > 3 {
			return FormatError("bad component sampling or table")
		}
		if n == 1 {
			c.h, c.v = 1, 1 // a single component's factors mean nothing (A.2.2)
		}
		d.hmax, d.vmax = max(d.hmax, c.h), max(d.vmax, c.v)
	}
	d.mcusX = (d.width + 8*d.hmax - 1) / (8 * d.hmax)
	d.mcusY = (d.height + 8*d.vmax - 1) / (8 * d.vmax)
	for i := range d.comps {
		c := &d.comps[i]
		cw := (d.width*c.h + d.hmax - 1) / d.hmax
		ch := (d.height*c.v + d.vmax - 1) / d.vmax
		c.bw, c.bh = (cw+7)/8, (ch+7)/8
		c.stride = d.mcusX * c.h
		c.dc = make([]int32, c.stride*d.mcusY*c.v)
	}
	return nil
}

// quantisation reads DQT tables; only each one's DC step is kept.
func (d *decoder) quantisation(seg []byte) error {
	for len(seg) > 0 {
		pq, tq := seg[0]>>4, seg[0]&15
		if tq > 3 || pq > 1 {
			return FormatError("bad quantisation table")
		}
		size := 1 + 64*int(pq+1)
		if len(seg) < size {
			return FormatError("short quantisation table")
		}
		step := uint16(seg[1])
		if pq == 1 {
			step = uint16(seg[1])<<8 | uint16(seg[2])
		}
		d.quant[tq], d.quantSeen[tq] = step, true
		seg = seg[size:]
	}
	return nil
}

// huffman reads DHT tables.
func (d *decoder) huffman(seg []byte) error {
	for len(seg) > 0 {
		if len(seg) < 17 {
			return FormatError("short Huffman table")
		}
		class, th := seg[0]>>4, seg[0]&15
		if class > 1 || th > 3 {
			return FormatError("bad Huffman table")
		}
		var counts [16]int
		total := 0
		for i := range counts {
			counts[i] = int(seg[1+i])
			total += counts[i]
		}
		if total == 0 || total > 256 || len(seg) < 17+total {
			return FormatError("bad Huffman table length")
		}
		t, err := newTable(counts, seg[17:17+total])
		if err != nil {
			return err
		}
		if class == 0 {
			d.dcTables[th] = t
		} else {
			d.acTables[th] = t
		}
		seg = seg[17+total:]
	}
	return nil
}

// isRGB says whether the three components are R, G and B rather than
// Y, Cb and Cr, as Go's image/jpeg decides it.
func (d *decoder) isRGB() bool {
	if len(d.comps) != 3 || d.jfif {
		return false
	}
	if d.adobe {
		return d.adobeRGB
	}
	return d.comps[0].id == 'R' && d.comps[1].id == 'G' && d.comps[2].id == 'B'
}
