package facetcache

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

func TestZZTime(t *testing.T) {
	ctx := photo.AsEditor(context.Background(), "bench")
	db, err := store.Open(ctx, "/tmp/groups-m/archive.db")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q, _ := url.ParseQuery("from=2012&to=2017&q=al*")
	f, _ := web.ParseFilter(q)
	for i := 0; i < 4; i++ {
		start := time.Now()
		gs, err := db.ReviewGroupsOf(ctx, f, nil)
		t.Logf("ReviewGroupsOf: %d groups, %v, %v", len(gs), time.Since(start), err)
	}
}
