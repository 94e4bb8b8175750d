package httpapi

import (
	"context"
	"fmt"
	"sync"

	"github.com/syriamap/syriamap/internal/photo"
)

// facetCache keeps facet counts for the archive's current version:
// counting agencies, photographers, governorates and places over a large
// archive takes seconds, and every explorer page and filter change asks
// for them again. An import or correction bumps the version and empties
// the cache.
type facetCache struct {
	mu      sync.Mutex
	version int64
	entries map[string]photo.Facets
}

// maxFacetEntries bounds the cache; past it, it starts over.
const maxFacetEntries = 256

func (s *Server) cachedFacets(ctx context.Context, f photo.Filter, limit int) (photo.Facets, error) {
	v, err := s.archive.DB.Version(ctx)
	if err != nil {
		return photo.Facets{}, err
	}
	key := facetKey(f, limit)
	c := &s.facetCache
	c.mu.Lock()
	if c.entries == nil || c.version != v || len(c.entries) >= maxFacetEntries {
		c.version, c.entries = v, map[string]photo.Facets{}
	}
	fc, ok := c.entries[key]
	c.mu.Unlock()
	if ok {
		return fc, nil
	}
	fc, err = s.archive.DB.Facets(ctx, f, limit)
	if err != nil {
		return fc, err
	}
	c.mu.Lock()
	if c.version == v {
		c.entries[key] = fc
	}
	c.mu.Unlock()
	return fc, nil
}

// facetKey names a filter by its values (not its bounding box's address).
func facetKey(f photo.Filter, limit int) string {
	box := ""
	if f.BBox != nil {
		box = fmt.Sprint(*f.BBox)
	}
	return fmt.Sprintf("%s|%s|%s|%q|%q|%q|%q|%q|%v|%v|%d", f.From, f.To, box, f.Query, f.Agency, f.Photographer,
		f.PlaceID, f.Governorate, f.MinConfidence, f.Unplaced, limit)
}
