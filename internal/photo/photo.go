// Package photo holds syriamap's archive model: a captioned photo with
// what the caption reader and geocoder found in it, where it came from, and
// the filters the archive is queried with. It imports no other package of
// syriamap's.
package photo

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Photo is one photo in the archive.
type Photo struct {
	// ID is derived from the normalised caption (see ID): the same caption
	// imported twice, or from two files, is one photo.
	ID      string
	Caption string
	Date    Date
	// DateSource says where Date came from: DateCaption, DateImport,
	// DateFile or DateEditor ("" when the photo is undated).
	DateSource string
	// Photographer and Agency are "" when unknown.
	Photographer, Agency string
	// Place is where the photo is shown on the map: the geocoder's choice,
	// or a person's correction, which always wins.
	Place Place
	// Geocoded is what the geocoder chose, kept apart from any correction.
	Geocoded Place
	// Correction is a person's decision about the place, or nil.
	Correction *Correction
	// Review says how the place stands: ReviewAutomatic (the geocoder's),
	// ReviewCorrected or ReviewConfirmed, by whom and when.
	Review     Review
	ReviewedBy string
	ReviewedAt time.Time
	// ImageURL and ImagePath are the photo's image: the first one a file
	// gave it. Images lists every image files gave for the caption (an
	// agency often sends one caption with several pictures).
	ImageURL  string
	ImagePath string
	Images    []Image
	// Given marks the values a file gave rather than the caption reader
	// or geocoder: they are kept when another file with the same caption
	// gives none.
	Given   Given
	Sources []Source
	// File is the image file an import read this photo from, with what
	// its metadata says; nil for photos from text, CSV and JSON lines.
	// ImageFile is the SHA-256 (hex) of the first image file the photo
	// was given, which its derivatives are served by.
	File      *File
	ImageFile string
	// Check compares the caption with the image file's metadata.
	Check Check
	// Reuse says whether the photo's frame is also another photo's
	// (ReuseCopy, ReuseConflict; "" when not, or not yet hashed), and
	// ReuseOf which photo the frame is known from first.
	Reuse, ReuseOf string
	// Harm is what an editor marked the photo: HarmGraphic, HarmWithheld,
	// or "" for none.
	Harm string
	// Events are the photo's confirmed links to UCDP GED events,
	// "ucdp-ged:270123" separated by spaces ("" for none).
	Events string
	// SecondLook is where the photo stands in two-person confirmation:
	// "" (none asked), "requested", "waiting", "disagreed", "agreed" or
	// "adjudicated"; Verified is true when its placement stands on two
	// editors' independent answers (agreed, or decided by a third).
	SecondLook string
	Verified   bool
	// Rev is the photo's version, raised by every change to it (see
	// Expect).
	Rev     int64
	Created time.Time
	Updated time.Time
}

// Placed reports whether the photo has a point on the map.
func (p *Photo) Placed() bool { return p.Place.Located }

// Given is a set of flags for the values a file gave.
type Given uint8

// The values a file may give.
const (
	GivenDate Given = 1 << iota
	GivenPhotographer
	GivenAgency
	GivenPoint
)

// Place is where a photo is put, with how sure the geocoder was.
type Place struct {
	ID          string // gazetteer id, "" for a bare point or none
	Name, Kind  string
	Governorate string // governorate name, "" outside Syria
	GovPCode    string
	Country     string
	Lon, Lat    float64
	Located     bool
	// Precision is "exact", "fallback", "none", or "corrected".
	Precision  string
	Confidence float64
	// Mention is the caption text the place was read from.
	Mention      string
	Note         string
	Alternatives []Alternative
}

// Alternative is a place the geocoder weighed and did not choose.
type Alternative struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Score   float64 `json:"score"`
	Mention string  `json:"mention,omitempty"`
}

// Correction is a person's decision about where a photo was taken: a
// gazetteer place, or a bare point, or (Confirmed) that the geocoder's
// place is right.
type Correction struct {
	PlaceID   string
	Lon, Lat  float64
	Confirmed bool
	Author    string
	Note      string
	Created   time.Time
}

// Review is how a photo's place stands.
type Review string

// The reviews.
const (
	ReviewAutomatic Review = "automatic" // the geocoder's, unchecked
	ReviewCorrected Review = "corrected" // a person (or the file) placed it
	ReviewConfirmed Review = "confirmed" // a person found the geocoder right
)

// Event is one change a person made to a photo: what it was and what it
// became (a place, or a date and credit), and why.
type Event struct {
	At      time.Time      `json:"at"`
	By      string         `json:"by"`
	Action  string         `json:"action"` // "correct", "confirm", "fix", "undo"
	PhotoID string         `json:"photo_id"`
	Before  map[string]any `json:"before"`
	After   map[string]any `json:"after"`
	Note    string         `json:"note"`
}

// Image is one picture of a photo: an address, or a path under the
// server's media folder.
type Image struct {
	URL, Path string
}

// File is an image file as an import read it.
type File struct {
	Path    string // absolute
	SHA256  string // hex, of the whole file
	Size    int64
	ModTime time.Time
	// Meta is what the file's IPTC, XMP and EXIF say, as JSON, for the
	// photo's page.
	Meta string
	// PDQ is the picture's PDQ hash (64 hex digits, as ThreatExchange's
	// tools write it) and PDQQuality its quality (0–100), as the archive
	// keeps them: "" and 0 until the picture is hashed. Read only: an
	// import stores them with its frame (store.Record).
	PDQ        string
	PDQQuality int
}

