// Package pagemodel builds the views' models from the archive's photos
// and the gazetteer's places: a photo's line in a list, what holds a
// place and where its records come from, a timeline's bars. The server's
// pages and the published site (internal/publish) build them alike; each
// gives its own links (URLs).
package pagemodel

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/syriamap/syriamap/internal/attribution"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/markdown"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
	"github.com/syriamap/syriamap/views"
)

// URLs are the links a page model holds: a photo's page, a place's page
// and a photo's thumbnail ("" for none).
type URLs struct {
	Photo     func(p *photo.Photo) string
	Place     func(id string) string
	Thumbnail func(p *photo.Photo) string
	// Explorer is the explorer's address, for "explore from here".
	Explorer string
}

// PhotoTitle names a photo's page by its place and date: "Photo in
// Aleppo, 3 May 2016".
func PhotoTitle(l i18n.Locale, p *photo.Photo, g *gazetteer.Gazetteer) string {
	place, date := PlaceName(l, g, p.Place), Date(l, p.Date)
	switch {
	case place != "" && date != "":
		return l.T("photo.title-place-date", "place", place, "date", date)
	case place != "":
		return l.T("photo.title-place", "place", place)
	case date != "":
		return l.T("photo.title-date", "date", date)
	}
	return l.T("photo.title")
}

// Updated writes when a story was saved (RFC 3339) as the reader reads
// it, to the minute: "1 December 2026, 10:04 UTC"; as given when it is
// not a time.
func Updated(l i18n.Locale, rfc3339 string) string {
	t, err := time.Parse(time.RFC3339, rfc3339)
	if err != nil {
		return rfc3339
	}
	t = t.UTC()
	return l.T("history.at", "date", l.Date(t.Year(), t.Month(), t.Day()), "time", l.Number(t.Format("15:04")))
}

// Choices are the header's offers of the page in the other language and,
// on an Arabic page, in the other digits; switchURL gives the page's
// address with a choice (i18n.LangParam or DigitsParam) set.
func Choices(l i18n.Locale, switchURL func(param, value string) string) (lang, digits views.Choice) {
	if l.Lang == i18n.Arabic {
		lang = views.Choice{Label: "English", Lang: "en", URL: switchURL(i18n.LangParam, "en")}
		if l.LatinDigits {
			digits = views.Choice{Label: "٠١٢٣", URL: switchURL(i18n.DigitsParam, "arab")}
		} else {
			digits = views.Choice{Label: "0123", URL: switchURL(i18n.DigitsParam, "latn")}
		}
		return lang, digits
	}
	return views.Choice{Label: "العربية", Lang: "ar", URL: switchURL(i18n.LangParam, "ar")}, views.Choice{}
}

// PhotoRow is a photo's line in a list. A place the gazetteer does not
// know (a bare point) links nowhere.
func PhotoRow(l i18n.Locale, p *photo.Photo, g *gazetteer.Gazetteer, u URLs) views.PhotoRow {
	row := views.PhotoRow{ID: p.ID, URL: u.Photo(p), Caption: p.Caption, Date: Date(l, p.Date),
		PlaceName: PlaceName(l, g, p.Place), Placement: Placement(l, p.Place), ThumbnailURL: u.Thumbnail(p), Graphic: p.Harm == photo.HarmGraphic}
	switch agency := AgencyName(l, p.Agency); {
	case p.Photographer != "" && agency != "":
		row.Credit = p.Photographer + " / " + agency
	default:
		row.Credit = p.Photographer + agency
	}
	if p.Place.ID != "" && g.ByID(p.Place.ID) != nil {
		row.PlaceURL = u.Place(p.Place.ID)
	}
	return row
}

// Placement is the badge of a photo's place (see web.PlacementOf), in
// the reader's words.
func Placement(l i18n.Locale, pl photo.Place) views.Placement {
	class, _ := web.PlacementOf(pl.Located, pl.Precision, pl.Confidence)
	switch class {
	case "none":
		return views.Placement{Class: class, Label: l.T("placement.none")}
	case "corrected":
		return views.Placement{Class: class, Label: l.T("placement." + pl.Precision)}
	}
	return views.Placement{Class: class, Label: l.T("placement."+class) + " · " + l.Decimal(pl.Confidence, 2)}
}

