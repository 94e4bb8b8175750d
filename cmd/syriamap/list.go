package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/syriamap/syriamap/internal/photo"
)

// runList lists archived photos: id, date, place and the start of the
// caption, newest first.
func runList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("list", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	unplaced := fl.Bool("unplaced", false, "only the photos the geocoder could not place")
	q := fl.String("q", "", "full-text search over captions")
	agency := fl.String("agency", "", "only this agency")
	from := fl.String("from", "", "window start: YYYY, YYYY-MM or YYYY-MM-DD")
	to := fl.String("to", "", "window end: YYYY, YYYY-MM or YYYY-MM-DD")
	limit := fl.Int("limit", 50, "at most this many photos (0 for all)")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	f := photo.Filter{Unplaced: *unplaced, Query: *q, Limit: *limit}
	if *agency != "" {
		f.Agencies = []string{*agency}
	}
	for _, d := range []struct {
		flag, v string
		dst     *photo.Date
	}{{"--from", *from, &f.From}, {"--to", *to, &f.To}} {
		if d.v == "" {
			continue
		}
		v, err := photo.ParseDate(d.v)
		if err != nil {
			return usageError{d.flag + ": " + err.Error()}
		}
		*d.dst = v
	}
	a, closeDB, err := openArchive(ctx, *db, readingMode(*db, false), stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	photos, err := a.Photos(ctx, f)
	if err != nil {
		return err
	}
	n, err := a.CountPhotos(ctx, photo.Filter{Unplaced: f.Unplaced, Query: f.Query, Agencies: f.Agencies, From: f.From, To: f.To})
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tDATE\tPLACE\tCAPTION")
	for _, p := range photos {
		place := p.Place.Name
		if !p.Placed() {
			place = "(unplaced)"
		}
		text := p.Caption
		if len([]rune(text)) > 70 {
			text = string([]rune(text)[:69]) + "…"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", p.ID, orDash(p.Date.String()), printable(place), printable(text))
	}
	w.Flush()
	fmt.Fprintf(stdout, "%d of %d photos\n", len(photos), n)
	return nil
}

// printable shows a caption on a terminal as text: control characters
// (escape sequences a third party's file may hold, which would redraw or
// retitle the user's terminal) become U+FFFD, and tabs spaces.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.In(r, unicode.Bidi_Control):
			return '\uFFFD'
		}
		return r
	}, s)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
