package store

import (
	"context"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// BenchmarkEachPhotoPDQ reads every photo's PDQ hash, as an editor's
// frames --match does, from the archive SYRIAMAP_BENCH_DB names.
func BenchmarkEachPhotoPDQ(b *testing.B) {
	db := benchDB(b)
	ctx := photo.AsEditor(context.Background(), "bench")
	for b.Loop() {
		n := 0
		if err := db.EachPhotoPDQ(ctx, func(PhotoPDQ) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(n), "hashes")
	}
}
