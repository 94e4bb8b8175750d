package archive

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/gen"
)

// BenchmarkImport imports b.N generated captions from one file into a
// fresh archive and reports captions per second.
func BenchmarkImport(b *testing.B) {
	g, err := bundled()
	if err != nil {
		b.Fatal(err)
	}
	gn := gen.New(g, 7)
	var sb strings.Builder
	for i := 0; i < b.N; i++ {
		sb.WriteString(gn.Caption())
		sb.WriteString("\n\n")
	}
	path := filepath.Join(b.TempDir(), "captions.txt")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	a := newArchive(b)
	b.ResetTimer()
	res, err := a.ImportFile(context.Background(), path, "", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if res.Read != b.N {
		b.Fatalf("read %d of %d", res.Read, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "captions/s")
}
