package facetcache

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/syriamap/syriamap/internal/photo"
)

// Groups keeps the review queue's groups of each filter asked, and brings
// them up to date group by group: after a change it counts again only the
// groups (mention keys) the change touched a photo of, which the archive
// names (GroupSource.ReviewTouched), not every group of the filter.
// Counting them all takes seconds at 200,000 photos (5 s for q=al*), and
// with an upload every 2 s a memo emptied by every change counted them
// all for nearly every page (issue 65, 9). What it answers is what
// counting them all would: a group's count depends on its own photos
// alone.
//
// A filter that reads rows other than its photos' own (an event's links)
// is counted in full after each change. The public's groups and editors'
// are kept apart, as Memo's are, each within maxHeld groups: past it the
// filters asked least recently are forgotten. It is safe for concurrent
// use; requests for one filter wait for one count.
type Groups struct {
	src     GroupSource
	maxHeld int64 // maxHeld, or a test's
	mu      sync.Mutex
	views   [2]map[string]*groupsOf // the public's, editors'
	tick    uint64                  // counts the requests, for the least recent
}

// GroupSource is what the groups are counted from: the archive's storage
// (store.DB).
type GroupSource interface {
	// ViewersVersion is the archive's version as the context's viewer
	// knows it: the groups are looked at again only when it moves.
	ViewersVersion(ctx context.Context) (int64, error)
	// ReviewMark is the number of the last change to the groups.
	ReviewMark(ctx context.Context) (int64, error)
	// ReviewTouched lists the groups changed after change since, and the
	// number of the last.
	ReviewTouched(ctx context.Context, since int64) (keys []string, last int64, err error)
	// ReviewGroupsOf counts the filter's groups of keys (all, with nil),
	// without their places' names.
	ReviewGroupsOf(ctx context.Context, f photo.Filter, keys []string) ([]photo.ReviewGroup, error)
	// ReviewPlaceNames fills in the groups' places' names.
	ReviewPlaceNames(ctx context.Context, groups []photo.ReviewGroup) error
}

// maxHeld bounds the groups kept for one kind of viewer, over all their
// filters: about 300 bytes a group, 30 MB. An archive of 200,000 photos
// has 24,000 groups unfiltered, 20,000 for q=al*.
const maxHeld = 100_000

// maxTouched is how many touched groups are counted one by one; past
// it (an import of a new archive, a re-geocoding) the filter is counted
// in full, which costs no more.
const maxTouched = 2000

// groupsOf is one filter's groups for one viewer.
type groupsOf struct {
	// turn is held (a value in it) by the request bringing them up to
	// date; the others wait for it or for their context.
	turn    chan struct{}
	counted bool
	version int64 // the viewer's version they were last looked at, at
	seq     int64 // the last change they take in
	byKey   map[string]*photo.ReviewGroup
	sorted  []*photo.ReviewGroup // byKey in the queue's order
	// used is the tick of the last request for them (under Groups.mu),
	// held how many groups they hold (atomic: set under turn).
	used uint64
	held atomic.Int64
	// names are the place names of the groups shown since they were
	// last counted, by key: of thousands of groups a page shows 500.
	names map[string]string
}

// NewGroups returns an empty keeper of src's review groups.
func NewGroups(src GroupSource) *Groups { return &Groups{src: src, maxHeld: maxHeld} }

// Get returns the first limit groups of the filter in the queue's order
// (photo.ReviewGroup.Before), as store.DB.ReviewGroups would count them
// now. The count belongs to everyone waiting: a request that goes away
// does not cancel it for others.
func (c *Groups) Get(ctx context.Context, f photo.Filter, limit int) ([]photo.ReviewGroup, error) {
	v, err := c.src.ViewersVersion(ctx)
	if err != nil {
		return nil, err
	}
	e := c.entry(ctx, Key(f))
	select {
	case e.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-e.turn }()
	if !e.counted || e.version != v {
		if err := c.update(context.WithoutCancel(ctx), e, f); err != nil {
			return nil, err
		}
		e.version = v
		e.held.Store(int64(len(e.byKey)))
		c.trim(ctx, e)
	}
	return e.shown(context.WithoutCancel(ctx), c.src, limit)
}

