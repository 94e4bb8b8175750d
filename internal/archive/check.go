package archive

import (
	"cmp"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/gazetteer"
	"github.com/syriamap/syriamap/internal/imagemeta"
	"github.com/syriamap/syriamap/internal/lexicon"
	"github.com/syriamap/syriamap/internal/photo"
)

// tolerance is how far, in km, a point may lie from a place of the kind
// and still be in it: a city spreads about 15 km, a village 5.
func tolerance(kind string) float64 {
	switch gazetteer.Kind(kind) {
	case gazetteer.City:
		return 15
	case gazetteer.Town, gazetteer.Camp:
		return 8
	case gazetteer.Subdistrict:
		return 25
	case gazetteer.District:
		return 40
	case gazetteer.Region:
		return 60
	case gazetteer.Governorate:
		return 100
	}
	return 5 // village, neighbourhood, crossing, landmark
}

// nearFactor: beyond a place's tolerance but within this many times it,
// a point is near, not in disagreement (a camp on a town's edge, a
// photographer on a hill outside a city).
const nearFactor = 3

// countries are the ISO codes and names the IPTC country fields hold for
// the gazetteer's countries, by the gazetteer's two-letter code.
var countries = map[string]string{
	"SY": "Syria", "SYR": "Syria", "SYRIA": "Syria", "SYRIAN ARAB REPUBLIC": "Syria",
	"TR": "Turkey", "TUR": "Turkey", "TURKEY": "Turkey", "TÜRKIYE": "Turkey", "TURKIYE": "Turkey",
	"LB": "Lebanon", "LBN": "Lebanon", "LEBANON": "Lebanon",
	"JO": "Jordan", "JOR": "Jordan", "JORDAN": "Jordan",
	"IQ": "Iraq", "IRQ": "Iraq", "IRAQ": "Iraq",
	"IL": "Israel", "ISR": "Israel", "ISRAEL": "Israel",
}

// countryName is the English name of a country code or name — in
// English or Arabic ("سوريا", as Arabic agencies fill IPTC) — or the
// given text when it is none of the region's.
func countryName(s string) string {
	if n, ok := countries[strings.ToUpper(strings.TrimSpace(s))]; ok {
		return n
	}
	if code, ok := lexicon.ArabicCountries[lexicon.FoldArabic(strings.TrimSpace(s))]; ok && lexicon.CountryNames[code] != "" {
		return lexicon.CountryNames[code]
	}
	return strings.TrimSpace(s)
}

// gpsCountryRadius: a GPS point takes the country of the nearest place
// within this many km; farther from every place, its country is unknown.
const gpsCountryRadius = 30

// check compares a photo's caption place and date with its image file's
// IPTC location, GPS point and capture time, and says how they agree.
func (a *Archive) check(p *photo.Photo, md imagemeta.Metadata) photo.Check {
	return a.checkWith(p, md, a.placeOfLocation(md))
}

// checkWith is check given the file's IPTC location already geocoded
// (iptc; the zero Place when the file names none).
func (a *Archive) checkWith(p *photo.Photo, md imagemeta.Metadata, iptc photo.Place) photo.Check {
	c := photo.Check{IPTCCity: md.City, IPTCCountry: countryName(cmp.Or(md.Country, md.CountryCode))}
	if c.IPTCCity == "" && len(md.Taken) > 0 {
		c.IPTCCity = md.Taken[0].City
	}
	x := md.EXIF
	if x.HasGPS {
		c.GPSLon, c.GPSLat, c.HasGPS = x.Lon, x.Lat, true
	}
	if x.HasTime {
		if x.HasOffset {
			c.EXIFTime = x.Time.Format(time.RFC3339)
		} else {
			c.EXIFTime = x.Time.Format("2006-01-02T15:04:05")
		}
	}
	placeLevel, placeNote := a.checkPlace(p, md, c, iptc)
	clockLevel, clockNote := checkDate(p.Date, x)
	worst := max(placeLevel, clockLevel) // 0 nothing compared, then agrees < near < disagrees
	var notes, parts []string
	for _, part := range []struct {
		level      int
		note, name string
	}{{placeLevel, placeNote, "place"}, {clockLevel, clockNote, "clock"}} {
		if part.level > 0 {
			notes = append(notes, part.note)
		}
		if part.level == worst && worst > levelAgrees {
			parts = append(parts, part.name)
		}
	}
	c.Agreement = []string{"", photo.AgreementAgrees, photo.AgreementNear, photo.AgreementDisagrees}[worst]
	c.Note, c.Parts = strings.Join(notes, " "), strings.Join(parts, " ")
	return c
}

const (
	levelAgrees = 1 + iota
	levelNear
	levelDisagrees
)

