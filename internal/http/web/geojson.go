package web

import (
	"fmt"
	"math"
	"path"
	"path/filepath"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/photo"
)

// FeatureLinks are the links of one photo, built from named routes.
type FeatureLinks struct {
	Page, Image, Thumbnail string
	// PlaceNameAr is the place's Arabic name, from the gazetteer ("" for
	// none): what the server adds to a stored photo besides its links.
	PlaceNameAr string
}

// AppendFeature appends one photo as a GeoJSON Feature: id, Point [lon,
// lat] to 6 decimals (null for an unplaced photo), and its properties.
// The camera's GPS point, and its distance from the photo's place, are
// written only when gps is true (an editor, or Options.PublicGPS): two
// distances from two known places (before and after a correction) give
// the point away, so a public reader gets the agreement's word alone.
func AppendFeature(b []byte, f *photo.Feature, l FeatureLinks, gps bool) []byte {
	b = append(b, `{"type":"Feature","id":`...)
	b = AppendString(b, f.ID)
	if f.Located {
		b = append(b, `,"geometry":{"type":"Point","coordinates":[`...)
		b = strconv.AppendFloat(b, f.Lon, 'f', 6, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, f.Lat, 'f', 6, 64)
		b = append(b, `]}`...)
	} else {
		b = append(b, `,"geometry":null`...)
	}
	b = append(b, `,"properties":{"caption":`...)
	b = AppendString(b, f.Caption)
	b = append(b, `,"date":`...)
	b = appendOrNull(b, ISODate(f.Date))
	b = append(b, `,"date_precision":`...)
	b = appendOrNull(b, f.Date.Precision)
	// Where the date came from: caption, import, file or editor.
	b = append(b, `,"date_source":`...)
	b = appendOrNull(b, f.DateSource)
	for _, kv := range [...]struct{ k, v string }{
		{"photographer", f.Photographer}, {"agency", f.Agency}, {"place_id", f.PlaceID}, {"place_name", f.PlaceName},
		{"place_name_ar", l.PlaceNameAr}, {"place_kind", f.PlaceKind}, {"governorate", f.Governorate}, {"precision", f.Precision},
	} {
		b = append(b, ',', '"')
		b = append(b, kv.k...)
		b = append(b, '"', ':')
		b = appendOrNull(b, kv.v)
	}
	b = append(b, `,"confidence":`...)
	b = strconv.AppendFloat(b, f.Confidence, 'f', -1, 64)
	b = append(b, `,"mention":`...)
	b = appendOrNull(b, f.Mention)
	b = append(b, `,"image_url":`...)
	b = appendOrNull(b, l.Image)
	b = append(b, `,"thumbnail_url":`...)
	b = appendOrNull(b, l.Thumbnail)
	b = append(b, `,"url":`...)
	b = AppendString(b, l.Page)
	// How pages show the photo, so that the map's list and popups say
	// what the server's pages say.
	class, label := PlacementOf(f.Located, f.Precision, f.Confidence)
	b = append(b, `,"placement_class":`...)
	b = AppendString(b, class)
	b = append(b, `,"placement_label":`...)
	b = AppendString(b, label)
	b = append(b, `,"date_text":`...)
	b = appendOrNull(b, LongDate(f.Date))
	// Whether a person checked the place: automatic, corrected or
	// confirmed, by whom and when.
	b = append(b, `,"placement":`...)
	b = AppendString(b, string(f.Review))
	b = append(b, `,"corrected_by":`...)
	b = appendOrNull(b, f.ReviewedBy)
	b = append(b, `,"corrected_at":`...)
	b = appendOrNull(b, f.ReviewedAt)
	// What the image file says, and whether it agrees with the caption.
	c := &f.Check
	b = append(b, `,"iptc_city":`...)
	b = appendOrNull(b, c.IPTCCity)
	b = append(b, `,"iptc_country":`...)
	b = appendOrNull(b, c.IPTCCountry)
	b = append(b, `,"gps_lon":`...)
	b = appendCoord(b, c.GPSLon, c.HasGPS && gps)
	b = append(b, `,"gps_lat":`...)
	b = appendCoord(b, c.GPSLat, c.HasGPS && gps)
	b = append(b, `,"gps_distance_km":`...)
	if km, ok := GPSDistance(f); ok && gps {
		b = strconv.AppendInt(b, int64(km), 10)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"exif_time":`...)
	b = appendOrNull(b, c.EXIFTime)
	b = append(b, `,"agreement":`...)
	b = appendOrNull(b, c.Agreement)
	b = append(b, `,"agreement_note":`...)
	b = appendOrNull(b, c.Note)
	// Whether an editor marked the image graphic: a map shows it
	// blurred until its reader asks.
	b = append(b, `,"graphic":`...)
	b = strconv.AppendBool(b, f.Graphic)
	// The UCDP GED events an editor confirmed the photo documents,
	// "ucdp-ged:270123" separated by spaces: one text field, as GIS
	// tools read it.
	b = append(b, `,"events":`...)
	b = appendOrNull(b, f.Events)
	// Two editors placed it alike, blind, or a third decided.
	b = append(b, `,"verified":`...)
	b = strconv.AppendBool(b, f.Verified)
	return append(b, `}}`...)
}

// GPSDistance is how far the camera's GPS point is from the photo's place,
// in whole kilometres. It is as private as the point itself: see
// AppendFeature.
func GPSDistance(f *photo.Feature) (float64, bool) {
	if !f.Located || !f.Check.HasGPS {
		return 0, false
	}
	return math.Round(geo.Distance(orb.Point{f.Lon, f.Lat}, orb.Point{f.Check.GPSLon, f.Check.GPSLat}) / 1000), true
}

// ISODate is the first day a date covers, YYYY-MM-DD, so that GIS tools
// type the field as a date whatever the precision; "" for no date.
func ISODate(d photo.Date) string {
	first, _ := d.Span()
	if first == 0 {
		return ""
	}
	return photo.DateFromSpan(first, first, "day").String()
}

// LongDate writes a date at its precision: "19 September 2016",
// "September 2016", "2016"; "" when undated.
func LongDate(d photo.Date) string {
	switch d.Precision {
	case "day":
		return fmt.Sprintf("%d %s %d", d.Day, time.Month(d.Month), d.Year)
	case "month":
		return fmt.Sprintf("%s %d", time.Month(d.Month), d.Year)
	case "year":
		return strconv.Itoa(d.Year)
	}
	return ""
}

// appendCoord appends a coordinate to 6 decimals, or null.
func appendCoord(b []byte, v float64, ok bool) []byte {
	if !ok {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, v, 'f', 6, 64)
}

func appendOrNull(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return AppendString(b, s)
}

const hexDigits = "0123456789abcdef"

// plain marks the ASCII bytes a JSON string holds as they are.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD;
// U+2028 and U+2029 are escaped so the output is also valid JavaScript.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			switch r {
			case utf8.RuneError:
				b = append(b, `\ufffd`...)
			default:
				b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// EncodeFunc appends a photo's encoding, with links under base, to b: a
// Feature, a GeoJSON text sequence record, a CSV row.
type EncodeFunc func(b []byte, base string, ft *photo.Feature) []byte

// Round6 rounds a coordinate to 6 decimals (about 10 cm), half away
// from zero.
func Round6(x float64) float64 {
	const f = 1e6
	if x < 0 {
		return -float64(int64(-x*f+0.5)) / f
	}
	return float64(int64(x*f+0.5)) / f
}

// SourceName is how a source file is shown to visitors, on a photo's
// page and in its GeoJSON: its name, not the folder on the importing
// machine, which is nobody's business.
func SourceName(file string) string { return path.Base(filepath.ToSlash(file)) }
