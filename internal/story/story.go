// Package story is the model of a story: a guided sequence of steps
// through the map and the timeline, written by editors and stepped
// through by readers. Each step shows chosen photos or a saved state of
// the explorer (its permalink's query), with text in Markdown.
package story

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/syriamap/syriamap/internal/photo"
)

// Status is whether readers see a story.
type Status string

const (
	Draft     Status = "draft"
	Published Status = "published"
)

// Story is a titled sequence of steps.
type Story struct {
	Slug    string `json:"slug"`
	Title   string `json:"title"`
	Summary string `json:"summary"`
	Author  string `json:"author"`
	Status  Status `json:"status"`
	// Created and Updated are RFC 3339 times, set by the store.
	Created string `json:"created,omitempty"`
	Updated string `json:"updated,omitempty"`
	Steps   []Step `json:"steps"`
	// Version is raised by every save (see photo.Expect): the story
	// API's ETag, not a field of its JSON.
	Version int64 `json:"-"`
}

// Step is one stop of a story: a heading and text, and what the map and
// the timeline show — the chosen Photos, or a saved explorer State — with
// one photo highlighted.
type Step struct {
	Heading string `json:"heading"`
	// Text is Markdown (see internal/markdown for what it renders).
	Text   string     `json:"text"`
	Photos []PhotoRef `json:"photos,omitempty"`
	// State is the explorer's permalink query ("from=2016-07&to=2016-12&
	// place=ocha:C1007&map=12/36.2/37.16"), "" for a step of photos.
	State string `json:"state,omitempty"`
	// Highlight is the id of the photo the step puts forward, "" for none.
	Highlight string `json:"highlight,omitempty"`
}

// PhotoRef is a chosen photo with its caption when it was chosen: a
// photo since deleted or merged still leaves its caption in the story.
type PhotoRef struct {
	ID      string `json:"id"`
	Caption string `json:"caption"`
}

// Event is one save of a story: who, when, what (created, saved,
// published, unpublished, imported), and the story as it was saved.
type Event struct {
	At     string `json:"at"`
	Author string `json:"author"`
	Action string `json:"action"`
	Story  Story  `json:"story"`
}

// Limits of a story, so that one request cannot store a book.
const (
	MaxSteps       = 200
	MaxStepPhotos  = 200
	MaxTextBytes   = 20_000
	MaxTitleLength = 200
)

// stateKeys are the explorer state's parameters a step keeps.
var stateKeys = map[string]bool{"from": true, "to": true, "q": true, "agency": true, "photographer": true, "place": true,
	"governorate": true, "min_confidence": true, "agreement": true, "map": true, "photo": true, "events": true}

var slugRe = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// Validate checks a story as an editor sent it, cleaning what it may:
// trimmed texts, a slug made from the title when none is given, states
// kept to the explorer's parameters. The error names the field.
func (s *Story) Validate() error {
	s.Title = strings.TrimSpace(s.Title)
	s.Summary = strings.TrimSpace(s.Summary)
	if s.Slug = strings.TrimSpace(s.Slug); s.Slug == "" {
		s.Slug = Slugify(s.Title)
	}
	switch {
	case s.Title == "":
		return photo.ParamErrorf("title", "a story needs a title")
	case len([]rune(s.Title)) > MaxTitleLength:
		return photo.ParamErrorf("title", "the title is longer than %d characters", MaxTitleLength)
	case !slugRe.MatchString(s.Slug) || len(s.Slug) > 80:
		return photo.ParamErrorf("slug", "%q: use lower-case letters, digits and single hyphens (at most 80)", s.Slug)
	case s.Status != Draft && s.Status != Published:
		return photo.ParamErrorf("status", "%q: want draft or published", s.Status)
	case len(s.Steps) > MaxSteps:
		return photo.ParamErrorf("steps", "a story has at most %d steps", MaxSteps)
	case len(s.Summary) > MaxTextBytes:
		return photo.ParamErrorf("summary", "the summary is longer than %d bytes", MaxTextBytes)
	}
	for i := range s.Steps {
		st := &s.Steps[i]
		st.Heading, st.Text = strings.TrimSpace(st.Heading), strings.TrimSpace(st.Text)
		field := func(name string) string { return "steps[" + strconv.Itoa(i+1) + "]." + name }
		switch {
		case st.Heading == "":
			return photo.ParamErrorf(field("heading"), "step %d needs a heading", i+1)
		case len(st.Text) > MaxTextBytes:
			return photo.ParamErrorf(field("text"), "step %d's text is longer than %d bytes", i+1, MaxTextBytes)
		case len(st.Photos) > MaxStepPhotos:
			return photo.ParamErrorf(field("photos"), "step %d has more than %d photos", i+1, MaxStepPhotos)
		case len(st.Photos) > 0 && st.State != "":
			return photo.ParamErrorf(field("state"), "step %d shows chosen photos or an explorer state, not both", i+1)
		}
		state, err := cleanState(st.State)
		if err != nil {
			return photo.ParamErrorf(field("state"), "step %d: %v", i+1, err)
		}
		st.State = state
		if st.Highlight != "" && len(st.Photos) > 0 && !hasPhoto(st.Photos, st.Highlight) {
			return photo.ParamErrorf(field("highlight"), "step %d highlights %q, which is not among its photos", i+1, st.Highlight)
		}
	}
	return nil
}

