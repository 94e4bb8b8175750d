package photo

import (
	"math"
	"time"

	"github.com/paulmach/orb"
)

// The read models: what the archive's storage gives the server and the
// commands — a photo as a map shows it, the review's changes and groups,
// a session, the archive's extent — declared here, below both, so that
// neither reaches into the other's package for them.

// Feature is what a map or a GIS download shows of a photo: fewer columns
// than a Photo, read without decoding any JSON, for streaming many.
type Feature struct {
	// Seq is the photo's import sequence (its rowid): the key of
	// Filter.After.
	Seq                  int64
	ID, Caption          string
	Date                 Date
	DateSource           string // Photo.DateSource
	Photographer, Agency string
	PlaceID, PlaceName   string
	PlaceKind            string
	Governorate          string
	Precision            string
	Confidence           float64
	Mention              string
	ImageURL, ImagePath  string
	Lon, Lat             float64
	Located              bool
	// Review is how the place stands (automatic, corrected, confirmed),
	// ReviewedBy and ReviewedAt ("" when automatic) who decided and when
	// (RFC 3339).
	Review                 Review
	ReviewedBy, ReviewedAt string
	// ImageFile is the hash of the photo's first image file ("" when it
	// has none); Check compares the caption with that file's metadata.
	ImageFile string
	Check     Check
	// Reuse is the photo's frame's reuse (Photo.Reuse).
	Reuse string
	// Graphic says an editor marked the photo graphic: its image is shown
	// blurred until the reader asks. (A withheld photo is never a public
	// feature.)
	Graphic bool
	// Events are its confirmed links to UCDP GED events (Photo.Events).
	Events string
	// Verified says two editors placed it alike without seeing each
	// other's answer, or a third decided between them (Photo.Verified).
	Verified bool
}

// PlaceCount is a place that has photos, with how many and over what time.
type PlaceCount struct {
	ID, Name, Kind, Governorate string
	Lon, Lat                    float64
	Count                       int
	// First and Last bound the photos' dates (zero when none is dated).
	First, Last Date
}

// Change is what a person does to photos, with who and why: exactly one of
// a new place (Place, located; an empty ID for a bare point), a
// confirmation that the geocoder's place is right (Confirm), or a fix of
// the date or the credit (Date, Photographer, Agency; nil leaves a value
// as it is).
type Change struct {
	Author, Note         string
	Place                *Place
	Confirm              bool
	Date                 *Date
	Photographer, Agency *string
}

// ReviewGroup is the photos a person has not yet checked whose captions
// name the same place (Mention, "" for those that name none the
// gazetteer knows), with how many of them need a person for which reason:
// each photo counted once, under its worst (Worst's order).
type ReviewGroup struct {
	Mention                 string   // as its first photo (Example) spells it
	Spellings               []string // every spelling, Mention among them
	Photos                  int
	Unplaced, Fallback, Low int
	Disagrees               int    // whose image file's metadata disagrees with the caption
	PlaceID, PlaceName      string // the place its first photo is shown at
	Example                 string // the photo to review first
	Worst                   int    // 4 metadata disagrees, 3 unplaced, 2 fallback, 1 low confidence, 0 else
	// Key is the group's mention key (MentionKey of its spellings), and
	// Tenths its first photo's confidence in tenths (0…10): with Worst
	// and Photos, the queue's order (Before).
	Key    string
	Tenths int
}

// Before reports whether group g comes before h in the review queue: the
// worst first, then the one whose first photo is least confident (by
// tenths), then the largest, then by key (bytewise). It is the order
// store.DB.ReviewGroups lists them in.
func (g ReviewGroup) Before(h ReviewGroup) bool {
	switch {
	case g.Worst != h.Worst:
		return g.Worst > h.Worst
	case g.Tenths != h.Tenths:
		return g.Tenths < h.Tenths
	case g.Photos != h.Photos:
		return g.Photos > h.Photos
	}
	return g.Key < h.Key
}

// GroupPart is the unchecked photos of a review group shown at one place:
// a group is the caption's words, and the same words may have been read
// as different places.
type GroupPart struct {
	PlaceID, PlaceName string // both "" when unplaced or at a bare point
	Located            bool
	Photos             int
}

// Session is a signed-in editor's session.
type Session struct {
	User, CSRF string
	Expires    time.Time
}

// FileState is what the archive knows of an image file it imported.
type FileState struct {
	Size    int64
	ModTime time.Time
	SHA256  string
	// Orientation is the EXIF orientation its import read (1–8), 0 when
	// the archive does not say.
	Orientation int
}

// Extent is where and when an archive's photos are: the bounding box of
// the placed ones (nil when none is) and the first and last day of the
// dated ones (zero when none is).
type Extent struct {
	BBox        *orb.Bound
	First, Last Date
}

// Cluster is the placed photos of one grid cell: how many, their mean
// point, and, for a cell of one photo, the photo.
type Cluster struct {
	Count    int
	Lon, Lat float64
	// Single is the photo of a one-photo cell, nil otherwise.
	Single *Feature
}

// Micro is a coordinate in whole millionths of a degree (half away from
// zero): a cluster's points are summed so, exactly, so that its mean does
// not depend on the order they were added in — the server (SQLite or the
// memory index) and the published site add them in different orders, and
// a float sum's last bit would move the mean's sixth decimal.
func Micro(deg float64) int64 { return int64(math.Round(deg * 1e6)) }

// MeanOfMicro is the mean, in degrees, of n coordinates whose Micro sum
// is sum; the site's script divides alike (sum / n / 1e6).
func MeanOfMicro(sum float64, n int) float64 { return sum / float64(n) / 1e6 }

// User is an editor.
type User struct {
	Name    string
	Created time.Time
	Tokens  int
}
