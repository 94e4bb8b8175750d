// Package originals keeps every imported image file as it was read, under
// its SHA-256, never modified: in a folder beside the archive by default,
// or in an S3-compatible bucket (MinIO, S3, R2, SeaweedFS). The folder an
// image came from may go away; exports and fixity checks read the
// original from here. Storing the same bytes twice stores nothing new.
package originals

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"path/filepath"
	"strings"
)

// A Store holds originals by the hex SHA-256 of their bytes.
type Store interface {
	// Put stores the size bytes r yields under sum, the hex SHA-256 the
	// caller read them as. Bytes that do not hash to sum are refused
	// (the file changed while it was imported) and nothing is kept; a sum
	// already held is not written again. created reports a new original.
	Put(ctx context.Context, sum string, size int64, r io.Reader) (created bool, err error)
	// Open reads the original held under sum (ErrNotFound when none is).
	Open(ctx context.Context, sum string) (io.ReadCloser, error)
	// Where says where the store is ("/data/originals",
	// "s3://bucket/prefix at http://host:8333"), for messages and the
	// custody records.
	Where() string
}

// ErrNotFound says a store holds no original under a sum.
var ErrNotFound = errors.New("no original with that SHA-256 in the store")

// MismatchError says bytes did not hash to the sum they were stored or
// asked for under: a file changed while it was read, or an original
// changed at rest.
type MismatchError struct {
	Want, Got string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("the bytes hash to %s, not %s", e.Got, e.Want)
}

// Open returns the store spec names: "" for the folder "originals" beside
// the archive file dbPath; "s3://bucket[/prefix]" for a bucket, reached
// at the endpoint SYRIAMAP_S3_ENDPOINT (https://s3.amazonaws.com when
// unset) with the credentials AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY;
// anything else is a folder.
func Open(spec, dbPath string, env func(string) string) (Store, error) {
	switch {
	case spec == "":
		return NewDir(filepath.Join(filepath.Dir(dbPath), "originals"))
	case strings.HasPrefix(spec, "s3://"):
		return NewS3(spec, env("SYRIAMAP_S3_ENDPOINT"), env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY"))
	}
	return NewDir(spec)
}

// validSum reports whether sum is a hex SHA-256, so that no sum names a
// path outside a store.
func validSum(sum string) bool {
	if len(sum) != sha256.Size*2 {
		return false
	}
	_, err := hex.DecodeString(sum)
	return err == nil && strings.ToLower(sum) == sum
}

// Check reads the original under sum and hashes it again (a fixity
// check): nil when its bytes still hash to sum, a *MismatchError when
// they do not, else why it could not be read. It returns the bytes read.
func Check(ctx context.Context, s Store, sum string) (int64, error) {
	rc, err := s.Open(ctx, sum)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	h := sha256.New()
	n, err := io.Copy(h, rc)
	if err != nil {
		return n, fmt.Errorf("reading the original %s: %w", sum, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum {
		return n, &MismatchError{Want: sum, Got: got}
	}
	return n, nil
}

// hashingReader hashes what is read through it.
type hashingReader struct {
	r io.Reader
	h hash.Hash
}

func newHashingReader(r io.Reader) *hashingReader { return &hashingReader{r: r, h: sha256.New()} }

func (h *hashingReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.h.Write(p[:n])
	return n, err
}

func (h *hashingReader) sum() string { return hex.EncodeToString(h.h.Sum(nil)) }
