// Package sitetest reads a published site's files as a test looks for
// what must not be in them: each file, and every gzip member in it (a
// .gz data file, a PMTiles archive's tiles and directories) read through.
package sitetest

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Texts returns each file of the site at dir, by its path in the site
// ("/data/points.json.gz"): the file as it is, then each gzip member
// found in it, decompressed.
func Texts(t testing.TB, dir string) map[string][][]byte {
	t.Helper()
	out := map[string][][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out[strings.TrimPrefix(path, dir)] = append([][]byte{b}, members(b)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// members are the gzip members that begin anywhere in b, decompressed (a
// run of bytes that only looks like a gzip header is passed over).
func members(b []byte) [][]byte {
	var out [][]byte
	magic := []byte{0x1f, 0x8b, 8}
	for i := bytes.Index(b, magic); i >= 0; {
		if zr, err := gzip.NewReader(bytes.NewReader(b[i:])); err == nil {
			zr.Multistream(false)
			if text, err := io.ReadAll(zr); err == nil {
				out = append(out, text)
			}
		}
		next := bytes.Index(b[i+1:], magic)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return out
}
