package geocode_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// FuzzGeocode reads and geocodes mutations of the realistic captions
// against the bundled gazetteer: no panic, an answer within a second, and
// a result that keeps its own rules (a place exactly when placed, a
// confidence in [0, 1], the mention inside the caption).
func FuzzGeocode(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	seeds := 0
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var w struct{ Text string }
			if json.Unmarshal(sc.Bytes(), &w) == nil {
				f.Add(w.Text)
				seeds++
			}
		}
		fh.Close()
	}
	// Without its seeds the target would fuzz from nothing and pass.
	if seeds < 500 {
		f.Fatalf("%d seed captions in testdata/*.jsonl, want the 500 and more written there", seeds)
	}
	gc, _ := newGeocoder(f)
	f.Fuzz(func(t *testing.T, text string) {
		done := make(chan geocode.Result, 1)
		go func() { done <- gc.Geocode(caption.Parse(text)) }()
		var r geocode.Result
		select {
		case r = <-done:
		case <-time.After(time.Second):
			t.Fatalf("no answer in a second for %q", text)
		}
		if (r.Place == nil) != (r.Precision == geocode.None) {
			t.Errorf("place %v with precision %s", r.Place, r.Precision)
		}
		if r.Confidence < 0 || r.Confidence > 1 {
			t.Errorf("confidence %v", r.Confidence)
		}
		if !strings.Contains(text, r.Mention) {
			t.Errorf("mention %q is not in the caption %q", r.Mention, text)
		}
		for _, a := range r.Alternatives {
			if !strings.Contains(text, a.Mention) {
				t.Errorf("an alternative's mention %q is not in the caption %q", a.Mention, text)
			}
		}
	})
}
