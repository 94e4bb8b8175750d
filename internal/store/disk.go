package store

import (
	"fmt"
	"path/filepath"
	"syscall"

	"github.com/syriamap/syriamap/internal/photo"
)

// lowDiskBytes is the free space below which the archive's disk is
// reported full: SQLite needs room for a transaction's journal and pages,
// and a write that finds none fails whole.
const lowDiskBytes = 64 << 20

// checkDisk reports the archive's disk as full when it has less than
// lowDiskBytes free; a read-only archive is never written, so its disk is
// not checked.
func (s *DB) checkDisk() error {
	if s.readOnly || s.freeSpace == nil {
		return nil
	}
	free, err := s.freeSpace(filepath.Dir(s.path))
	if err != nil || free >= lowDiskBytes {
		return nil
	}
	return photo.Errorf(photo.EDiskFull, "the disk holding the archive is full (%d MB free): writes will fail until space is freed", free>>20)
}

// freeBytes is the space left to an unprivileged writer on dir's file
// system.
func freeBytes(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, fmt.Errorf("store: free space of %s: %w", dir, err)
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}
