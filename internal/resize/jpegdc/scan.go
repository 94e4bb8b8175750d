package jpegdc

import "bytes"

// scanHeader is what an SOS segment says.
type scanHeader struct {
	comps  []*component
	dc, ac []*table
	ss, se int
	ah, al uint
}

// scan reads an SOS segment and the entropy-coded data after it: a
// progressive AC scan is skipped whole; the DC coefficients of a DC scan
// or of a sequential scan are read into the planes.
func (d *decoder) scan(seg []byte) error {
	h, err := d.scanHeader(seg)
	if err != nil {
		return err
	}
	if d.progressive && h.ss > 0 {
		d.pos = nextMarker(d.data, d.pos)
		return nil
	}
	d.bits = bitReader{data: d.data, pos: d.pos}
	for _, c := range h.comps {
		c.pred = 0
	}
	blocks := d.blocksOf(h)
	left := d.restart
	for mcu := 0; mcu < blocks.mcus; mcu++ {
		if err := d.mcu(h, blocks, mcu); err != nil {
			return err
		}
		if d.bits.overrun() {
			return FormatError("the scan's data ends before its blocks do")
		}
		if d.restart > 0 && mcu+1 < blocks.mcus {
			if left--; left == 0 {
				if err := d.restartAt(h); err != nil {
					return err
				}
				left = d.restart
			}
		}
	}
	d.pos = nextMarker(d.data, d.bits.pos)
	return nil
}

// scanHeader checks an SOS segment against the frame and the tables read.
func (d *decoder) scanHeader(seg []byte) (scanHeader, error) {
	var h scanHeader
	if len(seg) < 1 {
		return h, FormatError("short scan header")
	}
	n := int(seg[0])
	if n < 1 || n > len(d.comps) || len(seg) != 4+2*n {
		return h, FormatError("bad scan header")
	}
	for i := range n {
		id, tables := seg[1+2*i], seg[2+2*i]
		var c *component
		for j := range d.comps {
			if d.comps[j].id == id {
				c = &d.comps[j]
			}
		}
		if c == nil {
			return h, FormatError("scan of an unknown component")
		}
		td, ta := tables>>4, tables&15
		if td > 3 || ta > 3 {
			return h, FormatError("bad scan table selector")
		}
		h.comps = append(h.comps, c)
		h.dc, h.ac = append(h.dc, d.dcTables[td]), append(h.ac, d.acTables[ta])
	}
	p := seg[1+2*n:]
	h.ss, h.se, h.ah, h.al = int(p[0]), int(p[1]), uint(p[2]>>4), uint(p[2]&15)
	if d.progressive && h.ss > 0 {
		return h, nil // an AC scan: skipped, its tables unused
	}
	if d.progressive && h.se != 0 || h.ss != 0 || h.al > 13 {
		return h, FormatError("bad spectral selection")
	}
	for i, c := range h.comps {
		if !d.quantSeen[c.tq] {
			return h, FormatError("component without a quantisation table")
		}
		refining := d.progressive && h.ah > 0
		if !refining && h.dc[i] == nil || !d.progressive && h.ac[i] == nil {
			return h, FormatError("scan without its Huffman tables")
		}
	}
	if n > 1 {
		blocks := 0
		for _, c := range h.comps {
			blocks += c.h * c.v
		}
		if blocks > 10 {
			return h, FormatError("more than 10 blocks in an MCU")
		}
	}
	return h, nil
}

// scanBlocks is how a scan walks its blocks: interleaved by MCU, or one
// component's blocks in raster order.
type scanBlocks struct {
	mcus   int
	perRow int // MCUs in a row
}

func (d *decoder) blocksOf(h scanHeader) scanBlocks {
	if len(h.comps) == 1 {
		c := h.comps[0]
		return scanBlocks{mcus: c.bw * c.bh, perRow: c.bw}
	}
	return scanBlocks{mcus: d.mcusX * d.mcusY, perRow: d.mcusX}
}

// mcu reads the DC coefficients of one MCU (one block in a
// non-interleaved scan).
func (d *decoder) mcu(h scanHeader, b scanBlocks, mcu int) error {
	mx, my := mcu%b.perRow, mcu/b.perRow
	if len(h.comps) == 1 {
		c := h.comps[0]
		return d.block(h, 0, &c.dc[my*c.stride+mx])
	}
	for i, c := range h.comps {
		for y := range c.v {
			row := (my*c.v + y) * c.stride
			for x := range c.h {
				if err := d.block(h, i, &c.dc[row+mx*c.h+x]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// block reads one block's DC coefficient into dc: its difference from
// the previous block's (skipping the AC coefficients of a sequential
// scan), or one more bit of it in a progressive refinement.
func (d *decoder) block(h scanHeader, i int, dc *int32) error {
	br := &d.bits
	if d.progressive && h.ah > 0 {
		if br.bits(1) != 0 {
			*dc |= 1 << h.al
		}
		return nil
	}
	size, err := br.decode(h.dc[i])
	if err != nil {
		return err
	}
	if size > 11 {
		return FormatError("bad DC difference size")
	}
	c := h.comps[i]
	c.pred += br.value(size)
	*dc = c.pred << h.al
	if d.progressive {
		return nil
	}
	return br.skipAC(h.ac[i])
}

// restartAt reads the RST marker after a restart interval and starts the
// next interval afresh.
func (d *decoder) restartAt(h scanHeader) error {
	p := nextMarker(d.data, d.bits.pos)
	if p+1 >= len(d.data) || d.data[p+1] < rst0 || d.data[p+1] > rst7 {
		return FormatError("missing restart marker")
	}
	d.bits = bitReader{data: d.data, pos: p + 2}
	for _, c := range h.comps {
		c.pred = 0
	}
	return nil
}

// nextMarker is where the first marker at or after p begins: a 0xFF
// followed by neither a stuffed zero nor (in entropy-coded data) fill.
// It is len(data) when there is none.
func nextMarker(data []byte, p int) int {
	for {
		i := bytes.IndexByte(data[min(p, len(data)):], 0xFF)
		if i < 0 {
			return len(data)
		}
		p += i
		if p+1 < len(data) && data[p+1] != 0 && data[p+1] != 0xFF {
			return p
		}
		if p+1 >= len(data) {
			return len(data)
		}
		p++
	}
}
