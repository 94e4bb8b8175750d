package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"
)

// runVerify is `syriamap verify`: every stored original re-hashed (a
// fixity check) and the custody chain walked; each problem named with
// its photo; exit 1 when there is any.
func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("verify", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	origs := originalsFlag(fl)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap verify [--db PATH] [--originals DIR|s3://BUCKET/PREFIX]")
		fmt.Fprintln(stderr, "Re-hashes every kept original and checks the custody chain; exits 1 on any mismatch, naming the photo.")
		fl.PrintDefaults()
	}
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if fl.NArg() > 0 {
		fl.Usage()
		return usageError{"verify: it takes no arguments"}
	}
	a, closeDB, err := openWithOriginals(ctx, *db, *origs, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	bar := newProgressBar(stderr)
	start := time.Now()
	r, err := a.Verify(ctx, func(what string, done, total int64) {
		if what == "originals" {
			bar.update("originals", done, total)
		} else {
			bar.draw("custody records", done, total, fmt.Sprintf("%d/%d", done, total))
		}
	})
	bar.clear()
	if err != nil {
		return err
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, "verify: %d originals (%s) re-hashed in %s (%.0f MB/s) from %s; %d custody records checked\n",
		r.Files, bytesize(r.Bytes), took.Round(time.Millisecond), float64(r.Bytes)/1e6/took.Seconds(), a.Originals.Where(), r.Records)
	for _, p := range r.Problems {
		who := "the archive"
		if p.PhotoID != "" {
			who = "photo " + p.PhotoID
		}
		fmt.Fprintf(stdout, "MISMATCH %s: %s\n", who, p.What)
	}
	if n := len(r.Problems); n > 0 {
		return fmt.Errorf("verify: %d problems (listed above)", n)
	}
	fmt.Fprintln(stdout, "verify: every original is as imported and the custody chain holds")
	return nil
}