// PlacementWord is the word the photo page gives beside a placement's
// confidence ("low", "ضعيفة"): the badge's class by the one rule,
// web.PlacementOf, so that a place read as the one named but with a
// confidence under one half (a person's name, a word inside a camp's
// longer name) is never called exact; a person's placement says whose
// ("corrected", "given"), an unplaced photo "not on the map".
func PlacementWord(l i18n.Locale, pl photo.Place) string {
	class, label := web.PlacementOf(pl.Located, pl.Precision, pl.Confidence)
	switch class {
	case "corrected":
		return l.T("placement." + label)
	}
	return l.T("placement." + class)
}

// Coordinates is a point as the photo and place pages write it,
// longitude first, six decimals, in the reader's digits and list
// separator ("36.353610, 33.524720", "٣٦٫٣٥٣٦١٠، ٣٣٫٥٢٤٧٢٠"): on a page
// written right to left the longitude stands first, at the right.
func Coordinates(l i18n.Locale, lon, lat float64) string {
	return l.Decimal(lon, 6) + l.T("common.list-sep") + l.Decimal(lat, 6)
}

// Date is a photo's date at its precision in the reader's words
// ("19 September 2016", "١٩ أيلول/سبتمبر ٢٠١٦"); "" when undated.
func Date(l i18n.Locale, d photo.Date) string { return l.Date(d.Parts()) }

// PlaceName is a photo's place as its reader reads it (NameOf).
func PlaceName(l i18n.Locale, g *gazetteer.Gazetteer, pl photo.Place) string {
	return NameOf(l, g, pl.ID, pl.Name)
}

// NameOf is the place id as its reader reads it: on an Arabic page the
// gazetteer's Arabic name when it has one, else name, the display name
// it was given.
func NameOf(l i18n.Locale, g *gazetteer.Gazetteer, id, name string) string {
	if l.Lang == i18n.Arabic && id != "" {
		if q := g.ByID(id); q != nil && q.NameAr != "" {
			return q.NameAr
		}
	}
	return name
}

// AgencyName is a photo's agency in the reader's language: a source
// known under names in both scripts by its name in that language
// (lexicon.Agencies), another as the archive holds it.
func AgencyName(l i18n.Locale, agency string) string {
	if l.Lang == i18n.Arabic {
		return lexicon.AgencyName(agency, "ar")
	}
	return lexicon.AgencyName(agency, "en")
}

// FacetLabelAr is a facet value's Arabic label (/api/facets' label_ar):
// a place's and a governorate's (by its P-code) Arabic name from the
// gazetteer, a source's Arabic name where it is known in both scripts
// (lexicon.Agencies); "" for none and for a photographer. The server's
// answer and a published site's tables and counts take it from here.
func FacetLabelAr(g *gazetteer.Gazetteer, facet photo.Facet, value string) string {
	var ar string
	switch facet {
	case photo.FacetPlace:
		ar = NameOf(arabic, g, value, "")
	case photo.FacetGovernorate:
		ar = NameOf(arabic, g, "ocha:"+value, "")
	case photo.FacetAgency:
		if ar = AgencyName(arabic, value); ar == value {
			ar = ""
		}
	}
	return ar
}

var arabic = i18n.Locale{Lang: i18n.Arabic}

// GovernorateName is the governorate named name (as photos record it) in
// the reader's language.
func GovernorateName(l i18n.Locale, g *gazetteer.Gazetteer, name string) string {
	if l.Lang != i18n.Arabic || name == "" {
		return name
	}
	for _, pl := range g.Lookup(name) {
		if pl.Kind == gazetteer.Governorate && pl.NameAr != "" {
			return pl.NameAr
		}
	}
	return name
}

// GazetteerName is a gazetteer place's name in the reader's language.
func GazetteerName(l i18n.Locale, pl *gazetteer.Place) string {
	if l.Lang == i18n.Arabic && pl.NameAr != "" {
		return pl.NameAr
	}
	return pl.Name
}

// Within lists the places that hold pl, largest first, each linking to
// its page: its governorate, district and subdistrict, then its parent.
func Within(l i18n.Locale, g *gazetteer.Gazetteer, pl *gazetteer.Place, placeURL func(id string) string) []views.Link {
	var out []views.Link
	add := func(id, fallback string) {
		if q := g.ByID(id); q != nil && q != pl {
			out = append(out, views.Link{Label: l.T("place.within", "place", GazetteerName(l, q), "kind", l.Named("kind.", string(q.Kind))), URL: placeURL(q.ID)})
		} else if fallback != "" && q != pl {
			out = append(out, views.Link{Label: fallback})
		}
	}
	for _, a := range []gazetteer.AdminRef{pl.Governorate, pl.District, pl.Subdistrict} {
		if a.PCode != "" {
			add("ocha:"+a.PCode, a.Name)
		}
	}
	if pl.Parent != "" {
		add(pl.Parent, "")
	}
	if pl.Country != "SY" && pl.Country != "" {
		out = append([]views.Link{{Label: CountryName(l, pl.Country)}}, out...)
	}
	return out
}

