package facetcache

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

type countingSource struct {
	version atomic.Int64
	counts  atomic.Int32
	delay   time.Duration
}

func (s *countingSource) ViewersVersion(context.Context) (int64, error) { return s.version.Load(), nil }
func (s *countingSource) Facets(context.Context, photo.Filter, int, ...photo.Facet) (photo.Facets, error) {
	s.counts.Add(1)
	time.Sleep(s.delay)
	return photo.Facets{}, nil
}

// TestCacheFollowsTheVersion: a count is made once per version and
// filter, however many ask for it at once, and again after a change.
func TestCacheFollowsTheVersion(t *testing.T) {
	src := &countingSource{delay: 20 * time.Millisecond}
	c := New(src)
	f := photo.Filter{Query: "Aleppo"}
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Facets(context.Background(), f, 50); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	c.Facets(context.Background(), f, 50)
	if n := src.counts.Load(); n != 1 {
		t.Errorf("%d counts for one filter at one version, want 1", n)
	}
	c.Facets(context.Background(), photo.Filter{Query: "Homs"}, 50)
	src.version.Add(1)
	c.Facets(context.Background(), f, 50)
	if n := src.counts.Load(); n != 3 {
		t.Errorf("%d counts after another filter and a change, want 3", n)
	}
}

// TestMemoKeepsTheViewersApart (issue 55, 1): an editor's answer (withheld
// photos counted) is never served to the public, nor the public's to an
// editor, whichever asked first; each is computed with its own viewer.
func TestMemoKeepsTheViewersApart(t *testing.T) {
	m := NewMemo[string](func(context.Context) (int64, error) { return 1, nil })
	answer := func(ctx context.Context) (string, error) {
		if photo.ViewerOf(ctx).SeesWithheld() {
			return "with the withheld", nil
		}
		return "public", nil
	}
	editor := photo.AsEditor(context.Background(), "rana")
	for _, ask := range []struct {
		ctx  context.Context
		want string
	}{
		{editor, "with the withheld"},
		{context.Background(), "public"},
		{photo.AsEditor(context.Background(), "omar"), "with the withheld"},
		{photo.WithViewer(editor, photo.Public), "public"},
	} {
		if got, err := m.Get(ask.ctx, "groups", answer); err != nil || got != ask.want {
			t.Errorf("Get as %+v = %q, %v; want %q", photo.ViewerOf(ask.ctx), got, err, ask.want)
		}
	}
}

// editorsSource counts a place for its first editor alone, as the store
// counts a placement waiting for its second look.
type editorsSource struct{ countingSource }

func (s *editorsSource) Facets(ctx context.Context, _ photo.Filter, _ int, _ ...photo.Facet) (photo.Facets, error) {
	if photo.ViewerOf(ctx).Editor == "rana" {
		return photo.Facets{Places: []photo.Count{{Value: "gn:9", Label: "rana's answer", Count: 1}}}, nil
	}
	return photo.Facets{}, nil
}

// TestCacheKeepsEachEditorsCounts (issue 65, 5): rana's counts, which
// hold her placement waiting for its second look, are never served to
// omar, who is to look at it blind, whoever asked first.
func TestCacheKeepsEachEditorsCounts(t *testing.T) {
	c := New(&editorsSource{})
	rana, omar := photo.AsEditor(context.Background(), "rana"), photo.AsEditor(context.Background(), "omar")
	if fc, err := c.Facets(rana, photo.Filter{}, 50); err != nil || len(fc.Places) != 1 {
		t.Fatalf("rana's counts: %+v, %v", fc, err)
	}
	if fc, err := c.Facets(omar, photo.Filter{}, 50); err != nil || len(fc.Places) != 0 {
		t.Errorf("omar is served rana's counts: %+v, %v", fc, err)
	}
}
