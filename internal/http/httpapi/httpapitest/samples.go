package httpapitest

import (
	"io/fs"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// SampleConfidence is the confidence the geocoder gives the sample
// caption whose answer comes from mention: the tests of what the server
// shows take it from the geocoder, which the confidence model (make train)
// may move.
func SampleConfidence(t testing.TB, mention string) float64 {
	t.Helper()
	gc := geocode.New(Gazetteer(t))
	names, _ := fs.Glob(geodata.Samples, "*.txt")
	for _, n := range names {
		data, _ := fs.ReadFile(geodata.Samples, n)
		for _, text := range caption.Split(string(data)) {
			if r := gc.Geocode(caption.Parse(text)); r.Mention == mention {
				return r.Confidence
			}
		}
	}
	t.Fatalf("no sample caption is answered from %q", mention)
	return 0
}
