package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

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
	include := includeFlag(fl)
	origs := originalsFlag(fl)
	recordPaths := fl.Bool("record-paths", false, "keep the files' paths and the system user in the custody records (by default: file names, hashes, sizes)")
	framesLater := fl.Bool("frames-later", false, "do not hash each new picture's frame as it arrives (a decode each, most of an image import's time); run syriamap frames afterwards")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap import [--db PATH] [--format txt|csv|jsonl] [--include PATTERN] [--originals DIR|s3://BUCKET/PREFIX] [--record-paths] [--frames-later] FILE|FOLDER...")
		fmt.Fprintln(stderr, "Text, CSV and JSON-lines files are read by extension; JPEG files, and the JPEGs under folders, as images.")
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
	if err := importOriginals(a, *origs, *db, fl.Args()); err != nil {
		return err
	}
	a.FramesLater = *framesLater
	// What an import killed an hour or more ago left in the store of
	// originals goes first (verify --repair removes younger leftovers).
	if left, err := a.FindLeftovers(ctx, time.Hour); err == nil && len(left.Orphans)+len(left.Temps) > 0 {
		if err := a.RemoveLeftovers(left); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "removed %d originals no photo names and %d half-written files, left by an interrupted import\n", len(left.Orphans), len(left.Temps))
	}
	if *recordPaths {
		a.SetActor(commandActorWithUser("import"), true)
	} else {
		a.SetActor(commandActor("import"), false)
	}
	// Writing into a damaged archive would spread the damage: check it
	// first (about a second per 150 MB).
	if err := a.QuickCheck(ctx); err != nil {
		return fmt.Errorf("%s; nothing was imported (see README: Operating it)", errorText(err))
	}
	bar := newProgressBar(stderr)
	var texts, images []string
	for _, path := range fl.Args() {
		if st, err := os.Stat(path); (err == nil && st.IsDir()) || (*format == "" && archive.IsImage(path)) {
			images = append(images, path)
		} else {
			texts = append(texts, path)
		}
	}
	var total archive.Result
	rejected, failed := 0, 0
	if len(images) > 0 {
		skipped, done, err := importImages(ctx, a, images, *include, len(texts) == 0, &total, bar, stdout)
		if done || err != nil {
			return err
		}
		if skipped {
			failed++ // the command ends non-zero, as for a bad text file
		}
	}
	for _, path := range texts {
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
		for _, w := range res.Warnings {
			fmt.Fprintf(stderr, "syriamap: warning: %s\n", w)
		}
		total.Summary.Add(res.Summary)
		total.Read += res.Read
	}
	fmt.Fprintf(stdout, "imported %d of %d files into %s: %d added, %d updated, %d unchanged, %d unplaced, %d rejected\n",
		len(texts)-failed, len(texts), archive.Redacted(*db), total.Added, total.Updated, total.Unchanged, total.Unplaced, rejected)
	if total.Added == 0 && total.Updated == 0 && failed == 0 {
		fmt.Fprintln(stdout, "nothing changed: every photo was already in the archive as it is")
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files had errors and were not imported", failed, len(texts))
	}
	return nil
}

// includeFlag defines --include: the names of a folder's files to import
// as images.
func includeFlag(fl *flag.FlagSet) *[]string {
	var include []string
	fl.Func("include", "the names of a folder's files to import as images, a pattern such as '*.jpg' (repeat it or separate with commas; default *.jpg and *.jpeg, any case)", func(v string) error {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				if _, err := filepath.Match(p, ""); err != nil {
					return fmt.Errorf("bad pattern %q", p)
				}
				include = append(include, p)
			}
		}
		return nil
	})
	return &include
}

// importImages imports the image files and folders and says what it did;
// alone says no text file follows, when the summary is the command's
// last word (done) and its error the command's. skipped reports files
// skipped for their faults.
func importImages(ctx context.Context, a *archive.Archive, images, include []string, alone bool, total *archive.Result, bar *progressBar, stdout io.Writer) (skipped, done bool, err error) {
	res, err := a.ImportImages(ctx, images, include, func(done, n int) { bar.updateFiles("images", done, n) })
	bar.clear()
	if err != nil {
		if ctx.Err() != nil {
			return false, true, fmt.Errorf("import interrupted; no image was imported: %w", ctx.Err())
		}
		return false, true, fmt.Errorf("%s; no image was imported", errorText(err))
	}
	fmt.Fprintf(stdout, "images: %d files found, %d read (the others are unchanged since the last import), %d skipped: %d added, %d updated, %d unchanged, %d unplaced\n",
		res.Files, res.Read, len(res.Skipped), res.Added, res.Updated, res.Unchanged, res.Unplaced)
	switch {
	case a.FramesLater && res.Added+res.Updated > 0:
		fmt.Fprintln(stdout, "images: run syriamap frames to find the photos among them that are one frame under captions that disagree")
	case res.Conflicts > 0:
		fmt.Fprintf(stdout, "images: %d arrived as a frame the archive already holds under a caption that disagrees (reuse=conflict), %d under one that agrees\n", res.Conflicts, res.Copies)
	case res.Copies > 0:
		fmt.Fprintf(stdout, "images: %d arrived as a frame the archive already holds, under a caption that agrees\n", res.Copies)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(stdout, "  skipped %s: %s\n", s.Path, s.Reason)
	}
	for _, path := range res.Unhashed {
		fmt.Fprintf(stdout, "  not hashed %s: imported, but its picture cannot be decoded for the frame hash (arithmetic-coded or 12-bit JPEG?): no copy of it will be caught\n", path)
	}
	total.Summary.Add(res.Summary)
	if alone {
		if res.Added == 0 && res.Updated == 0 && len(res.Skipped) == 0 {
			fmt.Fprintln(stdout, "nothing changed: every image was already in the archive as it is")
		}
		if len(res.Skipped) > 0 {
			return true, true, fmt.Errorf("%d of %d image files were skipped (named above); the others were imported", len(res.Skipped), res.Files)
		}
		return false, true, nil
	}
	return len(res.Skipped) > 0, false, nil
}

// errorText is the message of an application error, or the error's text.
func errorText(err error) string {
	if photo.ErrorCode(err) != photo.EInternal {
		return photo.ErrorMessage(err)
	}
	return err.Error()
}

// importOriginals gives an import its store of originals. Caption files
// alone need none: a PostgreSQL archive, which has no folder beside it,
// asks for one only when pictures are imported.
func importOriginals(a *archive.Archive, spec, db string, paths []string) error {
	if spec == "" && archive.IsPostgres(db) && captionFilesOnly(paths) {
		return nil
	}
	return withOriginals(a, spec, db)
}

// captionFilesOnly reports whether every path names a file of captions
// (.txt, .csv, .jsonl), no folder and no picture.
func captionFilesOnly(paths []string) bool {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || st.IsDir() {
			return false
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".txt", ".csv", ".jsonl":
		default:
			return false
		}
	}
	return true
}
