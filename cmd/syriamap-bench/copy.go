package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/pgtest"
)

// runCopy is the moving target (issue 71): an archive of n generated
// photos copied with `syriamap copy` to PostgreSQL and from there to a new
// SQLite file; verify run on each copy; the times and both custody heads
// printed. server is a PostgreSQL server's URL (with a user that may create
// databases); empty starts a throwaway cluster (pgtest).
func runCopy(ctx context.Context, cfg config, n int, server string, stdout io.Writer, progress func(string, ...any)) error {
	db, took, err := freshArchive(ctx, cfg, n, progress)
	if err != nil {
		return err
	}
	progress("imported %d photos in %s", n, took.Round(time.Millisecond))
	if server == "" {
		progress("starting a throwaway PostgreSQL cluster")
		c, err := pgtest.Start(ctx)
		if err != nil {
			return err
		}
		defer c.Stop()
		server = c.URL
	}
	pg, drop, err := newDatabase(server, fmt.Sprintf("copy_bench_%d", time.Now().Unix()))
	if err != nil {
		return err
	}
	defer drop()
	hops, err := copyThereAndBack(ctx, cfg.syriamap, db, pg, filepath.Join(cfg.dir, "archive-copy-back.db"),
		filepath.Join(cfg.dir, "originals-copy"), progress) // generated captions have no originals
	for _, h := range hops {
		fmt.Fprintf(stdout, "copy of %d photos to %s: %s; custody head of both %s; verify of the copy passes (%s)\n",
			n, engineOf(h.to), h.copied.Round(time.Millisecond), h.head, h.verified.Round(time.Millisecond))
	}
	return err
}

// copyHop is one `syriamap copy` a bench made: where to, how long it and
// the copy's verify took, and the custody head the copy shares with its
// original.
type copyHop struct {
	to               string
	copied, verified time.Duration
	head             string
}

// copyHeadRe reads the custody heads `syriamap copy` prints: each copy's
// is its original's (verify adds a record of its own run to the copy after).
var copyHeadRe = regexp.MustCompile(`custody head of the original: (record \d+, \w+)\n.*custody head of the copy: +(record \d+, \w+)`)

// copyThereAndBack copies the SQLite archive lite to the PostgreSQL
// database pg and from there to the new SQLite file back, with syriamap,
// and verifies each copy (its originals in originals): an error when a
// copy's head is not its original's or verify fails.
func copyThereAndBack(ctx context.Context, syriamap, lite, pg, back, originals string, progress func(string, ...any)) ([]copyHop, error) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(back + suffix)
	}
	if err := os.MkdirAll(originals, 0o755); err != nil {
		return nil, err
	}
	var hops []copyHop
	for _, step := range [][2]string{{lite, pg}, {pg, back}} {
		progress("syriamap copy %s %s", archive.Redacted(step[0]), archive.Redacted(step[1]))
		start := time.Now()
		out, err := exec.CommandContext(ctx, syriamap, "copy", step[0], step[1]).CombinedOutput()
		if err != nil {
			return hops, commandError("syriamap copy", err, out)
		}
		hop := copyHop{to: step[1], copied: time.Since(start)}
		m := copyHeadRe.FindSubmatch(out)
		if m == nil || string(m[1]) != string(m[2]) {
			return hops, fmt.Errorf("syriamap copy printed no custody head, or two:\n%s", out)
		}
		hop.head = string(m[2])
		start = time.Now()
		if out, err := exec.CommandContext(ctx, syriamap, "verify", "--db", step[1], "--originals", originals).CombinedOutput(); err != nil {
			return hops, fmt.Errorf("verify of the copy %s failed: %s", archive.Redacted(step[1]), out)
		}
		hop.verified = time.Since(start)
		hops = append(hops, hop)
	}
	return hops, nil
}

func engineOf(dsn string) string {
	if archive.IsPostgres(dsn) {
		return "PostgreSQL"
	}
	return "SQLite"
}

// newDatabase makes the database name on server and returns its URL, and
// a function that drops it.
func newDatabase(server, name string) (string, func(), error) {
	u, err := url.Parse(server)
	if err != nil {
		return "", nil, fmt.Errorf("--postgres: %w", err)
	}
	u.Path = "/postgres"
	admin, err := sql.Open("pgx", u.String())
	if err != nil {
		return "", nil, err
	}
	if _, err := admin.Exec(`CREATE DATABASE ` + name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("creating the database %s: %w", name, err)
	}
	u.Path = "/" + name
	return u.String(), func() {
		admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
		admin.Close()
	}, nil
}
