package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/planar"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// Syria's administrative areas: OCHA's governorate polygons, for the
// governorate each place lies in, and Open-Syria's governorates, districts
// and subdistricts, with OCHA P-codes, press names and aliases.

type boundary struct {
	pcode string
	poly  orb.MultiPolygon
}

func (b *builder) loadBoundaries(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fc, err := geojson.UnmarshalFeatureCollection(data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, f := range fc.Features {
		var mp orb.MultiPolygon
		switch g := f.Geometry.(type) {
		case orb.MultiPolygon:
			mp = g
		case orb.Polygon:
			mp = orb.MultiPolygon{g}
		default:
			return fmt.Errorf("%s: governorate %v is a %T", path, f.Properties["PCODE"], g)
		}
		b.boundaries = append(b.boundaries, boundary{pcode: f.Properties.MustString("PCODE", ""), poly: mp})
	}
	return nil
}

// governorateAt returns the P-code of the governorate whose OCHA boundary
// holds pt, or of the nearest one for points on the border.
func (b *builder) governorateAt(pt orb.Point) string {
	best, bestD := "", math.Inf(1)
	for _, g := range b.boundaries {
		if planar.MultiPolygonContains(g.poly, pt) {
			return g.pcode
		}
		for _, poly := range g.poly {
			for _, ring := range poly {
				for _, v := range ring {
					if d := planar.DistanceSquared(v, pt); d < bestD {
						best, bestD = g.pcode, d
					}
				}
			}
		}
	}
	return best
}

// Open-Syria records, as far as the gazetteer needs them.
type osRecord struct {
	ID            string `json:"id"`
	GovernorateID string `json:"governorateId"`
	DistrictID    string `json:"districtId"`
	Name          struct {
		En string `json:"en"`
		Ar string `json:"ar"`
	} `json:"name"`
	Aliases []struct {
		Value string `json:"value"`
	} `json:"aliases"`
	Centroid *struct {
		Latitude  float64 `json:"latitude"`
		Longitude float64 `json:"longitude"`
	} `json:"centroid"`
	Population *struct {
		Value int `json:"value"`
	} `json:"population"`
	ExternalIDs struct {
		OchaPcode string `json:"ochaPcode"`
	} `json:"externalIds"`
}

// loadOpenSyria adds the 14 governorates, 62 districts and 272
// subdistricts, each at its area's centroid (not its seat's point), and
// records their names for every place's administrative chain.
func (b *builder) loadOpenSyria(dir string) error {
	for _, level := range []struct {
		file string
		kind gazetteer.Kind
	}{{"governorates.json", gazetteer.Governorate}, {"districts.json", gazetteer.District}, {"subdistricts.json", gazetteer.Subdistrict}} {
		var recs []osRecord
		if err := readJSON(filepath.Join(dir, level.file), &recs); err != nil {
			return err
		}
		for _, r := range recs {
			code := r.ExternalIDs.OchaPcode
			if code == "" {
				return fmt.Errorf("%s: %s has no OCHA P-code", level.file, r.ID)
			}
			rec := record{ids: []string{"ocha:" + code}, family: "os", name: r.Name.En, nameAr: r.Name.Ar, kind: level.kind,
				nameRank: rankOCHA, pointRank: rankOCHA, country: "SY"}
			for _, a := range r.Aliases {
				rec.names = append(rec.names, a.Value)
			}
			if r.Centroid != nil {
				rec.point, rec.located = orb.Point{r.Centroid.Longitude, r.Centroid.Latitude}, true
			}
			if r.Population != nil {
				rec.population = r.Population.Value
			}
			i := b.add(rec)
			b.admin[code] = gazetteer.AdminRef{Name: r.Name.En, PCode: code}
			setChain(&b.places[i], code, b.admin)
		}
	}
	for _, bd := range b.boundaries {
		if _, ok := b.admin[bd.pcode]; !ok {
			return fmt.Errorf("the boundary %s is no Open-Syria governorate", bd.pcode)
		}
	}
	if len(b.boundaries) != 14 {
		return fmt.Errorf("found %d governorate boundaries, want 14", len(b.boundaries))
	}
	return nil
}

// setChain sets a place's governorate, district and subdistrict from the
// deepest OCHA P-code that holds it (SY070300 is in SY0703, in SY07).
func setChain(p *gazetteer.Place, code string, admin map[string]gazetteer.AdminRef) {
	p.Governorate, p.District, p.Subdistrict = gazetteer.AdminRef{}, gazetteer.AdminRef{}, gazetteer.AdminRef{}
	if len(code) >= 4 {
		p.Governorate = admin[code[:4]]
	}
	if len(code) >= 6 {
		p.District = admin[code[:6]]
	}
	if len(code) >= 8 {
		p.Subdistrict = admin[code[:8]]
	}
}
