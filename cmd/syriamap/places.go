package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/gazetteer"
)

// runPlaces searches the gazetteer: syriamap places search NAME.
func runPlaces(_ context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "search" {
		fmt.Fprintln(stderr, "Usage: syriamap places search [--limit N] NAME")
		return usageError{"places: want the search subcommand"}
	}
	fl := flag.NewFlagSet("places search", flag.ContinueOnError)
	fl.SetOutput(stderr)
	limit := fl.Int("limit", 20, "at most this many places")
	if help, err := parseFlags(fl, args[1:]); help || err != nil {
		return err
	}
	name := strings.Join(fl.Args(), " ")
	if strings.TrimSpace(name) == "" {
		return usageError{"places search: give a name"}
	}
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		return err
	}
	found := (&archive.Archive{Gazetteer: g}).SearchPlaces(name, *limit)
	if len(found) == 0 {
		fmt.Fprintf(stdout, "no place is named %q\n", name)
		return nil
	}
	w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tKIND\tGOVERNORATE\tCOUNTRY\tLAT\tLON")
	for _, p := range found {
		lat, lon := "—", "—"
		if p.Located {
			lat, lon = fmt.Sprintf("%.5f", p.Point.Lat()), fmt.Sprintf("%.5f", p.Point.Lon())
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.ID, p.Name, p.Kind, orDash(p.Governorate.Name), p.Country, lat, lon)
	}
	return w.Flush()
}
