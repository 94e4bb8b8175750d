package gzjoin

// CRC-32 (IEEE) of a concatenation from the CRCs of its parts, as zlib's
// crc32_combine does (Mark Adler's method): crc(A‖B) = crc(A)·x^(8·|B|)
// ⊕ crc(B) modulo the CRC polynomial. It lets a response made of pieces
// compressed beforehand carry its gzip CRC without the pieces' text.

// crcPoly is the IEEE polynomial, reflected.
const crcPoly = 0xedb88320

// multModP returns a(x)·b(x) modulo p(x), the polynomials reflected.
func multModP(a, b uint32) uint32 {
	m := uint32(1) << 31
	var p uint32
	for {
		if a&m != 0 {
			p ^= b
			if a&(m-1) == 0 {
				break
			}
		}
		m >>= 1
		if b&1 != 0 {
			b = b>>1 ^ crcPoly
		} else {
			b >>= 1
		}
	}
	return p
}

// x2nTable holds x^(2^k) modulo p(x) for k = 0…31.
var x2nTable = func() (t [32]uint32) {
	p := uint32(1) << 30 // x^1
	t[0] = p
	for k := 1; k < 32; k++ {
		p = multModP(p, p)
		t[k] = p
	}
	return t
}()

// ShiftFor returns x^(8·n) modulo p(x): the factor that moves a CRC past
// n bytes.
func ShiftFor(n int) uint32 {
	p := uint32(1) << 31 // x^0
	k := 3               // 8·n = n·2^3
	for u := uint64(n); u != 0; u >>= 1 {
		if u&1 != 0 {
			p = multModP(x2nTable[k&31], p)
		}
		k++
	}
	return p
}

// Combine returns the CRC of A‖B from crcA, crcB and ShiftFor(|B|).
func Combine(crcA, crcB, shiftB uint32) uint32 {
	return multModP(shiftB, crcA) ^ crcB
}
