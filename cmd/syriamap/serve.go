package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/imagery"
	"github.com/syriamap/syriamap/internal/http/importapi"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize"
)

// readingMode is how a command that only reads opens the archive at
// path: read-only when asked, or when the archive exists but cannot be
// written (a read-only mount, a folder of another user's); else for
// writing, so that an empty archive gets the sample captions.
func readingMode(path string, readOnly bool) openMode {
	if _, err := os.Stat(path); readOnly || err == nil && !archive.Writable(path) {
		return openReadOnly
	}
	return openSeed
}

// setMemoryLimit sets the Go runtime's soft memory limit, unless
// GOMEMLIMIT does: the image budget, the derivatives kept in memory, and
// for the rest 128 MB and 1,600 bytes a photo (the memory index takes
// about 800 a photo, and is rebuilt beside the one serving when the
// archive changes). Under it the collector works harder rather than let
// garbage grow the process: decodes' garbage above all.
func setMemoryLimit(ctx context.Context, a *archive.Archive, responseCache int64) (int64, bool) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0, false
	}
	photos, err := a.CountPhotos(ctx, photo.Filter{})
	if err != nil {
		return 0, false
	}
	limit := resize.DefaultBudget + imagery.MemCacheBytes + responseCache + 128<<20 + 1600*int64(photos)
	debug.SetMemoryLimit(limit)
	return limit, true
}

