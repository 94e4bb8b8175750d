// Package respcache keeps finished HTTP responses of the read routes,
// body already encoded as sent, by the archive's version and a key that
// names the request (its route, its normalised parameters, its encoding).
//
// The cache is bounded in bytes: the least recently used response goes
// first. It holds one version of the archive only: a response of a newer
// version drops every older one at once, so nothing stale is ever served
// and no entry needs a lifetime of its own. A response is kept from the
// second time it is asked for (Admit): readers who pan the map ask for
// windows never asked again, which would otherwise fill the cache and
// push out the ones that are.
package respcache

import (
	"container/list"
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// Response is a finished response: what a hit writes, as it is.
type Response struct {
	Status int
	// Header holds the headers the handler set that describe the body
	// (Content-Type, Content-Encoding, ETag, Content-Disposition, Vary,
	// Cache-Control…), name and values in order.
	Header [][2]string
	Body   []byte
}

// size is what an entry counts against the bound: its body, its headers
// and its key, with a little for the bookkeeping.
func (r *Response) size(key string) int64 {
	n := int64(len(r.Body) + len(key) + 128)
	for _, h := range r.Header {
		n += int64(len(h[0]) + len(h[1]) + 32)
	}
	return n
}

// Stats are a cache's counters since it was made.
type Stats struct {
	Hits, Misses, Evictions, Drops int64
	// Entries and Bytes are what it holds now.
	Entries int
	Bytes   int64
}

// Cache is a byte-bounded LRU of responses of one archive version. The
// zero value is not usable; call New.
type Cache struct {
	max int64

	mu      sync.Mutex
	version int64
	bytes   int64
	order   *list.List // of *entry, most recently used in front
	byKey   map[string]*list.Element

	// asked holds a hash of each key asked for once and not kept, up to
	// maxAsked, then starts over.
	asked map[uint64]struct{}

	hits, misses, evictions, drops atomic.Int64
}

// maxAsked bounds the keys remembered as asked once (about 1 MB).
const maxAsked = 1 << 16

type entry struct {
	key  string
	resp *Response
	size int64
}

// New returns a cache that holds at most maxBytes; 0 or less holds
// nothing (every Get misses, every Put is dropped).
func New(maxBytes int64) *Cache {
	return &Cache{max: maxBytes, order: list.New(), byKey: map[string]*list.Element{}, asked: map[uint64]struct{}{}}
}

// MaxEntry is the largest response worth keeping: an eighth of the
// bound, so that one download cannot push out the windows that are asked
// again and again.
func (c *Cache) MaxEntry() int64 { return c.max / 8 }

// Get returns the response kept for key at version, or nil. A version
// newer than the one held drops everything held.
func (c *Cache) Get(version int64, key string) *Response {
	if c.max <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.advance(version)
	el, ok := c.byKey[key]
	if !ok || version != c.version {
		c.misses.Add(1)
		return nil
	}
	c.order.MoveToFront(el)
	c.hits.Add(1)
	return el.Value.(*entry).resp
}

// Admit reports whether the response to key at version, which Get did
// not hold, is worth keeping: whether it was asked for before. The first
// time it is not (and is remembered).
func (c *Cache) Admit(version int64, key string) bool {
	if c.max <= 0 {
		return false
	}
	h := maphash.String(seed, key)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.advance(version)
	if _, ok := c.asked[h]; ok {
		delete(c.asked, h)
		return true
	}
	if len(c.asked) >= maxAsked {
		clear(c.asked)
	}
	c.asked[h] = struct{}{}
	return false
}

var seed = maphash.MakeSeed()

// Put keeps resp for key at version, pushing out the least recently used
// until it fits. A response of an older version than the one held, or
// larger than MaxEntry, is not kept.
func (c *Cache) Put(version int64, key string, resp *Response) {
	size := resp.size(key)
	if c.max <= 0 || size > c.MaxEntry() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.advance(version)
	if version != c.version {
		return
	}
	if el, ok := c.byKey[key]; ok {
		old := el.Value.(*entry)
		c.bytes += size - old.size
		old.resp, old.size = resp, size
		c.order.MoveToFront(el)
	} else {
		c.byKey[key] = c.order.PushFront(&entry{key: key, resp: resp, size: size})
		c.bytes += size
	}
	for c.bytes > c.max {
		last := c.order.Back()
		e := last.Value.(*entry)
		c.order.Remove(last)
		delete(c.byKey, e.key)
		c.bytes -= e.size
		c.evictions.Add(1)
	}
}

// advance moves the cache to version when it is newer, dropping what
// the older one held. The caller holds mu.
func (c *Cache) advance(version int64) {
	if version <= c.version {
		return
	}
	if len(c.byKey) > 0 {
		c.drops.Add(1)
	}
	c.version = version
	c.order.Init()
	clear(c.byKey)
	clear(c.asked)
	c.bytes = 0
}

// Stats returns the counters and what the cache holds.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	entries, bytes := len(c.byKey), c.bytes
	c.mu.Unlock()
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Evictions: c.evictions.Load(), Drops: c.drops.Load(),
		Entries: entries, Bytes: bytes}
}
