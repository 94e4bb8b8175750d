package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/http/imagery"
	"github.com/syriamap/syriamap/internal/http/lane"
	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// multiFlag is a flag that may repeat (--agency AFP --agency Reuters).
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// filterFlags adds the explorer's filters as flags (--from, --to,
// --agency, --photographer, --place, --governorate, --q,
// --min-confidence), for the commands that take a selection of the
// archive; the function it returns reads them as the API does: one set
// of rules and messages.
func filterFlags(fl *flag.FlagSet) func() (photo.Filter, error) {
	from := fl.String("from", "", "only photos from this date: YYYY, YYYY-MM or YYYY-MM-DD")
	to := fl.String("to", "", "only photos up to this date")
	var agencies, places, governorates, photographers multiFlag
	fl.Var(&agencies, "agency", "only this agency (may repeat)")
	fl.Var(&photographers, "photographer", "only this photographer (may repeat)")
	fl.Var(&places, "place", "only photos placed at this place id (may repeat; see syriamap places)")
	fl.Var(&governorates, "governorate", "only this governorate, by name or P-code (may repeat)")
	q := fl.String("q", "", "only photos whose captions match this search")
	minConfidence := fl.String("min-confidence", "", "only photos placed with at least this confidence (0–1)")
	verified := fl.Bool("verified", false, "only the placements a second editor confirmed without seeing the first answer (or a third editor decided)")
	return func() (photo.Filter, error) {
		v := url.Values{}
		if *verified {
			v.Set("verified", "1")
		}
		for _, kv := range []struct {
			key  string
			vals []string
		}{{"from", []string{*from}}, {"to", []string{*to}}, {"q", []string{*q}}, {"min_confidence", []string{*minConfidence}},
			{"agency", agencies}, {"photographer", photographers}, {"place", places}, {"governorate", governorates}} {
			for _, s := range kv.vals {
				if s != "" {
					v.Add(kv.key, s)
				}
			}
		}
		f, err := web.ParseFilter(v)
		if err != nil {
			return f, usageError{strings.ReplaceAll(err.Error(), "_", "-")}
		}
		return f, nil
	}
}

// runPublish writes a static copy of the archive, or of a selection, to
// a folder any web host serves (see internal/http/publish).
func runPublish(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("publish", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	filter := filterFlags(fl)
	unplaced := fl.Bool("include-unplaced", false, "also publish the photos that could not be placed (listed, not on the map)")
	base := fl.String("base-url", "", "the address the site will be served from, e.g. https://example.org/syria/, for absolute links in the downloads (default: relative links)")
	title := fl.String("title", "", "the site's title")
	tiles := fl.String("tiles", "", "an online tile layer's URL template the map may offer (by default the site asks no other host for anything)")
	originals := fl.Bool("originals", false, "also publish imported image files as they are, metadata and GPS included (by default only 320 and 1,280 px derivatives without metadata)")
	media := fl.String("media", "", "a further folder imported image files may lie under, as serve --media")
	noImages := fl.Bool("no-images", false, "publish no image derivatives")
	pointsLimit := fl.Int("points-limit", 200000, "above this many photos the site's map reads its tiles (range requests, or its overview on a host without them) instead of every photo's point at once")
	kept := fl.String("originals-store", os.Getenv("SYRIAMAP_ORIGINALS"), "where the archive keeps its originals, as the other commands' --originals (default the folder originals beside --db): a picture whose imported or uploaded copy is gone is published from it")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return usageError{"publish needs one folder to write: syriamap publish OUT/"}
	}
	if *pointsLimit < 1 {
		return usageError{fmt.Sprintf("--points-limit %d: give a number of photos, 1 or more", *pointsLimit)}
	}
	out := fl.Arg(0)
	f, err := filter()
	if err != nil {
		return err
	}
	if *base != "" && !strings.HasSuffix(*base, "/") {
		*base += "/"
	}
	a, closeDB, err := openArchive(ctx, *db, readingMode(*db, true), stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	// A publish reads every photo in one pass, as long as that takes:
	// the server's bound on one query does not apply.
	a.SetTimeout(0)
	o := publish.Options{Filter: f, IncludeUnplaced: *unplaced, BaseURL: *base, Title: *title, Tiles: *tiles, PointsLimit: *pointsLimit}
	if !*noImages {
		files := imagery.NewFiles(a, *media, true)
		if err := keptOriginals(a, files, *kept, *db); err != nil {
			return err
		}
		o.Images = &publish.Images{Files: files, Derivatives: imagery.NewDerivatives(a.Images, lane.Default(), ""), Originals: *originals}
	}
	r, err := publish.Publish(ctx, a, out, o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "published %d photos (%d on the map) to %s in %.1f s: %d files, %.1f MB, %d written, %d removed",
		r.Photos, r.Placed, out, r.Took.Seconds(), r.Files, float64(r.Bytes)/1e6, r.Written, r.Removed)
	if r.Images > 0 || r.Missing > 0 {
		fmt.Fprintf(stdout, "; images of %d photos (%d files missing)", r.Images, r.Missing)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "the custody chain's head is in %s: a copy kept away from the archive (syriamap verify --since reads it)\n", filepath.Join(out, "custody-head.json"))
	return nil
}

// keptOriginals lets files read the pictures the archive keeps in its
// store of originals (spec, as --originals takes it), as the server does:
// an upload's copy is gone once its job is done. Without a spec, an
// archive with no originals folder beside it has none to read.
func keptOriginals(a *archive.Archive, files *imagery.Files, spec, db string) error {
	if _, err := os.Stat(filepath.Join(localDir(db), "originals")); spec == "" && err != nil {
		return nil
	}
	if err := withOriginals(a, spec, db); err != nil {
		return err
	}
	files.KeptIn(func() originals.Store { return a.Originals })
	return nil
}
