package bag

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/evidence/pdq"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestBagCarriesPDQ (issue 70, item 3): a photo's record in a bag carries
// its picture's PDQ hash and quality, the hash a partner matches (within
// ThreatExchange's 10 bits of the picture's own, as decoded here); a
// photo without a picture carries none.
func TestBagCarriesPDQ(t *testing.T) {
	ctx := context.Background()
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a, err := archive.Open(ctx, filepath.Join(dir, "a.db"), g, false)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Originals, err = originals.NewDir(filepath.Join(dir, "originals")); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 3))
	img := image.NewRGBA(image.Rect(0, 0, 320, 240))
	for range 20 {
		c := color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
		x0, y0, w, h := r.IntN(320), r.IntN(240), 10+r.IntN(120), 10+r.IntN(120)
		for y := y0; y < min(240, y0+h); y++ {
			for x := x0; x < min(320, x0+w); x++ {
				img.Set(x, y, c)
			}
		}
	}
	var b bytes.Buffer
	jpeg.Encode(&b, img, &jpeg.Options{Quality: 90})
	decoded, err := jpeg.Decode(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	want, wantQuality := pdq.Hash(decoded)
	caption := "A market in Damascus, Syria, August 1, 2016. (Photo by B. Person/Reuters)"
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	os.WriteFile(filepath.Join(in, "market.jpg"), append(append(append([]byte{}, b.Bytes()[:2]...), imagemeta.IIMSegment(map[int][]string{120: {caption}})...), b.Bytes()[2:]...), 0o644)
	if _, err := a.ImportImages(ctx, []string{in}, nil, nil); err != nil {
		t.Fatal(err)
	}
	captions := filepath.Join(dir, "captions.txt")
	os.WriteFile(captions, []byte("Boys play in Aleppo, Syria, July 12, 2016. (Photo by A. Person/AFP)\n"), 0o644)
	if _, err := a.ImportFile(ctx, captions, "", nil); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "bag")
	if _, err := Export(ctx, a, photo.Filter{}, out, "rana"); err != nil {
		t.Fatal(err)
	}
	var record struct {
		File map[string]any
	}
	readJSON(t, filepath.Join(out, "data", photo.ID(caption), "record.json"), &record)
	got, err := pdq.Parse(asString(record.File["pdq"]))
	if err != nil {
		t.Fatalf("the record's file: %v (%v)", record.File, err)
	}
	if d := pdq.Distance(got, want); d > 10 {
		t.Errorf("the record's PDQ %s is %d bits from the picture's %s", got, d, want)
	}
	if q, _ := record.File["pdq_quality"].(float64); q <= pdq.LowQuality || abs(int(q)-wantQuality) > 10 {
		t.Errorf("the record's PDQ quality %v, the picture's %d", record.File["pdq_quality"], wantQuality)
	}
	var plain map[string]any
	readJSON(t, filepath.Join(out, "data", photo.ID("Boys play in Aleppo, Syria, July 12, 2016. (Photo by A. Person/AFP)"), "record.json"), &plain)
	if _, ok := plain["file"]; ok {
		t.Errorf("a photo without a picture: %v", plain["file"])
	}
}

func asString(v any) string { s, _ := v.(string); return s }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
