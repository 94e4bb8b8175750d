package archive

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"
)

type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// A copy whose writing side fails says it could not write, not that the
// file could not be read (issue 52, fault 6: a full disk during an
// import said "cannot read it").
func TestAFailedWriteIsAWriteFailure(t *testing.T) {
	_, err := io.Copy(io.MultiWriter(sha256.New(), writeSide{fullDisk{}}), bytes.NewReader(make([]byte, 1<<16)))
	var w writeFailure
	if !errors.As(err, &w) || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "could not write") {
		t.Errorf("a full disk under a copy: %v", err)
	}
	_, err = io.Copy(io.MultiWriter(sha256.New(), writeSide{io.Discard}), io.MultiReader(strings.NewReader("x"), errReader{}))
	if errors.As(err, &w) {
		t.Errorf("a read that failed is called a write failure: %v", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, syscall.EIO }
