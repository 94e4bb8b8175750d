package publish

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
)

var worldBox = orb.Bound{Min: orb.Point{-180, -90}, Max: orb.Point{180, 90}}

// writers take the photos one by one, in the order lists show them
// (newest first), and write what each file needs of them.
type writers struct {
	// The explorer's compact points: one row per photo, with the values
	// its filters choose from as indices into these tables.
	points                                  bytes.Buffer
	agencies, photographers, places, govers *table
	agreements                              *table
	placeIDs                                []string // in the order met
	placeStats                              map[string]*placeStats
	// The features, in chunks of about chunkPhotos (see cutsAfter), as
	// the API writes them.
	chunk                 bytes.Buffer
	inChunk               int
	chunkFirst, chunkLast int // the first days of the chunk's first and last photos
	search                *searchIndex
	tiles                 []tilePoint
	geojson               *download
	csv                   *download
	byYear                map[int]*download
	yearSet               map[int]bool
	years                 []int
	encoded               []byte
	features              []byte
	// eventPhotos are the photos (their numbers, in the lists' order) an
	// editor linked to each event, by its key ("ucdp-ged:270123").
	eventPhotos map[string][]int
}

func (p *publisher) newWriters() (*writers, error) {
	w := &writers{agencies: newTable(), photographers: newTable(), places: newTable(), govers: newTable(), agreements: newTable(),
		search: newSearchIndex(), placeStats: map[string]*placeStats{}, byYear: map[int]*download{}, yearSet: map[int]bool{},
		eventPhotos: map[string][]int{}}
	var err error
	// The downloads gzipped (GDAL, and QGIS through it, reads them as
	// /vsigzip/…; any unzip tool opens them): a sixth of the size, on the host and on
	// the wire (a static host does not compress a file on the fly), which
	// keeps a million photos' site smaller than their archive.
	if w.geojson, err = p.s.download("download/photos.geojson.gz", featureCollectionHead); err != nil {
		return nil, err
	}
	if w.csv, err = p.s.download("download/photos.csv.gz", string(web.AppendCSVRow(nil, web.CSVHeader))); err != nil {
		return nil, err
	}
	return w, nil
}

const featureCollectionHead = `{"type":"FeatureCollection","features":[` + "\n"

