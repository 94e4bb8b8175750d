package imagemeta

import (
	"bytes"
	"encoding/binary"
)

// IIMSegment is an APP13 segment holding an IPTC IIM block (Photoshop
// image resource 0x0404) with record 2's datasets by number (120 the
// caption, 80 the by-line, 110 the credit, 55 the date created, 90 the
// city, 101 the country), declared UTF-8 (1:90). The tests and the bench
// write JPEGs with it: put it after the file's first two bytes (SOI).
func IIMSegment(sets map[int][]string) []byte {
	var iim bytes.Buffer
	iim.Write([]byte{0x1C, 1, 90, 0, 3, 0x1B, '%', 'G'})
	for _, tag := range []int{5, 25, 55, 80, 90, 92, 95, 100, 101, 110, 115, 120} {
		for _, v := range sets[tag] {
			iim.Write([]byte{0x1C, 2, byte(tag)})
			binary.Write(&iim, binary.BigEndian, uint16(len(v)))
			iim.WriteString(v)
		}
	}
	var res bytes.Buffer
	res.WriteString("Photoshop 3.0\x00")
	res.WriteString("8BIM")
	res.Write([]byte{0x04, 0x04, 0, 0}) // id, empty name padded to even
	binary.Write(&res, binary.BigEndian, uint32(iim.Len()))
	res.Write(iim.Bytes())
	if iim.Len()%2 == 1 {
		res.WriteByte(0)
	}
	var seg bytes.Buffer
	seg.Write([]byte{0xFF, 0xED})
	binary.Write(&seg, binary.BigEndian, uint16(res.Len()+2))
	seg.Write(res.Bytes())
	return seg.Bytes()
}
