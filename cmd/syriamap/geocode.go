package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"sort"
	"unicode/utf8"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
	"github.com/syriamap/syriamap/internal/photo"
)

// runGeocode prints one JSON object per caption read from the files (or
// stdin), in input order.
func runGeocode(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("geocode", flag.ContinueOnError)
	fl.SetOutput(stderr)
	samples := fl.Bool("samples", false, "geocode the bundled sample captions")
	explain := fl.Bool("explain", false, "print, for each caption, the names read, every reading weighed and the confidence model's features with their shares, instead of JSON")
	db := fl.String("db", "", "geocode as this archive does: with the places its editors added, the spellings their corrections taught and its confidence refitted on their reviews")
	kinds := fl.Bool("kinds", false, "print, per template of each kind of place (village, crossing, camp, quarter, landmark lacking, town abroad, place abroad lacking, place named by its relation to a bigger one), how the geocoder does on captions filled with every place of that kind")
	per := fl.Int("per", 0, "with --kinds: at most this many places per template, chosen by --seed (0: every place)")
	seed := fl.Uint64("seed", 1, "with --kinds: the seed of the captions")
	misses := fl.Bool("misses", false, "with --kinds: print every wrong answer after the table")
	refText := fl.String("ref", "", "read relative dates (\"on Sunday\", \"أمس\") and days without a year against this date, YYYY-MM-DD (or YYYY-MM, YYYY): the day the captions' page was published, as an import's published column")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: syriamap geocode [--samples] [--explain] [--ref DATE] [--kinds [--per N] [--seed N] [--misses]] [FILE...]\n\nCaptions are paragraphs separated by blank lines; stdin is read when no FILE is given.")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if *kinds {
		return writeKinds(stdout, *per, *seed, *misses)
	}
	var ref caption.Date
	if *refText != "" {
		d, err := photo.ParseDate(*refText)
		if err != nil {
			return usageError{"--ref: " + err.Error()}
		}
		ref = d
	}
	docs, err := readDocs(fl.Args(), *samples, stdin)
	if err != nil {
		return err
	}
	gc, closeDB, err := geocoderOf(ctx, *db, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	var texts []string
	for _, d := range docs {
		texts = append(texts, caption.Split(d.text)...)
	}
	out := bufio.NewWriterSize(stdout, 1<<16)
	if *explain {
		for i, text := range texts {
			if i > 0 {
				fmt.Fprintln(out)
			}
			fmt.Fprintf(out, "caption: %s\n", text)
			ex := gc.Explain(caption.ParseAt(text, ref))
			if err := ex.Write(out); err != nil {
				return err
			}
		}
		return out.Flush()
	}
	if err := geocodeAll(ctx, gc, texts, ref, out); err != nil {
		return err
	}
	return out.Flush()
}

// geocoderOf is the archive at db's geocoder, or the bundled one when db
// is "".
func geocoderOf(ctx context.Context, db string, stderr io.Writer) (*geocode.Geocoder, func(), error) {
	if db == "" {
		g, err := bundledGazetteer()
		if err != nil {
			return nil, nil, err
		}
		return geocode.New(g), func() {}, nil
	}
	a, closeDB, err := openArchive(ctx, db, openReadOnly, stderr)
	if err != nil {
		return nil, nil, err
	}
	return a.Geocoder(), closeDB, nil
}

// geocodeBatch is how many captions one worker reads at a time: enough
// to keep the hand-offs rare, few enough that the output flows.
const geocodeBatch = 512

