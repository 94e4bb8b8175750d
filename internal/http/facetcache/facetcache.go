// Package facetcache keeps what is costly to count over the archive —
// facet counts, the review queue's groups — for its current version (see
// Memo).
package facetcache

import (
	"context"
	"fmt"
	"sync"

	"github.com/syriamap/syriamap/internal/photo"
)

// Memo keeps answers computed for the archive's current version: counting
// agencies, photographers, governorates and places, or grouping every
// unchecked photo a filter selects, takes seconds over a large archive,
// and every explorer and review page asks again. An import or correction
// bumps the version and empties the memo. Requests that miss together
// wait for one computation.
//
// The public's answers and editors' are kept apart (an editor's counts
// take in the withheld photos, photo.ViewerOf): a key names a question,
// and the viewer of the context asking says whose answer it is.
type Memo[T any] struct {
	// version reads the version of the context's viewer.
	version func(ctx context.Context) (int64, error)
	mu      sync.Mutex
	views   [2]answers[T] // the public's, editors'
}

// answers are one viewer's answers at one version.
type answers[T any] struct {
	at       int64
	entries  map[string]T
	inFlight map[string]*pending[T]
}

// pending is a computation in progress that later requests wait for.
type pending[T any] struct {
	done chan struct{}
	v    T
	err  error
}

// maxEntries bounds a memo; past it, it starts over.
const maxEntries = 256

// NewMemo returns an empty memo of answers at the versions version reads
// (of the context's viewer: an editor's moves with withheld photos too).
func NewMemo[T any](version func(ctx context.Context) (int64, error)) *Memo[T] {
	return &Memo[T]{version: version}
}

// Get returns the answer kept under key at the current version, or
// computes it. The computation belongs to everyone waiting, not to the
// request that started it: a client that goes away does not cancel it
// for others.
func (m *Memo[T]) Get(ctx context.Context, key string, compute func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	v, err := m.version(ctx)
	if err != nil {
		return zero, err
	}
	m.mu.Lock()
	a := &m.views[0]
	if photo.ViewerOf(ctx).SeesWithheld() {
		a = &m.views[1]
	}
	if a.entries == nil || a.at != v || len(a.entries) >= maxEntries {
		a.at, a.entries, a.inFlight = v, map[string]T{}, map[string]*pending[T]{}
	}
	if got, ok := a.entries[key]; ok {
		m.mu.Unlock()
		return got, nil
	}
	if call, ok := a.inFlight[key]; ok {
		m.mu.Unlock()
		select {
		case <-call.done:
			return call.v, call.err
		case <-ctx.Done():
			return zero, ctx.Err()
		}
	}
	call := &pending[T]{done: make(chan struct{})}
	a.inFlight[key] = call
	m.mu.Unlock()

	call.v, call.err = compute(context.WithoutCancel(ctx))
	m.mu.Lock()
	if a.at == v {
		if call.err == nil {
			a.entries[key] = call.v
		}
		delete(a.inFlight, key)
	}
	m.mu.Unlock()
	close(call.done)
	return call.v, call.err
}

// Cache keeps facet counts for the archive's current version.
type Cache struct {
	src  Source
	memo *Memo[photo.Facets]
}

// Source is what the counts are read from: the archive's storage.
type Source interface {
	// ViewersVersion is the archive's version as the context's viewer
	// knows it (store.DB.ViewersVersion).
	ViewersVersion(ctx context.Context) (int64, error)
	Facets(ctx context.Context, f photo.Filter, limit int, facets ...photo.Facet) (photo.Facets, error)
}

// New returns an empty cache of src's counts.
func New(src Source) *Cache { return &Cache{src: src, memo: NewMemo[photo.Facets](src.ViewersVersion)} }

// Facets returns the counts of the filter's photos, from the cache when
// the archive has not changed since they were counted.
//
// An editor's counts are their own: a placement waiting for its second
// look counts at its place for its first editor alone
// (photo.Viewer.SeesAnswer).
func (c *Cache) Facets(ctx context.Context, f photo.Filter, limit int, facets ...photo.Facet) (photo.Facets, error) {
	return c.memo.Get(ctx, photo.ViewerOf(ctx).Editor+"|"+Key(f, limit, facets), func(ctx context.Context) (photo.Facets, error) {
		return c.src.Facets(ctx, f, limit, facets...)
	})
}

// Key names what an answer about a filter depends on. It is written from
// the filter's fields as a whole (%#v), so that a field added to the
// filter is part of the key without anyone remembering to add it here;
// the bounding box and the mention key are pointers, written by value.
func Key(f photo.Filter, args ...any) string {
	box, mention := "", "<nil>"
	if f.BBox != nil {
		box = fmt.Sprint(*f.BBox)
	}
	if f.MentionKey != nil {
		mention = fmt.Sprintf("%q", *f.MentionKey)
	}
	f.BBox, f.MentionKey = nil, nil
	return fmt.Sprintf("%#v|%s|%s|%v", f, box, mention, args)
}
