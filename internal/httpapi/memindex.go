package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"hash/crc32"
	"io"
	"math"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/flate"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// The map asks for windows — a month, a city box — many times a second
// while a person scrubs the timeline, and each answer is GeoJSON, gzipped.
// Read through SQLite, a window's photos cost a few microseconds each in
// the driver's per-column reads, then their encoding, then gzip; at a
// million photos that capped the server at a few times pg_featureserv's
// rate. The memory index answers the same requests from memory: every
// photo's window columns (first and last day, lon, lat, import sequence)
// in arrays sorted by first day, beside the photo's Feature already
// encoded and already deflated on its own (ending on a sync flush, so
// that pieces join into one valid deflate stream, as gzipStream does for
// downloads). A window is then two binary searches, a scan of its range,
// a sort by import order and the copying of the pieces; the gzip CRC is
// combined from the pieces' own (crc32combine.go). The bytes are those
// the SQLite path writes, decompressed; TestMemIndexMatchesSQLite checks
// it on random windows.
//
// The index is built in the background when the server starts and again
// after every change to the archive (its version); until it is ready the
// SQLite path answers. It serves gzip requests whose filter is a window,
// a box, a limit and an offset, in import order; anything else goes the
// SQLite way.

// memIndex is one archive version's photos, ready to serve.
type memIndex struct {
	version int64
	base    string
	// Per photo, sorted by first day then import sequence: first and
	// last day (YYYYMMDD; 0 for undated photos), lon and lat (NaN
	// unplaced), the import sequence, and the piece.
	from, to []int32
	lon, lat []float64
	seq      []int64
	pieces   []piece
	data     []byte // the pieces' deflate data, one after another
}

// piece is one photo's ",\n" + Feature, deflated on its own: where it is
// in data, how long its text is, and the text's CRC-32 with the factor
// that moves a CRC past it.
type piece struct {
	off          int64
	n, raw       uint32
	crc, shiftBy uint32
}

// memIndexHolder keeps the current index and builds the next.
type memIndexHolder struct {
	cur      atomic.Pointer[memIndex]
	building atomic.Bool
	// off disables the index (tests of the SQLite path, and
	// Options.NoMemIndex).
	off bool
}

// memIndexFor returns the index of the archive as it is now, or nil when
// it is not built yet, starting a build if none runs.
func (s *Server) memIndexFor(ctx context.Context) *memIndex {
	if s.memIndex.off {
		return nil
	}
	v, err := s.db.Version(ctx)
	if err != nil {
		return nil
	}
	if ix := s.memIndex.cur.Load(); ix != nil && ix.version == v && ix.base == s.baseURL {
		return ix
	}
	s.startMemIndex()
	return nil
}

// startMemIndex builds the index in the background unless a build runs.
func (s *Server) startMemIndex() {
	if s.memIndex.off || !s.memIndex.building.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.memIndex.building.Store(false)
		// An import during the build would leave the index between two
		// versions: it is then built again.
		for try := 0; try < 3; try++ {
			ctx := context.Background()
			v, err := s.db.Version(ctx)
			if err != nil {
				return
			}
			start := time.Now()
			ix, err := s.buildMemIndex(ctx, v)
			if err != nil {
				s.log.Warn("memory index not built; windows are read from SQLite", "err", err)
				return
			}
			if after, err := s.db.Version(ctx); err == nil && after == v {
				s.memIndex.cur.Store(ix)
				s.log.Debug("memory index built", "photos", len(ix.seq), "bytes", len(ix.data), "took", time.Since(start))
				return
			}
		}
	}()
}

// memIndexRange is how many rowids one read of the build covers.
const memIndexRange = 20_000

// buildMemIndex reads every photo, in rowid ranges on every core, and
// encodes and deflates each.
func (s *Server) buildMemIndex(ctx context.Context, version int64) (*memIndex, error) {
	hi, err := s.db.MaxRowid(ctx)
	if err != nil {
		return nil, err
	}
	base := s.baseURL
	type part struct {
		ix  memIndex
		err error
	}
	n := int((hi + memIndexRange - 1) / memIndexRange)
	parts := make([]part, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fw, _ := flate.NewWriter(nil, 5)
			var text []byte
			var out bytes.Buffer
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				p := &parts[i].ix
				lo := int64(i) * memIndexRange
				parts[i].err = s.db.EachFeatureIn(ctx, photo.Filter{}, lo, lo+memIndexRange, func(f *store.Feature) error {
					text = append(append(text[:0], ",\n"...), appendFeature(nil, f, s.links(base, f))...)
					out.Reset()
					fw.Reset(&out)
					fw.Write(text)
					if err := fw.Flush(); err != nil {
						return err
					}
					from, to := f.Date.Span()
					lon, lat := math.NaN(), math.NaN()
					if f.Located {
						lon, lat = f.Lon, f.Lat
					}
					p.from, p.to = append(p.from, int32(from)), append(p.to, int32(to))
					p.lon, p.lat, p.seq = append(p.lon, lon), append(p.lat, lat), append(p.seq, f.Seq)
					p.pieces = append(p.pieces, piece{off: int64(len(p.data)), n: uint32(out.Len()), raw: uint32(len(text)),
						crc: crc32IEEE(text), shiftBy: shiftFor(len(text))})
					p.data = append(p.data, out.Bytes()...)
					return nil
				})
			}
		}()
	}
	wg.Wait()
	var all memIndex
	for _, p := range parts {
		if p.err != nil {
			return nil, p.err
		}
		off := int64(len(all.data))
		for _, pc := range p.ix.pieces {
			pc.off += off
			all.pieces = append(all.pieces, pc)
		}
		all.data = append(all.data, p.ix.data...)
		all.from, all.to = append(all.from, p.ix.from...), append(all.to, p.ix.to...)
		all.lon, all.lat, all.seq = append(all.lon, p.ix.lon...), append(all.lat, p.ix.lat...), append(all.seq, p.ix.seq...)
	}
	// Sorted by first day, then import sequence.
	order := make([]int32, len(all.seq))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if all.from[a] != all.from[b] {
			return int(all.from[a]) - int(all.from[b])
		}
		return int(all.seq[a] - all.seq[b])
	})
	ix := &memIndex{version: version, base: base, data: all.data,
		from: make([]int32, len(order)), to: make([]int32, len(order)), lon: make([]float64, len(order)),
		lat: make([]float64, len(order)), seq: make([]int64, len(order)), pieces: make([]piece, len(order))}
	for i, j := range order {
		ix.from[i], ix.to[i], ix.lon[i], ix.lat[i], ix.seq[i], ix.pieces[i] = all.from[j], all.to[j], all.lon[j], all.lat[j], all.seq[j], all.pieces[j]
	}
	return ix, nil
}

