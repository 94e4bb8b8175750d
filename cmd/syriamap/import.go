package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/photo"
)

// runImport imports files into the archive, each in one transaction, and
// ends with a summary. A bad file is named with its line and left out
// whole; the others are imported, and the command then exits non-zero.
func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("import", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	format := fl.String("format", "", "txt, csv or jsonl (default: by each file's extension)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap import [--db PATH] [--format txt|csv|jsonl] FILE...")
		fl.PrintDefaults()
	}
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if fl.NArg() == 0 {
		fl.Usage()
		return usageError{"import: no files given"}
	}
	a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	// Writing into a damaged archive would spread the damage: check it
	// first (about a second per 150 MB).
	if err := a.DB.QuickCheck(ctx); err != nil {
		return fmt.Errorf("%s; nothing was imported (see README: Operating it)", errorText(err))
	}
	bar := newProgressBar(stderr)
	var total archive.Result
	rejected, failed := 0, 0
	for _, path := range fl.Args() {
		res, err := a.ImportFile(ctx, path, *format, bar.update)
		bar.clear()
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("import interrupted in %s; that file was not imported: %w", path, ctx.Err())
			}
			fmt.Fprintf(stderr, "syriamap: %s (the file was not imported)\n", errorText(err))
			// Only a file's own fault rejects its records; a busy or
			// damaged archive rejects nothing.
			if photo.ErrorCode(err) == photo.EInvalid {
				rejected += res.Read + 1 // the records read, and the bad one
			}
			failed++
			continue
		}
		total.Summary.Add(res.Summary)
		total.Read += res.Read
	}
	fmt.Fprintf(stdout, "imported %d of %d files into %s: %d added, %d updated, %d unchanged, %d unplaced, %d rejected\n",
		fl.NArg()-failed, fl.NArg(), *db, total.Added, total.Updated, total.Unchanged, total.Unplaced, rejected)
	if total.Added == 0 && total.Updated == 0 && failed == 0 {
		fmt.Fprintln(stdout, "nothing changed: every photo was already in the archive as it is")
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files had errors and were not imported", failed, fl.NArg())
	}
	return nil
}

// errorText is the message of an application error, or the error's text.
func errorText(err error) string {
	if photo.ErrorCode(err) != photo.EInternal {
		return photo.ErrorMessage(err)
	}
	return err.Error()
}
