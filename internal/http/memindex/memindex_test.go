package memindex

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/photo"
)

// fakeSource is an archive in memory: its photos in import order.
type fakeSource struct {
	photos  []photo.Feature
	version atomic.Int64
}

func (s *fakeSource) Version(context.Context) (int64, error) { return s.version.Load(), nil }
func (s *fakeSource) MaxRowid(context.Context) (int64, error) {
	return int64(len(s.photos)), nil
}
func (s *fakeSource) EachFeatureBulk(_ context.Context, lo, hi int64, fn func(f *photo.Feature) error) error {
	for i := range s.photos {
		if f := s.photos[i]; f.Seq >= lo && f.Seq < hi {
			if err := fn(&f); err != nil {
				return err
			}
		}
	}
	return nil
}

func randomDate(rng *rand.Rand) photo.Date {
	y, m, d := 2012+rng.IntN(6), 1+rng.IntN(12), 1+rng.IntN(28)
	switch rng.IntN(5) {
	case 0:
		return photo.Date{Year: y, Precision: "year"}
	case 1:
		return photo.Date{Year: y, Month: m, Precision: "month"}
	case 2:
		return photo.Date{}
	}
	return photo.Date{Year: y, Month: m, Day: d, Precision: "day"}
}

// source makes n photos, some unplaced and some undated, with rowids
// from 1 (a range read of the build spans several, as at 20,000).
func source(n int) *fakeSource {
	rng := rand.New(rand.NewPCG(7, 8))
	s := &fakeSource{}
	for i := 0; i < n; i++ {
		f := photo.Feature{Seq: int64(i + 1), ID: fmt.Sprintf("p%d", i+1), Date: randomDate(rng)}
		if rng.IntN(10) > 0 {
			f.Located, f.Lon, f.Lat = true, 35.7+rng.Float64()*6.5, 32.4+rng.Float64()*4.9
		}
		s.photos = append(s.photos, f)
	}
	return s
}

func encode(dst []byte, f *photo.Feature) []byte { return fmt.Appendf(dst, `{"id":%q}`, f.ID) }

// oracle selects as the SQL does, by definition: the photos whose period
// overlaps the window and whose point is in the box, in import order,
// after the cursor, then the offset and the limit.
func oracle(s *fakeSource, f photo.Filter) []string {
	var ids []string
	first, _ := f.From.Span()
	_, last := f.To.Span()
	for _, p := range s.photos {
		from, to := p.Date.Span()
		switch {
		case !f.From.IsZero() && (from == 0 || to < first):
			continue
		case !f.To.IsZero() && (from == 0 || from > last):
			continue
		case f.BBox != nil && !(p.Located && f.BBox.Contains(orb.Point{p.Lon, p.Lat})):
			continue
		case p.Seq <= f.After:
			continue
		}
		ids = append(ids, p.ID)
	}
	ids = ids[min(f.Offset, len(ids)):]
	if f.Limit > 0 && len(ids) > f.Limit {
		ids = ids[:f.Limit]
	}
	return ids
}

