package publish

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
)

// A PMTiles (version 3) archive: one file of tiles that a page or a GIS
// tool reads with HTTP range requests, from any static host
// (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md). The
// layout written here: the 127-byte header, the root directory, the JSON
// metadata, the leaf directories, then the tiles, identical tiles stored
// once. Directories and metadata are gzipped; so are the tiles (MVT).

const (
	pmHeaderLen   = 127
	pmRootMax     = 16384 - pmHeaderLen // the root must lie in the first 16 KiB
	pmGzip        = 2
	pmTypeMVT     = 1
	pmLeafEntries = 4096
)

// pmEntry is a directory entry: run tiles from tileID on share the bytes
// at offset; run 0 points to a leaf directory.
type pmEntry struct {
	tileID         uint64
	offset, length uint64
	run            uint32
}

// pmTile is one tile to write.
type pmTile struct {
	z    uint8
	x, y uint32
	data []byte // gzipped MVT
}

// pmBounds are the archive's bounds and centre, in degrees.
type pmBounds struct {
	minLon, minLat, maxLon, maxLat float64
	minZoom, maxZoom, centreZoom   uint8
}

// tileID numbers a tile as PMTiles does: the tiles of all shallower zooms
// first, then along the zoom's Hilbert curve.
func tileID(z uint8, x, y uint32) uint64 {
	acc := (uint64(1)<<(2*uint64(z)) - 1) / 3
	for s := uint32(1) << z >> 1; s > 0; s >>= 1 {
		var rx, ry uint32
		if x&s != 0 {
			rx = 1
		}
		if y&s != 0 {
			ry = 1
		}
		acc += uint64(s) * uint64(s) * uint64((3*rx)^ry)
		// Rotate the quadrant so that the curve runs on within it.
		if ry == 0 {
			if rx == 1 {
				x = s - 1 - x
				y = s - 1 - y
			}
			x, y = y, x
		}
	}
	return acc
}

// writePMTiles lays out tiles (any order) with metadata as one archive.
func writePMTiles(tiles []pmTile, metadata any, b pmBounds) ([]byte, error) {
	type keyed struct {
		id   uint64
		data []byte
	}
	ks := make([]keyed, len(tiles))
	for i, t := range tiles {
		ks[i] = keyed{tileID(t.z, t.x, t.y), t.data}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		switch {
		case a.id < b.id:
			return -1
		case a.id > b.id:
			return 1
		}
		return 0
	})
	// The tile data: each distinct content once; consecutive tiles with
	// the same content share one run.
	var data bytes.Buffer
	at := map[string]uint64{}
	var entries []pmEntry
	for i, k := range ks {
		if i > 0 && k.id == ks[i-1].id {
			return nil, fmt.Errorf("pmtiles: tile %d given twice", k.id)
		}
		if n := len(entries); n > 0 {
			last := &entries[n-1]
			if last.tileID+uint64(last.run) == k.id && bytes.Equal(ks[i-1].data, k.data) {
				last.run++
				continue
			}
		}
		off, ok := at[string(k.data)]
		if !ok {
			off = uint64(data.Len())
			at[string(k.data)] = off
			data.Write(k.data)
		}
		entries = append(entries, pmEntry{tileID: k.id, offset: off, length: uint64(len(k.data)), run: 1})
	}
	meta, err := json.Marshal(metadata)
	if err != nil {
		return nil, err
	}
	meta = gzipBytes(meta)
	// The root directory holds every entry if it fits; else it points to
	// leaves of pmLeafEntries entries each.
	root := encodeDirectory(entries)
	var leaves bytes.Buffer
	if len(root) > pmRootMax {
		var rootEntries []pmEntry
		for i := 0; i < len(entries); i += pmLeafEntries {
			leaf := encodeDirectory(entries[i:min(i+pmLeafEntries, len(entries))])
			rootEntries = append(rootEntries, pmEntry{tileID: entries[i].tileID, offset: uint64(leaves.Len()), length: uint64(len(leaf))})
			leaves.Write(leaf)
		}
		root = encodeDirectory(rootEntries)
		if len(root) > pmRootMax {
			return nil, fmt.Errorf("pmtiles: %d tiles need a deeper directory than this writer makes", len(entries))
		}
	}
	h := make([]byte, pmHeaderLen)
	copy(h, "PMTiles")
	h[7] = 3
	rootOff := uint64(pmHeaderLen)
	metaOff := rootOff + uint64(len(root))
	leafOff := metaOff + uint64(len(meta))
	dataOff := leafOff + uint64(leaves.Len())
	le := binary.LittleEndian
	for i, v := range []uint64{rootOff, uint64(len(root)), metaOff, uint64(len(meta)), leafOff, uint64(leaves.Len()),
		dataOff, uint64(data.Len()), uint64(len(ks)), uint64(len(entries)), uint64(len(at))} {
		le.PutUint64(h[8+8*i:], v)
	}
	h[96] = 1 // clustered: the tiles lie in tile ID order
	h[97], h[98], h[99] = pmGzip, pmGzip, pmTypeMVT
	h[100], h[101] = b.minZoom, b.maxZoom
	e7 := func(v float64) uint32 { return uint32(int32(v * 1e7)) }
	le.PutUint32(h[102:], e7(b.minLon))
	le.PutUint32(h[106:], e7(b.minLat))
	le.PutUint32(h[110:], e7(b.maxLon))
	le.PutUint32(h[114:], e7(b.maxLat))
	h[118] = b.centreZoom
	le.PutUint32(h[119:], e7((b.minLon+b.maxLon)/2))
	le.PutUint32(h[123:], e7((b.minLat+b.maxLat)/2))
	out := make([]byte, 0, int(dataOff)+data.Len())
	out = append(out, h...)
	out = append(out, root...)
	out = append(out, meta...)
	out = append(out, leaves.Bytes()...)
	return append(out, data.Bytes()...), nil
}

// encodeDirectory writes entries as the spec's columns of varints
// (tile ID deltas, run lengths, lengths, offsets — 0 for "right after
// the previous", else offset+1), gzipped.
func encodeDirectory(entries []pmEntry) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(entries)))
	var last uint64
	for _, e := range entries {
		b = binary.AppendUvarint(b, e.tileID-last)
		last = e.tileID
	}
	for _, e := range entries {
		b = binary.AppendUvarint(b, uint64(e.run))
	}
	for _, e := range entries {
		b = binary.AppendUvarint(b, e.length)
	}
	for i, e := range entries {
		if i > 0 && e.offset == entries[i-1].offset+entries[i-1].length {
			b = binary.AppendUvarint(b, 0)
		} else {
			b = binary.AppendUvarint(b, e.offset+1)
		}
	}
	return gzipBytes(b)
}

func gzipBytes(b []byte) []byte {
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}