// memIndexable reports whether the index answers the filter: a window, a
// box, a limit, an offset and a cursor, in import order.
func memIndexable(f photo.Filter) bool {
	f.From, f.To, f.BBox, f.Limit, f.Offset, f.After = photo.Date{}, photo.Date{}, nil, 0, 0, 0
	return f.IsZero()
}

// selectWindow returns the positions of the photos the filter selects, in
// import order, after its offset and within its limit: the same photos
// store's where() selects (see there for why a window's photos start in
// it or on one of two days before it).
func (ix *memIndex) selectWindow(f photo.Filter) []int32 {
	var sel []int32
	n := len(ix.from)
	at := func(day int32) int { // the first position starting on or after day
		lo, hi := 0, n
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if ix.from[m] < day {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo
	}
	var first, last int32 = 0, math.MaxInt32
	hasFrom, hasTo := !f.From.IsZero(), !f.To.IsZero()
	if hasFrom {
		a, _ := f.From.Span()
		first = int32(a)
	}
	if hasTo {
		_, b := f.To.Span()
		last = int32(b)
	}
	in := func(i int) bool {
		if hasFrom && ix.to[i] < first || hasTo && (ix.from[i] > last || ix.from[i] == 0) {
			return false
		}
		if b := f.BBox; b != nil {
			lon, lat := ix.lon[i], ix.lat[i]
			if !(lon >= b.Min.Lon() && lon <= b.Max.Lon() && lat >= b.Min.Lat() && lat <= b.Max.Lat()) {
				return false
			}
		}
		return true
	}
	scan := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if in(i) {
				sel = append(sel, int32(i))
			}
		}
	}
	switch {
	case hasFrom:
		// Photos starting in the window, and month- and year-dated ones
		// starting on the 1st of its first month or of its first year.
		hiDay := last
		if hiDay < math.MaxInt32 {
			hiDay++
		}
		scan(at(first), at(hiDay))
		month, year := first/100*100+1, first/10000*10000+101
		days := []int32{month}
		if year != month {
			days = append(days, year)
		}
		for _, d := range days {
			if d < first {
				scan(at(d), at(d+1))
			}
		}
	case hasTo:
		scan(at(1), at(last+1))
	default:
		scan(0, n)
	}
	slices.SortFunc(sel, func(a, b int32) int { return int(ix.seq[a] - ix.seq[b]) })
	if f.After != 0 {
		k, _ := slices.BinarySearchFunc(sel, f.After, func(i int32, after int64) int {
			if ix.seq[i] <= after {
				return -1
			}
			return 1
		})
		sel = sel[k:]
	}
	if f.Offset > 0 {
		sel = sel[min(f.Offset, len(sel)):]
	}
	if f.Limit > 0 && len(sel) > f.Limit {
		sel = sel[:f.Limit]
	}
	return sel
}

// writeWindow writes the photos at the positions sel as a gzipped GeoJSON
// FeatureCollection from the index: the bytes the SQLite path writes. The
// tail is given how many were written and the Seq of the last.
func (s *Server) writeWindow(w http.ResponseWriter, ix *memIndex, sel []int32, head string, tail func(returned int, last int64) string) {
	w.Header().Set("Content-Encoding", "gzip")
	bw := bufio.NewWriterSize(w, 256<<10)
	gz, err := newGzipStream(bw)
	if err != nil {
		return
	}
	gz.Write([]byte(head))
	if len(sel) > 0 {
		// The first feature has no separator before it: its text goes
		// through the compressor without the piece's ",\n".
		text, err := ix.text(sel[0])
		if err != nil {
			s.log.Warn("memory index: a piece does not inflate", "err", err)
			panic(http.ErrAbortHandler)
		}
		gz.Write(text[2:])
		for _, i := range sel[1:] {
			pc := ix.pieces[i]
			if err := gz.WritePiece(ix.data[pc.off:pc.off+int64(pc.n)], pc.crc, pc.shiftBy, pc.raw); err != nil {
				return // the client is gone
			}
		}
	}
	var last int64
	if len(sel) > 0 {
		last = ix.seq[sel[len(sel)-1]]
	}
	gz.Write([]byte(tail(len(sel), last)))
	if err := gz.Close(); err == nil {
		bw.Flush()
	}
}

func crc32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// text inflates the piece at position i.
func (ix *memIndex) text(i int32) ([]byte, error) {
	pc := ix.pieces[i]
	r := flate.NewReader(bytes.NewReader(ix.data[pc.off : pc.off+int64(pc.n)]))
	b := make([]byte, pc.raw)
	_, err := io.ReadFull(r, b)
	return b, err
}
