package imagemeta

import "bytes"

// EndCheck follows a JPEG's structure as its bytes are written to it —
// segments by their lengths, image data up to its next marker — to find
// whether the file reaches its end-of-image marker. A file cut short (a
// download that stopped, a disk that filled) has valid headers and, often,
// image data that decodes into a grey lower half; only its missing end
// marker shows it. Bytes after the end marker (some cameras append their
// own data) are ignored. The import hashes every file whole, so this check
// reads nothing more.
type EndCheck struct {
	state  endState
	marker byte
	skip   int // bytes of a segment still to skip
	length int
	ended  bool
}

type endState uint8

const (
	beforeMarker endState = iota // between segments: 0xFF expected
	inMarker                     // after 0xFF: the marker byte
	inLength1                    // the segment length's high byte
	inLength2                    // its low byte
	inSegment                    // skipping the segment's bytes
	inData                       // entropy-coded image data
	inDataFF                     // image data, after an 0xFF
)

// Write follows p; it never fails.
func (c *EndCheck) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && !c.ended {
		switch c.state {
		case inSegment:
			k := min(c.skip, len(p))
			c.skip -= k
			p = p[k:]
			if c.skip == 0 {
				c.state = beforeMarker
				if c.marker == 0xDA {
					c.state = inData
				}
			}
			continue
		case inData:
			i := bytes.IndexByte(p, 0xFF)
			if i < 0 {
				return n, nil
			}
			p = p[i+1:]
			c.state = inDataFF
			continue
		}
		b := p[0]
		p = p[1:]
		switch c.state {
		case beforeMarker:
			if b == 0xFF {
				c.state = inMarker
			}
		case inMarker, inDataFF:
			wasData := c.state == inDataFF
			switch {
			case b == 0xFF: // fill
			case b == 0x00 && wasData: // a stuffed 0xFF in the data
				c.state = inData
			case b >= 0xD0 && b <= 0xD7, b == 0x01: // restart markers, TEM
				c.state = beforeMarker
				if wasData {
					c.state = inData
				}
			case b == 0xD8: // start of image
				c.state = beforeMarker
			case b == 0xD9:
				c.ended = true
			default:
				c.marker, c.state = b, inLength1
			}
		case inLength1:
			c.length, c.state = int(b)<<8, inLength2
		case inLength2:
			c.skip = max(0, c.length+int(b)-2)
			c.state = inSegment
			if c.skip == 0 {
				c.state = beforeMarker
				if c.marker == 0xDA {
					c.state = inData
				}
			}
		}
	}
	return n, nil
}

// Ended reports whether the bytes written reached the end-of-image marker.
func (c *EndCheck) Ended() bool { return c.ended }
