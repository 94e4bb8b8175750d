package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/syriamap/syriamap/internal/evidence/pdq"
	"github.com/syriamap/syriamap/internal/photo"
)

// runFrames is `syriamap frames`: every kept original hashed as a picture
// (once), the photos that are the same frame grouped, and each whose
// caption disagrees with the one the frame is known from first flagged
// (reuse=conflict in the API). With --match or --export it does only
// that: the archive's PDQ hashes matched against a partner's list, or
// written as the archive's own.
func runFrames(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("frames", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	origs := originalsFlag(fl)
	match := fl.String("match", "", "print, as CSV, every photo within 31 bits of a PDQ hash of this list (a partner's, as ThreatExchange's tools write it); for editors: withheld photos too, marked")
	export := fl.String("export", "", "write the archive's own list of PDQ hashes to this file (hash,quality,photo id a line): the public's photos only")
	withheld := fl.Bool("include-withheld", false, "with --export: the photos withheld from the public too")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap frames [--db PATH] [--originals DIR|s3://BUCKET/PREFIX]")
		fmt.Fprintln(stderr, "       syriamap frames --match LIST [--db PATH]")
		fmt.Fprintln(stderr, "       syriamap frames --export LIST [--include-withheld] [--db PATH]")
		fmt.Fprintln(stderr, "Finds the photos whose pictures are the same frame (resized, recompressed, cropped a little, watermarked, mirrored) and flags those whose captions disagree;")
		fmt.Fprintln(stderr, "or matches the archive's PDQ hashes against a partner's list, or writes the archive's own.")
		fl.PrintDefaults()
	}
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	switch {
	case fl.NArg() > 0:
		fl.Usage()
		return usageError{"frames: it takes no arguments"}
	case *match != "" && *export != "":
		fl.Usage()
		return usageError{"frames: --match or --export, not both"}
	case *withheld && *export == "":
		fl.Usage()
		return usageError{"frames: --include-withheld goes with --export"}
	case *match != "":
		return matchPDQ(ctx, *db, *match, stdout, stderr)
	case *export != "":
		return exportPDQ(ctx, *db, *export, *withheld, stdout, stderr)
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
	for _, u := range r.Undecodable {
		fmt.Fprintf(stdout, "  not hashed: photo %s (original %s): %s\n", u.PhotoID, u.SHA256, u.Why)
	}
	return nil
}

// matchPDQ is `syriamap frames --match LIST`: the list read whole (a bad
// line refuses it, by its line), matched as an editor (the command is the
// archive's owner's: withheld photos are matched, and marked), the CSV
// printed whole once everything is known.
func matchPDQ(ctx context.Context, db, path string, stdout, stderr io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return photo.Errorf(photo.EInvalid, "frames: --match: %v", err)
	}
	list, err := pdq.ReadList(f, path)
	f.Close()
	if err != nil {
		return err
	}
	a, closeDB, err := openArchive(ctx, db, openReadOnly, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	r, err := a.MatchPDQ(photo.AsEditor(ctx, commandActor("frames")), list)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"photo_id", "label", "distance", "quality", "list_line", "withheld"})
	held := 0
	for _, m := range r.Matches {
		mark := ""
		if m.Withheld {
			mark, held = "withheld", held+1
		}
		w.Write([]string{m.PhotoID, spreadsheetSafe(m.Listed.Label), strconv.Itoa(m.Distance), strconv.Itoa(m.Quality), strconv.Itoa(m.Listed.Line), mark})
	}
	w.Flush()
	if _, err := stdout.Write(b.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "frames: %d of the archive's PDQ hashes compared with %d of %s's: %d pairs within %d bits", r.Compared, r.Listed, path, len(r.Matches), pdq.MatchRadius)
	if held > 0 {
		fmt.Fprintf(stderr, ", %d of them of photos withheld from the public (marked so: do not pass them on)", held)
	}
	fmt.Fprintln(stderr)
	if r.LowQuality > 0 {
		fmt.Fprintf(stderr, "frames: %d of the archive's hashes are of quality %d or less (too plain a picture): not matched, as PDQ's rule says\n", r.LowQuality, pdq.LowQuality)
	}
	if r.ListLowQuality > 0 {
		fmt.Fprintf(stderr, "frames: %d of the list's hashes say they are of quality %d or less: not matched, as PDQ's rule says\n", r.ListLowQuality, pdq.LowQuality)
	}
	if r.Unhashed > 0 {
		fmt.Fprintf(stderr, "frames: %d images have no PDQ hash and were not matched: syriamap frames hashes those it can decode, and names the others\n", r.Unhashed)
	}
	return nil
}

// spreadsheetSafe is a label from a partner's list made safe to open in a
// spreadsheet: one that starts like a formula gets a ' before it.
func spreadsheetSafe(label string) string {
	if label != "" && strings.ContainsRune("=+-@", rune(label[0])) {
		return "'" + label
	}
	return label
}

// exportPDQ is `syriamap frames --export LIST`: the archive's own list,
// written to a file beside LIST and renamed to it once whole.
func exportPDQ(ctx context.Context, db, path string, withheld bool, stdout, stderr io.Writer) error {
	a, closeDB, err := openArchive(ctx, db, openReadOnly, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		// The temporary file's name is no user's: the folder is what fails.
		return photo.Errorf(photo.EInvalid, "frames: --export %s: cannot write into %s: %v", path, filepath.Dir(path), pathless(err))
	}
	defer os.Remove(tmp.Name())
	r, err := a.ExportPDQ(photo.AsEditor(ctx, commandActor("frames")), tmp, withheld)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("frames: --export: %w", err)
	}
	whose := "the public's photos"
	if withheld {
		whose = fmt.Sprintf("the public's photos and %d withheld from the public (do not pass those on unless you mean to)", r.Withheld)
	}
	fmt.Fprintf(stdout, "frames: %d PDQ hashes written to %s (hash,quality,photo id a line), of %s\n", r.Written, path, whose)
	if r.LowQuality > 0 {
		fmt.Fprintf(stdout, "frames: %d hashes of quality %d or less left out (too plain to match on)\n", r.LowQuality, pdq.LowQuality)
	}
	if r.Unhashed > 0 {
		fmt.Fprintf(stdout, "frames: %d images have no PDQ hash: syriamap frames hashes those it can decode, and names the others\n", r.Unhashed)
	}
	return nil
}

// pathless is err without the path an *fs.PathError names.
func pathless(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
