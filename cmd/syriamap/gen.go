package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/gen"
)

// runGen prints realistic synthetic captions, for trying and measuring
// syriamap at scale: syriamap gen --n 1000000 > captions.txt.
func runGen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("gen", flag.ContinueOnError)
	fl.SetOutput(stderr)
	n := fl.Int("n", 1000, "how many captions")
	seed := fl.Uint64("seed", 1, "the random seed: the same seed gives the same captions")
	format := fl.String("format", "txt", "txt (blank-line separated) or jsonl")
	lang := fl.String("lang", "en", "en (English captions) or ar (Arabic ones)")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if *n < 0 {
		return usageError{"--n must be 0 or more"}
	}
	if *format != "txt" && *format != "jsonl" {
		return usageError{fmt.Sprintf("--format %q: want txt or jsonl", *format)}
	}
	if *lang != "en" && *lang != "ar" {
		return usageError{fmt.Sprintf("--lang %q: want en or ar", *lang)}
	}
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		return err
	}
	gn := gen.New(g, *seed)
	next := gn.Caption
	if *lang == "ar" {
		next = gn.ArabicCaption
	}
	w := bufio.NewWriterSize(stdout, 1<<20)
	for i := 0; i < *n; i++ {
		if i%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		c := next()
		if *format == "jsonl" {
			b, _ := json.Marshal(map[string]string{"caption": c})
			w.Write(b)
			w.WriteByte('\n')
			continue
		}
		w.WriteString(c)
		w.WriteString("\n\n")
	}
	return w.Flush()
}
