// Package memindex answers the map's windows from memory.
//
// The map asks for windows — a month, a city box — many times a second
// while a person scrubs the timeline, and each answer is GeoJSON, gzipped.
// Read through SQLite, a window's photos cost a few microseconds each in
// the driver's per-column reads, then their encoding, then gzip; at a
// million photos that capped the server at a few times pg_featureserv's
// rate. An Index answers the same requests from memory: every photo's
// window columns (first and last day, lon, lat, import sequence) in arrays
// sorted by first day, beside the photo's Feature already encoded, kept
// compressed with zstd against a dictionary of the archive's own features
// (about 170 bytes a photo where the text is 930: each decodes alone, in
// about a microsecond). A window is two binary searches, a scan of its
// range and a sort by import order; its features are decoded and
// compressed as one gzip stream (gzjoin.Level), large ones in chunks on
// every core joined into one member (see gzjoin), so a response is about
// the size a streamed gzip makes. The bytes are those the SQLite path
// writes; the server's tests check it on random windows.
//
// A Keeper builds the index in the background when the server starts and
// again after every change to the archive (its version); until it is ready
// the SQLite path answers. It serves gzip requests whose filter is a
// window, a box, a limit and an offset, in import order (Indexable);
// anything else goes the SQLite way.
package memindex

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"

	"github.com/syriamap/syriamap/internal/http/gzjoin"
	"github.com/syriamap/syriamap/internal/photo"
)

// Index is one archive version's photos, ready to serve.
type Index struct {
	version int64
	key     string
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
	// blocks hold the pieces' zstd frames, one block per range of rowids
	// read, each allocated once at its size; dec reads them, with the
	// dictionary they were made against.
	blocks [][]byte
	bytes  int64
	dec    *zstd.Decoder
	// grid lists the placed photos by square cell, for what a box
	// selects without a scan of the whole window (tiles, clusters).
	grid grid
	// tileSets are the vector tiles' clusters, by window and zoom (see
	// TileClusters).
	tileSets *tileSets
}

// piece is one photo's Feature, compressed on its own: its block, where it
// is in the block, and how long it is compressed and as text.
type piece struct {
	block       uint32
	off, n, raw uint32
}

// Len is how many photos the index holds.
func (ix *Index) Len() int { return len(ix.seq) }

// Bytes is how many bytes of compressed features the index holds.
func (ix *Index) Bytes() int64 { return ix.bytes }

// frame returns the piece's zstd frame.
func (ix *Index) frame(pc piece) []byte {
	return ix.blocks[pc.block][pc.off : pc.off+pc.n]
}

// dictBytes is how much feature text the dictionary holds: the first
// features of the archive, which share its keys, links and wording.
const dictBytes = 64 << 10

// dictID names the dictionary in the frames (any number but 0).
const dictID = 1

// dictionary reads the first features of src into a zstd raw-content
// dictionary, or nil for an empty archive.
func dictionary(ctx context.Context, src Source, hi int64, encode Encoder) ([]byte, error) {
	var dict, text []byte
	errFull := errors.New("full")
	err := src.EachFeatureBulk(ctx, 0, min(hi+1, rangeRows), func(f *photo.Feature) error {
		text = encode(text[:0], f)
		dict = append(dict, text...)
		if len(dict) >= dictBytes {
			return errFull
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFull) {
		return nil, err
	}
	return dict, nil
}

// codecs returns the encoder and decoder of the features' frames.
func codecs(dict []byte) (*zstd.Encoder, *zstd.Decoder, error) {
	eo := []zstd.EOption{zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true),
		zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0))}
	do := []zstd.DOption{zstd.WithDecoderConcurrency(runtime.GOMAXPROCS(0))}
	if len(dict) > 0 {
		eo = append(eo, zstd.WithEncoderDictRaw(dictID, dict))
		do = append(do, zstd.WithDecoderDictRaw(dictID, dict))
	}
	enc, err := zstd.NewWriter(nil, eo...)
	if err != nil {
		return nil, nil, err
	}
	dec, err := zstd.NewReader(nil, do...)
	if err != nil {
		return nil, nil, err
	}
	return enc, dec, nil
}

