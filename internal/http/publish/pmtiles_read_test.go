package publish

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/paulmach/orb/encoding/mvt"
)

// pmReader reads a PMTiles v3 archive as the spec says, written apart from
// the writer (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md)
// so that publish's own tests check the offsets and directories without
// Node: TestPMTilesReadByProtomaps does the same with protomaps' reader
// where node_modules is installed.
type pmReader struct {
	b                          []byte
	rootOff, rootLen, leafOff  uint64
	dataOff                    uint64
	minZoom, maxZoom, tileType uint8
	dirs                       map[uint64][]pmDirEntry // decoded, by offset
	leaves                     int                     // leaf directories read
}

func openPM(b []byte) (*pmReader, error) {
	if len(b) < 127 || string(b[:7]) != "PMTiles" || b[7] != 3 {
		return nil, fmt.Errorf("not a PMTiles v3 archive")
	}
	u := func(i int) uint64 { return binary.LittleEndian.Uint64(b[8+8*i:]) }
	r := &pmReader{b: b, rootOff: u(0), rootLen: u(1), leafOff: u(4), dataOff: u(6), tileType: b[99], minZoom: b[100], maxZoom: b[101]}
	if b[97] != 2 || b[98] != 2 {
		return nil, fmt.Errorf("internal compression %d, tile compression %d; this reader takes gzip (2)", b[97], b[98])
	}
	return r, nil
}

type pmDirEntry struct{ id, offset, length, run uint64 }

// directory decodes the gzipped directory at off: its entries as columns
// of varints (IDs as deltas, runs, lengths, then offsets written 0 for
// "right after the entry before" and offset+1 otherwise).
func (r *pmReader) directory(off, n uint64) ([]pmDirEntry, error) {
	if d, ok := r.dirs[off]; ok {
		return d, nil
	}
	if off != r.rootOff {
		r.leaves++
	}
	if off+n > uint64(len(r.b)) {
		return nil, fmt.Errorf("directory at %d+%d past the file's end", off, n)
	}
	zr, err := gzip.NewReader(bytes.NewReader(r.b[off : off+n]))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	br := bytes.NewReader(raw)
	next := func() uint64 {
		v, e := binary.ReadUvarint(br)
		if e != nil && err == nil {
			err = e
		}
		return v
	}
	entries := make([]pmDirEntry, next())
	var id uint64
	for i := range entries {
		id += next()
		entries[i].id = id
	}
	for i := range entries {
		entries[i].run = next()
	}
	for i := range entries {
		entries[i].length = next()
	}
	for i := range entries {
		if v := next(); v == 0 && i > 0 {
			entries[i].offset = entries[i-1].offset + entries[i-1].length
		} else {
			entries[i].offset = v - 1
		}
	}
	if err == nil {
		if r.dirs == nil {
			r.dirs = map[uint64][]pmDirEntry{}
		}
		r.dirs[off] = entries
	}
	return entries, err
}

// tile returns the (decompressed) tile z/x/y, nil when the archive has none.
func (r *pmReader) tile(z uint8, x, y uint32) ([]byte, error) {
	id := tileID(z, x, y)
	off, n := r.rootOff, r.rootLen
	for depth := 0; depth < 4; depth++ {
		entries, err := r.directory(off, n)
		if err != nil {
			return nil, err
		}
		// The last entry at or before id.
		i := sort.Search(len(entries), func(i int) bool { return entries[i].id > id }) - 1
		if i < 0 {
			return nil, nil
		}
		e := entries[i]
		if e.run == 0 { // a leaf directory
			off, n = r.leafOff+e.offset, e.length
			continue
		}
		if id >= e.id+e.run {
			return nil, nil
		}
		start := r.dataOff + e.offset
		if start+e.length > uint64(len(r.b)) {
			return nil, fmt.Errorf("tile %d/%d/%d at %d+%d past the file's end", z, x, y, start, e.length)
		}
		zr, err := gzip.NewReader(bytes.NewReader(r.b[start : start+e.length]))
		if err != nil {
			return nil, fmt.Errorf("tile %d/%d/%d: %w", z, x, y, err)
		}
		return io.ReadAll(zr)
	}
	return nil, fmt.Errorf("directories deeper than 4")
}

