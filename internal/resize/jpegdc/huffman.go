package jpegdc

import "encoding/binary"

// lutBits is how many bits a table looks up at once: a code no longer
// decodes in one step, and an AC code with its value's bits (at press
// qualities, most fit) is skipped in one step.
const lutBits = 13

// table is one Huffman table (ITU T.81, annex C), for looking codes up.
type table struct {
	// lut maps the next lutBits bits to the code they begin with:
	// its length<<8 | its symbol, or 0 when the code is longer.
	lut [1 << lutBits]uint16
	// skip maps the next lutBits bits to what skipping one AC
	// coefficient takes when its code and its value's bits fit in them:
	// the bits (low 5 bits), the coefficients advanced (next 6 bits:
	// run+1, or 16 for ZRL), and endOfBlock; 0 when they do not fit.
	skip [1 << lutBits]uint16
	// skipMany maps the next lutBits bits to what skipping every AC
	// coefficient whose code and value fit in them takes, in one step:
	// the bits (low 5 bits), the coefficients advanced, an end of block
	// counted as one more (next 7 bits: see manyAdvance), and manyEnd when
	// one ends them; 0 when not even one fits. (Press photos spend 4 to 6
	// bits a coefficient: two or three fit.)
	skipMany [1 << lutBits]uint16
	// For codes longer than lutBits: the largest code of each length
	// (-1 for none) and where that length's symbols start in vals.
	maxCode [17]int32
	valPtr  [17]int32
	minCode [17]int32
	vals    []byte
}

const (
	endOfBlock = 1 << 11
	manyEnd    = 1 << 12
)

// manyAdvance is how far a skipMany entry moves through the block.
func manyAdvance(e uint16) int { return int(e >> 5 & 127) }

// newTable builds a table from DHT's counts of codes of each length and
// their symbols, in order.
func newTable(counts [16]int, vals []byte) (*table, error) {
	t := &table{vals: vals}
	code, k := int32(0), int32(0)
	for l := 1; l <= 16; l++ {
		n := int32(counts[l-1])
		t.valPtr[l], t.minCode[l] = k, code
		t.maxCode[l] = -1
		if n > 0 {
			t.maxCode[l] = code + n - 1
		}
		for range n {
			if code >= 1<<l {
				return nil, FormatError("Huffman table with too many codes")
			}
			if l <= lutBits {
				t.fill(code, l, vals[k])
			}
			code++
			k++
		}
		code <<= 1
	}
	t.fillMany()
	return t, nil
}

// fillMany builds skipMany from skip: from each lutBits-bit prefix, the
// AC coefficients skip would skip one after another while their codes
// and values lie wholly in the prefix.
func (t *table) fillMany() {
	const mask = 1<<lutBits - 1
	for p := range 1 << lutBits {
		bits, adv := uint16(0), uint16(0)
		end := false
		for bits < lutBits {
			e := t.skip[(p<<bits)&mask]
			if e == 0 || bits+e&31 > lutBits {
				break
			}
			bits += e & 31
			if e&endOfBlock != 0 {
				adv++
				end = true
				break
			}
			adv += e >> 5 & 63
		}
		if bits == 0 {
			continue
		}
		e := bits | adv<<5
		if end {
			e |= manyEnd
		}
		t.skipMany[p] = e
	}
}

// fill enters the code of length l for symbol in both look-up tables.
func (t *table) fill(code int32, l int, symbol byte) {
	shift := lutBits - l
	first := int(code) << shift
	run, size := int(symbol>>4), int(symbol&15)
	for i := first; i < first+1<<shift; i++ {
		t.lut[i] = uint16(l)<<8 | uint16(symbol)
		switch {
		case l+size > lutBits:
			// the value's bits run past the look-up: the slow way
		case size == 0 && run == 15:
			t.skip[i] = uint16(l) | 16<<5
		case size == 0:
			t.skip[i] = uint16(l) | endOfBlock
		default:
			t.skip[i] = uint16(l+size) | uint16(run+1)<<5
		}
	}
}

// bitReader reads the entropy-coded bits of a scan, most significant
// first, with the stuffed zero after each 0xFF taken out. At a marker it
// stops and reads zeros, as decoders do at a scan's end.
type bitReader struct {
	data   []byte
	pos    int
	acc    uint64 // the next bits, from the top
	n      uint   // how many of acc's bits are read ahead
	marker bool   // reached a marker (or the end): zeros from here
	zeros  int    // bytes of zeros read ahead past it
}

