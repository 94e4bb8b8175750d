package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/syriamap/syriamap/internal/photo"
)

// lowDiskBytes is the free space below which the archive's disk is
// reported full: SQLite needs room for a transaction's journal and pages,
// and a write that finds none fails whole.
const lowDiskBytes = 64 << 20

// DiskFull returns an EDiskFull error in place of err when err is a write
// that failed for want of disk space (SQLite's "database or disk is full",
// or ENOSPC from the file system), and err otherwise. Nothing was
// written: SQLite rolls the transaction back.
func DiskFull(err error) error {
	if err == nil || photo.ErrorCode(err) != photo.EInternal {
		return err
	}
	msg := err.Error()
	if errors.Is(err, syscall.ENOSPC) || strings.Contains(msg, "database or disk is full") || strings.Contains(msg, "no space left on device") {
		return photo.Errorf(photo.EDiskFull, "the disk holding the archive is full: nothing was written; free some space and try again")
	}
	return err
}

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
