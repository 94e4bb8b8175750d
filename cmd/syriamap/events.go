package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/syriamap/syriamap/internal/archive"
)

// runEvents is `syriamap events import`: conflict events (UCDP GED,
// ACLED) read into the archive, all files or none.
func runEvents(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("events", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	version := fl.String("version", "", "the dataset's version (UCDP GED 19.1; an ACLED export's date); read from each file's name when not given")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap events import [--db PATH] [--version V] FILE...")
		fmt.Fprintln(stderr, "Imports conflict events from UCDP GED CSV files (the global file or a country's) and ACLED exports, told apart by their headers. A newer version updates what changed and retires the events it dropped.")
		fl.PrintDefaults()
	}
	if len(args) == 0 || args[0] != "import" {
		fl.Usage()
		return usageError{"events: want events import FILE..."}
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
