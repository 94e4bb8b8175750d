package web

import (
	"strconv"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// CSVHeader are the CSV columns: the GeoJSON properties with lon and lat.
var CSVHeader = []string{"id", "lon", "lat", "date", "date_precision", "caption", "photographer", "agency", "place_id",
	"place_name", "place_kind", "governorate", "precision", "confidence", "mention", "image_url", "url",
	"thumbnail_url", "iptc_city", "iptc_country", "gps_lon", "gps_lat", "gps_distance_km", "exif_time", "agreement", "agreement_note", "graphic", "events", "verified"}

// AppendCSVFeature appends one photo as a CSV record of CSVHeader's
// columns, for spreadsheets and for GDAL with X_POSSIBLE_NAMES=lon
// Y_POSSIBLE_NAMES=lat. The camera's GPS point and its distance are
// written only when gps is true, as in AppendFeature.
func AppendCSVFeature(b []byte, ft *photo.Feature, l FeatureLinks, gps bool) []byte {
	lon, lat := "", ""
	if ft.Located {
		lon, lat = strconv.FormatFloat(ft.Lon, 'f', 6, 64), strconv.FormatFloat(ft.Lat, 'f', 6, 64)
	}
	c := &ft.Check
	gpsLon, gpsLat, gpsKm := "", "", ""
	if c.HasGPS && gps {
		gpsLon, gpsLat = strconv.FormatFloat(c.GPSLon, 'f', 6, 64), strconv.FormatFloat(c.GPSLat, 'f', 6, 64)
	}
	if km, ok := GPSDistance(ft); ok && gps {
		gpsKm = strconv.FormatFloat(km, 'f', 0, 64)
	}
	return AppendCSVRow(b, []string{ft.ID, lon, lat, ISODate(ft.Date), ft.Date.Precision, Inert(ft.Caption), Inert(ft.Photographer),
		Inert(ft.Agency), Inert(ft.PlaceID), Inert(ft.PlaceName), ft.PlaceKind, Inert(ft.Governorate), ft.Precision,
		strconv.FormatFloat(ft.Confidence, 'f', -1, 64), Inert(ft.Mention), Inert(l.Image), Inert(l.Page),
		Inert(l.Thumbnail), Inert(c.IPTCCity), Inert(c.IPTCCountry), gpsLon, gpsLat, gpsKm, c.EXIFTime, c.Agreement, Inert(c.Note), strconv.FormatBool(ft.Graphic), ft.Events, strconv.FormatBool(ft.Verified)})
}

// Inert keeps a text cell from being run as a formula by a spreadsheet
// that opens the CSV (OWASP's "CSV injection"): a value that begins with
// =, +, -, @, a tab or a carriage return gets a leading apostrophe, which
// spreadsheets read as "text" and do not show. Captions and credits come
// from third parties' files, so any of them may begin so.
func Inert(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// AppendCSVRow appends one CSV record (RFC 4180: fields with a comma, a
// quote or a line break are quoted, quotes doubled; CRLF-free).
func AppendCSVRow(b []byte, fields []string) []byte {
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		if !strings.ContainsAny(f, ",\"\r\n") && !strings.HasPrefix(f, " ") {
			b = append(b, f...)
			continue
		}
		b = append(b, '"')
		b = append(b, strings.ReplaceAll(f, `"`, `""`)...)
		b = append(b, '"')
	}
	return append(b, '\n')
}