// trim forgets the groups of the filters asked least recently while the
// viewer's hold more than c.maxHeld, keeping keep's.
func (c *Groups) trim(ctx context.Context, keep *groupsOf) {
	c.mu.Lock()
	defer c.mu.Unlock()
	view := c.views[c.viewOf(ctx)]
	for {
		var total int64
		var oldest string
		for k, e := range view {
			total += e.held.Load()
			if e != keep && (oldest == "" || e.used < view[oldest].used) {
				oldest = k
			}
		}
		if total <= c.maxHeld || oldest == "" {
			return
		}
		delete(view, oldest)
	}
}

// viewOf is the index in views of ctx's viewer's groups.
func (c *Groups) viewOf(ctx context.Context) int {
	if photo.ViewerOf(ctx).SeesWithheld() {
		return 1
	}
	return 0
}

// shown returns the first limit groups with their places' names, reading
// those not read since their groups were counted.
func (e *groupsOf) shown(ctx context.Context, src GroupSource, limit int) ([]photo.ReviewGroup, error) {
	n := min(limit, len(e.sorted))
	out := make([]photo.ReviewGroup, n)
	for i, g := range e.sorted[:n] {
		out[i] = *g
	}
	var unnamed []photo.ReviewGroup
	for _, g := range out {
		if _, ok := e.names[g.Key]; !ok {
			unnamed = append(unnamed, g)
		}
	}
	if err := src.ReviewPlaceNames(ctx, unnamed); err != nil {
		return nil, err
	}
	for _, g := range unnamed {
		e.names[g.Key] = g.PlaceName
	}
	for i := range out {
		out[i].PlaceName = e.names[out[i].Key]
	}
	return out, nil
}

// entry returns the groups kept for key and ctx's viewer, new ones when
// none are.
func (c *Groups) entry(ctx context.Context, key string) *groupsOf {
	c.mu.Lock()
	defer c.mu.Unlock()
	view := &c.views[c.viewOf(ctx)]
	if *view == nil || len(*view) >= maxEntries {
		*view = map[string]*groupsOf{}
	}
	e := (*view)[key]
	if e == nil {
		e = &groupsOf{turn: make(chan struct{}, 1)}
		(*view)[key] = e
	}
	c.tick++
	e.used = c.tick
	return e
}

// update brings e up to date: the groups touched since its last change
// counted again, or all of them on the first count, past maxTouched, or
// for a filter that reads other rows than its photos'.
func (c *Groups) update(ctx context.Context, e *groupsOf, f photo.Filter) error {
	if e.counted && f.Event == "" {
		keys, last, err := c.src.ReviewTouched(ctx, e.seq)
		if err != nil {
			return err
		}
		if len(keys) <= maxTouched {
			return e.recount(ctx, c.src, f, keys, last)
		}
	}
	// The mark is read before the count: a change that commits during
	// it is counted again next time.
	mark, err := c.src.ReviewMark(ctx)
	if err != nil {
		return err
	}
	all, err := c.src.ReviewGroupsOf(ctx, f, nil)
	if err != nil {
		return err
	}
	e.byKey, e.names = make(map[string]*photo.ReviewGroup, len(all)), map[string]string{}
	for i := range all {
		e.byKey[all[i].Key] = &all[i]
	}
	e.counted, e.seq = true, mark
	e.sort()
	return nil
}

// recount counts the groups of keys again, which the changes up to last
// touched.
func (e *groupsOf) recount(ctx context.Context, src GroupSource, f photo.Filter, keys []string, last int64) error {
	if len(keys) > 0 {
		groups, err := src.ReviewGroupsOf(ctx, f, keys)
		if err != nil {
			return err
		}
		for _, k := range keys {
			delete(e.byKey, k)
			delete(e.names, k)
		}
		for i := range groups {
			e.byKey[groups[i].Key] = &groups[i]
		}
		e.sort()
	}
	e.seq = last
	return nil
}

// sort orders the groups in the queue's order.
func (e *groupsOf) sort() {
	e.sorted = e.sorted[:0]
	for _, g := range e.byKey {
		e.sorted = append(e.sorted, g)
	}
	slices.SortFunc(e.sorted, func(a, b *photo.ReviewGroup) int {
		switch {
		case a.Before(*b):
			return -1
		case b.Before(*a):
			return 1
		}
		return 0
	})
}
