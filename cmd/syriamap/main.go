// Command syriamap turns news-photo captions about the Syrian war into
// places, dates and credits.
//
//	syriamap geocode [--samples] [FILE...]
//
// Run "syriamap help" for the commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintln(os.Stderr, "syriamap:", u.msg)
		} else {
			fmt.Fprintln(os.Stderr, "syriamap:", errorText(err))
		}
		os.Exit(exitCode(err))
	}
}

// usageError is a mistake in the command line; its message is already
// printed with the usage.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

const usage = `syriamap reads captions of news photos about the Syrian war and finds
when, who and where, and keeps them in an archive (SQLite, data/syriamap.db by
default; --db or SYRIAMAP_DB to change it).

Usage:
  syriamap [serve] [--addr A] [--media DIR] [--tiles URL] [--read-only] [--base-url URL] [--tls-cert F --tls-key F]
                                                serve the archive over HTTP (127.0.0.1:8080)
  syriamap geocode [--samples] [FILE...]        one JSON object per caption (stdin when no FILE)
  syriamap import [--format F] FILE...          import .txt, .csv or .jsonl files into the archive
  syriamap list [--unplaced] [--q TEXT] ...     list archived photos
  syriamap places search|export|unknown       find places; the gazetteer as GeoJSON; names it lacks
  syriamap set-place PHOTO_ID PLACE_ID          correct a photo's place (or --point LON,LAT)
  syriamap users add|passwd|list|remove NAME    the editors who may correct photos in the browser
  syriamap users code NAME                      a one-time sign-in code for an editor (--valid, at most 24h)
  syriamap tokens create NAME                   a bearer token for scripts that write
  syriamap corrections export|import            move a team's corrections between archives
  syriamap stories export|import                move stories between archives (JSON Lines)
  syriamap regeocode                            re-run the geocoder over the archive
  syriamap backup FILE                          copy the archive, consistently, while it is in use
  syriamap copy SRC DST                         copy a whole archive between SQLite and PostgreSQL (into an empty DST)
  syriamap gen --n N                            print N realistic synthetic captions
  syriamap publish OUT/                         write a static copy of the archive any web host serves
  syriamap verify                               re-hash the kept originals and check the custody chain
  syriamap frames                               find photos that are one frame under captions that disagree
  syriamap frames --match LIST | --export LIST  match a partner's PDQ hashes (CSV); write the archive's own
  syriamap export-evidence [FILTERS] OUT/       a BagIt bag of photos with originals, checks and custody
  syriamap events import FILE...                conflict events from UCDP GED and ACLED exports
  syriamap events suggest [--likely]            every photo's candidate events, as CSV
  syriamap help                                 this text
`

// run is the whole program, given its arguments and streams.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	args = commandFirst(args)
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" {
		return runServe(ctx, args, stdout, stderr) // syriamap alone serves
	}
	switch args[0] {
	case "serve":
		return runServe(ctx, args[1:], stdout, stderr)
	case "geocode":
		return runGeocode(ctx, args[1:], stdin, stdout, stderr)
	case "import":
		return runImport(ctx, args[1:], stdout, stderr)
	case "list":
		return runList(ctx, args[1:], stdout, stderr)
	case "places":
		return runPlaces(ctx, args[1:], stdout, stderr)
	case "set-place":
		return runSetPlace(ctx, args[1:], stdout, stderr)
	case "regeocode":
		return runRegeocode(ctx, args[1:], stdout, stderr)
	case "backup":
		return runBackup(ctx, args[1:], stdout, stderr)
	case "copy":
		return runCopy(ctx, args[1:], stdout, stderr)
	case "users":
		return runUsers(ctx, args[1:], stdin, stdout, stderr)
	case "tokens":
		return runTokens(ctx, args[1:], stdout, stderr)
	case "corrections":
		return runCorrections(ctx, args[1:], stdout, stderr)
	case "gen":
		return runGen(ctx, args[1:], stdout, stderr)
	case "export-evidence":
		return runExportEvidence(ctx, args[1:], stdout, stderr)
	case "frames":
		return runFrames(ctx, args[1:], stdout, stderr)
	case "verify":
		return runVerify(ctx, args[1:], stdout, stderr)
	case "publish":
		return runPublish(ctx, args[1:], stdout, stderr)
	case "stories":
		return runStories(ctx, args[1:], stdout, stderr)
	case "events":
		return runEvents(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprintf(stderr, "syriamap: unknown command %q\n\n%s", args[0], usage)
	return usageError{"unknown command " + args[0]}
}

// commands are the command words; serve is what syriamap alone does.
var commands = map[string]bool{"serve": true, "geocode": true, "import": true, "list": true, "places": true, "set-place": true,
	"regeocode": true, "backup": true, "copy": true, "users": true, "tokens": true, "corrections": true, "gen": true, "export-evidence": true,
	"frames": true, "verify": true, "publish": true, "stories": true, "events": true, "help": true}

// boolFlags are the flags of any command that take no value: the word
// after one is not its value.
var boolFlags = map[string]bool{"added": true, "distinct": true, "explain": true, "include-unplaced": true, "include-withheld": true, "no-images": true,
	"no-memory-index": true, "password-stdin": true, "public-gps": true, "quiet": true, "read-only": true, "record-paths": true,
	"repair": true, "replace": true, "samples": true, "serve-originals": true, "unplaced": true, "h": true, "help": true}

// commandFirst moves the command word to the front when flags come before
// it ("syriamap --db a.db import FILE" is "syriamap import FILE --db
// a.db"), so that a command word is never ignored: every command takes its
// flags before or after its other arguments. Without a command word the
// arguments are serve's, as they are.
func commandFirst(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args
		case strings.HasPrefix(a, "-"):
			if name := strings.TrimLeft(a, "-"); !strings.Contains(name, "=") && !boolFlags[name] {
				i++ // its value
			}
		case commands[a]:
			if i == 0 {
				return args
			}
			rest := slices.Clone(args[i+1:])
			at := slices.Index(rest, "--")
			if at < 0 {
				at = len(rest)
			}
			out := append([]string{a}, rest[:at]...)
			out = append(out, args[:i]...)
			return append(out, rest[at:]...)
		default:
			return args // a word that is no command: left for run to name
		}
	}
	return args
}