// runServe serves the archive over HTTP until interrupted.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	def := "127.0.0.1:8080"
	if v := strings.TrimSpace(os.Getenv("SYRIAMAP_ADDR")); v != "" {
		def = v
	}
	addr := fl.String("addr", def, "the address to listen on (env SYRIAMAP_ADDR)")
	db := dbFlag(fl)
	media := fl.String("media", os.Getenv("SYRIAMAP_MEDIA"), "the folder photo images given by image_path are served from (env SYRIAMAP_MEDIA); imported JPEGs are also served from the folders they were imported from")
	noIndex := fl.Bool("no-memory-index", false, "answer every window from SQLite with streamed gzip: smaller responses (about a quarter) for clients on slow links, several times slower on a busy server, and no index in memory (about 750 MB at a million photos)")
	publicGPS := fl.Bool("public-gps", false, "publish the camera's GPS point of imported image files in every route (by default only signed-in editors see it; the public routes say in words only whether it agrees with the photo's place)")
	originals := fl.Bool("serve-originals", false, "serve imported image files as they are, metadata and GPS included (by default only derivatives without metadata are served)")
	tiles := fl.String("tiles", os.Getenv("SYRIAMAP_TILES"), "an online tile layer's URL template, e.g. https://tile.example.org/{z}/{x}/{y}.png, under the offline basemap (env SYRIAMAP_TILES; none by default: the map works offline)")
	quiet := fl.Bool("quiet", false, "log only warnings and errors")
	readOnly := fl.Bool("read-only", false, "open the archive read-only (the default when it or its folder cannot be written)")
	base := fl.String("base-url", os.Getenv("SYRIAMAP_BASE_URL"), "the address people reach the server at, for the links in downloads, e.g. https://photos.example.org behind a proxy (env SYRIAMAP_BASE_URL; default: the --addr it listens on)")
	cert := fl.String("tls-cert", os.Getenv("SYRIAMAP_TLS_CERT"), "serve HTTPS with this certificate (PEM; with --tls-key); or put the server behind a proxy that does")
	key := fl.String("tls-key", os.Getenv("SYRIAMAP_TLS_KEY"), "the certificate's private key (PEM)")
	keep := originalsFlag(fl)
	budgetMB := fl.Int64("upload-budget", importapi.DefaultLimits.EditorBytes>>20, "MB one editor's uploads not yet imported may come to (resumable uploads as declared, files waiting for their import); past it an upload is refused (507)")
	totalMB := fl.Int64("upload-budget-total", importapi.DefaultLimits.TotalBytes>>20, "MB all editors' uploads not yet imported may come to; past it an upload is refused (507)")
	lease := fl.Duration("job-lease", importapi.DefaultLease, "how long a server holds an upload's import without word from it (it says it is alive every third of it); past it another server of the archive, or this one started again, runs the job again")
	cacheMB := fl.Int("cache-size", 64, "MB of finished answers to readers (map windows, counts, tiles, pages) kept in memory until the archive changes; 0 keeps none")
	sharedAge := fl.Duration("shared-max-age", time.Minute, "how long a shared cache (a CDN, a proxy) may keep a reader's answer without asking again; 0 for never (an editor's answers are never shared)")
	var trusted multiFlag
	if v := os.Getenv("SYRIAMAP_TRUSTED_PROXY"); v != "" {
		trusted = append(trusted, v)
	}
	replica := fl.String("replica", os.Getenv("SYRIAMAP_REPLICA"), "name this server in every answer's X-Syriamap-Replica header, to tell replicas on one archive apart behind a load balancer (env SYRIAMAP_REPLICA; none by default)")
	fl.Var(&trusted, "trusted-proxy", "a reverse proxy's address or CIDR block (may repeat; env SYRIAMAP_TRUSTED_PROXY): from it, and from nothing else, X-Forwarded-For names the client that sign-ins are braked by")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if *cacheMB < 0 || *sharedAge < 0 {
		return usageError{"--cache-size and --shared-max-age take 0 or more"}
	}
	if *budgetMB <= 0 || *totalMB <= 0 {
		return usageError{"--upload-budget and --upload-budget-total take 1 MB or more"}
	}
	if (*cert == "") != (*key == "") {
		return usageError{"--tls-cert and --tls-key go together"}
	}
	if *base != "" {
		if _, err := httpapi.CheckBaseURL(*base); err != nil {
			return usageError{err.Error()}
		}
	}
	proxies, err := session.ParseProxies(trusted)
	if err != nil {
		return usageError{err.Error()}
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return usageError{fmt.Sprintf("--addr %q: want host:port, e.g. 127.0.0.1:8080", *addr)}
	}
	if err := httpapi.CheckTiles(*tiles); err != nil {
		return usageError{err.Error()}
	}
	mode := readingMode(*db, *readOnly)
	a, closeDB, err := openArchive(ctx, *db, mode, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	level := slog.LevelInfo
	if *quiet {
		level = slog.LevelWarn
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if err := serveOriginals(a, *keep, *db, mode == openReadOnly, log); err != nil {
		return err
	}
	if limit, set := setMemoryLimit(ctx, a, int64(*cacheMB)<<20); set {
		log.Info("memory limit", "MiB", limit>>20, "why", "the image budget, the derivatives and answers kept in memory and the archive's indexes; GOMEMLIMIT overrides it")
	}
	// Derivatives of imported images are kept beside the archive, when
	// its folder can be written.
	// So are editors' uploads while they wait for their import.
	// (A read-only server makes no folder for them: its upload routes
	// say it is read-only.)
	cache, uploads := "", filepath.Join(localDir(*db), "uploads")
	if mode != openReadOnly {
		cache = filepath.Join(localDir(*db), "cache", "images")
	}
	limits := importapi.DefaultLimits
	limits.EditorBytes, limits.TotalBytes, limits.Lease = *budgetMB<<20, *totalMB<<20, *lease
	if *lease < time.Second {
		return photo.Errorf(photo.EInvalid, "--job-lease %s: give a server at least a second to say it is alive", *lease)
	}
	// The table by which a search reads place names (a third of a second
	// to make) is made while the server starts, not on its first search.
	go a.Spellings()
	srv, err := httpapi.New(a, httpapi.Options{Media: *media, Logger: log, Tiles: *tiles, BaseURL: *base, Uploads: uploads, UploadLimits: limits,
		ReadOnly: mode == openReadOnly, TLSCert: *cert, TLSKey: *key, ServeOriginals: *originals, PublicGPS: *publicGPS, ImageCache: cache, NoMemIndex: *noIndex,
		TrustedProxies: proxies, Replica: *replica, CacheBytes: offIfZero(int64(*cacheMB) << 20), SharedMaxAge: offIfZero(*sharedAge)})
	if err != nil {
		return err
	}
	return srv.Serve(ctx, *addr, func(at net.Addr) {
		how := ""
		if mode == openReadOnly {
			how = " read-only"
		}
		scheme := "http"
		if *cert != "" {
			scheme = "https"
		}
		fmt.Fprintf(stdout, "syriamap is serving %s%s at %s://%s/ (Ctrl-C stops it)\n", archive.Redacted(*db), how, scheme, at)
		if host, _, _ := net.SplitHostPort(at.String()); *base == "" && net.ParseIP(host).IsUnspecified() {
			log.Warn("listening on every interface without --base-url: links in downloads say localhost")
		}
	})
}

// serveOriginals gives the server the archive's store of originals, as
// the commands have it (--originals, SYRIAMAP_ORIGINALS, the folder
// beside the archive, an S3 bucket): an upload's picture is kept in it,
// and a picture is served and exported from it once the file it was
// read from is gone. A folder that cannot be made (a read-only mount)
// is said in the log, and the server takes no pictures (503); a bucket
// named wrong stops it. A read-only server makes no folder.
func serveOriginals(a *archive.Archive, spec, db string, readOnly bool, log *slog.Logger) error {
	if _, err := os.Stat(filepath.Join(localDir(db), "originals")); readOnly && spec == "" && err != nil {
		return nil
	}
	err := withOriginals(a, spec, db)
	switch {
	case err == nil:
		log.Info("originals", "in", a.Originals.Where())
	case strings.HasPrefix(spec, "s3://"):
		return err
	default:
		log.Warn("no store of originals: uploads of pictures are refused until it can be written", "err", err)
	}
	return nil
}

// offIfZero is a flag's 0 ("none") as the server's options say it (less
// than 0; their 0 is the default).
func offIfZero[T int64 | time.Duration](v T) T {
	if v == 0 {
		return -1
	}
	return v
}