// add writes one photo.
func (w *writers) add(ctx context.Context, p *publisher, ft *photo.Feature) error {
	k := p.n
	p.n++
	if _, ok := p.storyPhotos[ft.ID]; ok {
		p.storyPhotos[ft.ID] = true
	}
	if ft.Located {
		p.placed++
	}
	if ft.ImageFile != "" && p.o.Images != nil {
		ok, err := p.o.Images.publish(ctx, p.s, ft.ImageFile)
		if err != nil {
			return err
		}
		if ok {
			p.images++
		} else {
			p.missing++
		}
	}
	// The point: [id, lon, lat, from, to, placement, metadata, agency,
	// photographer, place, governorate, agreement, confidence, seq,
	// verified].
	b := w.points.AvailableBuffer()
	if k > 0 {
		b = append(b, ",\n"...)
	}
	b = web.AppendPoint(b, ft)
	from, to := ft.Date.Span() // 0, 0 when undated
	place := ft.PlaceID
	if place != "" {
		st := w.placeStats[place]
		if st == nil {
			st = &placeStats{months: map[string]int{}}
			w.placeStats[place] = st
			w.placeIDs = append(w.placeIDs, place)
		}
		st.add(ft)
	}
	// Each value with its labels as the server gives them: a place by
	// its id and the name this photo carries (a value the photos name
	// two ways is labelled, as the server does, by the largest name
	// among those counted: siterules.js laterLabel).
	g := p.a.Gazetteer()
	code := governorateCode(g, ft.Governorate)
	for _, v := range []int{w.agencies.index(ft.Agency, pagemodel.AgencyName(i18n.Locale{}, ft.Agency), pagemodel.FacetLabelAr(g, photo.FacetAgency, ft.Agency)),
		w.photographers.index(ft.Photographer, ft.Photographer, ""),
		w.places.labelled(place, ft.PlaceName, pagemodel.FacetLabelAr(g, photo.FacetPlace, place)),
		w.govers.index(ft.Governorate, code, pagemodel.FacetLabelAr(g, photo.FacetGovernorate, code)),
		w.agreements.index(ft.Check.Agreement, ft.Check.Agreement, "")} {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	b = append(b, ',')
	b = strconv.AppendFloat(b, ft.Confidence, 'f', -1, 64)
	// Its import sequence: lists in import order, as the server's are by
	// default, sort by it.
	b = append(b, ',')
	b = strconv.AppendInt(b, ft.Seq, 10)
	// Whether two editors placed it alike, blind (1) or not (0).
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(b2i(ft.Verified)), 10)
	b = append(b, ']')
	w.points.Write(b)

	// The feature, in its chunk and in the downloads.
	l := p.links(ft)
	w.encoded = web.AppendFeature(w.encoded[:0], ft, l, false)
	if w.inChunk > 0 {
		w.chunk.WriteString(",\n")
	}
	w.chunk.Write(w.encoded)
	if w.inChunk == 0 {
		w.chunkFirst = from
	}
	w.inChunk++
	w.chunkLast = from
	if w.inChunk >= chunkPhotos/4 && cutsAfter(ft.ID) || w.inChunk == 2*chunkPhotos {
		if err := w.flushChunk(p); err != nil {
			return err
		}
	}
	sep := ",\n"
	if k == 0 {
		sep = ""
	}
	if err := w.geojson.write(sep, w.encoded); err != nil {
		return err
	}
	if err := w.csv.write("", web.AppendCSVFeature(w.features[:0], ft, l, false)); err != nil {
		return err
	}
	if !ft.Date.IsZero() {
		y := ft.Date.Year
		d := w.byYear[y]
		if d == nil {
			var err error
			if d, err = p.s.download(fmt.Sprintf("download/photos-%d.geojson.gz", y), featureCollectionHead); err != nil {
				return err
			}
			w.byYear[y] = d
		}
		sep := ",\n"
		if d.n == 0 {
			sep = ""
		}
		if err := d.write(sep, w.encoded); err != nil {
			return err
		}
		w.yearSet[y] = true
	}
	w.search.add(int32(k), ft.Caption)
	for _, key := range strings.Fields(ft.Events) {
		w.eventPhotos[key] = append(w.eventPhotos[key], k)
	}
	if ft.Located {
		w.tiles = append(w.tiles, tilePoint{id: ft.ID, lon: ft.Lon, lat: ft.Lat, from: int32(from), to: int32(to)})
	}
	return nil
}

func (w *writers) flushChunk(p *publisher) error {
	if w.inChunk == 0 {
		return nil
	}
	body := append(append([]byte("[\n"), w.chunk.Bytes()...), "\n]\n"...)
	name, err := p.s.hashedGzip("data/photos", "p", ".json", body)
	if err != nil {
		return err
	}
	t := &p.chunks
	t.Hashes = append(t.Hashes, chunkHash(name))
	t.First, t.Last, t.Counts = append(t.First, w.chunkFirst), append(t.Last, w.chunkLast), append(t.Counts, w.inChunk)
	w.chunk.Reset()
	w.inChunk = 0
	return nil
}

// chunkTable lists the chunks in order: chunk i is
// data/photos/p.<Hashes[i]>.json.gz, holds Counts[i] photos, and its
// photos' first days run from First[i] down to Last[i] (YYYYMMDD, 0 for
// the undated, who come last). The photos are newest first, so a
// window's photos begin in the first chunk whose Last is not after the
// window's end, and a photo is found by its id and first day.
type chunkTable struct {
	Hashes []string `json:"hashes"`
	Counts []int    `json:"counts"`
	First  []int    `json:"first"`
	Last   []int    `json:"last"`
}

// cutsAfter reports whether a chunk ends after the photo id: one photo
// in chunkPhotos, chosen by its id alone, so that the chunks' bounds are
// the same from one publish to the next whatever photos come or go
// elsewhere, and a re-publish rewrites only the chunks that changed
// (content-defined chunking, as rsync and backup tools cut files). A
// chunk holds at least a quarter of chunkPhotos and at most twice it,
// so that no page reads a chunk much larger than the rest.
func cutsAfter(id string) bool {
	h := fnv.New32a()
	h.Write([]byte(id))
	return h.Sum32()%chunkPhotos == 0
}

