// Package imagemeta reads what a JPEG file says about itself: its IPTC
// IIM record (Photoshop APP13 resource 0x0404), its XMP packet (APP1) and
// its EXIF (APP1), as the IPTC Photo Metadata Standard and the Metadata
// Working Group's guidance define them. It reads the metadata segments
// only and stops at the image data: reading a 5 MB photo costs a few
// kilobytes.
package imagemeta

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"time"
)

// Metadata is what one image file says about itself. The descriptive
// fields are reconciled from IIM and XMP (see Read); EXIF is kept apart.
type Metadata struct {
	Caption     string   // 2:120 caption/abstract, dc:description
	ObjectName  string   // 2:05 object name, dc:title
	Creators    []string // 2:80 by-line, dc:creator
	Credit      string   // 2:110 credit, photoshop:Credit
	Source      string   // 2:115 source, photoshop:Source
	Keywords    []string // 2:25 keywords, dc:subject
	City        string   // 2:90 city, photoshop:City
	Sublocation string   // 2:92 sub-location, Iptc4xmpCore:Location
	State       string   // 2:95 province/state, photoshop:State
	CountryCode string   // 2:100 country code, Iptc4xmpCore:CountryCode
	Country     string   // 2:101 country name, photoshop:Country
	// Created is the date (and time, when given) the picture was made,
	// 2:55/2:60 or photoshop:DateCreated, as given: YYYY-MM-DD, with
	// "THH:MM:SS" and an offset when the file has them.
	Created string
	// Shown and Taken are the XMP extension's LocationShown and
	// LocationCreated, when given.
	Shown, Taken []Location
	// From says where the descriptive fields were read: "IPTC IIM",
	// "XMP", "XMP (IPTC IIM in agreement)", "IPTC IIM (the XMP is out of
	// date)" or "" when the file has neither.
	From string
	EXIF EXIF
}

// Location is one IPTC location structure.
type Location struct {
	Sublocation, City, State, Country, CountryCode string
}

// EXIF is the camera's record of the picture.
type EXIF struct {
	// Time is DateTimeOriginal, in the offset OffsetTimeOriginal gives or
	// else UTC with HasOffset false (a camera clock's zone is unknown).
	Time      time.Time
	HasTime   bool
	HasOffset bool
	// Lon and Lat are the GPS position, signed by their N/S and E/W
	// references, when HasGPS.
	Lon, Lat float64
	HasGPS   bool
	// Orientation is the EXIF orientation, 1–8 (1 when not given).
	Orientation int
	Make, Model string
}

// Problem is why a file could not be read as a JPEG with metadata; the
// message is fit to show a user.
type Problem struct{ Reason string }

func (p *Problem) Error() string { return p.Reason }

func problemf(format string, args ...any) error {
	return &Problem{Reason: fmt.Sprintf(format, args...)}
}

// maxSegments bounds the markers read before the image data: a real JPEG
// has a dozen; a damaged one can hold thousands of empty ones.
const maxSegments = 1000

// Read reads the metadata of the JPEG r holds. It reads segment by segment
// up to the start of the image data and no further. A file that is not a
// JPEG, ends before its image data, or has a segment whose length runs
// past its end is a *Problem; metadata that is damaged inside a segment is
// skipped (a bad XMP packet does not lose the IIM caption).
//
// IIM and XMP are reconciled as the MWG guidance says (and exiftool's MWG
// module does): XMP wins unless the file's IPTC digest (Photoshop resource
// 0x0425) is present and differs from the IIM block's MD5, which means a
// program that did not know XMP changed the IIM after the XMP was written;
// then IIM wins. A field only one of them has is taken from it.
func Read(r io.Reader) (Metadata, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var soi [2]byte
	if _, err := io.ReadFull(br, soi[:]); err != nil || soi != [2]byte{0xFF, 0xD8} {
		return Metadata{}, problemf("not a JPEG file (it does not begin with a JPEG start-of-image marker)")
	}
	var photoshop, xmp, exif []byte
	for n := 0; ; n++ {
		if n > maxSegments {
			return Metadata{}, problemf("damaged JPEG: more than %d segments before the image data", maxSegments)
		}
		marker, err := nextMarker(br)
		if err != nil {
			return Metadata{}, err
		}
		switch {
		case marker == 0xD9: // end of image before any image data
			return Metadata{}, problemf("damaged JPEG: it ends before its image data")
		case marker == 0xDA: // start of scan: the metadata is behind us
			md := reconcile(photoshop, xmp)
			if exif != nil {
				md.EXIF, _ = readEXIF(exif) // a damaged EXIF block loses only itself
			}
			if md.EXIF.Orientation == 0 {
				md.EXIF.Orientation = 1
			}
			return md, nil
		case marker >= 0xD0 && marker <= 0xD7, marker == 0x01: // no length
			continue
		}
		var lb [2]byte
		if _, err := io.ReadFull(br, lb[:]); err != nil {
			return Metadata{}, truncated()
		}
		length := int(binary.BigEndian.Uint16(lb[:]))
		if length < 2 {
			return Metadata{}, problemf("damaged JPEG: a segment (marker 0x%02X) has the impossible length %d", marker, length)
		}
		size := length - 2
		if marker != 0xE1 && marker != 0xED {
			if _, err := br.Discard(size); err != nil {
				return Metadata{}, truncated()
			}
			continue
		}
		seg := make([]byte, size)
		if _, err := io.ReadFull(br, seg); err != nil {
			return Metadata{}, truncated()
		}
		switch {
		case marker == 0xE1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) && exif == nil:
			exif = seg[6:]
		case marker == 0xE1 && bytes.HasPrefix(seg, []byte(xmpHeader)) && xmp == nil:
			xmp = seg[len(xmpHeader):]
		case marker == 0xED && bytes.HasPrefix(seg, []byte(photoshopHeader)):
			// A Photoshop block too big for one segment continues in the
			// next one.
			photoshop = append(photoshop, seg[len(photoshopHeader):]...)
		}
	}
}

