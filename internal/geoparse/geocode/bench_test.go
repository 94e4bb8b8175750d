package geocode_test

import (
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gen"
)

// benchCaptions are the seed captions and the test suites' captions.
func benchCaptions(b *testing.B) []string {
	b.Helper()
	var texts []string
	names, _ := fs.Glob(geodata.Samples, "*.txt")
	for _, n := range names {
		data, err := fs.ReadFile(geodata.Samples, n)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, caption.Split(string(data))...)
	}
	files, _ := filepath.Glob("testdata/*.jsonl")
	t := &testing.T{}
	for _, f := range files {
		for _, w := range readWants(t, f) {
			texts = append(texts, w.Text)
		}
	}
	return texts
}

// BenchmarkGeocode measures the whole reading of a caption: the caption
// reader (date, credit, mentions) and the geocoder. Run it on one core
// (make bench uses -cpu 1) and read captions/s.
func BenchmarkGeocode(b *testing.B) {
	gc, _ := newGeocoder(b)
	texts := benchCaptions(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c := caption.Parse(texts[i%len(texts)])
		_ = gc.Geocode(c)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "captions/s")
}

// BenchmarkGeocodeArabic is BenchmarkGeocode on captions written in
// Arabic (generated in the shapes of gen --lang ar): the target is at
// least half the English rate per core.
func BenchmarkGeocodeArabic(b *testing.B) {
	gc, g := newGeocoder(b)
	gn := gen.New(g, 11)
	texts := make([]string, 2000)
	for i := range texts {
		texts[i] = gn.ArabicCaption()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c := caption.Parse(texts[i%len(texts)])
		_ = gc.Geocode(c)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "captions/s")
}

// BenchmarkParse measures the caption reader alone.
func BenchmarkParse(b *testing.B) {
	texts := benchCaptions(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = caption.Parse(texts[i%len(texts)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "captions/s")
}

// BenchmarkChoose measures the geocoder alone, on captions read before.
func BenchmarkChoose(b *testing.B) {
	gc, _ := newGeocoder(b)
	var cs []caption.Caption
	for _, t := range benchCaptions(b) {
		cs = append(cs, caption.Parse(t))
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = gc.Geocode(cs[i%len(cs)])
	}
}
