package evalset

import (
	"fmt"
	"testing"
)

// Captions of one page share a fold, the folds are about the same size,
// and the split is the same whatever order the captions come in.
func TestFoldsKeepAPageTogether(t *testing.T) {
	var caps []Caption
	for i := range 60 {
		page := fmt.Sprintf("https://www.example.org/gallery-%d?photo=%d", i%17, i)
		if i%17 == 3 {
			page = fmt.Sprintf("http://example.org/gallery-%d/", i%17) // the same page, linked another way
		}
		caps = append(caps, Caption{ID: fmt.Sprintf("c%d", i), Source: page})
	}
	caps = append(caps, Caption{ID: "lone", Text: "no page"})
	folds := Folds(caps, 5)
	byPage, sizes := map[string]int{}, make([]int, 5)
	for i, c := range caps {
		p := pageOf(c)
		if f, ok := byPage[p]; ok && f != folds[i] {
			t.Errorf("page %s is in folds %d and %d", p, f, folds[i])
		}
		byPage[p] = folds[i]
		sizes[folds[i]]++
	}
	for f, n := range sizes {
		if n < 9 || n > 16 {
			t.Errorf("fold %d holds %d of %d captions: %v", f, n, len(caps), sizes)
		}
	}
	rev := make([]Caption, len(caps))
	for i := range caps {
		rev[len(caps)-1-i] = caps[i]
	}
	again := Folds(rev, 5)
	for i := range caps {
		if again[len(caps)-1-i] != folds[i] {
			t.Fatalf("caption %s moved fold when the order changed", caps[i].ID)
		}
	}
}