// cleanState keeps the explorer's parameters of a permalink's query, or
// of a whole permalink.
func cleanState(s string) (string, error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '?'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	q, err := url.ParseQuery(s)
	if err != nil {
		return "", err
	}
	for k := range q {
		if !stateKeys[k] {
			delete(q, k)
		}
	}
	// The view reads as zoom/lat/lon, as the explorer writes it.
	return strings.ReplaceAll(q.Encode(), "%2F", "/"), nil
}

func hasPhoto(refs []PhotoRef, id string) bool {
	for _, r := range refs {
		if r.ID == id {
			return true
		}
	}
	return false
}

// PhotoIDs are the ids of every chosen photo and highlight, in order,
// once each.
func (s *Story) PhotoIDs() []string {
	seen := map[string]bool{}
	var out []string
	add := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, st := range s.Steps {
		for _, p := range st.Photos {
			add(p.ID)
		}
		add(st.Highlight)
	}
	return out
}

// Without returns the story without the photos drop names: gone from
// their steps, captions and all, and no longer any step's highlight.
// The story itself is not changed.
func (s Story) Without(drop map[string]bool) Story {
	if len(drop) == 0 {
		return s
	}
	steps := make([]Step, len(s.Steps))
	for i, st := range s.Steps {
		st.Photos = slices.DeleteFunc(slices.Clone(st.Photos), func(r PhotoRef) bool { return drop[r.ID] })
		if drop[st.Highlight] {
			st.Highlight = ""
		}
		steps[i] = st
	}
	s.Steps = steps
	return s
}

// arabicLatin spells Arabic letters in Latin for a slug (a plain
// transliteration: "حلب ٢٠١٦" → "hlb-2016"), so that a title written in
// Arabic gets an address of its own, not "story".
var arabicLatin = map[rune]string{
	'ا': "a", 'أ': "a", 'إ': "i", 'آ': "a", 'ٱ': "a", 'ب': "b", 'ت': "t", 'ث': "th", 'ج': "j", 'ح': "h", 'خ': "kh",
	'د': "d", 'ذ': "dh", 'ر': "r", 'ز': "z", 'س': "s", 'ش': "sh", 'ص': "s", 'ض': "d", 'ط': "t", 'ظ': "z",
	'ع': "", 'غ': "gh", 'ف': "f", 'ق': "q", 'ك': "k", 'ل': "l", 'م': "m", 'ن': "n", 'ه': "h", 'و': "w",
	'ي': "y", 'ى': "a", 'ة': "a", 'ء': "", 'ؤ': "", 'ئ': "", 'پ': "p", 'چ': "ch", 'ڤ': "v", 'گ': "g", 'ک': "k", 'ی': "y",
	'٠': "0", '١': "1", '٢': "2", '٣': "3", '٤': "4", '٥': "5", '٦': "6", '٧': "7", '٨': "8", '٩': "9",
}

// Slugify makes a slug of a title: lower-case ASCII letters and digits
// joined by hyphens ("Eastern Aleppo, 2016" → "eastern-aleppo-2016"),
// Arabic letters transliterated; "story" for a title with none.
func Slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFD.String(strings.ToLower(title)) {
		latin, isArabic := arabicLatin[r]
		switch {
		case isArabic && latin == "":
		case isArabic || r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			if isArabic {
				b.WriteString(latin)
			} else {
				b.WriteRune(r)
			}
		case unicode.Is(unicode.Mn, r):
		default:
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	if b.Len() == 0 {
		return "story"
	}
	return b.String()
}
