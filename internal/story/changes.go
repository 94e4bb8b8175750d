package story

import (
	"slices"
	"strconv"
)

// Changes says what a save changed, from the story before to after, in
// a fixed order: "title", "summary", "status", "steps" (their number),
// then "step:N" for each step N (1-based) that both hold and that
// differs (heading, text, photos, view or highlight). Nil when nothing
// differs. A story editor's refused save names them (issue 68, 8).
func Changes(before, after Story) []string {
	var out []string
	if before.Title != after.Title {
		out = append(out, "title")
	}
	if before.Summary != after.Summary {
		out = append(out, "summary")
	}
	if before.Status != after.Status {
		out = append(out, "status")
	}
	if len(before.Steps) != len(after.Steps) {
		out = append(out, "steps")
	}
	for i := range min(len(before.Steps), len(after.Steps)) {
		if !sameStep(before.Steps[i], after.Steps[i]) {
			out = append(out, "step:"+strconv.Itoa(i+1))
		}
	}
	return out
}

func sameStep(a, b Step) bool {
	return a.Heading == b.Heading && a.Text == b.Text && a.State == b.State && a.Highlight == b.Highlight &&
		slices.EqualFunc(a.Photos, b.Photos, func(p, q PhotoRef) bool { return p.ID == q.ID })
}
