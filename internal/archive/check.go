package archive

import (
	"cmp"
	"math"
	"strings"
	"time"
	"unicode"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
	"github.com/syriamap/syriamap/internal/i18n"
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
	"SY": "SY", "SYR": "SY", "SYRIA": "SY", "SYRIAN ARAB REPUBLIC": "SY",
	"TR": "TR", "TUR": "TR", "TURKEY": "TR", "TÜRKIYE": "TR", "TURKIYE": "TR",
	"LB": "LB", "LBN": "LB", "LEBANON": "LB",
	"JO": "JO", "JOR": "JO", "JORDAN": "JO",
	"IQ": "IQ", "IRQ": "IQ", "IRAQ": "IQ",
	"IL": "IL", "ISR": "IL", "ISRAEL": "IL",
}

// countryCode is the gazetteer's code of a country code or name — in
// English or Arabic ("سوريا", as Arabic agencies fill IPTC) — or "" when
// it is none of the region's.
func countryCode(s string) string {
	if code, ok := countries[strings.ToUpper(strings.TrimSpace(s))]; ok {
		return code
	}
	if code, ok := lexicon.ArabicCountries[lexicon.FoldArabic(strings.TrimSpace(s))]; ok && lexicon.CountryNames[code] != "" {
		return code
	}
	return ""
}

