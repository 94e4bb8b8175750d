package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/syriamap/syriamap/internal/photo"
	"io"
	"os"
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
	since := fl.String("since", "", "a checkpoint file (custody-head.json) kept elsewhere: prove the chain still holds it and only grew")
	checkpoint := fl.String("checkpoint", "", "write the chain's head after the check to this file, to keep elsewhere")
	repair := fl.Bool("repair", false, "remove the originals no photo names and the half-written files interrupted imports left")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap verify [--db PATH] [--originals DIR|s3://BUCKET/PREFIX] [--since FILE] [--checkpoint FILE]")
		fmt.Fprintln(stderr, "Re-hashes every kept original, checks the custody chain and each photo's row against it; exits 1 on any mismatch, naming the photo.")
		fl.PrintDefaults()
	}
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if fl.NArg() > 0 {
		fl.Usage()
		return usageError{"verify: it takes no arguments"}
	}
	var cp *photo.Checkpoint
	if *since != "" {
		c, err := readCheckpoint(*since)
		if err != nil {
			return err
		}
		cp = &c
	}
	a, closeDB, err := openWithOriginals(ctx, *db, *origs, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	bar := newProgressBar(stderr)
	start := time.Now()
	r, err := a.Verify(ctx, cp, func(what string, done, total int64) {
		switch what {
		case "originals":
			bar.update("originals", done, total)
		case "rows":
			bar.draw("photos", done, total, fmt.Sprintf("%d/%d", done, total))
		default:
			bar.draw("custody records", done, total, fmt.Sprintf("%d/%d", done, total))
		}
	})
	bar.clear()
	if err != nil {
		return err
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, "verify: %d originals (%s) re-hashed in %s (%.0f MB/s) from %s; %d custody records and %d photos checked\n",
		r.Files, bytesize(r.Bytes), took.Round(time.Millisecond), float64(r.Bytes)/1e6/took.Seconds(), a.Originals.Where(), r.Records, r.Rows)
	if cp != nil && len(r.Problems) == 0 {
		fmt.Fprintf(stdout, "verify: the chain holds record %d of the checkpoint of %s and grew from it\n", cp.Seq, cp.At)
	}
	if *checkpoint != "" {
		head, err := a.Head(ctx)
		if err != nil {
			return err
		}
		if err := writeCheckpoint(*checkpoint, head); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "verify: the chain's head (record %d) written to %s: keep it away from the archive\n", head.Seq, *checkpoint)
	}
	for _, p := range r.Problems {
		who := "the archive"
		if p.PhotoID != "" {
			who = "photo " + p.PhotoID
		}
		fmt.Fprintf(stdout, "MISMATCH %s: %s\n", who, p.What)
	}
	left, err := a.FindLeftovers(ctx, leftoverAge)
	if err != nil {
		return err
	}
	if n, m := len(left.Orphans), len(left.Temps); n+m > 0 {
		if *repair {
			if err := a.RemoveLeftovers(left); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "verify: removed %d originals no photo names and %d half-written files (left by interrupted imports)\n", n, m)
		} else {
			fmt.Fprintf(stdout, "verify: %d originals no photo names and %d half-written files, left by interrupted imports: syriamap verify --repair removes them\n", n, m)
		}
	}
	reportUploads(*db, time.Hour, stdout)
	if n := len(r.Problems); n > 0 {
		return fmt.Errorf("verify: %d problems (listed above)", n)
	}
	fmt.Fprintln(stdout, "verify: every original is as imported and the custody chain holds")
	return nil
}

// leftoverAge is how old a file of the store of originals that no photo
// names must be for verify to call it left over: a younger one may be an
// import's under way.
const leftoverAge = 10 * time.Minute

// readCheckpoint reads a custody checkpoint file (custody-head.json, as
// verify --checkpoint, export and publish write it).
func readCheckpoint(path string) (photo.Checkpoint, error) {
	var cp photo.Checkpoint
	b, err := os.ReadFile(path)
	if err != nil {
		return cp, fmt.Errorf("the checkpoint: %w", err)
	}
	if err := json.Unmarshal(b, &cp); err != nil || cp.Seq <= 0 || len(cp.Hash) != 64 {
		return cp, fmt.Errorf("%s is not a custody checkpoint (want {\"seq\": N, \"hash\": \"…\", \"at\": \"…\"}): %v", path, err)
	}
	return cp, nil
}

// writeCheckpoint writes the chain's head to a file, whole or not at all.
func writeCheckpoint(path string, cp photo.Checkpoint) error {
	b, _ := json.MarshalIndent(cp, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("could not write the checkpoint: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("could not write the checkpoint: %w", err)
	}
	return nil
}