// geocodeAll reads and geocodes texts on every core and writes their
// records to w in input order.
func geocodeAll(ctx context.Context, gc *geocode.Geocoder, texts []string, ref caption.Date, w io.Writer) error {
	type batch struct {
		texts []string
		out   chan []byte // the batch's records, once encoded
	}
	workers := runtime.GOMAXPROCS(0)
	work := make(chan batch, workers)
	order := make(chan batch, 2*workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer close(work)
		defer close(order)
		for i := 0; i < len(texts); i += geocodeBatch {
			b := batch{texts[i:min(i+geocodeBatch, len(texts))], make(chan []byte, 1)}
			select {
			case order <- b:
			case <-ctx.Done():
				return
			}
			select {
			case work <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range workers {
		go func() {
			var buf bytes.Buffer
			for b := range work {
				buf.Reset()
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false)
				for _, text := range b.texts {
					c := caption.ParseAt(text, ref)
					_ = enc.Encode(newRecord(c, gc.Geocode(c))) // records always encode
				}
				b.out <- bytes.Clone(buf.Bytes())
			}
		}()
	}
	for b := range order {
		var data []byte
		select {
		case data = <-b.out:
		case <-ctx.Done():
			return ctx.Err()
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	return ctx.Err()
}

type doc struct{ name, text string }

// readDocs reads every file whole before any output, so that an unreadable
// file stops the command before it prints anything.
func readDocs(files []string, samples bool, stdin io.Reader) ([]doc, error) {
	var docs []doc
	if samples {
		names, err := fs.Glob(geodata.Samples, "*.txt")
		if err != nil {
			return nil, err
		}
		sort.Strings(names)
		for _, n := range names {
			data, err := fs.ReadFile(geodata.Samples, n)
			if err != nil {
				return nil, err
			}
			docs = append(docs, doc{"samples/" + n, string(data)})
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading captions: %w", err)
		}
		if !utf8.Valid(data) {
			return nil, fmt.Errorf("reading captions: %s is not UTF-8 text", f)
		}
		docs = append(docs, doc{f, string(data)})
	}
	if len(files) == 0 && !samples {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading captions from stdin: %w", err)
		}
		if !utf8.Valid(data) {
			return nil, fmt.Errorf("reading captions: stdin is not UTF-8 text")
		}
		docs = append(docs, doc{"stdin", string(data)})
	}
	return docs, nil
}

// bundledGazetteer loads the gazetteer embedded in the binary.
func bundledGazetteer() (*gazetteer.Gazetteer, error) { return gazetteer.Load(geodata.Gazetteer) }

// record is one line of "syriamap geocode" output. Its shape is a contract
// that other tools rely on.
type record struct {
	Text          string         `json:"text"`
	Date          *string        `json:"date"`
	DatePrecision *string        `json:"date_precision"`
	Photographer  *string        `json:"photographer"`
	Agency        *string        `json:"agency"`
	Place         *placeJSON     `json:"place"`
	Precision     string         `json:"precision"`
	Confidence    float64        `json:"confidence"`
	Mention       *string        `json:"mention"`
	Note          string         `json:"note,omitempty"`
	Alternatives  []alternatives `json:"alternatives"`
}

type placeJSON struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	NameAr      *string `json:"name_ar"` // the Arabic name, null when no source gives one
	Kind        string  `json:"kind"`
	Lat         float64 `json:"lat"`
	Lon         float64 `json:"lon"`
	Country     string  `json:"country"`
	Governorate *string `json:"governorate"`
}

type alternatives struct {
	placeJSON
	Score   float64 `json:"score"`
	Mention string  `json:"mention"`
}

func newRecord(c caption.Caption, r geocode.Result) record {
	rec := record{
		Text:         c.Text,
		Photographer: orNull(c.Credit.Photographer),
		Agency:       orNull(c.Credit.Agency),
		Precision:    string(r.Precision),
		Confidence:   r.Confidence,
		Mention:      orNull(r.Mention),
		Note:         r.Note,
		Alternatives: []alternatives{},
	}
	if !c.Date.IsZero() {
		rec.Date, rec.DatePrecision = orNull(c.Date.String()), orNull(string(c.Date.Precision))
	}
	if r.Place != nil {
		rec.Place = toPlaceJSON(r.Place)
	}
	for _, a := range r.Alternatives {
		rec.Alternatives = append(rec.Alternatives, alternatives{*toPlaceJSON(a.Place), a.Score, a.Mention})
	}
	return rec
}

func toPlaceJSON(p *gazetteer.Place) *placeJSON {
	return &placeJSON{ID: p.ID, Name: p.Name, NameAr: orNull(p.NameAr), Kind: string(p.Kind), Lat: p.Point.Lat(), Lon: p.Point.Lon(),
		Country: p.Country, Governorate: orNull(p.Governorate.Name)}
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
