// Package gzjoin writes a gzip stream (RFC 1952) whose deflate data is
// compressed in pieces elsewhere — on other goroutines, or once and kept —
// and joined, as pigz does: each piece ends on a sync flush, so the pieces
// join into one valid stream, and the CRC-32 of the whole comes from the
// pieces' own (crc32combine.go).
package gzjoin

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
)

// Writer writes one gzip member (RFC 1952) whose deflate data is
// partly compressed elsewhere, as pigz does: a download of the archive at
// large is compressed range by range on the goroutines that encode the
// ranges, instead of on the one goroutine writing the response, which
// made gzip the slowest step. Each range's deflate data ends on a sync
// flush (a byte boundary, no reference back across it), so the pieces
// join into one valid stream; the writer only adds the CRC-32 and length.
type Writer struct {
	dst  io.Writer
	fw   *flate.Writer // what is compressed here: head, tail, odd features
	crc  uint32
	size uint32 // ISIZE: the length modulo 2^32
	// inPieces: WritePiece wrote last, fw is flushed and must start
	// afresh before it writes again.
	inPieces bool
}

// gzipHeader: magic, deflate, no flags, no time, fastest, unknown OS.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255}

// New writes the gzip header to dst and returns the stream's writer.
func New(dst io.Writer) (*Writer, error) {
	if _, err := dst.Write(gzipHeader); err != nil {
		return nil, err
	}
	fw := flaterPool.Get().(*flate.Writer)
	fw.Reset(dst)
	return &Writer{dst: dst, fw: fw}, nil
}

// Write compresses p here.
func (g *Writer) Write(p []byte) (int, error) {
	if g.inPieces {
		g.fw.Reset(g.dst)
		g.inPieces = false
	}
	g.crc = crc32.Update(g.crc, crc32.IEEETable, p)
	g.size += uint32(len(p))
	return g.fw.Write(p)
}

// WriteDeflated puts raw, already compressed by Deflate as deflated.
func (g *Writer) WriteDeflated(raw, deflated []byte) error {
	if err := g.fw.Flush(); err != nil { // to a byte boundary
		return err
	}
	if _, err := g.dst.Write(deflated); err != nil {
		return err
	}
	// What follows must not refer back into data this writer did not see.
	g.fw.Reset(g.dst)
	g.crc = crc32.Update(g.crc, crc32.IEEETable, raw)
	g.size += uint32(len(raw))
	return nil
}

// WritePiece puts deflated, the deflate data of n bytes of text whose
// CRC-32 is crc, compressed on its own and ended by a sync flush (as the
// memory index keeps its pieces); shiftBy is ShiftFor(n). The text is not
// needed: the CRC is combined.
func (g *Writer) WritePiece(deflated []byte, crc, shiftBy, n uint32) error {
	if !g.inPieces {
		if err := g.fw.Flush(); err != nil { // to a byte boundary
			return err
		}
		g.inPieces = true
	}
	if _, err := g.dst.Write(deflated); err != nil {
		return err
	}
	g.crc = Combine(g.crc, crc, shiftBy)
	g.size += n
	return nil
}

// Close ends the deflate data and writes the trailer.
func (g *Writer) Close() error {
	if g.inPieces {
		g.fw.Reset(g.dst)
		g.inPieces = false
	}
	err := g.fw.Close()
	flaterPool.Put(g.fw)
	if err != nil {
		return err
	}
	_, err = g.dst.Write(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, g.crc), g.size))
	return err
}

// Deflate compresses raw into dst for Writer.WriteDeflated: a
// fresh stream (no dictionary) ended by a sync flush, not a final block.
func Deflate(dst *bytes.Buffer, raw []byte) error {
	fw := flaterPool.Get().(*flate.Writer)
	defer flaterPool.Put(fw)
	fw.Reset(dst)
	if _, err := fw.Write(raw); err != nil {
		return err
	}
	return fw.Flush()
}

// Level is the compression level of every gzip syriamap writes: on the
// archive's GeoJSON, level 5 of klauspost/compress makes 1.09 times the
// bytes of a streamed gzip at its default level, at twice its speed;
// levels 1 to 4 make 1.2 to 1.28 times (issue 27 asks for at most 1.15).
const Level = 5

var flaterPool = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, Level)
	return w
}}
