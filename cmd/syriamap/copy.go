package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/syriamap/syriamap/internal/archive"
)

// runCopy is `syriamap copy SRC DST`: the whole archive SRC copied into
// DST, an empty archive, each a SQLite file or a postgres:// URL; each
// table's rows, the custody head of both and the time taken printed.
func runCopy(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("copy", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap copy SRC DST")
		fmt.Fprintln(stderr, "Copies the whole archive SRC into DST, each a SQLite file or a postgres:// URL: photos, corrections, custody, stories,")
		fmt.Fprintln(stderr, "added places, editors, events, links and second looks, every key as it is, so that verify passes on the copy with")
		fmt.Fprintln(stderr, "the same custody head. SRC is only read. DST is made if it does not exist; one that holds an archive is refused.")
		fmt.Fprintln(stderr, "The originals stay where they are kept (--originals, a folder or S3): give the copy the same --originals.")
		fl.PrintDefaults()
	}
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if fl.NArg() != 2 {
		fl.Usage()
		return usageError{"copy: give the archive to copy and the one to copy it into (SRC DST)"}
	}
	src, dst := fl.Arg(0), fl.Arg(1)
	bar := newProgressBar(stderr)
	start := time.Now()
	r, err := archive.Copy(ctx, src, dst, func(table string, rows int64) {
		bar.draw(table, 0, 0, fmt.Sprintf("%d rows", rows))
	})
	bar.clear()
	if err != nil {
		return fmt.Errorf("copy: %w", err)
	}
	took := time.Since(start)
	var total int64
	for _, t := range r.Tables {
		if t.Rows > 0 {
			fmt.Fprintf(stdout, "%-24s %10d rows %10s\n", t.Table, t.Rows, t.Took.Round(time.Millisecond))
		}
		total += t.Rows
	}
	fmt.Fprintf(stdout, "%-24s %15s %10s\n", "(search indexes)", "", r.Indexed.Round(time.Millisecond))
	fmt.Fprintf(stdout, "copy: %d rows of %d tables copied in %s\n", total, len(r.Tables), took.Round(time.Millisecond))
	fmt.Fprintf(stdout, "copy: custody head of the original: record %d, %s\n", r.SourceHead.Seq, r.SourceHead.Hash)
	fmt.Fprintf(stdout, "copy: custody head of the copy:     record %d, %s\n", r.Copied.Seq, r.Copied.Hash)
	if r.SourceHead != r.Copied {
		return fmt.Errorf("copy: the copy's custody head is not the original's")
	}
	return nil
}
