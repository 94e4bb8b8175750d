package imagemeta

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"time"
)

// The EXIF (TIFF) tags read, from EXIF 2.32.
const (
	tagMake           = 0x010F
	tagModel          = 0x0110
	tagOrientation    = 0x0112
	tagExifIFD        = 0x8769
	tagGPSIFD         = 0x8825
	tagDateOriginal   = 0x9003
	tagOffsetOriginal = 0x9011
	gpsLatRef         = 1
	gpsLat            = 2
	gpsLonRef         = 3
	gpsLon            = 4
)

// TIFF field types and their sizes.
const (
	typeByte      = 1
	typeASCII     = 2
	typeShort     = 3
	typeLong      = 4
	typeRational  = 5
	typeUndefined = 7
	typeSRational = 10
)

var typeSize = map[uint16]int{typeByte: 1, typeASCII: 1, typeShort: 2, typeLong: 4, typeRational: 8, typeUndefined: 1, typeSRational: 8}

var errEXIF = errors.New("damaged EXIF block")

// tiff is an EXIF block: a TIFF header and its IFDs, read with bounds
// checks on every offset (the block comes from files anyone may send).
type tiff struct {
	b     []byte
	order binary.ByteOrder
}

// field is one IFD entry, its value bytes resolved.
type field struct {
	typ   uint16
	count int
	val   []byte
}

// readEXIF reads the tags syriamap uses from an EXIF block (the TIFF
// structure after "Exif\0\0"). EXIF is read by hand rather than with a
// library: the few tags needed take a page, and the Go EXIF readers at
// hand either loop forever on an IFD chain that points back on itself or
// bring half a dozen dependencies.
func readEXIF(b []byte) (EXIF, error) {
	var x EXIF
	if len(b) < 8 {
		return x, errEXIF
	}
	t := tiff{b: b}
	switch string(b[:2]) {
	case "II":
		t.order = binary.LittleEndian
	case "MM":
		t.order = binary.BigEndian
	default:
		return x, errEXIF
	}
	if t.order.Uint16(b[2:4]) != 42 {
		return x, errEXIF
	}
	ifd0, err := t.ifd(int(t.order.Uint32(b[4:8])))
	if err != nil {
		return x, err
	}
	x.Make = t.ascii(ifd0[tagMake])
	x.Model = t.ascii(ifd0[tagModel])
	if o, ok := t.uint(ifd0[tagOrientation]); ok && o >= 1 && o <= 8 {
		x.Orientation = int(o)
	}
	if off, ok := t.uint(ifd0[tagExifIFD]); ok {
		if sub, err := t.ifd(int(off)); err == nil {
			x.Time, x.HasTime, x.HasOffset = exifTime(t.ascii(sub[tagDateOriginal]), t.ascii(sub[tagOffsetOriginal]))
		}
	}
	if off, ok := t.uint(ifd0[tagGPSIFD]); ok {
		if gps, err := t.ifd(int(off)); err == nil {
			lat, ok1 := t.degrees(gps[gpsLat])
			lon, ok2 := t.degrees(gps[gpsLon])
			if ok1 && ok2 && lat <= 90 && lon <= 180 {
				if strings.EqualFold(t.ascii(gps[gpsLatRef]), "S") {
					lat = -lat
				}
				if strings.EqualFold(t.ascii(gps[gpsLonRef]), "W") {
					lon = -lon
				}
				x.Lat, x.Lon, x.HasGPS = lat, lon, true
			}
		}
	}
	return x, nil
}

// ifd reads the entries of the IFD at off, by tag.
func (t tiff) ifd(off int) (map[uint16]field, error) {
	if off < 8 || off+2 > len(t.b) {
		return nil, errEXIF
	}
	n := int(t.order.Uint16(t.b[off:]))
	if off+2+12*n > len(t.b) {
		return nil, errEXIF
	}
	out := make(map[uint16]field, n)
	for i := 0; i < n; i++ {
		e := t.b[off+2+12*i : off+14+12*i]
		typ := t.order.Uint16(e[2:4])
		size, known := typeSize[typ]
		count := t.order.Uint32(e[4:8])
		if !known || count > uint32(len(t.b)) {
			continue
		}
		length := size * int(count)
		val := e[8:12]
		if length > 4 {
			at := int(t.order.Uint32(e[8:12]))
			if at < 0 || at > len(t.b) || length > len(t.b)-at {
				continue
			}
			val = t.b[at : at+length]
		} else {
			val = val[:length]
		}
		out[t.order.Uint16(e[0:2])] = field{typ: typ, count: int(count), val: val}
	}
	return out, nil
}

func (t tiff) ascii(f field) string {
	if f.typ != typeASCII && f.typ != typeUndefined {
		return ""
	}
	s, _, _ := strings.Cut(string(f.val), "\x00")
	return clean(strings.ToValidUTF8(s, ""))
}

// uint reads the first value of a SHORT or LONG field.
func (t tiff) uint(f field) (uint32, bool) {
	switch {
	case f.typ == typeShort && len(f.val) >= 2:
		return uint32(t.order.Uint16(f.val)), true
	case f.typ == typeLong && len(f.val) >= 4:
		return t.order.Uint32(f.val), true
	}
	return 0, false
}

// degrees reads a GPS coordinate: three RATIONALs, degrees, minutes and
// seconds (a writer may put decimal minutes in the second and 0 in the
// third).
func (t tiff) degrees(f field) (float64, bool) {
	if f.typ != typeRational || f.count != 3 {
		return 0, false
	}
	var v [3]float64
	for i := range v {
		num := t.order.Uint32(f.val[8*i:])
		den := t.order.Uint32(f.val[8*i+4:])
		if den == 0 {
			if num != 0 {
				return 0, false
			}
			continue
		}
		v[i] = float64(num) / float64(den)
	}
	d := v[0] + v[1]/60 + v[2]/3600
	return d, !math.IsNaN(d) && !math.IsInf(d, 0)
}

// exifTime reads DateTimeOriginal ("2017:01:22 10:15:00") with its offset
// ("+03:00"); without an offset the clock is read as UTC and hasOffset is
// false. A zeroed date ("0000:00:00 00:00:00"), which cameras write when
// their clock was never set, is no time.
func exifTime(s, offset string) (tm time.Time, ok, hasOffset bool) {
	if len(s) < 19 {
		return
	}
	t, err := time.Parse("2006:01:02 15:04:05", s[:19])
	if err != nil {
		return
	}
	if len(offset) == 6 {
		if o, err := time.Parse("-07:00", offset); err == nil {
			_, secs := o.Zone()
			return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.FixedZone("", secs)), true, true
		}
	}
	return t, true, false
}
