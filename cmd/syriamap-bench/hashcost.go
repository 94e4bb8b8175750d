package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/syriamap/syriamap/internal/evidence/framehash"
	"github.com/syriamap/syriamap/internal/evidence/pdq"
	"github.com/syriamap/syriamap/internal/resize"
)

// hashShare prints what hashing one picture on arrival costs, step by
// step, on one core (issue 70): reading the JPEG's DC plane, the frame
// hash and the PDQ hash from it, and the frame lookup among a million
// hashes; beside them the full decode the DC plane replaced, and import's
// own time per picture (perPicture: --frames-later's, on both cores).
func hashShare(file string, perPicture time.Duration, stdout io.Writer) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	ctx := context.Background()
	p := resize.New(resize.DefaultBudget)
	var red resize.Reduced
	plane := timeEach(20, func() {
		if red, err = p.DecodeReduced(ctx, bytes.NewReader(data), 96); err != nil {
			panic(err)
		}
	})
	if red.Scale != resize.DCScale {
		return fmt.Errorf("%s: hashed at scale %d, not from its DC plane", file, red.Scale)
	}
	var h framehash.Hash
	frame := timeEach(200, func() { h, _ = framehash.OfScaled(red.Image, red.Width, red.Height, red.Scale) })
	pdqTook := timeEach(200, func() { pdq.HashScaled(red.Image, red.Width, red.Height, red.Scale) })
	x := framehash.NewIndex()
	r := rand.New(rand.NewPCG(7, 70))
	for i := range 1_000_000 {
		x.Add(int64(i), framehash.Hash(r.Uint64()>>1))
	}
	lookup := timeEach(1000, func() { x.Near(h, framehash.Radius, func(framehash.Match) {}) })
	whole := timeEach(5, func() {
		if _, err := p.DecodeWhole(ctx, bytes.NewReader(data)); err != nil {
			panic(err)
		}
	})
	all := plane + frame + pdqTook + lookup
	fmt.Fprintf(stdout, "hash on arrival, per picture (one core): DC plane %.1f ms + frame hash %.2f ms + PDQ %.2f ms + lookup among 1,000,000 %.2f ms = %.1f ms (the full decode it replaced: %.0f ms; import's own time a picture, --frames-later on both cores: %.1f ms)\n",
		ms(plane), ms(frame), ms(pdqTook), ms(lookup), ms(all), ms(whole), ms(perPicture))
	return nil
}

// timeEach is the median time of n runs of fn.
func timeEach(n int, fn func()) time.Duration {
	took := make([]time.Duration, n)
	for i := range took {
		start := time.Now()
		fn()
		took[i] = time.Since(start)
	}
	slices.Sort(took)
	return took[n/2]
}
