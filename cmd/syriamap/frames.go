package main

import (
	"context"
	"flag"
	"fmt"
	"io"
)

// runFrames is `syriamap frames`: every kept original hashed as a picture
// (once), the photos that are the same frame grouped, and each whose
// caption disagrees with the one the frame is known from first flagged
// (reuse=conflict in the API).
func runFrames(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("frames", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	origs := originalsFlag(fl)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap frames [--db PATH] [--originals DIR|s3://BUCKET/PREFIX]")
		fmt.Fprintln(stderr, "Finds the photos whose pictures are the same frame (resized, recompressed, cropped a little, watermarked, mirrored) and flags those whose captions disagree.")
		fl.PrintDefaults()
	}
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if fl.NArg() > 0 {
		fl.Usage()
		return usageError{"frames: it takes no arguments"}
	}
	a, closeDB, err := openWithOriginals(ctx, *db, *origs, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	bar := newProgressBar(stderr)
	r, err := a.Frames(ctx, commandActor("frames"), func(done, n int) { bar.updateFiles("pictures", done, n) })
	bar.clear()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "frames: %d pictures hashed (%d without a kept original, %d unreadable); %d frames are more than one photo's: %d copies agree with the first caption, %d disagree (reuse=conflict); %d photos changed\n",
		r.Hashed, r.NoOriginal, r.Unreadable, r.Groups, r.Copies, r.Conflicts, r.Changed)
	return nil
}
