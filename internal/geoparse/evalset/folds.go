package evalset

import (
	"cmp"
	"hash/fnv"
	"net/url"
	"slices"
	"strings"
)

// Folds splits captions into k folds for cross-validation, once and for
// all: by source page, so that the captions of one gallery (one
// photographer, one day, one way of writing) are in one fold and a rule
// written for them cannot score on its own examples; the pages are dealt,
// largest first, to the fold with the fewest captions, ties by a hash of
// the page so that the split is the same on every machine and does not
// move when captions are added elsewhere. A caption with no source is a
// page of its own. It returns each caption's fold.
func Folds(caps []Caption, k int) []int {
	pages := map[string][]int{}
	for i, c := range caps {
		pages[pageOf(c)] = append(pages[pageOf(c)], i)
	}
	keys := make([]string, 0, len(pages))
	for p := range pages {
		keys = append(keys, p)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(pages[b]), len(pages[a])), cmp.Compare(hashOf(a), hashOf(b)), strings.Compare(a, b))
	})
	out := make([]int, len(caps))
	sizes := make([]int, k)
	for _, p := range keys {
		f := 0
		for i := range sizes {
			if sizes[i] < sizes[f] {
				f = i
			}
		}
		for _, i := range pages[p] {
			out[i] = f
		}
		sizes[f] += len(pages[p])
	}
	return out
}

// pageOf is the page a caption came from, without its query, fragment,
// scheme and a leading www (the same gallery linked two ways is one), or
// its id when it has none.
func pageOf(c Caption) string {
	u, err := url.Parse(strings.TrimSpace(c.Source))
	if c.Source == "" || err != nil || u.Host == "" {
		return "id:" + c.ID + c.Text
	}
	return strings.TrimPrefix(strings.ToLower(u.Host), "www.") + strings.TrimSuffix(u.Path, "/")
}

func hashOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
