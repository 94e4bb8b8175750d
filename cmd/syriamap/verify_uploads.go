package main

import (
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"
)

// reportUploads names the files in the uploads' folder beside the
// archive at db older than age: an import takes less, so they were left
// by a server stopped before it imported them (a live server of the
// archive runs the jobs that hold them, and removes what no job holds a
// day after it was written). It is said, not counted as a
// problem: a running server's uploads are there too.
func reportUploads(db string, age time.Duration, stdout io.Writer) {
	dir := filepath.Join(localDir(db), "uploads")
	n, bytes := 0, int64(0)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == filepath.Join(dir, "never-imported.json") {
			return nil
		}
		if info, err := d.Info(); err == nil && time.Since(info.ModTime()) > age {
			n++
			bytes += info.Size()
		}
		return nil
	})
	if n == 0 {
		return
	}
	files := "files"
	if n == 1 {
		files = "file"
	}
	fmt.Fprintf(stdout, "verify: %d %s in %s (%s) older than %v, not yet imported (a server stopped before their import?): a live server of the archive imports those its queued jobs hold, and removes the others a day after they were written\n",
		n, files, dir, bytesize(bytes), age)
}
