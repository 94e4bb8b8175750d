package web

import (
	"strconv"

	"github.com/syriamap/syriamap/internal/photo"
)

// Placement codes in /api/points: how the map draws a photo.
const (
	PlacedExact     = 0
	PlacedFallback  = 1 // at a place that holds the one the caption names
	PlacedLow       = 2 // confidence under one half
	PlacedCorrected = 3 // placed by a person, or by the file it came from
)

// PlacementClasses name the placement codes, for pages, the map's
// markers and its legend alike.
var PlacementClasses = [...]string{PlacedExact: "exact", PlacedFallback: "fallback", PlacedLow: "low", PlacedCorrected: "corrected"}

// PlacementCode is how the map draws a photo placed with the precision
// and confidence.
func PlacementCode(precision string, confidence float64) int {
	switch {
	case precision == "corrected" || precision == "given":
		return PlacedCorrected
	case precision == "fallback":
		return PlacedFallback
	case confidence < 0.5:
		return PlacedLow
	}
	return PlacedExact
}

// PlacementOf is the one rule for how a photo's placement is shown: its
// class (exact, fallback, low, corrected or none) and the badge's words.
func PlacementOf(located bool, precision string, confidence float64) (class, label string) {
	if !located {
		return "none", "not on the map"
	}
	code := PlacementCode(precision, confidence)
	class = PlacementClasses[code]
	if code == PlacedCorrected {
		return class, precision // "corrected", "given"
	}
	return class, class + " · " + strconv.FormatFloat(confidence, 'f', 2, 64)
}

// MetadataCode is how the map marks a photo whose image file's metadata
// (IPTC location, GPS, clock) does not agree with its caption: 0 agrees
// or nothing to compare, 1 near, 2 disagrees (/api/points.json's
// "metadata").
func MetadataCode(agreement string) int {
	return metadataCode(agreement)
}

// MarkCode is a photo's mark on the map: 3 when its frame is also
// another photo's under a caption that disagrees (it outweighs what its
// own file says), else its MetadataCode.
func MarkCode(ft *photo.Feature) int {
	if ft.Reuse == photo.ReuseConflict {
		return 3
	}
	return metadataCode(ft.Check.Agreement)
}

func metadataCode(agreement string) int {
	switch agreement {
	case photo.AgreementNear:
		return 1
	case photo.AgreementDisagrees:
		return 2
	}
	return 0
}

// AppendPoint appends the start of a photo's compact point, as the map
// loads every photo at once (/api/points.json, and a published site's
// points): [id, lon, lat, first day, last day, placement, metadata —
// days as YYYYMMDD numbers, 0 when undated, lon and lat null when
// unplaced — without the closing bracket, so that a caller may add
// fields.
func AppendPoint(b []byte, ft *photo.Feature) []byte {
	b = append(b, '[')
	b = AppendString(b, ft.ID)
	if ft.Located {
		b = append(b, ',')
		b = strconv.AppendFloat(b, ft.Lon, 'f', 5, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, ft.Lat, 'f', 5, 64)
	} else {
		b = append(b, ",null,null"...)
	}
	from, to := 0, 0
	if !ft.Date.IsZero() {
		from, to = ft.Date.Span()
	}
	for _, v := range []int{from, to, PlacementCode(ft.Precision, ft.Confidence), MarkCode(ft)} {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return b
}
