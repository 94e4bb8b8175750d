package httpapi

import (
	"bufio"
	"errors"
	"net/http"
	"sync"

	"github.com/syriamap/syriamap/internal/http/memindex"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// The memory index (internal/memindex) answers the map's windows; these
// are the server's ends of it.

// memIndexAt returns the index of the archive at version v, or nil when
// it is off or not built yet (a build then starts).
func (s *Server) memIndexAt(v int64) *memindex.Index {
	if s.memIndex == nil {
		return nil
	}
	return s.memIndex.At(v, s.baseURL)
}

// featureEncoder encodes Features as the server writes them, with links
// under base.
func (s *Server) featureEncoder(base string) memindex.Encoder {
	return func(dst []byte, f *photo.Feature) []byte {
		return web.AppendFeature(dst, f, s.links(base, f), s.publicGPS)
	}
}

// writeWindow writes the photos at the positions sel as a gzipped GeoJSON
// FeatureCollection from the index: the bytes the SQLite path writes. The
// tail is given how many were written and the Seq of the last.
func (s *Server) writeWindow(w http.ResponseWriter, ix *memindex.Index, sel []int32, head string, tail func(returned int, last int64) string) {
	w.Header().Set("Content-Encoding", "gzip")
	// A pooled buffer: allocating (and clearing) one per request was half
	// of a city window's cost.
	bw := windowBuffers.Get().(*bufio.Writer)
	bw.Reset(w)
	defer windowBuffers.Put(bw)
	err := ix.WriteGzip(bw, sel, head, tail)
	switch {
	case errors.Is(err, memindex.ErrDamaged):
		s.log.Warn("memory index: a piece does not inflate", "err", err)
		panic(http.ErrAbortHandler)
	case err == nil:
		bw.Flush()
	} // else the client is gone
}

var windowBuffers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}
