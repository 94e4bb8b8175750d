package pagemodel

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// The review's models: a caption with the text its place was read from
// marked, a group's parts, a photo's history.

// OrPoint is a place's name, or "a point" for a place the gazetteer
// does not name.
func OrPoint(l i18n.Locale, name string) string {
	if name == "" {
		return l.T("review.a-point")
	}
	return name
}

// CaptionParts marks, in a caption, the text its place was read from.
func CaptionParts(caption, mention string) []views.CaptionPart {
	if mention == "" {
		return []views.CaptionPart{{Text: caption}}
	}
	i := strings.Index(caption, mention)
	if i < 0 {
		i = strings.Index(strings.ToLower(caption), strings.ToLower(mention))
	}
	if i < 0 {
		return []views.CaptionPart{{Text: caption}}
	}
	return []views.CaptionPart{{Text: caption[:i]}, {Text: caption[i : i+len(mention)], Mark: true}, {Text: caption[i+len(mention):]}}
}

// GroupParts are a group's parts as the review page lists them, with
// how many photos share this photo's reading (the ones "apply to all"
// decides) and where they are shown. A bare point is a part of its own.
func GroupParts(l i18n.Locale, gz *gazetteer.Gazetteer, parts []photo.GroupPart, here photo.Place, name func(id, name string) string) (out []views.GroupPart, same int, at string) {
	same, at = 1, OrPoint(l, name(here.ID, here.Name))
	for _, part := range parts {
		v := views.GroupPart{Name: name(part.PlaceID, part.PlaceName), Photos: part.Photos}
		switch {
		case !part.Located:
			v.Name = l.T("review.not-placed")
		case part.PlaceID == "":
			v.Name = l.T("review.own-points")
		default:
			v.PlaceID, v.Where = part.PlaceID, PlaceWhere(l, gz, part.PlaceID)
		}
		if part.Located == here.Located && part.PlaceID == here.ID {
			v.Here, at = true, v.Name
			if here.ID != "" || !here.Located {
				same = part.Photos
			}
		}
		out = append(out, v)
	}
	return out, same, at
}

// PlaceWhere tells places of one name apart ("Judaydah: village,
// Idlib" and "village, Hama"): the place's kind and its governorate, or
// its country abroad.
func PlaceWhere(l i18n.Locale, gz *gazetteer.Gazetteer, id string) string {
	pl := gz.ByID(id)
	if pl == nil {
		return ""
	}
	kind := l.Named("kind.", string(pl.Kind))
	if gov := gz.GovernorateOf(pl); gov != nil && gov != pl {
		return l.T("review.part-where", "kind", kind, "area", GazetteerName(l, gov))
	}
	if pl.Country != "SY" && pl.Country != "" {
		return l.T("review.part-where", "kind", kind, "area", CountryName(l, pl.Country))
	}
	return kind
}

// DateTime is a moment in the reader's words, in UTC ("3 December 2026,
// 14:05").
func DateTime(l i18n.Locale, at time.Time) string {
	at = at.UTC()
	return l.T("history.at", "date", Day(l, at), "time", l.Number(at.Format("15:04")))
}

// Day is a moment's day in the reader's words, in UTC.
func Day(l i18n.Locale, at time.Time) string {
	at = at.UTC()
	return l.Date(at.Year(), at.Month(), at.Day())
}

// ChangeDone is what a change of a photo did, in words that follow who
// made it ("confirmed its place", "asked for a second look at its
// place"): the custody record's action, and a second look's step
// ("requested", "answered"); "changed it" for an action without words.
func ChangeDone(l i18n.Locale, action, step string) string {
	key := "stale.did." + action
	if action == "second-look" {
		key += "." + step
	}
	if !i18n.Has(key) {
		key = "stale.did.changed"
	}
	return l.T(key)
}

// EventRow is an event of a photo's history (or a place added), as its
// page and the review log show it.
func EventRow(l i18n.Locale, g *gazetteer.Gazetteer, e photo.Event, urls URLs) views.EventRow {
	action := e.Action
	if i18n.Has("history.action." + action) {
		action = l.T("history.action." + action)
	}
	row := views.EventRow{At: DateTime(l, e.At),
		By: ByWhom(l, e.By), Action: action, Note: e.Note}
	// The store's own note of an undo, in the reader's language.
	var batch int64
	if _, err := fmt.Sscanf(e.Note, "undoes change %d", &batch); err == nil && e.Action == "undo" && e.Note == fmt.Sprintf("undoes change %d", batch) {
		row.Note = l.T("history.undoes", "n", l.Number(strconv.FormatInt(batch, 10)))
	}
	if e.PhotoID != "" {
		row.PhotoID, row.PhotoURL = e.PhotoID, urls.Photo(&photo.Photo{ID: e.PhotoID})
		row.Before, row.After = describeState(l, g, e.Before), describeState(l, g, e.After)
	}
	if e.Action == "add-place" { // of no photo: the place added, and where
		id, _ := e.After["id"].(string)
		name, _ := e.After["name"].(string)
		lon, _ := e.After["lon"].(float64)
		lat, _ := e.After["lat"].(float64)
		row.PhotoID, row.PhotoURL = id, urls.Place(id)
		row.After = l.T("history.at-point", "place", name, "lat", l.Decimal(lat, 5), "lon", l.Decimal(lon, 5))
	}
	return row
}

// describeState writes an event's before or after for people, the place
// by its name in the reader's language, at longitude, latitude as every
// page writes a point.
func describeState(l i18n.Locale, g *gazetteer.Gazetteer, m map[string]any) string {
	if _, ok := m["place_id"]; ok {
		id, _ := m["place_id"].(string)
		name, _ := m["place_name"].(string)
		name = NameOf(l, g, id, name)
		lon, lonOK := m["lon"].(float64)
		lat, _ := m["lat"].(float64)
		where := l.T("review.not-placed")
		if lonOK {
			where = l.T("history.at-point", "place", OrPoint(l, name), "lat", l.Number(fmt.Sprintf("%.5f", lat)), "lon", l.Number(fmt.Sprintf("%.5f", lon)))
		}
		if review, _ := m["review"].(string); review != "" && review != string(photo.ReviewAutomatic) {
			where += l.T("common.list-sep") + l.T("history.review."+review)
		}
		return where
	}
	var parts []string
	for _, k := range []string{"date", "photographer", "agency"} {
		v, _ := m[k].(string)
		if v == "" {
			v = l.T("history.none")
		}
		parts = append(parts, l.T("history.field."+k, "value", v))
	}
	return strings.Join(parts, l.T("common.list-sep"))
}

// ByWhom is who made a change, in the reader's language: the records say
// "editor rana" in English, which an Arabic sentence must not carry.
func ByWhom(l i18n.Locale, by string) string {
	if name, ok := strings.CutPrefix(by, "editor "); ok && name != "" {
		return l.T("history.by-editor", "name", name)
	}
	return by
}

// CameraTime is a file's EXIF time ("2017-01-22T09:00:00", the camera's
// clock, no zone) in the reader's words; a time it cannot read is shown
// as written.
func CameraTime(l i18n.Locale, exif string) string {
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02T15:04:05Z07:00", "2006:01:02 15:04:05"} {
		if at, err := time.Parse(layout, exif); err == nil {
			return l.T("file.camera-time", "date", l.Date(at.Year(), at.Month(), at.Day()), "time", l.Number(at.Format("15:04")))
		}
	}
	return exif
}