// Check is how a photo's caption agrees with its image file's metadata:
// the IPTC/XMP location, the EXIF GPS point and the EXIF capture time.
type Check struct {
	IPTCCity, IPTCCountry string
	GPSLon, GPSLat        float64
	HasGPS                bool
	// EXIFTime is the capture time, RFC 3339 when the camera gave its
	// offset, else "2006-01-02T15:04:05" (the camera's clock, zone
	// unknown); "" when not given.
	EXIFTime string
	// Agreement is AgreementAgrees, AgreementNear, AgreementDisagrees or
	// "" when there is nothing to compare; Note says it in a sentence.
	Agreement string
	Note      string
	// Parts names the parts at the Agreement's level when it is near or
	// disagrees: "place", "clock" or "place clock".
	Parts string
	// Findings are what Note says, clause by clause, for a page to say in
	// its reader's language (archive.CheckNote). They are not stored: a
	// page that needs them checks the file's metadata again.
	Findings []Finding
}

// A Finding is one clause of a check's note, kept as what it says rather
// than in words. Key names the clause (the catalogue's "check."+Key);
// the other fields are what it names, where it names them.
type Finding struct {
	Key string
	// Tail, when not "", is a clause's ending ("abroad", "unknown", "km").
	Tail string
	// Place is the gazetteer id of the place the clause measures from,
	// PlaceName its name as the photo records it.
	Place, PlaceName string
	Kind             string // the place's kind, whose spread the end names
	// Value is text the file gave (an IPTC city, in any script); Country
	// a country's ISO code, or CountryText when the code is not known.
	Value, Country, CountryText string
	Km                          float64
	Days                        int
	// Camera is the camera's day, Caption the caption's date.
	Camera, Caption Date
}

// Custody is one record of the custody chain: what was done to a photo
// (PhotoID "" for the archive as a whole), when, by whom, with what
// (Detail, JSON), chained to the record before it by Prev and Hash (the
// store's CustodyHash).
type Custody struct {
	Seq     int64           `json:"seq"`
	PhotoID string          `json:"photo_id,omitempty"`
	At      string          `json:"at"`
	Actor   string          `json:"actor"`
	Action  string          `json:"action"`
	Detail  json.RawMessage `json:"detail"`
	Prev    string          `json:"prev"`
	Hash    string          `json:"hash"`
}

// The reuses of a frame.
const (
	ReuseCopy     = "copy"     // the same frame as another photo's; the captions agree
	ReuseConflict = "conflict" // the same frame under a caption that disagrees: another place, date or photographer
)

// The harms an editor marks a photo with, each a person's decision (no
// face or wound is detected): a graphic photo is shown blurred until a
// reader asks to see it; a withheld one, for the safety of people in it,
// is kept in the archive and its exports to editors but left out of
// every public read (see Viewer).
const (
	HarmGraphic  = "graphic"
	HarmWithheld = "withheld"
)

// ValidHarm reports whether h is a harm a photo can be marked with ("" for
// none).
func ValidHarm(h string) bool { return h == "" || h == HarmGraphic || h == HarmWithheld }

// The agreements of a Check.
const (
	AgreementAgrees    = "agrees"
	AgreementNear      = "near"
	AgreementDisagrees = "disagrees"
)

// Source is one place a photo was imported from.
type Source struct {
	File string
	Line int
	// Ref is the id the file gave the photo, Label its source column, if
	// any.
	Ref, Label string
}

// ID returns the stable id of a caption: the first 16 hex digits of the
// SHA-256 of its normalised text (NFC, lower case, white space collapsed),
// so that spacing and case differences do not split one photo in two.
func ID(caption string) string {
	s := norm.NFC.String(caption)
	s = strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " ")
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// Where a photo stands in two-person confirmation while its placement
// waits: for a second editor's blind look, or for a third editor's
// decision between two answers.
const (
	LookWaiting   = "waiting"
	LookDisagreed = "disagreed"
)

func awaits(secondLook string) bool { return secondLook == LookWaiting || secondLook == LookDisagreed }

// AwaitsLook reports whether p's placement waits for its second look, or
// for a third editor's decision: it is not yet checked, and only its
// first editor sees it (Viewer.Shown).
func (p *Photo) AwaitsLook() bool { return awaits(p.SecondLook) }

// WithoutPlacement takes out of p all that says where its first editor
// placed it, as a reader sees a photo whose placement waits for a second
// look: no point, place, note, reading of the geocoder (most often what
// the first editor confirmed), other readings, file agreement (worked out
// against the place) or who placed it. SecondLook stays, so pages say a
// placement waits.
func (p *Photo) WithoutPlacement() {
	p.Place, p.Geocoded, p.Correction = Place{}, Place{}, nil
	p.Review, p.ReviewedBy, p.ReviewedAt = ReviewAutomatic, "", time.Time{}
	p.Check.Agreement, p.Check.Note, p.Check.Parts = "", "", ""
}

// WithoutPlacement is Photo.WithoutPlacement for a feature.
func (f *Feature) WithoutPlacement() {
	f.PlaceID, f.PlaceName, f.PlaceKind, f.Governorate, f.Precision, f.Confidence, f.Mention = "", "", "", "", "", 0, ""
	f.Lon, f.Lat, f.Located = 0, 0, false
	f.Review, f.ReviewedBy, f.ReviewedAt = ReviewAutomatic, "", ""
	f.Check.Agreement, f.Check.Note = "", ""
}
