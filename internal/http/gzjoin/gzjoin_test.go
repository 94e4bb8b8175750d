package gzjoin

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestGzipStream joins pieces compressed here and elsewhere into one gzip
// member that a strict reader (CRC-32 and length checked) reads back.
func TestGzipStream(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	word := func() string { return []string{"Aleppo", "Homs", `{"type":"Feature"}`, ",\n", "Douma"}[rng.IntN(5)] }
	for round := range 20 {
		var out, want bytes.Buffer
		g, err := New(&out)
		if err != nil {
			t.Fatal(err)
		}
		for range rng.IntN(12) {
			var piece strings.Builder
			for range rng.IntN(4000) {
				piece.WriteString(word())
			}
			want.WriteString(piece.String())
			if rng.IntN(2) == 0 {
				g.Write([]byte(piece.String()))
				continue
			}
			var d bytes.Buffer
			if err := Deflate(&d, []byte(piece.String())); err != nil {
				t.Fatal(err)
			}
			if err := g.WriteDeflated([]byte(piece.String()), d.Bytes()); err != nil {
				t.Fatal(err)
			}
		}
		if err := g.Close(); err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(&out)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		zr.Multistream(false)
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("round %d: %v; %d bytes back of %d", round, err, len(got), want.Len())
		}
	}
}
