package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"

	"github.com/syriamap/syriamap/internal/httpapi"
)

// runServe serves the archive over HTTP until interrupted.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	def := "127.0.0.1:8080"
	if v := strings.TrimSpace(env("SYRIAMAP_ADDR")); v != "" {
		def = v
	}
	addr := fl.String("addr", def, "the address to listen on (env SYRIAMAP_ADDR)")
	db := dbFlag(fl)
	media := fl.String("media", env("SYRIAMAP_MEDIA"), "the only folder photo images (image_path) are served from (env SYRIAMAP_MEDIA)")
	tiles := fl.String("tiles", env("SYRIAMAP_TILES"), "an online tile layer's URL template, e.g. https://tile.example.org/{z}/{x}/{y}.png, under the offline basemap (env SYRIAMAP_TILES; none by default: the map works offline)")
	quiet := fl.Bool("quiet", false, "log only warnings and errors")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return usageError{fmt.Sprintf("--addr %q: want host:port, e.g. 127.0.0.1:8080", *addr)}
	}
	if err := httpapi.CheckTiles(*tiles); err != nil {
		return usageError{err.Error()}
	}
	a, closeDB, err := openArchive(ctx, *db, true, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	level := slog.LevelInfo
	if *quiet {
		level = slog.LevelWarn
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	srv, err := httpapi.New(a, httpapi.Options{Media: *media, Logger: log, Tiles: *tiles})
	if err != nil {
		return err
	}
	return srv.Serve(ctx, *addr, func(at net.Addr) {
		fmt.Fprintf(stdout, "syriamap is serving %s at http://%s/ (Ctrl-C stops it)\n", *db, at)
	})
}