// countryName is the English name of a country code or name, or the
// given text when it is none of the region's.
func countryName(s string) string {
	if code := countryCode(s); code != "" {
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
	placeLevel, placeSays := a.checkPlace(p, md, c, iptc)
	clockLevel, clockSays := checkDate(p.Date, x)
	createdLevel, createdSays := checkCreated(p, md)
	creditLevel, creditSays := checkCredit(p, md)
	worst := max(placeLevel, clockLevel, createdLevel, creditLevel) // 0 nothing compared, then agrees < near < disagrees
	var parts []string
	for _, part := range []struct {
		level int
		says  []photo.Finding
		name  string
	}{{placeLevel, placeSays, "place"}, {clockLevel, clockSays, "clock"}, {createdLevel, createdSays, "created"}, {creditLevel, creditSays, "credit"}} {
		if part.level > 0 {
			c.Findings = append(c.Findings, part.says...)
		}
		if part.level == worst && worst > levelAgrees {
			parts = append(parts, part.name)
		}
	}
	c.Agreement = []string{"", photo.AgreementAgrees, photo.AgreementNear, photo.AgreementDisagrees}[worst]
	c.Note, c.Parts = CheckNote(i18n.Locale{}, a.Gazetteer(), c.Findings), strings.Join(parts, " ")
	return c
}

const (
	levelAgrees = 1 + iota
	levelNear
	levelDisagrees
)

// checkPlace compares the caption's place, the file's IPTC location and
// its GPS point, whichever of them there are (at least two), and says
// how they stand in one sentence.
func (a *Archive) checkPlace(p *photo.Photo, md imagemeta.Metadata, c photo.Check, iptc photo.Place) (int, []photo.Finding) {
	g := p.Geocoded
	fromCaption := g.Located && p.Given&photo.GivenPoint == 0 // not a point the file gave
	iptcName := cmp.Or(c.IPTCCity, md.Sublocation, md.State, c.IPTCCountry)
	if iptcName == "" && len(md.Taken) > 0 {
		iptcName = cmp.Or(md.Taken[0].Sublocation, md.Taken[0].State, md.Taken[0].Country)
	}
	haveIPTC := iptcName != ""
	// The place the others are measured from: the caption's, else the
	// IPTC location's.
	ref, says := g, photo.Finding{Key: "caption-says", Place: g.ID, PlaceName: g.Name}
	if !fromCaption {
		if !iptc.Located || !c.HasGPS {
			return 0, nil
		}
		ref, says = iptc, photo.Finding{Key: "iptc-is-ref", Place: iptc.ID, PlaceName: iptc.Name}
		haveIPTC = false
	}
	if !haveIPTC && !c.HasGPS {
		return 0, nil
	}
	tol := tolerance(ref.Kind)
	refPt := orb.Point{ref.Lon, ref.Lat}
	level := levelAgrees
	out := []photo.Finding{says}
	if haveIPTC {
		f := photo.Finding{Key: "iptc-city", Value: iptcName, Place: ref.ID, PlaceName: ref.Name}
		if c.IPTCCity == "" {
			f.Key = "iptc-location"
		}
		iptcCountry := c.IPTCCountry
		switch {
		case iptcCountry != "" && ref.Country != "" && iptcCountry != countryName(ref.Country):
			f.Tail, f.Country, f.CountryText = "abroad", countryCode(iptcCountry), iptcCountry
			level = levelDisagrees
		case !iptc.Located:
			f.Tail = "unknown"
		default:
			d := geo.Distance(refPt, orb.Point{iptc.Lon, iptc.Lat}) / 1000
			// A coarser IPTC place (a governorate for a town) holds the
			// caption's place when the caption's lies within it.
			t := max(tol, tolerance(iptc.Kind))
			level = max(level, levelOf(d, t))
			if d > 1 {
				f.Tail, f.Km = "km", d
			}
		}
		out = append(out, f)
	}
	if c.HasGPS {
		// The note is public: it says in words how the camera's point
		// stands to the place, never how far, for a distance from a
		// known place and another (after a correction, say) give the
		// point away.
		gpsPt := orb.Point{c.GPSLon, c.GPSLat}
		gpsLevel := levelOf(geo.Distance(refPt, gpsPt)/1000, tol)
		f := photo.Finding{Key: map[int]string{levelAgrees: "gps-in", levelNear: "gps-outside", levelDisagrees: "gps-far"}[gpsLevel],
			Place: ref.ID, PlaceName: ref.Name}
		if country := a.countryAt(gpsPt); country != "" && ref.Country != "" && country != ref.Country {
			f = photo.Finding{Key: "gps-country", Country: country, CountryText: countryName(country)}
			gpsLevel = levelDisagrees
		}
		level = max(level, gpsLevel)
		out = append(out, f)
	}
	end := map[int]photo.Finding{levelAgrees: {Key: "end-agree"}, levelNear: {Key: "end-near", Km: tol, Kind: ref.Kind},
		levelDisagrees: {Key: "end"}}[level]
	return level, append(out, end)
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
func checkDate(d photo.Date, x imagemeta.EXIF) (int, []photo.Finding) {
	if d.IsZero() || !x.HasTime {
		return 0, nil
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
	camera := photo.Date{Year: cam.Year(), Month: int(cam.Month()), Day: cam.Day(), Precision: "day"}
	if off <= 1 {
		return levelAgrees, []photo.Finding{{Key: "clock-agrees", Camera: camera}}
	}
	return levelDisagrees, []photo.Finding{{Key: "clock-disagrees", Camera: camera, Days: off, Caption: d}}
}

// checkCreated compares the caption's date with the file's IPTC/XMP date
// created, as checkDate does the camera's clock's: more than a day
// outside the caption's day (or month, or year) disagrees. A date the
// file gave the photo (the caption had none) is not compared with
// itself.
func checkCreated(p *photo.Photo, md imagemeta.Metadata) (int, []photo.Finding) {
	created, ok := createdDate(md.Created)
	if !ok || created.Precision != "day" || p.Date.IsZero() || p.Given&photo.GivenDate != 0 {
		return 0, nil
	}
	off := daysOutside(p.Date, created)
	if off <= 1 {
		return levelAgrees, []photo.Finding{{Key: "created-agrees", Camera: created}}
	}
	return levelDisagrees, []photo.Finding{{Key: "created-disagrees", Camera: created, Days: off, Caption: p.Date}}
}

// checkCredit compares the caption's credit with the file's IPTC/XMP
// by-line and credit, each read as the caption reader reads a credit
// ("REUTERS" is Reuters, "AFP PHOTO" AFP): a different photographer or
// agency disagrees. Values the file gave the photo are not compared with
// themselves.
func checkCredit(p *photo.Photo, md imagemeta.Metadata) (int, []photo.Finding) {
	by := strings.Join(md.Creators, ", ")
	agency := cmp.Or(md.Credit, md.Source)
	if by == "" && agency == "" {
		return 0, nil
	}
	file := caption.Parse("(Photo by " + strings.Trim(by+"/"+agency, "/") + ")").Credit
	var differ []string
	compared := false
	if p.Photographer != "" && p.Given&photo.GivenPhotographer == 0 && file.Photographer != "" {
		compared = true
		if foldName(p.Photographer) != foldName(file.Photographer) {
			differ = append(differ, "photographer")
		}
	}
	if p.Agency != "" && p.Given&photo.GivenAgency == 0 && file.Agency != "" {
		compared = true
		if foldName(p.Agency) != foldName(file.Agency) {
			differ = append(differ, "agency")
		}
	}
	said := strings.Trim(p.Photographer+"/"+p.Agency, "/")
	fileSays := strings.Trim(file.Photographer+"/"+file.Agency, "/")
	switch {
	case !compared:
		return 0, nil
	case len(differ) == 0:
		return levelAgrees, []photo.Finding{{Key: "credit-agrees", Value: fileSays}}
	}
	return levelDisagrees, []photo.Finding{{Key: "credit-disagrees", Value: fileSays, PlaceName: said}}
}

// foldName compares names as they are transliterated (Said, Saeed; Al
// Mamo, al-Mamo): the gazetteer's fine form of the words; letters alone
// when it has none.
func foldName(s string) string {
	if k := gazetteer.Fold(s).Fine; k != "" {
		return k
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// daysOutside is how many days the day d lies outside the period of date
// (0 within it).
func daysOutside(date, d photo.Date) int {
	first, last := date.Span()
	day := func(n int) time.Time { return time.Date(n/10000, time.Month(n/100%100), n%100, 0, 0, 0, 0, time.UTC) }
	at := time.Date(d.Year, time.Month(d.Month), d.Day, 0, 0, 0, 0, time.UTC)
	switch lo, hi := day(first), day(last); {
	case at.Before(lo):
		return int(lo.Sub(at).Hours() / 24)
	case at.After(hi):
		return int(at.Sub(hi).Hours() / 24)
	}
	return 0
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