// Source is what an index is built from: the archive's storage.
type Source interface {
	// Version changes with every change to the archive.
	Version(ctx context.Context) (int64, error)
	// MaxRowid bounds the photos' import sequences.
	MaxRowid(ctx context.Context) (int64, error)
	// EachFeatureBulk calls fn for the photos whose import sequence is
	// in [lo, hi), in that order; fn must not keep f.
	EachFeatureBulk(ctx context.Context, lo, hi int64, fn func(f *photo.Feature) error) error
}

// Encoder appends a photo's Feature, as the server writes it, to dst.
type Encoder func(dst []byte, f *photo.Feature) []byte

// rangeRows is how many rowids one read of the build covers.
const rangeRows = 20_000

// Build reads every photo of src at version, in rowid ranges on every
// core, and encodes and compresses each. key names what else the encoding
// depends on (the base URL of the links), for Keeper.At.
func Build(ctx context.Context, src Source, version int64, key string, encode Encoder) (*Index, error) {
	hi, err := src.MaxRowid(ctx)
	if err != nil {
		return nil, err
	}
	dict, err := dictionary(ctx, src, hi, encode)
	if err != nil {
		return nil, err
	}
	enc, dec, err := codecs(dict)
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	type part struct {
		ix  Index
		err error
	}
	n := int((hi + rangeRows - 1) / rangeRows)
	parts := make([]part, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var text, data []byte
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				p := &parts[i].ix
				lo := int64(i) * rangeRows
				parts[i].err = src.EachFeatureBulk(ctx, lo, lo+rangeRows, func(f *photo.Feature) error {
					text = encode(text[:0], f)
					off := len(data)
					data = enc.EncodeAll(text, data)
					from, to := f.Date.Span()
					lon, lat := math.NaN(), math.NaN()
					if f.Located {
						lon, lat = f.Lon, f.Lat
					}
					p.from, p.to = append(p.from, int32(from)), append(p.to, int32(to))
					p.lon, p.lat, p.seq = append(p.lon, lon), append(p.lat, lat), append(p.seq, f.Seq)
					p.pieces = append(p.pieces, piece{block: uint32(i), off: uint32(off), n: uint32(len(data) - off), raw: uint32(len(text))})
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
	all := Index{from: make([]int32, 0, total), to: make([]int32, 0, total), lon: make([]float64, 0, total),
		lat: make([]float64, 0, total), seq: make([]int64, 0, total), pieces: make([]piece, 0, total), blocks: make([][]byte, n)}
	for i := range parts {
		p := &parts[i].ix
		all.pieces = append(all.pieces, p.pieces...)
		all.blocks[i] = p.blocks[0]
		all.bytes += int64(len(p.blocks[0]))
		all.from, all.to = append(all.from, p.from...), append(all.to, p.to...)
		all.lon, all.lat, all.seq = append(all.lon, p.lon...), append(all.lat, p.lat...), append(all.seq, p.seq...)
		*p = Index{}
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
	ix := &Index{version: version, key: key, tileSets: &tileSets{}, blocks: all.blocks, bytes: all.bytes + int64(len(dict)), dec: dec,
		from: make([]int32, len(order)), to: make([]int32, len(order)), lon: make([]float64, len(order)),
		lat: make([]float64, len(order)), seq: make([]int64, len(order)), pieces: make([]piece, len(order)),
		bySeq: make([]int32, len(order))}
	for i, j := range order {
		ix.from[i], ix.to[i], ix.lon[i], ix.lat[i], ix.seq[i], ix.pieces[i] = all.from[j], all.to[j], all.lon[j], all.lat[j], all.seq[j], all.pieces[j]
		ix.bySeq[j] = int32(i) // the ranges were read in rowid order
	}
	ix.grid = newGrid(ix.lon, ix.lat)
	return ix, nil
}

// Indexable reports whether an index answers the filter: a window, a
// box, a limit, an offset and a cursor, in import order.
func Indexable(f photo.Filter) bool {
	f.From, f.To, f.BBox, f.Limit, f.Offset, f.After = photo.Date{}, photo.Date{}, nil, 0, 0, 0
	return f.IsZero()
}

// Select returns the positions of the photos the filter selects, in
// import order, after its cursor and offset and within its limit: the
// photos photo.Window admits, the rule the SQL of store applies too. A
// narrow window is read from its range of first days and sorted; a wide
// one (a year of a million photos, a box alone) by walking the archive in
// import order, which needs no sort and stops at the limit.
func (ix *Index) Select(f photo.Filter) []int32 {
	n := len(ix.from)
	ranges, in := ix.plan(f)
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

// plan returns the ranges of positions whose first days a filter's window
// admits, and whether it selects the photo at a position.
func (ix *Index) plan(f photo.Filter) (ranges [][2]int, in func(i int) bool) {
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
	win := photo.WindowOf(f)
	in = func(i int) bool {
		if !win.Admits(int(ix.from[i]), int(ix.to[i])) {
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
	for _, r := range win.FirstDays() {
		ranges = append(ranges, [2]int{at(int32(r[0])), at(int32(r[1]))})
	}
	if len(ranges) == 0 {
		ranges = append(ranges, [2]int{0, n})
	}
	return ranges, in
}

// visit calls fn for each position the filter selects, in no order:
// for what counts or groups them, and so needs no sort.
func (ix *Index) visit(f photo.Filter, fn func(i int32)) {
	if f.After != 0 || f.Offset != 0 || f.Limit != 0 {
		for _, i := range ix.Select(f) {
			fn(i)
		}
		return
	}
	ranges, in := ix.plan(f)
	if b := f.BBox; b != nil && ix.grid.visit(*b, ranges, in, fn) {
		return
	}
	for _, r := range ranges {
		for i := r[0]; i < r[1]; i++ {
			if in(i) {
				fn(int32(i))
			}
		}
	}
}

// Page returns the page of sel, positions in import order as Select
// returns them for a filter without cursor, offset or limit: those after
// the cursor (a Seq), then past offset, at most limit (0 for all).
func (ix *Index) Page(sel []int32, after int64, offset, limit int) []int32 {
	if after != 0 {
		k := sort.Search(len(sel), func(j int) bool { return ix.seq[sel[j]] > after })
		sel = sel[k:]
	}
	sel = sel[min(offset, len(sel)):]
	if limit > 0 && len(sel) > limit {
		sel = sel[:limit]
	}
	return sel
}

// chunkBytes is about how much feature text a chunk of a large response
// holds: chunks are compressed on every core and joined. (A variable, so
// that the tests can make every response large.)
var chunkBytes = 256 << 10

// WriteGzip writes the photos at the positions sel as one gzip member of
// a GeoJSON FeatureCollection — head, the features joined by ",\n", and
// the tail, given how many were written and the Seq of the last — to w:
// the bytes the SQLite path writes, compressed. A small response is
// compressed as it is written; a large one in chunks, on every core, each
// ended by a sync flush so that they join into one deflate stream (the
// CRC-32 is combined from the chunks' own). An error from w means the
// client is gone; a feature that does not decode is ErrDamaged.
func (ix *Index) WriteGzip(w io.Writer, sel []int32, head string, tail func(returned int, last int64) string) error {
	gz, err := gzjoin.New(w)
	if err != nil {
		return err
	}
	gz.Write([]byte(head))
	chunks := ix.chunks(sel)
	if len(chunks) <= 1 {
		buf := textBuffers.Get().(*[]byte)
		defer textBuffers.Put(buf)
		if *buf, err = ix.appendTexts((*buf)[:0], sel, true); err != nil {
			return err
		}
		if _, err := gz.Write(*buf); err != nil {
			return err
		}
	} else if err := ix.writeChunks(gz, sel, chunks); err != nil {
		return err
	}
	var last int64
	if len(sel) > 0 {
		last = ix.seq[sel[len(sel)-1]]
	}
	gz.Write([]byte(tail(len(sel), last)))
	return gz.Close()
}

// chunks splits sel at about every chunkBytes of text: the ends of its
// chunks.
func (ix *Index) chunks(sel []int32) []int {
	var ends []int
	n := 0
	for k, i := range sel {
		n += int(ix.pieces[i].raw) + 2
		if n >= chunkBytes {
			ends = append(ends, k+1)
			n = 0
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] != len(sel) {
		ends = append(ends, len(sel))
	}
	return ends
}

// appendTexts appends the features at sel, decoded, to dst, joined by
// ",\n" (and with one before the first unless first).
func (ix *Index) appendTexts(dst []byte, sel []int32, first bool) ([]byte, error) {
	for k, i := range sel {
		if k > 0 || !first {
			dst = append(dst, ",\n"...)
		}
		pc := ix.pieces[i]
		n := len(dst)
		var err error
		if dst, err = ix.dec.DecodeAll(ix.frame(pc), dst); err != nil || len(dst)-n != int(pc.raw) {
			return dst, fmt.Errorf("%w: photo %d: %v", ErrDamaged, ix.seq[i], err)
		}
	}
	return dst, nil
}

// deflatedChunk is one chunk of a large response, compressed.
type deflatedChunk struct {
	data     *bytes.Buffer
	crc, raw uint32
	err      error
}

// writeChunks compresses the chunks of sel (ending at ends) on every core,
// at most a few ahead of the one being written, and writes them in order.
func (ix *Index) writeChunks(gz *gzjoin.Writer, sel []int32, ends []int) error {
	workers := runtime.GOMAXPROCS(0)
	slots := make([]chan deflatedChunk, len(ends))
	for k := range slots {
		slots[k] = make(chan deflatedChunk, 1)
	}
	next := make(chan int)
	ahead := make(chan struct{}, 2*workers) // chunks made and not yet written
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(next)
		for k := range ends {
			select {
			case ahead <- struct{}{}:
			case <-done:
				return
			}
			select {
			case next <- k:
			case <-done:
				return
			}
		}
	}()
	for range workers {
		go func() {
			for k := range next {
				lo := 0
				if k > 0 {
					lo = ends[k-1]
				}
				slots[k] <- ix.deflateChunk(sel[lo:ends[k]], k == 0)
			}
		}()
	}
	for k := range ends {
		c := <-slots[k]
		<-ahead
		if c.err != nil {
			return c.err
		}
		err := gz.WritePiece(c.data.Bytes(), c.crc, gzjoin.ShiftFor(int(c.raw)), c.raw)
		deflatedBuffers.Put(c.data)
		if err != nil {
			return err
		}
	}
	return nil
}

// deflateChunk decodes and compresses one chunk, ending on a sync flush.
func (ix *Index) deflateChunk(sel []int32, first bool) deflatedChunk {
	buf := textBuffers.Get().(*[]byte)
	defer textBuffers.Put(buf)
	var err error
	if *buf, err = ix.appendTexts((*buf)[:0], sel, first); err != nil {
		return deflatedChunk{err: err}
	}
	out := deflatedBuffers.Get().(*bytes.Buffer)
	out.Reset()
	if err := gzjoin.Deflate(out, *buf); err != nil {
		return deflatedChunk{err: err}
	}
	return deflatedChunk{data: out, crc: crc32.ChecksumIEEE(*buf), raw: uint32(len(*buf))}
}

var (
	textBuffers     = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}
	deflatedBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}
)

// ErrDamaged is WriteGzip's error when a feature of the index does not
// decode: memory went bad, or a bug; the response is cut off.
var ErrDamaged = errors.New("memory index: a feature does not decode")

// freeOSMemory hands a build's garbage back to the system.
var freeOSMemory = debug.FreeOSMemory
