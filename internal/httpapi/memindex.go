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
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/flate"

	"github.com/syriamap/syriamap/internal/photo"
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
	// bySeq lists the positions in import order, for windows so wide
	// that reading the archive in order beats sorting what they select.
	bySeq []int32
	// blocks hold the pieces' deflate data, one block per range of
	// rowids read, each allocated once at its size.
	blocks [][]byte
	bytes  int64
}

// piece is one photo's ",\n" + Feature, deflated on its own: its block,
// where it is in the block, how long its text is, and the text's CRC-32
// with the factor that moves a CRC past it.
type piece struct {
	block        uint32
	off, n, raw  uint32
	crc, shiftBy uint32
}

// deflated returns the piece's deflate data.
func (ix *memIndex) deflated(pc piece) []byte {
	return ix.blocks[pc.block][pc.off : pc.off+pc.n]
}

// memIndexHolder keeps the current index and builds the next.
type memIndexHolder struct {
	cur      atomic.Pointer[memIndex]
	building atomic.Bool
	// off disables the index (tests of the SQLite path, and
	// Options.NoMemIndex).
	off bool
}

// memIndexAt returns the index of the archive at version v (the one the
// response's ETag names), or nil when it is not built yet, starting a
// build if none runs.
func (s *Server) memIndexAt(v int64) *memIndex {
	if s.memIndex.off {
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
				s.log.Debug("memory index built", "photos", len(ix.seq), "bytes", ix.bytes, "took", time.Since(start))
				// The build's buffers are garbage now; hand their pages
				// back rather than keep them resident.
				debug.FreeOSMemory()
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
			var text, data []byte
			var out bytes.Buffer
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				p := &parts[i].ix
				lo := int64(i) * memIndexRange
				parts[i].err = s.db.EachFeatureBulk(ctx, lo, lo+memIndexRange, func(f *photo.Feature) error {
					text = append(append(text[:0], ",\n"...), appendFeature(nil, f, s.links(base, f), s.publicGPS)...)
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
					p.pieces = append(p.pieces, piece{block: uint32(i), off: uint32(len(data)), n: uint32(out.Len()), raw: uint32(len(text)),
						crc: crc32.ChecksumIEEE(text), shiftBy: shiftFor(len(text))})
					data = append(data, out.Bytes()...)
					return nil
				})
				p.blocks = [][]byte{bytes.Clone(data)} // at its size
				data = data[:0]
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, p := range parts {
		if p.err != nil {
			return nil, p.err
		}
		total += len(p.ix.seq)
	}
	all := memIndex{from: make([]int32, 0, total), to: make([]int32, 0, total), lon: make([]float64, 0, total),
		lat: make([]float64, 0, total), seq: make([]int64, 0, total), pieces: make([]piece, 0, total), blocks: make([][]byte, n)}
	for i := range parts {
		p := &parts[i].ix
		all.pieces = append(all.pieces, p.pieces...)
		all.blocks[i] = p.blocks[0]
		all.bytes += int64(len(p.blocks[0]))
		all.from, all.to = append(all.from, p.from...), append(all.to, p.to...)
		all.lon, all.lat, all.seq = append(all.lon, p.lon...), append(all.lat, p.lat...), append(all.seq, p.seq...)
		*p = memIndex{}
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
	ix := &memIndex{version: version, base: base, blocks: all.blocks, bytes: all.bytes,
		from: make([]int32, len(order)), to: make([]int32, len(order)), lon: make([]float64, len(order)),
		lat: make([]float64, len(order)), seq: make([]int64, len(order)), pieces: make([]piece, len(order)),
		bySeq: make([]int32, len(order))}
	for i, j := range order {
		ix.from[i], ix.to[i], ix.lon[i], ix.lat[i], ix.seq[i], ix.pieces[i] = all.from[j], all.to[j], all.lon[j], all.lat[j], all.seq[j], all.pieces[j]
		ix.bySeq[j] = int32(i) // the ranges were read in rowid order
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
// import order, after its cursor and offset and within its limit: the
// same photos store's where() selects (see there for why a window's
// photos start in it or on one of two days before it). A narrow window
// is read from its range of first days and sorted; a wide one (a year of
// a million photos, a box alone) by walking the archive in import order,
// which needs no sort and stops at the limit.
func (ix *memIndex) selectWindow(f photo.Filter) []int32 {
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
	hasFrom, hasTo := !f.From.IsZero(), !f.To.IsZero()
	var first, last, month, year int32 = 0, math.MaxInt32, 0, 0
	if hasFrom {
		a, _ := f.From.Span()
		first = int32(a)
		month, year = first/100*100+1, first/10000*10000+101
	}
	if hasTo {
		_, b := f.To.Span()
		last = int32(b)
	}
	// in is where()'s condition, whole.
	in := func(i int) bool {
		from := ix.from[i]
		switch {
		case hasFrom && (ix.to[i] < first || from > last || (from < first && from != month && from != year)):
			return false
		case hasTo && (from == 0 || from > last):
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
	// The ranges of first days a window's photos can have.
	var ranges [][2]int
	switch {
	case hasFrom:
		hiDay := last
		if hiDay < math.MaxInt32 {
			hiDay++
		}
		ranges = append(ranges, [2]int{at(first), at(hiDay)})
		days := []int32{month}
		if year != month {
			days = append(days, year)
		}
		for _, d := range days {
			if d < first {
				ranges = append(ranges, [2]int{at(d), at(d + 1)})
			}
		}
	case hasTo:
		ranges = append(ranges, [2]int{at(1), at(last + 1)})
	default:
		ranges = append(ranges, [2]int{0, n})
	}
	span := 0
	for _, r := range ranges {
		span += r[1] - r[0]
	}
	want := math.MaxInt
	if f.Limit > 0 {
		want = f.Offset + f.Limit
	}
	var sel []int32
	if span > n/16 {
		// Wide: walk in import order from the cursor, up to the limit.
		k := 0
		if f.After != 0 {
			k = sort.Search(n, func(j int) bool { return ix.seq[ix.bySeq[j]] > f.After })
		}
		for ; k < n && len(sel) < want; k++ {
			if i := ix.bySeq[k]; in(int(i)) {
				sel = append(sel, i)
			}
		}
	} else {
		for _, r := range ranges {
			for i := r[0]; i < r[1]; i++ {
				if in(i) && ix.seq[i] > f.After {
					sel = append(sel, int32(i))
				}
			}
		}
		slices.SortFunc(sel, func(a, b int32) int { return int(ix.seq[a] - ix.seq[b]) })
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
	// A pooled buffer: allocating (and clearing) one per request was half
	// of a city window's cost.
	bw := windowBuffers.Get().(*bufio.Writer)
	bw.Reset(w)
	defer windowBuffers.Put(bw)
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
			if err := gz.WritePiece(ix.deflated(pc), pc.crc, pc.shiftBy, pc.raw); err != nil {
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

var windowBuffers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// inflaters are reused: each holds a 32 KB window.
var inflaters = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

// text inflates the piece at position i.
func (ix *memIndex) text(i int32) ([]byte, error) {
	pc := ix.pieces[i]
	r := inflaters.Get().(io.ReadCloser)
	defer inflaters.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(ix.deflated(pc)), nil); err != nil {
		return nil, err
	}
	b := make([]byte, pc.raw)
	_, err := io.ReadFull(r, b)
	return b, err
}