// TestSelectIsTheWindow: on random windows, boxes, cursors, offsets and
// limits, narrow and wide, the index selects what the definition does.
func TestSelectIsTheWindow(t *testing.T) {
	src := source(45_000)
	ix, err := Build(context.Background(), src, 1, "", encode)
	if err != nil {
		t.Fatal(err)
	}
	if ix.Len() != len(src.photos) {
		t.Fatalf("%d photos indexed, want %d", ix.Len(), len(src.photos))
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 300; i++ {
		f := photo.Filter{From: randomDate(rng), To: randomDate(rng)}
		if a, _ := f.From.Span(); !f.To.IsZero() {
			if _, b := f.To.Span(); a > b {
				f.From, f.To = f.To, f.From
			}
		}
		if a, _ := f.From.Span(); !f.From.IsZero() && !f.To.IsZero() {
			if _, b := f.To.Span(); a > b {
				continue
			}
		}
		if rng.IntN(2) == 0 {
			lon, lat := 35.7+rng.Float64()*6, 32.4+rng.Float64()*4.5
			b := orb.Bound{Min: orb.Point{lon, lat}, Max: orb.Point{lon + rng.Float64()*3, lat + rng.Float64()*3}}
			f.BBox = &b
		}
		if rng.IntN(3) == 0 {
			f.Limit, f.Offset = 1+rng.IntN(200), rng.IntN(50)
		}
		if rng.IntN(4) == 0 {
			f.After = int64(rng.IntN(len(src.photos)))
		}
		var got []string
		for _, i := range ix.Select(f) {
			text, err := ix.appendTexts(nil, []int32{i}, true)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.TrimSuffix(strings.TrimPrefix(string(text), `{"id":"`), `"}`))
		}
		if want := oracle(src, f); !slices.Equal(got, want) {
			t.Fatalf("%+v: %d selected, want %d (first %.5q, want %.5q)", f, len(got), len(want), got, want)
		}
		// A page cut from the whole selection is the page selected.
		whole := f
		whole.After, whole.Offset, whole.Limit = 0, 0, 0
		if page := ix.Page(ix.Select(whole), f.After, f.Offset, f.Limit); !slices.Equal(page, ix.Select(f)) {
			t.Fatalf("%+v: the page cut from the whole selection differs", f)
		}
	}
}

// TestWriteGzip: a response is one gzip member whose text is the head,
// the features joined by ",\n", and the tail — written at once, or in
// chunks compressed apart and joined (here chunks of a few features).
func TestWriteGzip(t *testing.T) {
	for _, size := range []int{chunkBytes, 40} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			defer func(was int) { chunkBytes = was }(chunkBytes)
			chunkBytes = size
			testWriteGzip(t)
		})
	}
}

func testWriteGzip(t *testing.T) {
	src := source(500)
	ix, err := Build(context.Background(), src, 1, "", encode)
	if err != nil {
		t.Fatal(err)
	}
	f := photo.Filter{From: photo.Date{Year: 2014, Precision: "year"}, To: photo.Date{Year: 2015, Precision: "year"}}
	sel := ix.Select(f)
	if n := len(ix.chunks(sel)); chunkBytes < 100 && n < 10 {
		t.Fatalf("%d chunks: the test writes no large response", n)
	}
	var out bytes.Buffer
	if err := ix.WriteGzip(&out, sel, "[", func(n int, last int64) string { return fmt.Sprintf("] %d %d", n, last) }); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(&out)
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(zr) // checks the CRC and the length
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, id := range oracle(src, f) {
		want = append(want, fmt.Sprintf(`{"id":%q}`, id))
	}
	wantText := "[" + strings.Join(want, ",\n") + fmt.Sprintf("] %d %d", len(sel), ix.seq[sel[len(sel)-1]])
	if string(text) != wantText {
		t.Fatalf("wrote %.200s…, want %.200s…", text, wantText)
	}
}

// TestKeeperFollowsTheVersion: the keeper answers only the version and
// key it was built for, and Wait returns once the index of a new version
// is built.
func TestKeeperFollowsTheVersion(t *testing.T) {
	src := source(100)
	src.version.Store(1)
	k := NewKeeper(src, func(string) Encoder { return encode }, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ix, err := k.Wait(ctx, 1, "a")
	if err != nil || ix.Len() != 100 {
		t.Fatalf("Wait: %v, %v", ix, err)
	}
	src.photos = src.photos[:50]
	src.version.Store(2)
	if k.At(2, "a") != nil {
		t.Error("the index of version 1 answered for version 2")
	}
	if ix, err := k.Wait(ctx, 2, "a"); err != nil || ix.Len() != 50 {
		t.Fatalf("Wait for version 2: %v, %v", ix, err)
	}
	if k.At(2, "b") != nil {
		t.Error("an index built for another key answered")
	}
}
