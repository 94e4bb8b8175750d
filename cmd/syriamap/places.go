package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/gazetteer"
)

const placesUsage = `Usage:
  syriamap places search [--limit N] NAME   places by any spelling, English or Arabic: kind, where, ids
  syriamap places export                    the whole gazetteer as GeoJSON (one Feature per place)
  syriamap places unknown [--db PATH]       names the archive's captions read as places that the
                                            gazetteer lacks, most photos first`

// runPlaces looks at the gazetteer: search, export, unknown.
func runPlaces(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, placesUsage)
		return usageError{"places: want search, export or unknown"}
	}
	switch args[0] {
	case "search":
		return runPlacesSearch(args[1:], stdout, stderr)
	case "export":
		return runPlacesExport(args[1:], stdout, stderr)
	case "unknown":
		return runPlacesUnknown(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintln(stderr, placesUsage)
	return usageError{"places: unknown subcommand " + args[0]}
}

func runPlacesSearch(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("places search", flag.ContinueOnError)
	fl.SetOutput(stderr)
	limit := fl.Int("limit", 20, "at most this many places")
	if help, err := parseFlags(fl, args); help || err != nil {
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
	fmt.Fprintln(w, "ID\tNAME\tARABIC\tKIND\tIN\tLAT\tLON\tOTHER IDS")
	for _, p := range found {
		lat, lon := "—", "—"
		if p.Located {
			lat, lon = fmt.Sprintf("%.5f", p.Point.Lat()), fmt.Sprintf("%.5f", p.Point.Lon())
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.ID, p.Name, orDash(p.NameAr), p.Kind, orDash(within(g, p)), lat, lon,
			orDash(strings.Join(p.Refs, " ")))
	}
	return w.Flush()
}

// within says where a place is: its city, subdistrict, district and
// governorate, or its country abroad.
func within(g *gazetteer.Gazetteer, p *gazetteer.Place) string {
	var parts []string
	if q := g.ByID(p.Parent); q != nil && p.Parent != "" {
		parts = append(parts, q.Name)
	}
	for _, a := range []gazetteer.AdminRef{p.Subdistrict, p.District, p.Governorate} {
		if a.Name != "" && a.Name != p.Name && (len(parts) == 0 || parts[len(parts)-1] != a.Name) {
			parts = append(parts, a.Name)
		}
	}
	if p.Country != "SY" {
		parts = append(parts, p.Country)
	}
	return strings.Join(parts, " › ")
}

// exportFeature is one place as GeoJSON; the properties are the columns
// GIS users filter by.
type exportFeature struct {
	Type       string         `json:"type"`
	ID         string         `json:"id"`
	Geometry   *exportPoint   `json:"geometry"`
	Properties map[string]any `json:"properties"`
}

type exportPoint struct {
	Type        string     `json:"type"`
	Coordinates [2]float64 `json:"coordinates"`
}

func runPlacesExport(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("places export", flag.ContinueOnError)
	fl.SetOutput(stderr)
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(stdout, 64<<10)
	bw.WriteString(`{"type":"FeatureCollection","features":[` + "\n")
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := range g.Places() {
		p := &g.Places()[i]
		if i > 0 {
			bw.WriteString(",")
		}
		f := exportFeature{Type: "Feature", ID: p.ID, Properties: map[string]any{
			"id": p.ID, "name": p.Name, "kind": string(p.Kind), "names": strings.Join(p.Names, "|"), "name_ar": p.NameAr,
			"governorate": p.Governorate.Name, "district": p.District.Name, "subdistrict": p.Subdistrict.Name,
			"ocha_pcode": p.PCode(), "geonames_id": p.GeoNamesID(), "population": p.Population, "country": p.Country,
			"parent": p.Parent, "refs": strings.Join(p.IDs(), " "), "point_from": p.PointFrom, "sources": strings.Join(p.Sources, " "),
		}}
		if p.Located {
			f.Geometry = &exportPoint{Type: "Point", Coordinates: [2]float64{p.Point.Lon(), p.Point.Lat()}}
		}
		if err := enc.Encode(f); err != nil {
			return err
		}
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

func runPlacesUnknown(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("places unknown", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	limit := fl.Int("limit", 50, "at most this many names (0 for all)")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	a, closeDB, err := openArchive(ctx, *db, readingMode(*db, false), stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	names, err := a.UnknownNames(ctx)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		fmt.Fprintln(stdout, "every name the captions read as a place is in the gazetteer")
		return nil
	}
	w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tPHOTOS\tFOR EXAMPLE")
	for i, n := range names {
		if *limit > 0 && i == *limit {
			break
		}
		fmt.Fprintf(w, "%s\t%d\t%s\n", printable(n.Name), n.Photos, n.Example)
	}
	w.Flush()
	fmt.Fprintf(stdout, "%d names the gazetteer lacks (syriamap list --q NAME shows their photos)\n", len(names))
	return nil
}
