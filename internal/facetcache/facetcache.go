// Package facetcache keeps facet counts for the archive's current
// version (see Cache).
package facetcache

import (
	"context"
	"fmt"
	"sync"

	"github.com/syriamap/syriamap/internal/photo"
)

// Cache keeps facet counts for the archive's current version:
// counting agencies, photographers, governorates and places over a large
// archive takes seconds, and every explorer page and filter change asks
// for them again. An import or correction bumps the version and empties
// the cache. Requests that miss together wait for one count.
type Cache struct {
	src      Source
	mu       sync.Mutex
	version  int64
	entries  map[string]photo.Facets
	inFlight map[string]*facetCount
}

// facetCount is a count in progress that later requests wait for.
type facetCount struct {
	done chan struct{}
	fc   photo.Facets
	err  error
}

// maxFacetEntries bounds the cache; past it, it starts over.
const maxFacetEntries = 256

// Source is what the counts are read from: the archive's storage.
type Source interface {
	Version(ctx context.Context) (int64, error)
	Facets(ctx context.Context, f photo.Filter, limit int, facets ...photo.Facet) (photo.Facets, error)
}

// New returns an empty cache of src's counts.
func New(src Source) *Cache { return &Cache{src: src} }

// Facets returns the counts of the filter's photos, from the cache when
// the archive has not changed since they were counted.
func (c *Cache) Facets(ctx context.Context, f photo.Filter, limit int, facets ...photo.Facet) (photo.Facets, error) {
	v, err := c.src.Version(ctx)
	if err != nil {
		return photo.Facets{}, err
	}
	key := facetKey(f, limit, facets)
	c.mu.Lock()
	if c.entries == nil || c.version != v || len(c.entries) >= maxFacetEntries {
		c.version, c.entries, c.inFlight = v, map[string]photo.Facets{}, map[string]*facetCount{}
	}
	if fc, ok := c.entries[key]; ok {
		c.mu.Unlock()
		return fc, nil
	}
	if call, ok := c.inFlight[key]; ok {
		c.mu.Unlock()
		select {
		case <-call.done:
			return call.fc, call.err
		case <-ctx.Done():
			return photo.Facets{}, ctx.Err()
		}
	}
	call := &facetCount{done: make(chan struct{})}
	c.inFlight[key] = call
	c.mu.Unlock()

	// The count belongs to everyone waiting, not to the request that
	// started it: a client that goes away does not cancel it for others.
	call.fc, call.err = c.src.Facets(context.WithoutCancel(ctx), f, limit, facets...)
	c.mu.Lock()
	if c.version == v {
		if call.err == nil {
			c.entries[key] = call.fc
		}
		delete(c.inFlight, key)
	}
	c.mu.Unlock()
	close(call.done)
	return call.fc, call.err
}

// facetKey names what a count depends on. It is written from the
// filter's fields as a whole (%#v), so that a field added to the filter
// is part of the key without anyone remembering to add it here; the
// bounding box is a pointer, written by value.
func facetKey(f photo.Filter, limit int, facets []photo.Facet) string {
	box := ""
	if f.BBox != nil {
		box = fmt.Sprint(*f.BBox)
	}
	f.BBox = nil
	return fmt.Sprintf("%#v|%s|%d|%v", f, box, limit, facets)
}
