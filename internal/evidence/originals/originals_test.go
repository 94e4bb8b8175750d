package originals

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func sumOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// testStore runs what every store must do: keep bytes under their sum
// once, refuse bytes that are not what the sum says, read them back, and
// say which sums it lacks.
func testStore(t *testing.T, s Store) {
	ctx := context.Background()
	body := bytes.Repeat([]byte("a frame of the war "), 10_000)
	sum := sumOf(body)
	created, err := s.Put(ctx, sum, int64(len(body)), bytes.NewReader(body))
	if err != nil || !created {
		t.Fatalf("first put: created %v, %v", created, err)
	}
	if created, err := s.Put(ctx, sum, int64(len(body)), bytes.NewReader(body)); err != nil || created {
		t.Errorf("the same bytes again: created %v, %v; want nothing new", created, err)
	}
	changed := append([]byte{}, body...)
	changed[100] ^= 1
	other := sumOf([]byte("another"))
	var mismatch *MismatchError
	if _, err := s.Put(ctx, other, int64(len(changed)), bytes.NewReader(changed)); !errors.As(err, &mismatch) {
		t.Errorf("bytes that are not their sum: %v, want a MismatchError", err)
	}
	if _, err := s.Open(ctx, other); !errors.Is(err, ErrNotFound) {
		t.Errorf("after a refused put the store holds %s (%v)", other, err)
	}
	rc, err := s.Open(ctx, sum)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(got, body) {
		t.Errorf("read back %d bytes (%v), want the %d put", len(got), err, len(body))
	}
	if n, err := Check(ctx, s, sum); err != nil || n != int64(len(body)) {
		t.Errorf("fixity of an intact original: %d bytes, %v", n, err)
	}
	if _, err := s.Open(ctx, "../../etc/passwd"); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("a path for a sum: %v, want refused", err)
	}
}

func TestDir(t *testing.T) {
	d, err := NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testStore(t, d)
	// An original changed at rest (one bit) fails its fixity check.
	body := []byte("the original bytes of a photograph")
	sum := sumOf(body)
	if _, err := d.Put(context.Background(), sum, int64(len(body)), bytes.NewReader(body)); err != nil {
		t.Fatal(err)
	}
	path := d.Path(sum)
	if st, _ := os.Stat(path); st.Mode().Perm()&0o222 != 0 {
		t.Errorf("the original is writable: %v", st.Mode())
	}
	os.Chmod(path, 0o644)
	flipped := append([]byte{}, body...)
	flipped[3] ^= 0x10
	if err := os.WriteFile(path, flipped, 0o444); err != nil {
		t.Fatal(err)
	}
	var mismatch *MismatchError
	if _, err := Check(context.Background(), d, sum); !errors.As(err, &mismatch) {
		t.Errorf("a flipped bit: %v, want a MismatchError", err)
	}
}

// TestStaged: an original written as an import reads its file is kept
// under its sum once, and not at all when the sum is not its bytes'.
func TestStaged(t *testing.T) {
	d, err := NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	body := []byte("a picture read once, for its hash and to be kept")
	for i, want := range []bool{true, false} {
		s, err := d.Stage()
		if err != nil {
			t.Fatal(err)
		}
		s.Write(body)
		if created, err := s.Commit(sumOf(body)); err != nil || created != want {
			t.Errorf("commit %d: created %v, %v; want %v", i+1, created, err, want)
		}
	}
	s, _ := d.Stage()
	s.Write(body[1:])
	var mismatch *MismatchError
	if _, err := s.Commit(sumOf([]byte("other bytes"))); !errors.As(err, &mismatch) {
		t.Errorf("a wrong sum: %v", err)
	}
	if err := d.Sync(); err != nil {
		t.Error(err)
	}
	left, _ := filepath.Glob(filepath.Join(d.Where(), ".stage-*"))
	kept, _ := filepath.Glob(filepath.Join(d.Where(), "*", "*", "*"))
	if len(left) != 0 || len(kept) != 1 {
		t.Errorf("%d staged files left, %d originals kept; want 0 and 1", len(left), len(kept))
	}
}

func TestOpenSpec(t *testing.T) {
	dir := t.TempDir()
	s, err := Open("", dir+"/archive.db", func(string) string { return "" })
	if err != nil || s.Where() != dir+"/originals" {
		t.Errorf("default: %v, %v; want the folder originals beside the archive", s, err)
	}
	for _, bad := range []string{"s3://", "s3:///prefix"} {
		if _, err := Open(bad, dir+"/a.db", func(string) string { return "" }); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
