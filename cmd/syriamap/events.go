package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// runEvents is `syriamap events import` (conflict events read into the
// archive, all files or none) and `syriamap events suggest` (every
// photo's candidates, as CSV).
func runEvents(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "suggest" {
		return runEventsSuggest(ctx, args[1:], stdout, stderr)
	}
	fl := flag.NewFlagSet("events", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	version := fl.String("version", "", "the dataset's version (UCDP GED 19.1; an ACLED export's date); read from each file's name when not given")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap events import [--db PATH] [--version V] FILE...")
		fmt.Fprintln(stderr, "       syriamap events suggest [--db PATH] [--likely] [--out FILE]")
		fmt.Fprintln(stderr, "Imports conflict events from UCDP GED CSV files (the global file or a country's) and ACLED exports, told apart by their headers. A newer version updates what changed and retires the events it dropped.")
		fl.PrintDefaults()
	}
	if len(args) == 0 || args[0] != "import" {
		fl.Usage()
		return usageError{"events: want events import FILE... or events suggest"}
	}
	if help, err := parseFlags(fl, args[1:]); help || err != nil {
		return err
	}
	if fl.NArg() == 0 {
		fl.Usage()
		return usageError{"events import: name the files"}
	}
	sets, err := archive.ReadEventFiles(fl.Args(), *version)
	if err != nil {
		return err
	}
	a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	sums, err := a.ImportEvents(ctx, sets, commandActor("events import"))
	if err != nil {
		return err
	}
	for i, s := range sums {
		fmt.Fprintf(stdout, "events: %s %s: %d events read: %d added, %d changed, %d unchanged, %d retired (dropped by this version), %d restored\n",
			sets[i].Dataset, sets[i].Version, len(sets[i].Events), s.Added, s.Changed, s.Unchanged, s.Retired, s.Restored)
	}
	return nil
}

// runEventsSuggest writes every photo's candidates as CSV, best first:
// photo, dataset, version, event, score, likely, why. It reads as the
// archive's owner (withheld photos and ACLED's events too); an ACLED
// event is written by its id alone, as ACLED's terms ask of exports.
func runEventsSuggest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("events suggest", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	likely := fl.Bool("likely", false, "only the candidates the rule would suggest to an editor")
	out := fl.String("out", "", "the CSV file to write (default: standard output)")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	a, closeDB, err := openArchive(ctx, *db, openReadOnly, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return fmt.Errorf("events suggest: %w", err)
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	b := web.AppendCSVRow(nil, []string{"photo", "dataset", "version", "event", "score", "likely", "why"})
	photos, rows := 0, 0
	err = a.SuggestEvents(photo.AsEditor(ctx, commandActor("events suggest")), photo.Filter{}, func(id string, cands []conflict.Candidate) error {
		photos++
		for _, c := range cands {
			if *likely && !c.Likely {
				continue
			}
			why := c.Why
			if c.Event.Dataset != conflict.GED {
				why = ""
			}
			b = web.AppendCSVRow(b, []string{id, c.Event.Dataset, c.Event.Version, c.Event.ID, strconv.FormatFloat(c.Score, 'f', 2, 64),
				strconv.FormatBool(c.Likely), web.Inert(why)})
			rows++
		}
		if len(b) > 1<<15 {
			if _, err := bw.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
		return nil
	})
	if err == nil {
		_, err = bw.Write(b)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return fmt.Errorf("events suggest: %w", err)
	}
	fmt.Fprintf(stderr, "events suggest: %d candidates for %d photos\n", rows, photos)
	return nil
}
