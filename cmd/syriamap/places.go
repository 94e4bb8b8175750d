package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/photo"
)

const placesUsage = `Usage:
  syriamap places search [--db PATH] [--limit N] NAME
                                   places by any spelling, English or Arabic: kind, where, ids
                                   (with --db, the archive's added places too)
  syriamap places export           the whole bundled gazetteer as GeoJSON (one Feature per place)
  syriamap places export --added [--db PATH]
                                   the places the archive's editors added, as JSON Lines
  syriamap places add [--db PATH] --name NAME --kind KIND --point LON,LAT [--name-ar NAME]
                      [--alias NAME]… [--parent ID] [--source URL] [--by WHO]
                                   adds a place the gazetteer lacks to the archive
  syriamap places import [--db PATH] FILE
                                   adds the places of an export (JSON Lines), all or none
  syriamap places remove|restore [--db PATH] --reason TEXT ID
                                   takes back a place an editor added (its photos return
                                   to the geocoder), or brings a removed one back
  syriamap places move [--db PATH] --point LON,LAT --reason TEXT ID
                                   moves a place an editor added
  syriamap places unknown [--db PATH]
                                   names the archive's captions read as places that the
                                   gazetteer lacks, most photos first`

// runPlaces looks at the gazetteer and adds to the archive's: search,
// export, add, import, unknown.
func runPlaces(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, placesUsage)
		return usageError{"places: want search, export, add, import or unknown"}
	}
	switch args[0] {
	case "search":
		return runPlacesSearch(ctx, args[1:], stdout, stderr)
	case "export":
		return runPlacesExport(ctx, args[1:], stdout, stderr)
	case "add":
		return runPlacesAdd(ctx, args[1:], stdout, stderr)
	case "import":
		return runPlacesImport(ctx, args[1:], stdout, stderr)
	case "unknown":
		return runPlacesUnknown(ctx, args[1:], stdout, stderr)
	case "remove", "restore", "move":
		return runPlacesChange(ctx, args[0], args[1:], stdout, stderr)
	}
	fmt.Fprintln(stderr, placesUsage)
	return usageError{"places: unknown subcommand " + args[0]}
}

func runPlacesSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("places search", flag.ContinueOnError)
	fl.SetOutput(stderr)
	limit := fl.Int("limit", 20, "at most this many places")
	db := fl.String("db", "", "an archive whose added places are searched too")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	name := strings.Join(fl.Args(), " ")
	if strings.TrimSpace(name) == "" {
		return usageError{"places search: give a name"}
	}
	a, closeDB, err := placesOf(ctx, *db, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	g := a.Gazetteer()
	found := a.SearchPlaces(name, *limit, nil)
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

func runPlacesExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("places export", flag.ContinueOnError)
	fl.SetOutput(stderr)
	added := fl.Bool("added", false, "the places the archive's editors added, as JSON Lines (for places import)")
	db := dbFlag(fl)
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if *added {
		return exportAdded(ctx, *db, stdout, stderr)
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

// placesOf is the archive at db for its places (read-only), or the
// bundled gazetteer alone when db is "".
func placesOf(ctx context.Context, db string, stderr io.Writer) (*archive.Archive, func(), error) {
	if db != "" {
		return openArchive(ctx, db, openReadOnly, stderr)
	}
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		return nil, nil, err
	}
	return archive.New(nil, g), func() {}, nil
}

// exportAdded writes the archive's added places as JSON Lines.
func exportAdded(ctx context.Context, db string, stdout, stderr io.Writer) error {
	a, closeDB, err := openArchive(ctx, db, openReadOnly, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	places, err := a.AddedPlaces(ctx)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(stdout)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, p := range places {
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func runPlacesAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("places add", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	var p photo.AddedPlace
	var aliases multiFlag
	fl.StringVar(&p.Name, "name", "", "the name English-language news uses")
	fl.StringVar(&p.NameAr, "name-ar", "", "the Arabic name")
	fl.Var(&aliases, "alias", "another spelling, Latin or Arabic (may repeat)")
	fl.StringVar(&p.Kind, "kind", "", "camp, neighbourhood, village, town, city, landmark, crossing, region…")
	point := fl.String("point", "", "where it is: LON,LAT in decimal degrees")
	fl.StringVar(&p.Parent, "parent", "", "the id of the place it lies in (syriamap places search NAME)")
	fl.StringVar(&p.Source, "source", "", "the page the point was read from")
	fl.StringVar(&p.Country, "country", "", "for a place abroad: its country's ISO code (TR, LB, JO, IQ, GR…)")
	fl.BoolVar(&p.Distinct, "distinct", false, "another place of a name and kind the gazetteer has in that country")
	by := fl.String("by", cmp.Or(os.Getenv("USER"), "syriamap places add"), "who adds it")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	at, err := parsePoint(*point)
	if err != nil {
		return err
	}
	p.Lon, p.Lat, p.Names = at[0], at[1], aliases
	a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	kept, err := a.AddPlaces(ctx, []photo.AddedPlace{p}, *by)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "added %s (%s) at %.5f, %.5f; captions naming it find it from the next import (syriamap regeocode places the archive's photos again)\n",
		kept[0].ID, kept[0].Name, kept[0].Lat, kept[0].Lon)
	return nil
}

func runPlacesChange(ctx context.Context, what string, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("places "+what, flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	reason := fl.String("reason", "", "why: kept in the custody record")
	by := fl.String("by", cmp.Or(os.Getenv("USER"), "syriamap places "+what), "who does it")
	point := fl.String("point", "", "for move: the new point, LON,LAT")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return usageError{"places " + what + ": give one place id (arc:…)"}
	}
	c := photo.PlaceChange{ID: fl.Arg(0), Author: *by, Reason: *reason, Remove: what == "remove", Restore: what == "restore"}
	if what == "move" {
		at, err := parsePoint(*point)
		if err != nil {
			return err
		}
		c.Lon, c.Lat = &at[0], &at[1]
	}
	a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	moved, err := a.ChangePlace(ctx, c)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s; %d photos moved\n", c.ID, map[string]string{"remove": "removed", "restore": "restored", "move": "moved"}[what], moved)
	return nil
}

func runPlacesImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("places import", flag.ContinueOnError)
	fl.SetOutput(stderr)
	db := dbFlag(fl)
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return usageError{"places import: give one file of places (syriamap places export --added)"}
	}
	name := fl.Arg(0)
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	var places []photo.AddedPlace
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var p photo.AddedPlace
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return photo.Errorf(photo.EInvalid, "%s:%d: %v", name, line, err)
		}
		if err := archive.CheckAddedPlace(p); err != nil {
			return photo.Errorf(photo.EInvalid, "%s:%d: %v", name, line, err)
		}
		places = append(places, p)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	n, err := a.ImportPlaces(ctx, places)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	fmt.Fprintf(stdout, "added %d of %d places from %s (the others the archive has)\n", n, len(places), name)
	return nil
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
