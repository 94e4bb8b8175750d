package store

import (
	"context"
	"path/filepath"
)

// ImportedUnder lists the files under the folder dir (an absolute path)
// that photos were imported from, with how many photos each gave: an
// upload's folder, named by its bytes' SHA-256, says whether those bytes
// were imported before, under whatever name.
func (s *DB) ImportedUnder(ctx context.Context, dir string) (map[string]int, error) {
	// The paths under dir sort between dir/ and dir0 ('0' follows '/').
	// (in the order of bytes: a language's order may pass over the /)
	lo := filepath.Clean(dir) + string(filepath.Separator)
	hi := filepath.Clean(dir) + string(rune(filepath.Separator+1))
	out := map[string]int{}
	err := s.reading(ctx, "", "finding an upload's earlier import", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT file, count(*) FROM sources WHERE file COLLATE BINARY >= ? AND file COLLATE BINARY < ? GROUP BY file`, lo, hi)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var file string
			var n int
			if err := rows.Scan(&file, &n); err != nil {
				return err
			}
			out[file] = n
		}
		return rows.Err()
	})
	return out, err
}
