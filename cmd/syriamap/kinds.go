package main

import (
	"bufio"
	"fmt"
	"io"

	"github.com/syriamap/syriamap/internal/geoparse/gen"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// writeKinds prints the bundled geocoder's table of kinds (gen.Kinds): per
// template, the captions, the places and precisions right, the mean
// confidence and the answers at ≥ 0.8 right; with misses, every wrong
// answer after it.
func writeKinds(stdout io.Writer, per int, seed uint64, misses bool) error {
	g, err := bundledGazetteer()
	if err != nil {
		return err
	}
	rows := gen.MeasureKinds(geocode.New(g), gen.Kinds(g, seed, per))
	out := bufio.NewWriter(stdout)
	if err := gen.WriteKinds(out, rows); err != nil {
		return err
	}
	if misses {
		for _, r := range rows {
			for _, m := range r.Misses {
				fmt.Fprintf(out, "%s | %s: %s\n", r.Kind, r.Template, m)
			}
		}
	}
	return out.Flush()
}
