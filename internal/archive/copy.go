package archive

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// CopyReport is what Copy moved: each table's rows, in the order they
// were copied, and the custody chain's head in the archive copied and in
// the copy (the same when the copy is whole).
type CopyReport struct {
	Tables             []store.TableCount
	Indexed            time.Duration // building the search indexes
	SourceHead, Copied photo.Checkpoint
}

// Copy copies the whole archive at src into dst, each a SQLite file or a
// PostgreSQL URL: photos, corrections, custody, stories, added places,
// editors, events and their links, second looks; every key as it is, so
// the copy's custody chain verifies with the same head. src is opened
// read-only and not changed. dst is made when it does not exist; one that
// holds an archive is refused (photo.EInvalid), as is dst naming src. The
// originals stay where they are kept (a folder or S3): the copy names
// them as src does. On an error dst keeps nothing, and a SQLite file
// Copy made is removed. progress, if not nil, is called with each table's
// rows copied so far.
func Copy(ctx context.Context, src, dst string, progress func(table string, rows int64)) (CopyReport, error) {
	var r CopyReport
	if sameArchive(src, dst) {
		return r, photo.Errorf(photo.EInvalid, "copy: %s and %s are the same archive", Redacted(src), Redacted(dst))
	}
	from, err := store.OpenReadOnly(ctx, src)
	if err != nil {
		return r, err
	}
	defer from.Close()
	made := !store.IsPostgres(dst) && !exists(dst)
	to, err := store.Open(ctx, dst)
	if err != nil {
		return r, err
	}
	r, err = copyInto(ctx, from, to, progress)
	closeErr := to.Close()
	if err == nil {
		err = closeErr
	}
	if err != nil && made {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(dst + suffix)
		}
	}
	return r, err
}

func copyInto(ctx context.Context, from, to *store.DB, progress func(table string, rows int64)) (CopyReport, error) {
	var r CopyReport
	sum, err := store.Copy(ctx, from, to, progress)
	if err != nil {
		return r, err
	}
	r.Tables, r.Indexed = sum.Tables, sum.Indexed
	if r.SourceHead, err = from.Head(ctx); err != nil {
		return r, err
	}
	r.Copied, err = to.Head(ctx)
	return r, err
}

// sameArchive reports whether two archive addresses name one archive: the
// same file (by any path) or the same PostgreSQL database.
func sameArchive(a, b string) bool {
	if store.IsPostgres(a) != store.IsPostgres(b) {
		return false
	}
	if store.IsPostgres(a) {
		return pgDatabase(a) == pgDatabase(b)
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	pa, errA := filepath.Abs(a)
	pb, errB := filepath.Abs(b)
	return errA == nil && errB == nil && pa == pb
}

// pgDatabase is a PostgreSQL URL's server and database.
func pgDatabase(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return dsn
	}
	return strings.ToLower(u.Host) + u.Path
}

// redacted is an archive's address without its password.
// Redacted is an archive's address as it may be shown (printed, logged):
// a PostgreSQL URL without its password; a file's path as it is.
func Redacted(dsn string) string { return store.Redacted(dsn) }

func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, os.ErrNotExist)
}
