package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// parsePoint reads a --point flag: LON,LAT in decimal degrees, in range.
func parsePoint(point string) ([2]float64, error) {
	lon, lat, ok := strings.Cut(point, ",")
	x, err1 := photo.ParseDecimal(strings.TrimSpace(lon))
	y, err2 := photo.ParseDecimal(strings.TrimSpace(lat))
	if !ok || err1 != nil || err2 != nil {
		return [2]float64{}, usageError{fmt.Sprintf("--point %q: want LON,LAT in decimal degrees, e.g. 37.16,36.20", point)}
	}
	if !photo.ValidPoint(x, y) {
		return [2]float64{}, usageError{fmt.Sprintf("--point %q: out of range (lon −180…180, lat −90…90)", point)}
	}
	return [2]float64{x, y}, nil
}

// runSetPlace stores a person's correction of a photo's place.
func runSetPlace(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("set-place", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	point := fl.String("point", "", "a bare point LON,LAT instead of a place id")
	note := fl.String("note", "", "why: the source of the correction")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap set-place [--db PATH] [--note TEXT] PHOTO_ID (PLACE_ID | --point LON,LAT)")
		fl.PrintDefaults()
	}
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	rest := fl.Args()
	var pt *[2]float64
	if *point != "" {
		at, err := parsePoint(*point)
		if err != nil {
			return err
		}
		pt = &at
	}
	switch {
	case len(rest) == 2 && pt == nil, len(rest) == 1 && pt != nil:
	default:
		fl.Usage()
		return usageError{"set-place: give a photo id and either a place id or --point"}
	}
	a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	placeID := ""
	if len(rest) == 2 {
		placeID = rest[1]
	}
	if err := a.SetPlace(ctx, rest[0], placeID, pt, *note); err != nil {
		return err
	}
	p, err := a.OwnPhoto(ctx, rest[0])
	if err != nil {
		return err
	}
	name := p.Place.Name
	if name == "" {
		name = "a point"
	}
	fmt.Fprintf(stdout, "photo %s is now at %s (%.5f, %.5f); the correction survives re-imports and re-geocoding\n",
		p.ID, name, p.Place.Lat, p.Place.Lon)
	return nil
}

// runRegeocode re-runs the geocoder over the archive.
func runRegeocode(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("regeocode", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	// The confidence is refitted on the archive's reviews first, when it
	// has enough of them.
	_, _, why, err := a.RefitConfidence(ctx)
	if err != nil {
		return fmt.Errorf("refitting the confidence on the archive's reviews: %w", err)
	}
	fmt.Fprintf(stdout, "confidence: %s\n", why)
	bar := newProgressBar(stderr)
	changed, moved, err := a.Regeocode(ctx, func(done, total int) { bar.update("re-geocoding", int64(done), int64(total)) })
	bar.clear()
	if err != nil {
		return err
	}
	n, _ := a.Count(ctx)
	fmt.Fprintf(stdout, "re-geocoded %d photos: %d changed their geocoded place, %d moved on the map (corrected photos keep their place)\n", n, changed, moved)
	return nil
}