// chunkHash is the hash part of a chunk's path, and chunkPath its path.
func chunkHash(p string) string {
	parts := strings.Split(path.Base(p), ".")
	return parts[1]
}

func chunkPath(hash string) string {
	return "data/photos/p." + hash + ".json.gz"
}

// finish writes what needs every photo: the points, the last chunk, the
// search index, the tiles, and closes the downloads.
func (w *writers) finish(p *publisher) error {
	if err := w.flushChunk(p); err != nil {
		return err
	}
	chunks, err := json.Marshal(p.chunks)
	if err != nil {
		return err
	}
	if p.manifest.Chunks, err = p.s.hashedGzip("data", "chunks", ".json", chunks); err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(`{"fields":["id","lon","lat","from","to","placement","metadata","agency","photographer","place","governorate","agreement","confidence","seq","verified"],`)
	for _, t := range []struct {
		key string
		t   *table
	}{{"agencies", w.agencies}, {"photographers", w.photographers}, {"places", w.places}, {"governorates", w.govers}, {"agreements", w.agreements}} {
		fmt.Fprintf(&b, "%q:", t.key)
		b.Write(t.t.json())
		b.WriteByte(',')
	}
	// A place is selected by any of its ids, as the server's filter takes
	// them (an OCHA P-code for a place filed under its GeoNames id).
	aliases := map[string]string{}
	for _, v := range w.places.values {
		if pl := p.a.Gazetteer().ByID(v[0]); pl != nil {
			for _, id := range pl.IDs() {
				if id != v[0] {
					aliases[id] = v[0]
				}
			}
		}
	}
	al, err := json.Marshal(aliases)
	if err != nil {
		return err
	}
	b.WriteString(`"aliases":`)
	b.Write(al)
	ids := map[string]bool{}
	for _, v := range w.agencies.values {
		ids[v[0]] = true
	}
	keys, err := json.Marshal(agencyKeys(ids))
	if err != nil {
		return err
	}
	b.WriteString(`,"agency_keys":`)
	b.Write(keys)
	b.WriteString(",\"points\":[\n")
	b.Write(w.points.Bytes())
	b.WriteString("\n]}\n")
	if p.manifest.Points, err = p.s.hashedGzip("data", "points", ".json", b.Bytes()); err != nil {
		return err
	}
	p.manifest.Search = map[string]string{}
	for key, body := range w.search.shards() {
		if p.manifest.Search[key], err = p.s.hashedGzip("data", "search-"+key, ".json", body); err != nil {
			return err
		}
	}
	spellings, err := json.Marshal(w.search.spellings(p.a.Spellings()))
	if err != nil {
		return err
	}
	if p.manifest.Spellings, err = p.s.hashedGzip("data", "spellings", ".json", spellings); err != nil {
		return err
	}
	tiles, overview, err := buildTiles(w.tiles)
	if err != nil {
		return err
	}
	if p.manifest.Tiles, err = p.s.hashed("data", "photos", ".pmtiles", tiles); err != nil {
		return err
	}
	if p.manifest.Overview, err = p.s.hashed("data", "overview", ".pmtiles", overview); err != nil {
		return err
	}
	p.manifest.OverviewZoom = OverviewZoom
	tail := "\n]}\n"
	if err := w.geojson.close(p.s, tail); err != nil {
		return err
	}
	if err := w.csv.close(p.s, ""); err != nil {
		return err
	}
	p.manifest.GeoJSON, p.manifest.CSV = w.geojson.path, w.csv.path
	p.manifest.Total = p.n
	w.years = slices.Sorted(maps.Keys(w.yearSet))
	p.manifest.Years = map[string]string{}
	for _, y := range w.years {
		d := w.byYear[y]
		if err := d.close(p.s, tail); err != nil {
			return err
		}
		p.manifest.Years[strconv.Itoa(y)] = d.path
	}
	return nil
}

// abort removes the downloads' scratch files after a failure.
func (w *writers) abort() {
	for _, d := range append([]*download{w.geojson, w.csv}, slices.Collect(maps.Values(w.byYear))...) {
		if d != nil && d.f != nil {
			d.f.Close()
			os.Remove(d.f.Name())
		}
	}
}

