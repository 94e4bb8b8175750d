package geodata

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"
)

// TestEmbedded checks each embedded file is what the packages reading
// it expect: a rebuild (go run ./geodata/build) that wrote an empty,
// truncated or mis-shaped file fails here, not in whoever reads it.
func TestEmbedded(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func() error
	}{
		{"gazetteer.tsv: a header and thousands of places, each row as wide", func() error {
			r := csv.NewReader(bytes.NewReader(Gazetteer))
			r.Comma, r.LazyQuotes = '\t', true
			rows, err := r.ReadAll()
			if err != nil {
				return err
			}
			if len(rows) < 5000 || strings.Join(rows[0][:4], " ") != "id kind name name_ar" {
				return fmt.Errorf("%d rows, header %v", len(rows), rows[0])
			}
			return nil
		}},
		{"attribution.json: sources, each named, licensed and linked", func() error {
			var a struct {
				Sources []struct{ Name, URL, Licence string }
			}
			if err := json.Unmarshal(Attribution, &a); err != nil {
				return err
			}
			if len(a.Sources) == 0 {
				return fmt.Errorf("no sources")
			}
			for _, s := range a.Sources {
				if s.Name == "" || s.Licence == "" || !strings.HasPrefix(s.URL, "https://") {
					return fmt.Errorf("a source without name, licence or address: %+v", s)
				}
			}
			return nil
		}},
		{"basemap.geojson: features with geometries", func() error {
			var fc struct {
				Features []struct {
					Type     string
					Geometry struct{ Type string }
				}
			}
			if err := json.Unmarshal(Basemap, &fc); err != nil {
				return err
			}
			if len(fc.Features) < 10 {
				return fmt.Errorf("%d features", len(fc.Features))
			}
			for _, f := range fc.Features {
				if f.Type != "Feature" || f.Geometry.Type == "" {
					return fmt.Errorf("a feature %+v", f)
				}
			}
			return nil
		}},
		{"the GED events: a gzipped CSV of 16,566 events", func() error {
			zr, err := gzip.NewReader(bytes.NewReader(EventsGED))
			if err != nil {
				return err
			}
			rows, err := csv.NewReader(zr).ReadAll()
			if err != nil {
				return err
			}
			if len(rows)-1 != 16566 {
				return fmt.Errorf("%d events", len(rows)-1)
			}
			return nil
		}},
		{"samples: caption documents", func() error {
			names, err := fs.Glob(Samples, "*.txt")
			if err != nil || len(names) == 0 {
				return fmt.Errorf("%v %v", names, err)
			}
			for _, n := range names {
				f, err := Samples.Open(n)
				if err != nil {
					return err
				}
				b, err := io.ReadAll(f)
				f.Close()
				if err != nil || len(bytes.TrimSpace(b)) == 0 {
					return fmt.Errorf("%s: empty (%v)", n, err)
				}
			}
			return nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestCiteGED: the citation names the version asked for, twice (the
// dataset and its codebook), and nothing is left unfilled.
func TestCiteGED(t *testing.T) {
	for _, version := range []string{EventsGEDVersion, "25.1"} {
		got := CiteGED(version)
		if strings.Count(got, "version "+version) != 2 || strings.Contains(got, "%") {
			t.Errorf("CiteGED(%q) = %q", version, got)
		}
	}
}