const (
	xmpHeader       = "http://ns.adobe.com/xap/1.0/\x00"
	photoshopHeader = "Photoshop 3.0\x00"
)

func truncated() error {
	return problemf("truncated JPEG: the file ends inside its header segments")
}

// nextMarker reads up to and including the next marker byte, skipping
// fill bytes (0xFF repeated).
func nextMarker(br *bufio.Reader) (byte, error) {
	b, err := br.ReadByte()
	if err != nil {
		return 0, truncated()
	}
	if b != 0xFF {
		return 0, problemf("damaged JPEG: a byte 0x%02X where a segment marker should be", b)
	}
	for b == 0xFF {
		if b, err = br.ReadByte(); err != nil {
			return 0, truncated()
		}
	}
	if b == 0 {
		return 0, problemf("damaged JPEG: a stuffed byte where a segment marker should be")
	}
	return b, nil
}

// reconcile reads the IIM and XMP blocks and merges them (see Read).
func reconcile(photoshop, xmpPacket []byte) Metadata {
	iimBlock, digest := photoshopResources(photoshop)
	var fromIIM, fromXMP Metadata
	hasIIM := iimBlock != nil && readIIM(iimBlock, &fromIIM) == nil && !fromIIM.empty()
	hasXMP := xmpPacket != nil && readXMP(xmpPacket, &fromXMP) == nil && !fromXMP.empty()
	switch {
	case !hasIIM && !hasXMP:
		return Metadata{}
	case !hasIIM:
		fromXMP.From = "XMP"
		return fromXMP
	case !hasXMP:
		fromIIM.From = "IPTC IIM"
		return fromIIM
	}
	current := md5.Sum(iimBlock)
	stale := digest != nil && !bytes.Equal(digest, current[:])
	first, second := fromXMP, fromIIM
	from := "XMP"
	if stale {
		first, second = fromIIM, fromXMP
		from = "IPTC IIM (the XMP is out of date: the IPTC digest does not match)"
	} else if fromXMP.sameAs(fromIIM) {
		from = "XMP (IPTC IIM in agreement)"
	} else if digest == nil {
		from = "XMP (IPTC IIM differs; no IPTC digest, so XMP is preferred)"
	}
	m := first.fillFrom(second)
	m.From = from
	return m
}

// photoshopResources finds the IIM block (resource 0x0404) and the IPTC
// digest (0x0425) among Photoshop image resources.
func photoshopResources(b []byte) (iim, digest []byte) {
	for len(b) >= 12 && string(b[:4]) == "8BIM" {
		id := binary.BigEndian.Uint16(b[4:6])
		nameLen := int(b[6])
		// The Pascal name with its length byte is padded to an even size.
		skip := 6 + 1 + nameLen
		if (1+nameLen)%2 == 1 {
			skip++
		}
		if len(b) < skip+4 {
			return
		}
		size := int(binary.BigEndian.Uint32(b[skip : skip+4]))
		start := skip + 4
		if size < 0 || size > len(b)-start {
			return
		}
		data := b[start : start+size]
		switch id {
		case 0x0404:
			iim = data
		case 0x0425:
			digest = data
		}
		next := start + size
		if size%2 == 1 && next < len(b) {
			next++
		}
		b = b[next:]
	}
	return
}

func (m *Metadata) empty() bool {
	return m.Caption == "" && m.ObjectName == "" && len(m.Creators) == 0 && m.Credit == "" && m.Source == "" &&
		len(m.Keywords) == 0 && m.City == "" && m.Sublocation == "" && m.State == "" && m.CountryCode == "" &&
		m.Country == "" && m.Created == "" && len(m.Shown) == 0 && len(m.Taken) == 0
}

// sameAs reports whether the fields both blocks can hold agree.
func (m Metadata) sameAs(o Metadata) bool {
	return m.Caption == o.Caption && m.City == o.City && m.Credit == o.Credit && m.Sublocation == o.Sublocation &&
		m.State == o.State && m.CountryCode == o.CountryCode && m.Country == o.Country &&
		strings.Join(m.Creators, "\x00") == strings.Join(o.Creators, "\x00") && sameDay(m.Created, o.Created)
}

func sameDay(a, b string) bool {
	return len(a) >= 10 && len(b) >= 10 && a[:10] == b[:10] || a == b
}

// fillFrom returns m with each field it lacks taken from o.
func (m Metadata) fillFrom(o Metadata) Metadata {
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&m.Caption, o.Caption}, {&m.ObjectName, o.ObjectName}, {&m.Credit, o.Credit}, {&m.Source, o.Source},
		{&m.City, o.City}, {&m.Sublocation, o.Sublocation}, {&m.State, o.State}, {&m.CountryCode, o.CountryCode},
		{&m.Country, o.Country}, {&m.Created, o.Created},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	if len(m.Creators) == 0 {
		m.Creators = o.Creators
	}
	if len(m.Keywords) == 0 {
		m.Keywords = o.Keywords
	}
	if len(m.Shown) == 0 {
		m.Shown = o.Shown
	}
	if len(m.Taken) == 0 {
		m.Taken = o.Taken
	}
	return m
}