// OtherSide links a border crossing to its gate in the other country
// ("Cilvegözü crossing (Turkey)" on Bab al-Hawa's page), or is nil.
func OtherSide(l i18n.Locale, g *gazetteer.Gazetteer, pl *gazetteer.Place, placeURL func(id string) string) *views.Link {
	q := g.OtherSide(pl)
	if q == nil {
		return nil
	}
	return &views.Link{Label: l.T("place.within", "place", GazetteerName(l, q), "kind", CountryName(l, q.Country)), URL: placeURL(q.ID)}
}

// ShownNames are the names of a place a reader is shown under "also
// written": its spellings in Latin letters as names are written (each
// word capitalised but for articles and particles: "Bab al-Hawa", "Deir
// ez-Zor") and in Arabic script. The datasets' other entries are noise to
// a reader — machine transliterations in lower case ("dwma", "ba er mi
// la"), names in other languages' phrases ("Douma i Syria"), and
// rewrites of another of the place's names (rewrite) — though the
// geocoder still reads them. own are the place's own names (its Name and
// NameAr), compared with, not shown.
func ShownNames(names []string, own ...string) []string {
	all := append(slices.Clip(names), own...)
	var out []string
	for _, n := range names {
		if shownName(n) && !slices.ContainsFunc(all, func(m string) bool { return rewrite(n, m) }) {
			out = append(out, n)
		}
	}
	return out
}

// rewrite reports whether name n only rewrites m, another spelling of
// the same place: an Arabic word split by a space that leaves a letter
// alone ("د مشق" for "دمشق"; "كفر نبل" beside "كفرنبل" is two words,
// both written),
// or letters with diacritics written without them where one of them is
// written out as two letters, as German writes ä, ö, ü ("Dimaejk" for
// "Dimäjk", "Dimaesq" for "Dimäşq").
func rewrite(n, m string) bool {
	if n == m {
		return false
	}
	if strings.IndexFunc(n, lexicon.IsArabic) >= 0 {
		return loneLetter(n) && strings.ReplaceAll(n, " ", "") == strings.ReplaceAll(m, " ", "")
	}
	if !strings.ContainsAny(m, "äöüÄÖÜ") || strings.IndexFunc(n, func(r rune) bool { return r > unicode.MaxASCII }) >= 0 {
		return false
	}
	return writtenOut(m) == n
}

// loneLetter reports whether an Arabic name has a word of one letter,
// which Arabic writes joined to the next (و, "and", aside).
func loneLetter(n string) bool {
	for _, w := range strings.Fields(n) {
		if r, size := utf8.DecodeRuneInString(w); size == len(w) && unicode.IsLetter(r) && lexicon.IsArabic(r) && w != "و" {
			return true
		}
	}
	return false
}

// writtenOut is s with ä, ö and ü as ae, oe and ue and every other
// diacritic dropped.
func writtenOut(s string) string {
	s = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "Ä", "Ae", "Ö", "Oe", "Ü", "Ue").Replace(s)
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// nameNouns are the English nouns names carry in lower case: "al-Hol
// camp", "Bab al-Hawa border crossing".
var nameNouns = map[string]bool{"camp": true, "camps": true, "crossing": true, "border": true, "district": true, "city": true,
	"neighbourhood": true, "neighborhood": true, "quarter": true, "refugee": true, "gate": true, "subdistrict": true, "governorate": true}

// nameParticles may be written in lower case inside a name.
var nameParticles = map[string]bool{"al": true, "el": true, "ar": true, "as": true, "ash": true, "ad": true, "at": true, "az": true,
	"an": true, "ez": true, "es": true, "ed": true, "er": true, "et": true, "en": true, "ul": true, "bin": true, "ibn": true,
	"abu": true, "of": true, "de": true, "du": true, "la": true, "le": true}

func shownName(n string) bool {
	if strings.IndexFunc(n, lexicon.IsArabic) >= 0 {
		return true
	}
	words := strings.FieldsFunc(n, func(r rune) bool { return r == ' ' || r == '-' })
	if len(words) == 0 {
		return false
	}
	for i, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		switch {
		case unicode.IsUpper(r) || unicode.IsDigit(r):
		case nameParticles[strings.ToLower(w)] && len(words) > 1 || i > 0 && nameNouns[w]:
		case r == '\'' || r == '’' || r == '`' || r == 'ʿ':
		default:
			return false
		}
	}
	return true
}