// TestPMTilesReadInGo reads the published tiles with the reader above, at
// every zoom over Syria's neighbourhood (lon 30–50, lat 28–42): the
// clusters' counts add up to the placed photos, and from zoom 14 each
// photo is a feature of its own.
func TestPMTilesReadInGo(t *testing.T) {
	for _, n := range []int{400} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			a := testArchive(t, n)
			dir := t.TempDir()
			rep, err := Publish(context.Background(), a, dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, readManifest(t, dir).Tiles))
			if err != nil {
				t.Fatal(err)
			}
			pm, err := openPM(b)
			if err != nil {
				t.Fatal(err)
			}
			if pm.maxZoom != 14 || pm.tileType != 1 {
				t.Errorf("max zoom %d, tile type %d; want 14, MVT (1)", pm.maxZoom, pm.tileType)
			}
			for _, z := range []uint8{0, 5, 9, 13, 14} {
				count, features := 0, 0
				nt := float64(uint32(1) << z)
				lonTile := func(lon float64) uint32 { return uint32((lon + 180) / 360 * nt) }
				latTile := func(lat float64) uint32 {
					r := lat * math.Pi / 180
					return uint32((1 - math.Log(math.Tan(r)+1/math.Cos(r))/math.Pi) / 2 * nt)
				}
				for x := lonTile(30); x <= lonTile(50); x++ {
					for y := latTile(42); y <= latTile(28); y++ {
						data, err := pm.tile(z, x, y)
						if err != nil {
							t.Fatal(err)
						}
						if data == nil {
							continue
						}
						layers, err := mvt.Unmarshal(data)
						if err != nil {
							t.Fatalf("tile %d/%d/%d: %v", z, x, y, err)
						}
						for _, l := range layers {
							if l.Name != "photos" {
								t.Errorf("tile %d/%d/%d has a layer %q", z, x, y, l.Name)
							}
							for _, f := range l.Features {
								c, _ := f.Properties["count"].(float64)
								if c == 0 {
									if i, ok := f.Properties["count"].(int64); ok {
										c = float64(i)
									} else if u, ok := f.Properties["count"].(uint64); ok {
										c = float64(u)
									}
								}
								count += int(c)
								features++
							}
						}
					}
				}
				if count != rep.Placed || rep.Placed == 0 {
					t.Errorf("zoom %d: the counts add up to %d; want the %d placed photos", z, count, rep.Placed)
				}
				if z == 14 && features != rep.Placed {
					t.Errorf("zoom 14 has %d features; want each of the %d photos", features, rep.Placed)
				}
			}
		})
	}
}

// TestPMTilesLeavesReadInGo writes more tiles than the root directory
// holds, each of its own content (and runs of one content), and reads
// every one back through the leaf directories: each offset and length is
// where the spec's reader looks.
func TestPMTilesLeavesReadInGo(t *testing.T) {
	t.Parallel() // the package's longest tests; they share nothing
	// Tiles scattered over zoom 12, of lengths drawn at random, so that
	// the directory does not compress into the root's 16 KiB.
	var tiles []pmTile
	want := map[[3]uint32][]byte{}
	r := rand.New(rand.NewPCG(1, 2))
	var last []byte
	for len(tiles) < 12000 {
		k := [3]uint32{12, uint32(r.IntN(4096)), uint32(r.IntN(4096))}
		if _, ok := want[k]; ok {
			continue
		}
		content := bytes.Repeat([]byte{byte(r.IntN(256))}, 1+r.IntN(300))
		if last != nil && r.IntN(5) == 0 {
			content = last // the same bytes again: stored once
		}
		last = content
		tiles = append(tiles, pmTile{z: 12, x: k[1], y: k[2], data: gzipBytes(content)})
		want[k] = content
	}
	b, err := writePMTiles(tiles, map[string]any{"name": "test"}, pmBounds{minZoom: 12, maxZoom: 12})
	if err != nil {
		t.Fatal(err)
	}
	pm, err := openPM(b)
	if err != nil {
		t.Fatal(err)
	}
	for k, content := range want {
		got, err := pm.tile(uint8(k[0]), k[1], k[2])
		if err != nil || !bytes.Equal(got, content) {
			t.Fatalf("tile %v: %d bytes, %v; want the %d written", k, len(got), err, len(content))
		}
	}
	if got, err := pm.tile(13, 0, 0); got != nil || err != nil {
		t.Errorf("a tile never written: %q, %v; want none", got, err)
	}
	if pm.leaves < 2 {
		t.Errorf("%d tiles read through %d leaf directories; want the root to point to leaves", len(tiles), pm.leaves)
	}
}

// TestOverviewHoldsTheShallowTiles reads a site's overview beside its
// tiles: every tile over Syria's neighbourhood down to OverviewZoom is
// the tiles' own, and none deeper, so that a page reading the overview
// (a host without range requests) counts what a page reading the tiles
// counts at those zooms.
func TestOverviewHoldsTheShallowTiles(t *testing.T) {
	a := testArchive(t, 400)
	dir := t.TempDir()
	if _, err := Publish(context.Background(), a, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	m := readManifest(t, dir)
	open := func(name string) *pmReader {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		pm, err := openPM(b)
		if err != nil {
			t.Fatal(err)
		}
		return pm
	}
	all, overview := open(m.Tiles), open(m.Overview)
	if m.OverviewZoom != OverviewZoom || overview.maxZoom != OverviewZoom {
		t.Errorf("the overview's deepest zoom: manifest %d, archive %d; want %d", m.OverviewZoom, overview.maxZoom, OverviewZoom)
	}
	for z := uint8(0); z <= OverviewZoom+1; z++ {
		nt := float64(uint32(1) << z)
		same := 0
		for x := uint32(30.0+180) * uint32(nt) / 360; x <= uint32(50.0+180)*uint32(nt)/360; x++ {
			for y := uint32(0); y < uint32(nt); y++ {
				want, err := all.tile(z, x, y)
				if err != nil {
					t.Fatal(err)
				}
				got, err := overview.tile(z, x, y)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case z > OverviewZoom && got != nil:
					t.Fatalf("the overview holds tile %d/%d/%d, past its zoom %d", z, x, y, OverviewZoom)
				case z <= OverviewZoom && !bytes.Equal(got, want):
					t.Fatalf("tile %d/%d/%d: the overview's %d bytes differ from the tiles' %d", z, x, y, len(got), len(want))
				case want != nil:
					same++
				}
			}
		}
		if z <= OverviewZoom && same == 0 {
			t.Errorf("zoom %d: no tile over Syria compared", z)
		}
	}
}
