package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/syriamap/syriamap/internal/http/bag"
)

// runExportEvidence is `syriamap export-evidence [FILTERS] OUT/`: the
// photos the filters select (all when none) as a BagIt bag.
func runExportEvidence(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("export-evidence", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	origs := originalsFlag(fl)
	filter := filterFlags(fl)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap export-evidence [--db PATH] [--originals DIR|s3://…] [--from D] [--to D] [--agency A] [--place ID] [--q TEXT] … OUT/")
		fmt.Fprintln(stderr, "Writes a BagIt bag (RFC 8493) of the photos selected (all when no filter is given): originals, metadata, captions, placements, checks and custody.")
		fl.PrintDefaults()
	}
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if fl.NArg() != 1 {
		fl.Usage()
		return usageError{"export-evidence needs one new folder to write the bag to"}
	}
	f, err := filter()
	if err != nil {
		return err
	}
	a, closeDB, err := openWithOriginals(ctx, *db, *origs, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	r, err := bag.Export(ctx, a, f, fl.Arg(0), commandActor("export-evidence"))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "exported %d photos (%d with their originals) to the bag %s: %d files, %s; check it with: cd %s && sha256sum -c manifest-sha256.txt tagmanifest-sha256.txt\n",
		r.Photos, r.Originals, fl.Arg(0), r.Files, bytesize(r.Bytes), fl.Arg(0))
	fmt.Fprintf(stdout, "the bag carries the custody chain's head it was made at (data/custody-head.json; syriamap verify --since reads it) and the links to it (data/custody-links.txt)\n")
	for _, id := range r.Missing {
		fmt.Fprintf(stdout, "photo %s: its original is not in the store; exported without it (said so in its record.json)\n", id)
	}
	return nil
}