// checkPlace compares the caption's place, the file's IPTC location and
// its GPS point, whichever of them there are (at least two).
func (a *Archive) checkPlace(p *photo.Photo, md imagemeta.Metadata, c photo.Check, iptc photo.Place) (int, string) {
	g := p.Geocoded
	fromCaption := g.Located && p.Given&photo.GivenPoint == 0 // not a point the file gave
	iptcName := cmp.Or(c.IPTCCity, md.Sublocation, md.State, c.IPTCCountry)
	if iptcName == "" && len(md.Taken) > 0 {
		iptcName = cmp.Or(md.Taken[0].Sublocation, md.Taken[0].State, md.Taken[0].Country)
	}
	haveIPTC := iptcName != ""
	// The place the others are measured from: the caption's, else the
	// IPTC location's.
	ref, refSays := g, "The caption says "+g.Name
	if !fromCaption {
		if !iptc.Located || !c.HasGPS {
			return 0, ""
		}
		ref, refSays = iptc, "The caption names no place; the file's IPTC location is "+iptc.Name
		haveIPTC = false
	}
	if !haveIPTC && !c.HasGPS {
		return 0, ""
	}
	tol := tolerance(ref.Kind)
	refPt := orb.Point{ref.Lon, ref.Lat}
	level := levelAgrees
	parts := []string{refSays}
	if haveIPTC {
		part := "the file's IPTC city is " + isolate(iptcName)
		if c.IPTCCity == "" {
			part = "the file's IPTC location is " + isolate(iptcName)
		}
		iptcCountry := c.IPTCCountry
		switch {
		case iptcCountry != "" && ref.Country != "" && iptcCountry != countryName(ref.Country):
			part += " (" + isolate(iptcCountry) + ")"
			level = levelDisagrees
		case !iptc.Located:
			part += ", which the gazetteer does not know"
		default:
			d := geo.Distance(refPt, orb.Point{iptc.Lon, iptc.Lat}) / 1000
			// A coarser IPTC place (a governorate for a town) holds the
			// caption's place when the caption's lies within it.
			t := max(tol, tolerance(iptc.Kind))
			level = max(level, levelOf(d, t))
			if d > 1 {
				part += fmt.Sprintf(", %s from %s", km(d), ref.Name)
			}
		}
		parts = append(parts, part)
	}
	if c.HasGPS {
		// The note is public: it says in words how the camera's point
		// stands to the place, never how far, for a distance from a
		// known place and another (after a correction, say) give the
		// point away.
		gpsPt := orb.Point{c.GPSLon, c.GPSLat}
		gpsLevel := levelOf(geo.Distance(refPt, gpsPt)/1000, tol)
		part := map[int]string{levelAgrees: "its GPS point lies in " + ref.Name, levelNear: "its GPS point lies outside " + ref.Name,
			levelDisagrees: "its GPS point lies far from " + ref.Name}[gpsLevel]
		if country := a.countryAt(gpsPt); country != "" && ref.Country != "" && country != ref.Country {
			part = "its GPS point is in " + countryName(country)
			gpsLevel = levelDisagrees
		}
		level = max(level, gpsLevel)
		parts = append(parts, part)
	}
	s := strings.Join(parts, "; ")
	switch level {
	case levelAgrees:
		s += ": they agree."
	case levelNear:
		s += fmt.Sprintf(": near, but beyond the %.0f km a %s spreads.", tol, kindWord(ref.Kind))
	default:
		s += "."
	}
	return level, s
}

// levelOf grades a distance in km against a tolerance.
func levelOf(d, tol float64) int {
	switch {
	case d <= tol:
		return levelAgrees
	case d <= nearFactor*tol:
		return levelNear
	}
	return levelDisagrees
}

func kindWord(kind string) string {
	if kind == "" {
		return "place"
	}
	return kind
}

// km writes a distance for people: "3 km", "97 km", "0.4 km".
func km(d float64) string {
	if d < 1 {
		return fmt.Sprintf("%.1f km", d)
	}
	return fmt.Sprintf("%.0f km", math.Round(d))
}

// countryAt is the country of the gazetteer place nearest pt, when one
// lies within gpsCountryRadius km; "" otherwise.
func (a *Archive) countryAt(pt orb.Point) string {
	best, bestD := "", math.Inf(1)
	places := a.Gazetteer().Places()
	// An equirectangular distance is enough to find the nearest of
	// places this close; the true distance is then checked.
	cosLat := math.Cos(pt.Lat() * math.Pi / 180)
	var bestPt orb.Point
	for i := range places {
		q := &places[i]
		if !q.Located || q.Country == "" {
			continue
		}
		dx := (q.Point.Lon() - pt.Lon()) * cosLat
		dy := q.Point.Lat() - pt.Lat()
		if d := dx*dx + dy*dy; d < bestD {
			best, bestD, bestPt = q.Country, d, q.Point
		}
	}
	if best == "" || geo.Distance(pt, bestPt)/1000 > gpsCountryRadius {
		return ""
	}
	return best
}

// checkDate compares the caption's date with the camera's: more than a
// day outside the caption's day (or month, or year) is a disagreement,
// said as such, and the caption's date is kept.
func checkDate(d photo.Date, x imagemeta.EXIF) (int, string) {
	if d.IsZero() || !x.HasTime {
		return 0, ""
	}
	first, last := d.Span()
	day := func(n int) time.Time { return time.Date(n/10000, time.Month(n/100%100), n%100, 0, 0, 0, 0, time.UTC) }
	cam := time.Date(x.Time.Year(), x.Time.Month(), x.Time.Day(), 0, 0, 0, 0, time.UTC)
	lo, hi := day(first), day(last)
	var off int
	switch {
	case cam.Before(lo):
		off = int(lo.Sub(cam).Hours() / 24)
	case cam.After(hi):
		off = int(cam.Sub(hi).Hours() / 24)
	}
	camText := cam.Format("2 January 2006")
	if off <= 1 {
		return levelAgrees, fmt.Sprintf("The camera's clock says %s, as the caption does.", camText)
	}
	return levelDisagrees, fmt.Sprintf("The camera's clock says %s, %d days from the caption's date (%s); camera clocks are often wrong, so the caption's date is kept.",
		camText, off, d.String())
}

// isolate marks text the file gave, which may be written right to left
// (حلب), as a unit of its own in the sentence (Unicode's first-strong
// isolate and its pop), so that the sentence's punctuation stays where it
// is written: "Aleppo (Syria)", not "(سوريا) حلب".
func isolate(s string) string {
	for _, r := range s {
		if unicode.In(r, unicode.Arabic, unicode.Hebrew, unicode.Syriac, unicode.Thaana) {
			return "\u2068" + s + "\u2069"
		}
	}
	return s
}
