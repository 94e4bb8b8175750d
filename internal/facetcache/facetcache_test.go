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

func (s *countingSource) Version(context.Context) (int64, error) { return s.version.Load(), nil }
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
