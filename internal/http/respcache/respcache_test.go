package respcache

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func body(n int) *Response { return &Response{Status: 200, Body: []byte(strings.Repeat("x", n))} }

// TestLeastRecentlyUsedGoesFirst fills the cache past its bound: the
// entry asked for last stays, the one untouched longest goes, and the
// bytes held never pass the bound.
func TestLeastRecentlyUsedGoesFirst(t *testing.T) {
	c := New(8 * 1000)
	for i := range 4 {
		c.Put(1, fmt.Sprint("k", i), body(700))
	}
	if c.Get(1, "k0") == nil { // k0 is now the most recent
		t.Fatal("k0 missing before the cache was full")
	}
	for i := 4; i < 12; i++ {
		c.Put(1, fmt.Sprint("k", i), body(700))
		c.Get(1, "k0")
		if st := c.Stats(); st.Bytes > 8000 {
			t.Fatalf("holds %d bytes, bound 8000", st.Bytes)
		}
	}
	if c.Get(1, "k0") == nil {
		t.Error("k0, used after every put, was pushed out")
	}
	if c.Get(1, "k1") != nil {
		t.Error("k1, never used again, is still held")
	}
	st := c.Stats()
	if st.Evictions == 0 || st.Entries < 8 {
		t.Errorf("stats %+v: want evictions and at least 8 entries", st)
	}
}

// TestNewVersionDropsEverything: a newer version drops what the older
// held, on a Get as on a Put, and an answer of an older version is not
// kept (a handler that read before a change finished after it).
func TestNewVersionDropsEverything(t *testing.T) {
	c := New(1 << 20)
	c.Put(1, "a", body(10))
	c.Put(1, "b", body(10))
	if c.Get(2, "a") != nil {
		t.Fatal("version 2 got version 1's answer")
	}
	if st := c.Stats(); st.Entries != 0 || st.Bytes != 0 || st.Drops != 1 {
		t.Fatalf("after version 2: %+v", st)
	}
	c.Put(1, "a", body(10)) // late, of the version before
	if c.Get(2, "a") != nil {
		t.Error("an answer of version 1 was kept at version 2")
	}
	c.Put(3, "c", body(10))
	if c.Get(2, "c") != nil || c.Get(3, "c") == nil {
		t.Error("version 3's answer: served at 2, or not at 3")
	}
}

// TestBounds: a cache of 0 keeps nothing; an answer over an eighth of the
// bound is not kept; putting a key again replaces it and counts once.
func TestBounds(t *testing.T) {
	tests := []struct {
		name     string
		max      int64
		size     int
		want     bool
		entries  int
		putTwice bool
	}{
		{"off", 0, 10, false, 0, false},
		{"small", 8000, 100, true, 1, false},
		{"over an eighth", 8000, 1000, false, 0, false},
		{"replaced", 8000, 100, true, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(tt.max)
			c.Put(1, "k", body(tt.size))
			if tt.putTwice {
				c.Put(1, "k", body(tt.size))
			}
			got := c.Get(1, "k") != nil
			st := c.Stats()
			if got != tt.want || st.Entries != tt.entries {
				t.Errorf("held %v with %d entries, want %v with %d", got, st.Entries, tt.want, tt.entries)
			}
			if tt.putTwice && st.Bytes != body(tt.size).size("k") {
				t.Errorf("bytes %d after a replacement, want %d", st.Bytes, body(tt.size).size("k"))
			}
		})
	}
}

// TestAdmitFromTheSecondAsking: an answer is worth keeping from its
// second asking; a new version forgets what was asked; a flood of keys
// asked once never grows the memory of them past maxAsked.
func TestAdmitFromTheSecondAsking(t *testing.T) {
	c := New(1 << 20)
	if c.Admit(1, "a") {
		t.Error("admitted at its first asking")
	}
	if !c.Admit(1, "a") {
		t.Error("not admitted at its second asking")
	}
	c.Admit(1, "b")
	if c.Admit(2, "b") {
		t.Error("admitted at version 2 for an asking at version 1")
	}
	for i := range maxAsked + 10 {
		c.Admit(2, fmt.Sprint("jitter", i))
	}
	if n := len(c.asked); n > maxAsked {
		t.Errorf("%d keys remembered, bound %d", n, maxAsked)
	}
	off := New(0)
	for range 2 {
		if off.Admit(1, "a") {
			t.Error("a cache of 0 admitted an answer")
		}
	}
}

// TestConcurrent is for the race detector: gets and puts of several
// versions at once.
func TestConcurrent(t *testing.T) {
	c := New(64 << 10)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				v := int64(i / 500)
				k := fmt.Sprint(g, i%37)
				if c.Get(v, k) == nil && c.Admit(v, k) {
					c.Put(v, k, body(100+i%900))
				}
			}
		}()
	}
	wg.Wait()
	if st := c.Stats(); st.Bytes > 64<<10 || st.Hits == 0 {
		t.Errorf("%+v", st)
	}
}

func BenchmarkHit(b *testing.B) {
	c := New(64 << 20)
	c.Put(1, "photos.geojson\x00from=2016-01-01&to=2016-01-31", body(5000))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Get(1, "photos.geojson\x00from=2016-01-01&to=2016-01-31")
		}
	})
}
