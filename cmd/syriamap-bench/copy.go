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
	back := filepath.Join(cfg.dir, "archive-copy-back.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(back + suffix)
	}
	originals := filepath.Join(cfg.dir, "originals-copy") // generated captions have none
	// Each copy's head is its original's (verify adds a record of its own
	// run to the copy after).
	head := regexp.MustCompile(`custody head of the original: (record \d+, \w+)\n.*custody head of the copy: +(record \d+, \w+)`)
	for _, step := range [][2]string{{db, pg}, {pg, back}} {
		progress("syriamap copy %s %s", redactURL(step[0]), redactURL(step[1]))
		start := time.Now()
		out, err := exec.CommandContext(ctx, cfg.syriamap, "copy", step[0], step[1]).CombinedOutput()
		if err != nil {
			return commandError("syriamap copy", err, out)
		}
		copied := time.Since(start)
		m := head.FindSubmatch(out)
		if m == nil || string(m[1]) != string(m[2]) {
			return fmt.Errorf("syriamap copy printed no custody head, or two:\n%s", out)
		}
		start = time.Now()
		out, err = exec.CommandContext(ctx, cfg.syriamap, "verify", "--db", step[1], "--originals", originals).CombinedOutput()
		verified := time.Since(start)
		status := "passes"
		if err != nil {
			status = "FAILS: " + string(out)
		}
		fmt.Fprintf(stdout, "copy of %d photos to %s: %s; custody head of both %s; verify of the copy %s (%s)\n",
			n, engineOf(step[1]), copied.Round(time.Millisecond), m[2], status, verified.Round(time.Millisecond))
		if err != nil {
			return fmt.Errorf("verify of the copy %s failed", redactURL(step[1]))
		}
	}
	return nil
}

func engineOf(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		return "PostgreSQL"
	}
	return "SQLite"
}

func redactURL(dsn string) string {
	if engineOf(dsn) == "PostgreSQL" {
		u, _ := url.Parse(dsn)
		return u.Redacted()
	}
	return dsn
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
