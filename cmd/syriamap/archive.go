package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/photo"
)

// defaultDB is where the archive lives unless --db or SYRIAMAP_DB says
// otherwise.
const defaultDB = "data/syriamap.db"

// dbFlag adds --db to a command's flags, defaulting to SYRIAMAP_DB or
// data/syriamap.db.
func dbFlag(fl *flag.FlagSet) *string {
	def := defaultDB
	if v := strings.TrimSpace(os.Getenv("SYRIAMAP_DB")); v != "" {
		def = v
	}
	return fl.String("db", def, "the archive: a SQLite file, or a PostgreSQL database's postgres:// URL (env SYRIAMAP_DB)")
}

// localDir is the folder where a server keeps what is its own (uploads
// waiting for their import, derivatives it made): the SQLite archive's
// folder; for a PostgreSQL archive, which has none, SYRIAMAP_DATA or the
// folder data in the working directory.
func localDir(db string) string {
	if !archive.IsPostgres(db) {
		return filepath.Dir(db)
	}
	if d := strings.TrimSpace(os.Getenv("SYRIAMAP_DATA")); d != "" {
		return d
	}
	return "data"
}

// originalsFlag is the --originals flag: where imported image files are
// kept as read.
func originalsFlag(fl *flag.FlagSet) *string {
	return fl.String("originals", os.Getenv("SYRIAMAP_ORIGINALS"), "where image files are kept as read, by their SHA-256: a folder, or s3://bucket/prefix "+
		"(endpoint SYRIAMAP_S3_ENDPOINT, keys AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY); default the folder originals beside --db (env SYRIAMAP_ORIGINALS)")
}

// withOriginals gives the archive at dbPath its originals' store. A
// PostgreSQL archive has no folder beside it, and is served by replicas
// that must all reach the same originals: it needs spec.
func withOriginals(a *archive.Archive, spec, dbPath string) error {
	if spec == "" && archive.IsPostgres(dbPath) {
		return photo.Errorf(photo.EInvalid, "--originals: a PostgreSQL archive has no folder beside it: say where its originals are kept, the same for every server that opens it (--originals s3://bucket/prefix, or a folder they all mount; env SYRIAMAP_ORIGINALS)")
	}
	s, err := originals.Open(spec, dbPath, os.Getenv)
	if err != nil {
		return photo.Errorf(photo.EInvalid, "--originals: %v", err)
	}
	a.Originals = s
	return nil
}

// openWithOriginals opens the archive at db for writing, with its store
// of originals (spec, as --originals takes it), and with no bound on its
// queries: the commands that read every original run as long as that
// takes.
func openWithOriginals(ctx context.Context, db, spec string, stderr io.Writer) (*archive.Archive, func(), error) {
	a, closeDB, err := openArchive(ctx, db, openWrite, stderr)
	if err != nil {
		return nil, nil, err
	}
	if err := withOriginals(a, spec, db); err != nil {
		closeDB()
		return nil, nil, err
	}
	a.SetTimeout(0)
	return a, closeDB, nil
}

// commandActor is who a command's custody records name: the command, and
// who ran it when SYRIAMAP_BY says (an editor's name); never the machine's
// system user, which would travel in every evidence bag.
func commandActor(command string) string {
	if by := os.Getenv("SYRIAMAP_BY"); by != "" {
		return "syriamap " + command + ", by " + by
	}
	return "syriamap " + command
}

// commandActorWithUser is commandActor with the system user the command
// runs as (import --record-paths): kept only when asked for.
func commandActorWithUser(command string) string {
	name := "unknown"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	return commandActor(command) + ", system user " + name
}

// How a command opens the archive.
type openMode int

const (
	openWrite    openMode = iota // for writing
	openSeed                     // for writing, importing the samples into an empty archive
	openReadOnly                 // for reading only (nothing is written, not even the schema)
)

// openArchive opens the archive at path. With openSeed, an empty archive
// first gets the bundled sample captions, so that a first run has
// something to show.
func openArchive(ctx context.Context, path string, mode openMode, stderr io.Writer) (*archive.Archive, func(), error) {
	if strings.TrimSpace(path) == "" {
		return nil, nil, photo.Errorf(photo.EInvalid, "--db: the archive path is empty")
	}
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		return nil, nil, err
	}
	a, err := archive.Open(ctx, path, g, mode == openReadOnly)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the archive %s: %w", archive.Redacted(path), err)
	}
	if mode == openSeed {
		n, err := a.Count(ctx)
		if err != nil {
			a.Close()
			return nil, nil, err
		}
		if n == 0 {
			res, err := a.ImportSamples(ctx)
			if err != nil {
				a.Close()
				return nil, nil, fmt.Errorf("importing the sample captions: %w", err)
			}
			fmt.Fprintf(stderr, "syriamap: the archive %s was empty; imported the sample captions (%d photos)\n", archive.Redacted(path), res.Added)
			sum, n, err := a.ImportBundledEvents(ctx)
			if err != nil {
				a.Close()
				return nil, nil, fmt.Errorf("importing the bundled UCDP GED events: %w", err)
			}
			fmt.Fprintf(stderr, "syriamap: imported the bundled UCDP GED events of Syria, version %s (%d of %d new)\n", geodata.EventsGEDVersion, sum.Added, n)
		}
	}
	return a, func() { a.Close() }, nil
}

// progressBar draws an import's progress on a terminal, at most five times
// a second; elsewhere it draws nothing.
type progressBar struct {
	w       io.Writer
	on      bool
	last    time.Time
	started time.Time
}

func newProgressBar(w io.Writer) *progressBar {
	f, ok := w.(*os.File)
	on := false
	if ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			on = true
		}
	}
	return &progressBar{w: w, on: on, started: time.Now()}
}

func (p *progressBar) update(file string, done, total int64) {
	p.draw(file, done, total, bytesize(done)+"/"+bytesize(total))
}

// updateFiles shows progress through a number of files.
func (p *progressBar) updateFiles(label string, done, total int) {
	p.draw(label, int64(done), int64(total), fmt.Sprintf("%d/%d files", done, total))
}

func (p *progressBar) draw(label string, done, total int64, amount string) {
	if !p.on || time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	frac := 0.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	const width = 30
	n := int(frac * width)
	fmt.Fprintf(p.w, "\r%s [%s%s] %3.0f%% %s %s ", shorten(label, 30), strings.Repeat("=", n), strings.Repeat(" ", width-n),
		100*frac, amount, time.Since(p.started).Round(time.Second))
}

// clear removes the bar before other output.
func (p *progressBar) clear() {
	if p.on {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 100))
	}
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n+1:]
}

func bytesize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1fGB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0fkB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}

// parseFlags parses a command's flags, wherever they stand among its
// arguments (set-place ID PLACE --note "why" works as well as flags
// first); "--" ends the flags. A bad flag is a usage error (exit 2); -h
// prints the usage and succeeds. fl.Args() are then the other arguments,
// in order.
func parseFlags(fl *flag.FlagSet, args []string) (help bool, err error) {
	var positional []string
	for len(args) > 0 {
		if err := fl.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return true, nil
			}
			return false, usageError{err.Error()}
		}
		rest := fl.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// So that fl.Args() gives the positional arguments, in order.
	if err := fl.Parse(append([]string{"--"}, positional...)); err != nil {
		return false, usageError{err.Error()}
	}
	return false, nil
}