// Credits are the datasets and the pages the about page credits, in the
// reader's language where the catalogue has the words (a licence's name,
// a source's, a curated place's name from the gazetteer), the credit line
// a licence asks for as it asks for it, and each page's point longitude
// first, as every page writes a point. placeURL is a place's page, "" for
// a place without one.
func Credits(l i18n.Locale, g *gazetteer.Gazetteer, c attribution.Credits, placeURL func(id string) string) ([]views.Credit, []views.CreditPage) {
	var credits []views.Credit
	for _, src := range c.Sources {
		credits = append(credits, views.Credit{Name: l.Named("source.", src.Name), URL: src.URL, Licence: l.Named("licence.", src.Licence),
			LicenceURL: src.LicenceURL, Credit: src.Credit, UsedFor: src.UsedFor, Key: src.Name})
	}
	var pages []views.CreditPage
	for _, p := range c.Pages {
		cp := views.CreditPage{Place: NameOf(l, g, p.ID, p.Place), URL: p.URL, PlaceURL: placeURL(p.ID)}
		if lat, lon, ok := strings.Cut(p.Point, ", "); ok {
			cp.Point = l.Number(lon) + l.T("common.list-sep") + l.Number(lat)
		}
		pages = append(pages, cp)
	}
	return credits, pages
}

// Records lists the source records merged into a place, each linking to
// where it can be looked up, and the pages curated facts were read from.
func Records(l i18n.Locale, pl *gazetteer.Place) []views.Link {
	var out []views.Link
	for _, id := range pl.IDs() {
		family, key, _ := strings.Cut(id, ":")
		switch family {
		case "gn":
			out = append(out, views.Link{Label: "GeoNames " + key, URL: "https://www.geonames.org/" + key})
		case "wof":
			out = append(out, views.Link{Label: "Who's On First " + key, URL: "https://spelunker.whosonfirst.org/id/" + key + "/"})
		case "ocha":
			label := l.T("place.record.ocha", "code", key)
			if strings.HasPrefix(key, "SY") {
				label = l.T("place.record.ocha-open-syria", "code", key)
			}
			out = append(out, views.Link{Label: label, URL: "https://data.humdata.org/dataset/syrian-arab-republic-pop-places"})
		case "gnc":
			out = append(out, views.Link{Label: l.T("place.record.gnc", "id", key)})
		case "arc":
			out = append(out, views.Link{Label: l.T("place.record.added")})
		}
	}
	for _, src := range pl.Sources {
		out = append(out, views.Link{Label: l.T("place.read-from", "page", src), URL: src})
	}
	return out
}

// MonthBars lays out the monthly bins (year-only bins left out) as bars
// over the whole years from the first photo to the last, empty months
// included.
func MonthBars(l i18n.Locale, bins []photo.MonthCount) (bars []views.Bar, first, last string) {
	counts := map[string]int{}
	var lo, hi time.Time
	for _, b := range bins {
		t, err := time.Parse("2006-01", b.Month)
		if err != nil {
			continue // a year-only bin
		}
		counts[b.Month] = b.Count
		if lo.IsZero() || t.Before(lo) {
			lo = t
		}
		if t.After(hi) {
			hi = t
		}
	}
	if lo.IsZero() {
		return nil, "", ""
	}
	// Whole years, so that one busy month does not fill the chart.
	lo = time.Date(lo.Year(), time.January, 1, 0, 0, 0, 0, time.UTC)
	hi = time.Date(hi.Year(), time.December, 1, 0, 0, 0, 0, time.UTC)
	months := (hi.Year()-lo.Year())*12 + int(hi.Month()-lo.Month()) + 1
	top := 0
	for _, c := range counts {
		top = max(top, c)
	}
	width := 1000 / float64(months)
	for i := 0; i < months; i++ {
		key := lo.AddDate(0, i, 0).Format("2006-01")
		c := counts[key]
		h := 0.0
		if c > 0 {
			h = math.Max(2, 100*float64(c)/float64(top))
		}
		t := lo.AddDate(0, i, 0)
		bars = append(bars, views.Bar{Label: l.Date(t.Year(), t.Month(), 0), Count: c, X: float64(i) * width, Width: math.Max(width-1, 0.5), Height: h})
	}
	return bars, l.Date(lo.Year(), lo.Month(), 0), l.Date(hi.Year(), hi.Month(), 0)
}

