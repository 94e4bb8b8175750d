package ingest

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// urlDate finds the date news sites write in their pages' and images'
// addresses: /2016/09/24/ (the day the page was published) or
// /2018/08/ (the month an image was uploaded).
var urlDate = regexp.MustCompile(`/((?:19|20)\d\d)/(0[1-9]|1[0-2])/(?:(0[1-9]|[12]\d|3[01])/)?`)

// dateInAddress returns the date in an address, if it holds one that is a
// calendar date; ok is false for another (or text that is no address).
func dateInAddress(addr string) (photo.Date, bool) {
	if !strings.Contains(addr, "://") {
		return photo.Date{}, false
	}
	m := urlDate.FindStringSubmatch(addr)
	if m == nil {
		return photo.Date{}, false
	}
	s := m[1] + "-" + m[2]
	if m[3] != "" {
		s += "-" + m[3]
	}
	d, err := photo.ParseDate(s)
	return d, err == nil
}

// published reads a record's reference date (Record.Published): the
// published column, else the date in the address of its source page or
// of its image.
func published(rec *Record, get func(string) (string, bool)) error {
	if v, ok := get("published"); ok && strings.TrimSpace(v) != "" {
		d, err := photo.ParseDate(v)
		if err != nil {
			return fmt.Errorf("published: %w", err)
		}
		rec.Published = &d
		return nil
	}
	for _, addr := range []string{rec.Label, rec.ImageURL} {
		if d, ok := dateInAddress(addr); ok {
			rec.Published = &d
			return nil
		}
	}
	return nil
}
