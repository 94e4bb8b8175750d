package httpcache

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/syriamap/syriamap/internal/http/respcache"
)

// metrics answers the server's counters in Prometheus's text format, for
// a monitoring system and for `make bench`: the response cache's hits,
// misses and contents.
func (l *Layer) Metrics(w http.ResponseWriter, r *http.Request) {
	st := l.Stats()
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	for _, m := range []struct {
		name, kind, help string
		value            int64
	}{
		{"syriamap_response_cache_hits_total", "counter", "Answers to readers served from the response cache.", st.Hits},
		{"syriamap_response_cache_misses_total", "counter", "Answers to readers the response cache did not hold.", st.Misses},
		{"syriamap_response_cache_evictions_total", "counter", "Answers pushed out of the response cache to make room.", st.Evictions},
		{"syriamap_response_cache_drops_total", "counter", "Times the response cache was emptied because the archive changed.", st.Drops},
		{"syriamap_response_cache_entries", "gauge", "Answers the response cache holds.", int64(st.Entries)},
		{"syriamap_response_cache_bytes", "gauge", "Bytes the response cache holds.", st.Bytes},
	} {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %d\n", m.name, m.help, m.name, m.kind, m.name, m.value)
	}
}

// Stats returns the response cache's counters (all zero when it is off).
func (l *Layer) Stats() respcache.Stats {
	if l.Cache == nil {
		return respcache.Stats{}
	}
	return l.Cache.Stats()
}

// LogCache logs the response cache's counters every interval in which
// they changed, until ctx is done.
func (l *Layer) LogCache(ctx context.Context, interval time.Duration) {
	if l.Cache == nil || l.Log == nil {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	var last respcache.Stats
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		st := l.Cache.Stats()
		if st.Hits == last.Hits && st.Misses == last.Misses {
			continue
		}
		hits, misses := st.Hits-last.Hits, st.Misses-last.Misses
		l.Log.Info("response cache", "hits", hits, "misses", misses, "hit_rate", fmt.Sprintf("%.1f%%", 100*float64(hits)/float64(max(1, hits+misses))),
			"entries", st.Entries, "MB", fmt.Sprintf("%.1f", float64(st.Bytes)/(1<<20)), "evictions", st.Evictions-last.Evictions, "drops", st.Drops-last.Drops)
		last = st
	}
}