// StoryStep is step n (from 1) of a story as its reader's page shows
// it: its text rendered inert, its photos as they are now (photos, by
// id; one not there is shown by the caption it had) with where their
// places came from, its window and view, and where "explore from here"
// goes (u.Explorer with the step's state).
func StoryStep(l i18n.Locale, n int, step story.Step, photos map[string]*photo.Photo, g *gazetteer.Gazetteer, u URLs) views.StoryStep {
	v := views.StoryStep{N: n, Heading: step.Heading, TextHTML: markdown.Render(step.Text), State: step.State, Highlight: step.Highlight}
	points := [][3]any{}
	lo, hi := "", ""
	for _, ref := range step.Photos {
		p := photos[ref.ID]
		if p == nil {
			v.Photos = append(v.Photos, views.StoryPhoto{Row: views.PhotoRow{ID: ref.ID, Caption: ref.Caption}, Missing: true})
			continue
		}
		sp := views.StoryPhoto{Row: PhotoRow(l, p, g, u), Mention: p.Place.Mention, Highlight: ref.ID == step.Highlight}
		if p.Place.Mention != "" {
			sp.Confidence = l.Decimal(p.Place.Confidence, 2)
		}
		if p.Review == photo.ReviewCorrected || p.Review == photo.ReviewConfirmed {
			sp.CorrectedBy = p.ReviewedBy
		}
		v.Photos = append(v.Photos, sp)
		if p.Placed() {
			points = append(points, [3]any{p.ID, web.Round6(p.Place.Lon), web.Round6(p.Place.Lat)})
		}
		if !p.Date.IsZero() {
			d := p.Date.String()
			m := d[:min(7, len(d))]
			if lo == "" || m < lo {
				lo = m
			}
			if m > hi {
				hi = m
			}
		}
	}
	b, _ := json.Marshal(points)
	v.Points = string(b)
	q := url.Values{}
	if step.State != "" {
		q, _ = url.ParseQuery(step.State)
		v.From, v.To, v.View = q.Get("from"), q.Get("to"), q.Get("map")
	} else {
		v.From, v.To = lo, hi
		if lo != "" {
			q.Set("from", lo)
			q.Set("to", hi)
		}
		if h := photos[step.Highlight]; h != nil {
			q.Set("photo", h.ID)
			if h.Placed() {
				v.View = fmt.Sprintf("12/%.4f/%.4f", h.Place.Lat, h.Place.Lon)
				q.Set("map", v.View)
			}
		}
	}
	// The view reads as zoom/lat/lon, as the explorer writes it.
	v.ExploreURL = u.Explorer + "?" + strings.ReplaceAll(q.Encode(), "%2F", "/")
	return v
}

// CountryName is a country's name (ISO code) in the reader's language.
func CountryName(l i18n.Locale, code string) string {
	if l.Lang == i18n.Arabic && i18n.Has("country."+code) {
		return l.T("country." + code)
	}
	return lexicon.CountryNames[code]
}

// PlaceFound is one answer of place search (/api/places/search), as the
// server and a published site give it.
type PlaceFound struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	NameAr string   `json:"name_ar,omitempty"`
	Kind   string   `json:"kind"`
	In     string   `json:"in"`
	Lon    *float64 `json:"lon"` // null for a place the gazetteer has no point for
	Lat    *float64 `json:"lat"`
	// Spelling is true when the name searched for is a spelling of the
	// place's name, whole ("raqqah", "الرقة" for Raqqa), not the start
	// of one: a caption search that names a place offers its filter.
	Spelling bool `json:"spelling"`
	// Governorate is a governorate's P-code, the value of the
	// governorate filter, which holds the photos in it; "" for others.
	Governorate string `json:"governorate,omitempty"`
	// Within are, for a search of the places holding photos, the places
	// inside this one that hold some (its quarters, a town's hamlets), by
	// id: the place's filter is them and it (see HoldingPlaces).
	Within []string `json:"within,omitempty"`
}

// FoundPlace is p as place search answers it.
func FoundPlace(p *gazetteer.Place) PlaceFound {
	pl := PlaceFound{ID: p.ID, Name: p.Name, NameAr: p.NameAr, Kind: string(p.Kind), In: p.Within()}
	if p.Kind == gazetteer.Governorate {
		pl.Governorate = p.Governorate.PCode
	}
	if p.Located {
		lon, lat := p.Point.Lon(), p.Point.Lat()
		pl.Lon, pl.Lat = &lon, &lat
	}
	return pl
}

// ActorName is who a custody record names, as pages show it: a command
// by its name (the system user it ran as stays in the archive and its
// exports).
func ActorName(actor string) string {
	by, _, _ := strings.Cut(actor, ", system user ")
	return by
}
