package story

import (
	"strings"
	"testing"
)

func TestChanges(t *testing.T) {
	base := Story{Title: "Aleppo 2016", Summary: "s", Status: Draft, Steps: []Step{{Heading: "one", Text: "a"}, {Heading: "two", Photos: []PhotoRef{{ID: "p1"}}}}}
	edit := func(f func(*Story)) Story {
		s := base
		s.Steps = append([]Step(nil), base.Steps...)
		f(&s)
		return s
	}
	for _, c := range []struct {
		name  string
		after Story
		want  string
	}{
		{"nothing", base, ""},
		{"the title", edit(func(s *Story) { s.Title = "Aleppo, 2016" }), "title"},
		{"published", edit(func(s *Story) { s.Status = Published }), "status"},
		{"a step's text", edit(func(s *Story) { s.Steps[1].Text = "new" }), "step:2"},
		{"a step's photos", edit(func(s *Story) { s.Steps[1].Photos = []PhotoRef{{ID: "p2"}} }), "step:2"},
		{"a step added", edit(func(s *Story) { s.Steps = append(s.Steps, Step{Heading: "three"}) }), "steps"},
		{"summary and first step", edit(func(s *Story) { s.Summary = "t"; s.Steps[0].Heading = "One" }), "summary step:1"},
	} {
		if got := strings.Join(Changes(base, c.after), " "); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
