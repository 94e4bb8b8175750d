package photo

import (
	"context"
	"strconv"
	"strings"
)

// A write carries the version of what it writes that its editor saw
// (HTTP If-Match, or a page's form), so that two editors never overwrite
// each other unseen: the store compares it in the write's own
// transaction and refuses a write over a newer version (EStale).

// Versioned things, as keys of Expect: a photo, a story, a place an
// editor added.
const (
	VersionPhoto = "photo"
	VersionStory = "story"
	VersionPlace = "place"
)

type expectKey struct{ kind, id string }

// Expect returns ctx carrying that the write of kind's id (VersionPhoto
// and a photo's id, …) expects it at version.
func Expect(ctx context.Context, kind, id string, version int64) context.Context {
	return context.WithValue(ctx, expectKey{kind, id}, version)
}

// Expected returns the version a write of kind's id expects, and whether
// it expects one (a script's write without If-Match does not).
func Expected(ctx context.Context, kind, id string) (int64, bool) {
	v, ok := ctx.Value(expectKey{kind, id}).(int64)
	return v, ok
}

// ETag is the entity tag of kind's version: "photo-7".
func ETag(kind string, version int64) string {
	return `"` + kind + "-" + strconv.FormatInt(version, 10) + `"`
}

// ParseETag reads a version of kind from an entity tag ETag made; ok is
// false for any other tag (a weak one, another kind's), which matches no
// version.
func ParseETag(kind, tag string) (version int64, ok bool) {
	s, found := strings.CutPrefix(strings.TrimSpace(tag), `"`+kind+"-")
	if !found || !strings.HasSuffix(s, `"`) {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSuffix(s, `"`), 10, 64)
	return v, err == nil && v >= 0
}

// IfMatch reads the version of kind's thing that an HTTP If-Match
// header expects (RFC 9110, 13.1.1), the one place the header is
// compared. "*" expects none (ok false: any version will do, as does an
// empty header). Otherwise the header is a list of entity tags, compared
// strongly: a tag ETag made for kind names its version; a weak tag
// (W/"photo-7") never matches under If-Match, whatever it names, nor does
// another kind's tag or a malformed list. A list that names no version
// of kind's expects one no write meets (-1, ok true): the write is
// refused as stale.
func IfMatch(header, kind string) (version int64, ok bool) {
	h := strings.TrimSpace(header)
	if h == "" || h == "*" {
		return 0, false
	}
	for h != "" {
		h = strings.TrimLeft(h, " \t,")
		if h == "" {
			break
		}
		weak := strings.HasPrefix(h, "W/")
		h = strings.TrimPrefix(h, "W/")
		if !strings.HasPrefix(h, `"`) {
			return -1, true // not an entity tag: the list matches nothing
		}
		end := strings.IndexByte(h[1:], '"')
		if end < 0 {
			return -1, true
		}
		tag := h[:end+2]
		h = h[end+2:]
		if v, ok := ParseETag(kind, tag); ok && !weak {
			return v, true
		}
	}
	return -1, true
}

// Stale is the error of a write over a newer version than its editor
// saw: what it is now (Version, and the last change: who, what, when),
// for the 412's body and the page that offers to keep theirs or redo.
type Stale struct {
	Kind    string `json:"kind"`
	ID      string `json:"id"`
	Saw     int64  `json:"saw"`     // the version the write expected
	Version int64  `json:"version"` // the version it met
	ETag    string `json:"etag"`    // Version's, to send again as If-Match
	By      string `json:"by,omitempty"`
	Action  string `json:"action,omitempty"`
	At      string `json:"at,omitempty"`
	// Step is a second look's ("requested", "answered"), "" for another
	// action.
	Step string `json:"step,omitempty"`
	// Changed is what a story's last save changed (story.Changes:
	// "title", "step:2" …), nil for a photo or a place.
	Changed []string `json:"changed,omitempty"`
}

// StaleError is the *Error of a stale write.
func StaleError(s Stale) *Error {
	s.ETag = ETag(s.Kind, s.Version)
	msg := s.Kind + " " + s.ID + " changed since you read it (version " + strconv.FormatInt(s.Saw, 10) + ", now " + strconv.FormatInt(s.Version, 10) + ")"
	if s.By != "" {
		msg += ": " + s.By + " (" + s.Action + ", " + s.At + ")"
	}
	return &Error{Code: EStale, Message: msg + "; read it again, then keep your change or redo it", Current: s}
}
