package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/syriamap/syriamap/internal/archive"
)

// runBackup writes a consistent copy of the archive to a new file, while
// a server, an import or anything else keeps using it.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("backup", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap backup [--db PATH] FILE")
		fl.PrintDefaults()
	}
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if fl.NArg() != 1 {
		fl.Usage()
		return usageError{"backup: give the one file to write the copy to"}
	}
	a, closeDB, err := openArchive(ctx, *db, openReadOnly, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	if err := a.Backup(ctx, fl.Arg(0)); err != nil {
		return err
	}
	n, err := a.Count(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s (%d photos) to %s\n", archive.Redacted(*db), n, fl.Arg(0))
	return nil
}