// overrun says whether the scan has read well past its data: a reader
// reads up to 8 bytes ahead, but an intact scan's codes end where its
// data does. A header that declares more blocks than the data holds
// (a 20 × 20 file calling itself 10,000 × 10,000) is refused here, early,
// rather than read as a grey picture at the cost of every block.
func (b *bitReader) overrun() bool { return b.zeros > 16 }

// fill tops acc up to at least 57 bits: eight bytes at once where none
// of them is 0xFF (a stuffed byte or a marker), else a byte at a time.
func (b *bitReader) fill() {
	if b.pos+8 <= len(b.data) && !b.marker {
		v := binary.BigEndian.Uint64(b.data[b.pos:])
		if x := ^v; (x-0x0101010101010101)&^x&0x8080808080808080 == 0 {
			// No byte of v is 0xFF (no byte of ^v is zero). Bits of a
			// byte only partly taken are ORed in again, unchanged,
			// by the next fill.
			b.acc |= v >> b.n
			k := (63 - b.n) >> 3
			b.pos += int(k)
			b.n += 8 * k
			return
		}
	}
	for b.n <= 56 {
		var c byte
		switch {
		case b.marker:
			b.zeros++
		case b.pos >= len(b.data):
			b.marker = true
			b.zeros++
		case b.data[b.pos] != 0xFF:
			c = b.data[b.pos]
			b.pos++
		case b.pos+1 < len(b.data) && b.data[b.pos+1] == 0:
			c = 0xFF
			b.pos += 2
		default:
			b.marker = true
			b.zeros++
		}
		b.acc |= uint64(c) << (56 - b.n)
		b.n += 8
	}
}

// bits reads n bits (n ≤ 16) as an unsigned number.
func (b *bitReader) bits(n uint) int32 {
	if n == 0 {
		return 0
	}
	if b.n < n {
		b.fill()
	}
	v := int32(b.acc >> (64 - n))
	b.acc <<= n
	b.n -= n
	return v
}

// decode reads one Huffman code of t and returns its symbol.
func (b *bitReader) decode(t *table) (byte, error) {
	if b.n < 16 {
		b.fill()
	}
	if e := t.lut[b.acc>>(64-lutBits)]; e != 0 {
		l := uint(e >> 8)
		b.acc <<= l
		b.n -= l
		return byte(e), nil
	}
	peek := int32(b.acc >> 48)
	for l := lutBits + 1; l <= 16; l++ {
		code := peek >> (16 - l)
		if code <= t.maxCode[l] {
			b.acc <<= uint(l)
			b.n -= uint(l)
			return t.vals[t.valPtr[l]+code-t.minCode[l]], nil
		}
	}
	return 0, FormatError("bad Huffman code")
}

// value reads a coefficient's difference of size bits (F.2.2.1's EXTEND).
func (b *bitReader) value(size byte) int32 {
	if size == 0 {
		return 0
	}
	if size > 16 {
		size = 16
	}
	v := b.bits(uint(size))
	if v < 1<<(size-1) {
		v += -1<<size + 1
	}
	return v
}

// skipAC reads past a block's AC coefficients, from the 2nd to the 64th,
// decoding their codes but not their values. It is where a sequential
// JPEG's time goes: acc and n are kept in locals, written back at the end.
func (b *bitReader) skipAC(t *table) error {
	acc, n := b.acc, b.n
	for k := 1; k < 64; {
		if n < 32 {
			b.acc, b.n = acc, n
			b.fill()
			acc, n = b.acc, b.n
		}
		// Several coefficients at once, unless they would run past the
		// block's end (the bits after it are the next block's).
		if e := t.skipMany[acc>>(64-lutBits)]; e != 0 && k+manyAdvance(e) <= 64 {
			l := uint(e & 31)
			acc <<= l
			n -= l
			if e&manyEnd != 0 {
				break
			}
			k += manyAdvance(e)
			continue
		}
		if e := t.skip[acc>>(64-lutBits)]; e != 0 {
			l := uint(e & 31)
			acc <<= l
			n -= l
			if e&endOfBlock != 0 {
				break
			}
			k += int(e >> 5 & 63)
			continue
		}
		b.acc, b.n = acc, n
		rs, err := b.decode(t)
		if err != nil {
			return err
		}
		run, size := int(rs>>4), uint(rs&15)
		if size == 0 && run != 15 {
			return nil
		}
		b.bits(size)
		acc, n = b.acc, b.n
		k += run + 1
	}
	b.acc, b.n = acc, n
	return nil
}
