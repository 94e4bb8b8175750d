package featurestream

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/lane"
	"github.com/syriamap/syriamap/internal/photo"
)

// memSource is an archive of n photos with rowids 1…n, gaps at every
// seventh (deleted photos); a filter with Agencies selects the even ones.
type memSource struct {
	n      int64
	failAt int64 // a rowid whose read fails, 0 for none
}

func (m *memSource) has(id int64) bool { return id >= 1 && id <= m.n && id%7 != 0 }

func (m *memSource) feature(id int64) *photo.Feature {
	return &photo.Feature{Seq: id, ID: "p" + strconv.FormatInt(id, 10)}
}

func (m *memSource) MaxRowid(context.Context) (int64, error) { return m.n, nil }

func (m *memSource) SelectIDs(_ context.Context, f photo.Filter) ([]int64, error) {
	var out []int64
	for id := int64(1); id <= m.n; id++ {
		if m.has(id) && (len(f.Agencies) == 0 || id%2 == 0) {
			out = append(out, id)
		}
	}
	return out, nil
}

func (m *memSource) EachFeatureIn(_ context.Context, _ photo.Filter, lo, hi int64, fn func(*photo.Feature) error) error {
	for id := lo + 1; id <= hi; id++ {
		if id == m.failAt {
			return errors.New("disk gone")
		}
		if m.has(id) {
			if err := fn(m.feature(id)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (m *memSource) EachFeatureOf(_ context.Context, _ photo.Filter, ids []int64, fn func(*photo.Feature) error) error {
	for _, id := range ids {
		if err := fn(m.feature(id)); err != nil {
			return err
		}
	}
	return nil
}

func newStreamer(src Source) *Streamer {
	s := New(src, lane.New(1, 4), func(w http.ResponseWriter, r *http.Request, err error) {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	}, slog.New(slog.DiscardHandler))
	s.ChunkRows = 10 // many chunks from a few photos
	return s
}

func encodeID(b []byte, base string, ft *photo.Feature) []byte {
	return append(b, base+ft.ID...)
}

// want is the list the stream of ids must be.
func want(ids []int64) string {
	var parts []string
	for _, id := range ids {
		parts = append(parts, "x/p"+strconv.FormatInt(id, 10))
	}
	return "[" + strings.Join(parts, ",") + "](" + strconv.Itoa(len(ids)) + ")"
}

// TestStreamWritesEveryPhotoInOrder: the archive at large (rowid ranges)
// and a narrower filter (selected ids), plain and gzipped, give every
// photo once, in order, with the separator between them and the tail
// told how many were written and the last one's sequence.
func TestStreamWritesEveryPhotoInOrder(t *testing.T) {
	src := &memSource{n: 95}
	all, _ := src.SelectIDs(context.Background(), photo.Filter{})
	even, _ := src.SelectIDs(context.Background(), photo.Filter{Agencies: []string{"AFP"}})
	for _, c := range []struct {
		name string
		f    photo.Filter
		ids  []int64
	}{{"at large", photo.Filter{}, all}, {"selected", photo.Filter{Agencies: []string{"AFP"}}, even}} {
		for _, gz := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, gzip %v", c.name, gz), func(t *testing.T) {
				s := newStreamer(src)
				r := httptest.NewRequest("GET", "/api/photos.geojson", nil)
				if gz {
					r.Header.Set("Accept-Encoding", "gzip")
				}
				w := httptest.NewRecorder()
				last := int64(-1)
				s.Stream(w, r, c.f, "x/", "[", ",", func(n int, l int64) string { last = l; return "](" + strconv.Itoa(n) + ")" }, encodeID)
				body := w.Body.Bytes()
				if w.Header().Get("Content-Encoding") == "gzip" {
					zr, err := gzip.NewReader(w.Body)
					if err != nil {
						t.Fatal(err)
					}
					if body, err = io.ReadAll(zr); err != nil {
						t.Fatalf("the gzipped chunks do not join into one stream: %v", err)
					}
				} else if gz {
					t.Error("a download of many chunks to a client that takes gzip is not compressed")
				}
				if got := string(body); got != want(c.ids) {
					t.Errorf("got %q\nwant %q", got, want(c.ids))
				}
				if last != c.ids[len(c.ids)-1] {
					t.Errorf("the tail was told the last sequence %d, want %d", last, c.ids[len(c.ids)-1])
				}
			})
		}
	}
}

// TestStreamCutShortAborts: a read that fails after the status is sent
// cuts the connection (http.ErrAbortHandler), so that no client takes a
// cut-off list for a whole one; downloads in flight are counted back down.
func TestStreamCutShortAborts(t *testing.T) {
	s := newStreamer(&memSource{n: 95, failAt: 64})
	r := httptest.NewRequest("GET", "/api/photos.csv", nil)
	w := httptest.NewRecorder()
	defer func() {
		if p := recover(); p != http.ErrAbortHandler {
			t.Errorf("recovered %v, want http.ErrAbortHandler", p)
		}
		if n := s.InFlight(); n != 0 {
			t.Errorf("%d downloads still counted in flight", n)
		}
		if strings.HasSuffix(w.Body.String(), "]") {
			t.Error("a failed stream wrote its tail")
		}
	}()
	s.Stream(w, r, photo.Filter{}, "", "[", ",", Fixed("]"), encodeID)
	t.Error("Stream returned after a read failed")
}

// TestTooManyDownloadsAnswersAnError: past MaxDownloads in flight, a
// download of many chunks is refused before its status, as an error.
func TestTooManyDownloadsAnswersAnError(t *testing.T) {
	s := newStreamer(&memSource{n: 95})
	s.inFlight.Store(MaxDownloads)
	w := httptest.NewRecorder()
	s.Stream(w, httptest.NewRequest("GET", "/api/photos.csv", nil), photo.Filter{}, "", "[", ",", Fixed("]"), encodeID)
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "downloads already") {
		t.Errorf("%d %q, want the error answered", w.Code, w.Body.String())
	}
}