// table numbers the distinct values of a filter, in the order met.
type table struct {
	at     map[string]int
	values [][3]string // value, label, Arabic label ("" for none)
}

func newTable() *table { return &table{at: map[string]int{}} }

// index is value's number, -1 for none.
func (t *table) index(value, label, labelAr string) int {
	if value == "" {
		return -1
	}
	i, ok := t.at[value]
	if !ok {
		i = len(t.values)
		t.at[value] = i
		t.values = append(t.values, [3]string{value, label, labelAr})
	}
	return i
}

// labelled is the number of value under label, -1 for no value: a
// value written under two labels has a row for each.
func (t *table) labelled(value, label, labelAr string) int {
	if value == "" {
		return -1
	}
	key := value + "\x00" + label
	i, ok := t.at[key]
	if !ok {
		i = len(t.values)
		t.at[key] = i
		t.values = append(t.values, [3]string{value, label, labelAr})
	}
	return i
}

func (t *table) json() []byte {
	b := []byte{'['}
	for i, v := range t.values {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = web.AppendString(b, v[0])
		b = append(b, ',')
		b = web.AppendString(b, v[1])
		if v[2] != "" {
			b = append(b, ',')
			b = web.AppendString(b, v[2])
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

// download is a file for GIS tools streamed to disk (the whole
// archive's GeoJSON may be larger than is wise to hold), kept under its
// stable name and replaced only when its bytes change. A name ending in
// .gz is written gzipped.
type download struct {
	path string
	f    *os.File
	bw   *bufio.Writer
	zw   *gzip.Writer // nil unless gzipped
	w    io.Writer
	n    int
}

func (s *site) download(p, head string) (*download, error) {
	full, err := s.path(p)
	if err != nil {
		return nil, err
	}
	f, err := s.createTemp(full)
	if err != nil {
		return nil, err
	}
	d := &download{path: p, f: f, bw: bufio.NewWriterSize(f, 1<<20)}
	d.w = d.bw
	if strings.HasSuffix(p, ".gz") {
		d.zw, _ = gzip.NewWriterLevel(d.bw, gzip.DefaultCompression)
		d.w = d.zw
	}
	_, err = io.WriteString(d.w, head)
	return d, err
}

func (d *download) write(sep string, body []byte) error {
	io.WriteString(d.w, sep)
	_, err := d.w.Write(body)
	d.n++
	if err != nil {
		return fmt.Errorf("publish: writing %s: %w", d.path, err)
	}
	return nil
}

// close ends the file with tail and puts it in place, unless the file
// there has the same bytes.
func (d *download) close(s *site, tail string) error {
	io.WriteString(d.w, tail)
	if d.zw != nil {
		if err := d.zw.Close(); err != nil {
			return fmt.Errorf("publish: writing %s: %w", d.path, err)
		}
	}
	if err := d.bw.Flush(); err != nil {
		return fmt.Errorf("publish: writing %s: %w", d.path, err)
	}
	tmp := d.f.Name()
	d.f.Close()
	d.f = nil
	full, err := s.path(d.path)
	if err != nil {
		os.Remove(tmp)
		return err
	}
	st, err := os.Stat(tmp)
	if err != nil {
		return err
	}
	same, err := sameFiles(tmp, full)
	if err != nil {
		return err
	}
	if same {
		os.Remove(tmp)
	} else if err := os.Rename(tmp, full); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	s.keep(d.path, st.Size(), !same)
	return nil
}

// sameFiles reports whether the files a and b hold the same bytes (false
// when b does not exist).
func sameFiles(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil || sa.Size() != sb.Size() {
		return false, nil
	}
	ha, err := fileHash(a)
	if err != nil {
		return false, err
	}
	hb, err := fileHash(b)
	return err == nil && ha == hb, nil
}

func fileHash(p string) ([32]byte, error) {
	var sum [32]byte
	f, err := os.Open(p)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// governorateCode is the P-code of the governorate named name (the
// governorates table's second column, where the others have a label: the
// page filters by either, as the server does, without the counts file).
func governorateCode(g *gazetteer.Gazetteer, name string) string {
	for _, pl := range g.Lookup(name) {
		if pl.Kind == gazetteer.Governorate && pl.Governorate.PCode != "" {
			return pl.Governorate.PCode
		}
	}
	return name
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
