package story

import (
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{"Eastern Aleppo, 2016": "eastern-aleppo-2016", "  Deir ez-Zor: the siege ": "deir-ez-zor-the-siege",
		"Ḥalab — Ṣayf": "halab-sayf", "حلب": "hlb", "حصار حلب ٢٠١٦": "hsar-hlb-2016", "مخيّم الزعتري": "mkhym-alztry", "": "story", "؟!": "story"} {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestValidate(t *testing.T) {
	ok := func() Story {
		return Story{Title: " Aleppo ", Status: Draft, Steps: []Step{{Heading: "One", Photos: []PhotoRef{{ID: "a"}}, Highlight: "a"},
			{Heading: "Two", State: "https://x.example/?from=2016-01&to=2016-02&map=12/36.2/37.1&evil=1#frag"}}}
	}
	s := ok()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Title != "Aleppo" || s.Slug != "aleppo" || s.Steps[1].State != "from=2016-01&map=12/36.2/37.1&to=2016-02" {
		t.Errorf("cleaned: %+v", s)
	}
	for _, c := range []struct {
		field  string
		break_ func(*Story)
	}{
		{"title", func(s *Story) { s.Title = " " }},
		{"slug", func(s *Story) { s.Slug = "Not A Slug" }},
		{"status", func(s *Story) { s.Status = "live" }},
		{"steps[1].heading", func(s *Story) { s.Steps[0].Heading = "" }},
		{"steps[1].highlight", func(s *Story) { s.Steps[0].Highlight = "b" }},
		{"steps[2].state", func(s *Story) { s.Steps[1].Photos = []PhotoRef{{ID: "c"}} }},
		{"steps[1].text", func(s *Story) { s.Steps[0].Text = strings.Repeat("x", MaxTextBytes+1) }},
	} {
		s := ok()
		c.break_(&s)
		err := s.Validate()
		if e, isErr := err.(*photo.Error); !isErr || e.Parameter != c.field {
			t.Errorf("breaking %s: %v; want an error naming it", c.field, err)
		}
	}
}

// TestCleanStateKeepsTheView (issue 68, 2): a step's saved view keeps
// every part of the explorer's state a permalink carries — the events
// layer too (events=, with which events) — and nothing else.
func TestCleanStateKeepsTheView(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"events layer", "https://x.example/?from=2016-01&to=2016-01&map=8/36.2/37.15&events=1", "events=1&from=2016-01&map=8/36.2/37.15&to=2016-01"},
		{"documented events", "?events=documented&q=mortar", "events=documented&q=mortar"},
		{"filters and photo", "agency=AFP&agency=Reuters&place=gn:170063&photo=p1", "agency=AFP&agency=Reuters&photo=p1&place=gn%3A170063"},
		{"not the explorer's", "events=1&evil=1&lang=ar#step-2", "events=1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := cleanState(c.in)
			if err != nil || got != c.want {
				t.Errorf("cleanState(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
		})
	}
}
