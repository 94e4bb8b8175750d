package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/ingest"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize"
	"github.com/syriamap/syriamap/internal/store"
)

// MaxImageBytes is the largest image file imported: agency JPEGs are a
// few megabytes, a scan a few tens; a bigger file is a mistake (a video,
// a disk image) that is named and skipped rather than hashed.
const MaxImageBytes = 100 << 20

// DefaultInclude are the names a folder's image files are taken by.
var DefaultInclude = []string{"*.jpg", "*.jpeg"}

// IsImage reports whether path names a JPEG by its extension.
func IsImage(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jpg", ".jpeg", ".jpe":
		return true
	}
	return false
}

// Skip is an image file left out of an import, and why.
type Skip struct {
	Path, Reason string
}

// ImageResult is what importing image files did.
type ImageResult struct {
	store.Summary
	Files   int    // the image files found
	Read    int    // the files read (new or changed on disk)
	Skipped []Skip // bad files, named with the reason
	// Unhashed are the files imported without a frame hash because no
	// decoder reads their picture (arithmetic-coded, 12-bit): they are
	// in the archive, but no copy of them will be caught.
	Unhashed []string
}

// imageFile is one file found under a folder given to ImportImages.
type imageFile struct {
	root, rel string // the folder given, and the path under it
	abs       string
}

// ImportImages imports JPEG files, and the JPEGs under folders
// (recursively, the names matching include, case-insensitive, or
// DefaultInclude), in one transaction. Each file's IPTC/XMP caption goes
// through the caption reader and geocoder; its structured fields fill what
// the caption lacks; its location, GPS point and capture time are checked
// against the caption (see check). Files are read only as far as their
// metadata and hashed; a file whose size and time are what the archive
// saw last time is not read at all. Bad files are skipped and named in
// the result; the rest are imported. Files are opened through the folder
// they were found under, so a link out of it is not followed.
func (a *Archive) ImportImages(ctx context.Context, paths, include []string, progress func(done, total int)) (ImageResult, error) {
	var res ImageResult
	if len(include) == 0 {
		include = DefaultInclude
	}
	files, roots, skipped, err := findImages(paths, include)
	if err != nil {
		return res, err
	}
	res.Files, res.Skipped = len(files), skipped
	recs := make([]*store.Record, len(files))
	reasons := make([]string, len(files))
	var done atomic.Int64
	var wg sync.WaitGroup
	next := atomic.Int64{}
	rootOf := map[string]*os.Root{}
	for _, r := range roots {
		if rootOf[r], err = os.OpenRoot(r); err != nil {
			return res, photo.Errorf(photo.EInvalid, "%s: cannot read the folder: %v", r, unwrapPath(err))
		}
		defer rootOf[r].Close()
	}
	var read atomic.Int64
	var progressMu sync.Mutex
	for w := 0; w < max(1, a.Workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(files) || ctx.Err() != nil {
					return
				}
				free, err := a.readSlot(ctx)
				if err != nil {
					return
				}
				rec, fresh, reason := a.readImage(ctx, rootOf[files[i].root], files[i])
				free()
				recs[i], reasons[i] = rec, reason
				if fresh {
					read.Add(1)
				}
				if n := done.Add(1); progress != nil {
					progressMu.Lock()
					progress(int(n), len(files))
					progressMu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return res, err
	}
	res.Read = int(read.Load())
	var write []store.Record
	for i, r := range recs {
		switch {
		case reasons[i] != "":
			res.Skipped = append(res.Skipped, Skip{files[i].abs, reasons[i]})
		case r == nil:
			res.Unchanged++ // unchanged on disk: not read
		default:
			write = append(write, *r)
			if !a.FramesLater && r.Frame == nil {
				res.Unhashed = append(res.Unhashed, files[i].abs)
			}
		}
	}
	sort.Slice(res.Skipped, func(i, j int) bool { return res.Skipped[i].Path < res.Skipped[j].Path })
	// The originals are durable before the archive names them.
	if d, ok := a.Originals.(*originals.Dir); ok && res.Read > 0 {
		if err := d.Sync(); err != nil {
			return res, err
		}
	}
	sum, err := a.writeArrived(ctx, write)
	if err != nil {
		return res, err
	}
	res.Summary.Add(sum)
	// An upload's folder is gone once it is imported: its pictures are
	// served from the originals, and it is no folder to serve from.
	if len(files) > 0 && !adopting(ctx) {
		if err := a.db.AddMediaRoots(ctx, roots); err != nil {
			return res, err
		}
	}
	return res, nil
}

// readSlot takes one of the Workers places to read a picture in, across
// every import running, waiting for one until ctx is done; free gives it
// back.
func (a *Archive) readSlot(ctx context.Context) (free func(), err error) {
	a.readingOnce.Do(func() { a.reading = make(chan struct{}, max(1, a.Workers)) })
	select {
	case a.reading <- struct{}{}:
		return func() { <-a.reading }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// writeArrived looks the frames of an import's new pictures up (see
// framesOnArrival) and writes them, in one transaction; one import at a
// time, so that an import running beside another finds its frames.
func (a *Archive) writeArrived(ctx context.Context, write []store.Record) (store.Summary, error) {
	a.arriving.Lock()
	defer a.arriving.Unlock()
	if err := a.framesOnArrival(ctx, write); err != nil {
		return store.Summary{}, err
	}
	if len(write) == 0 {
		return store.Summary{}, nil
	}
	return a.db.ImportFile(ctx, "images", store.Records(write), nil)
}

// findImages lists the image files paths name: files as given, folders
// walked for names that match include. It returns the folders they are
// under (a file's own folder), sorted, and the paths it had to skip.
func findImages(paths, include []string) (files []imageFile, roots []string, skipped []Skip, err error) {
	seenRoot := map[string]bool{}
	addRoot := func(r string) {
		if !seenRoot[r] {
			seenRoot[r] = true
			roots = append(roots, r)
		}
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, nil, nil, photo.Errorf(photo.EInvalid, "%s: %v", p, err)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, nil, nil, photo.Errorf(photo.EInvalid, "%s: cannot read it: %v", p, unwrapPath(err))
		}
		if !st.IsDir() {
			dir := filepath.Dir(abs)
			addRoot(dir)
			files = append(files, imageFile{root: dir, rel: filepath.Base(abs), abs: abs})
			continue
		}
		addRoot(abs)
		err = filepath.WalkDir(abs, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				skipped = append(skipped, Skip{path, fmt.Sprintf("cannot read it: %v", unwrapPath(err))})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() || !matches(d.Name(), include) {
				return nil
			}
			if !d.Type().IsRegular() {
				skipped = append(skipped, Skip{path, "not a regular file (links are not followed)"})
				return nil
			}
			rel, _ := filepath.Rel(abs, path)
			files = append(files, imageFile{root: abs, rel: rel, abs: path})
			return nil
		})
		if err != nil {
			return nil, nil, nil, err
		}
	}
	sort.Strings(roots)
	return files, roots, skipped, nil
}

// matches reports whether a file's base name matches one of the
// patterns, case-insensitive ("*.jpg" takes IMG_1.JPG).
func matches(name string, patterns []string) bool {
	name = strings.ToLower(name)
	for _, p := range patterns {
		if ok, _ := filepath.Match(strings.ToLower(p), name); ok {
			return true
		}
	}
	return false
}

// readImage reads one image file into a record. It returns a nil record
// when the file is unchanged since the archive last saw it (not read:
// fresh is false), or the reason it is skipped.
func (a *Archive) readImage(ctx context.Context, root *os.Root, f imageFile) (rec *store.Record, fresh bool, reason string) {
	fh, err := root.Open(f.rel)
	if err != nil {
		return nil, false, fmt.Sprintf("cannot read it: %v", unwrapPath(err))
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, false, fmt.Sprintf("cannot read it: %v", unwrapPath(err))
	}
	if st.Size() > MaxImageBytes {
		return nil, false, fmt.Sprintf("%d MB is larger than the %d MB an image may be", st.Size()>>20, MaxImageBytes>>20)
	}
	if known, ok, err := a.db.KnownFile(ctx, f.abs); err != nil {
		return nil, false, fmt.Sprintf("cannot check it against the archive: %v", err)
	} else if ok && known.Size == st.Size() && known.ModTime.Equal(st.ModTime().UTC()) {
		return nil, false, ""
	}
	md, reason := a.readHead(fh)
	if reason != "" {
		return nil, true, reason
	}
	// The hash reads the whole file but decodes nothing; a folder store
	// keeps the original from the same read.
	h := sha256.New()
	var end imagemeta.EndCheck
	sinks := []io.Writer{h, &end}
	var staged *originals.Staged
	dir, _ := a.Originals.(*originals.Dir)
	adopt := dir != nil && adopting(ctx)
	if dir != nil && !adopt {
		if staged, err = dir.Stage(); err != nil {
			return nil, true, fmt.Sprintf("cannot keep the original: %v", err)
		}
		defer func() {
			if staged != nil {
				staged.Abort()
			}
		}()
		sinks = append(sinks, writeSide{staged})
	}
	if _, err := io.Copy(io.MultiWriter(sinks...), fh); err != nil {
		var w writeFailure
		if errors.As(err, &w) { // the disk the original goes to, not the file read
			return nil, true, fmt.Sprintf("could not write its original to the archive's store: %v", unwrapPath(w.err))
		}
		return nil, true, fmt.Sprintf("cannot read it: %v", unwrapPath(err))
	}
	if !end.Ended() {
		return nil, true, "truncated JPEG: the file ends before its end-of-image marker (it was cut short)"
	}
	text := md.Caption
	if why := captionProblem(text); why != "" {
		return nil, true, why
	}
	sum := hex.EncodeToString(h.Sum(nil))
	// The original is kept before the photo is written: a photo never
	// names an original the store lacks. (The store hashes it again as it
	// writes, and refuses bytes that changed since.)
	switch {
	case adopt:
		if _, err := dir.Adopt(sum, f.abs); err == nil {
			break
		}
		// Another disk: written as any original is.
		if _, err := fh.Seek(0, io.SeekStart); err != nil {
			return nil, true, fmt.Sprintf("cannot read it: %v", err)
		}
		if _, err := a.Originals.Put(ctx, sum, st.Size(), fh); err != nil {
			return nil, true, fmt.Sprintf("cannot keep the original: %v", err)
		}
	case staged != nil:
		_, err := staged.Commit(sum)
		staged = nil
		if err != nil {
			return nil, true, fmt.Sprintf("cannot keep the original: %v", err)
		}
	case a.Originals != nil:
		if _, err := fh.Seek(0, io.SeekStart); err != nil {
			return nil, true, fmt.Sprintf("cannot read it: %v", err)
		}
		if _, err := a.Originals.Put(ctx, sum, st.Size(), fh); err != nil {
			return nil, true, fmt.Sprintf("cannot keep the original: %v", err)
		}
	}
	form, _ := formDate(ctx)
	p := a.buildFromImage(text, md, form)
	meta, _ := json.Marshal(md)
	p.File = &photo.File{Path: f.abs, SHA256: sum, Size: st.Size(), ModTime: st.ModTime().UTC(), Meta: string(meta)}
	rec = &store.Record{Photo: p, Source: f.abs}
	if !a.FramesLater {
		if rec.Frame = a.frameAhead(sum); rec.Frame == nil {
			rec.Frame = a.frameOf(ctx, fh)
		}
	}
	return rec, true, ""
}

// readHead reads an image file's metadata and its frame header, and
// leaves f at its start again; or it says why the file is skipped. A
// picture too large to decode is refused from its header, whether its
// frame is hashed now or later: nothing could show it.
func (a *Archive) readHead(f io.ReadSeeker) (md imagemeta.Metadata, reason string) {
	md, err := imagemeta.Read(f)
	if err != nil {
		var p *imagemeta.Problem
		if errors.As(err, &p) {
			return md, p.Reason
		}
		return md, fmt.Sprintf("cannot read it: %v", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return md, fmt.Sprintf("cannot read it: %v", err)
	}
	if hd, err := resize.ReadHeader(f); err == nil {
		if err := a.Images.CheckWhole(hd); err != nil {
			return md, photo.ErrorMessage(err)
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return md, fmt.Sprintf("cannot read it: %v", err)
	}
	return md, ""
}

// frameOf decodes the picture in f, from its start, within the image
// budget, and hashes its frame; nil for a picture the decoder cannot
// read, which is imported all the same, unhashed (`syriamap frames`
// names it).
func (a *Archive) frameOf(ctx context.Context, f io.ReadSeeker) *store.Frame {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil
	}
	fr, err := a.readFrame(ctx, f)
	if err != nil {
		return nil
	}
	return &fr
}

// buildFromImage builds a photo from an image's caption and metadata: the
// caption is read as any other; the file's credit, date and location fill
// what the caption lacks, as values the file gave.
//
// The file's date — its IPTC date created, else the camera's EXIF
// DateTimeOriginal — is the reference the caption's relative dates are
// read against ("on Sunday", "أمس"), and the photo's date (photo.DateFile)
// when the caption gives none; form is the date an editor gave the
// upload's photos on its form (the zero Date for none), which comes after
// both (photo.DateEditor).
func (a *Archive) buildFromImage(text string, md imagemeta.Metadata, form photo.Date) *photo.Photo {
	fileDate, fromFile := createdDate(md.Created)
	if !fromFile && md.EXIF.HasTime {
		t := md.EXIF.Time
		fileDate, fromFile = photo.Date{Year: t.Year(), Month: int(t.Month()), Day: t.Day(), Precision: "day"}, t.Year() >= 1900
	}
	ref := fileDate
	if !fromFile {
		ref = form
	}
	p := a.read(strings.Join(strings.Fields(text), " "), ref)
	if p.Photographer == "" || p.Agency == "" {
		by := strings.Join(md.Creators, ", ")
		agency := md.Credit
		if agency == "" {
			agency = md.Source
		}
		c := caption.Parse("(Photo by " + strings.Trim(by+"/"+agency, "/") + ")").Credit
		if p.Photographer == "" && c.Photographer != "" {
			p.Photographer, p.Given = c.Photographer, p.Given|photo.GivenPhotographer
		}
		if p.Agency == "" && c.Agency != "" {
			p.Agency, p.Given = c.Agency, p.Given|photo.GivenAgency
		}
	}
	switch {
	case p.Date.IsZero() && fromFile:
		p.Date, p.DateSource, p.Given = fileDate, photo.DateFile, p.Given|photo.GivenDate
	case p.Date.IsZero() && !form.IsZero():
		p.Date, p.DateSource, p.Given = form, photo.DateEditor, p.Given|photo.GivenDate
	}
	// The file's IPTC location, geocoded once: the place when the caption
	// names none, and what the caption is checked against.
	iptc := a.placeOfLocation(md)
	if !p.Geocoded.Located && iptc.Located {
		// A point the file gives, as a CSV's lat and lon are: kept over
		// the caption's (none) by later imports and re-geocoding.
		pl := iptc
		pl.Note = "the caption names no place; the file's IPTC location gives it"
		p.Geocoded, p.Given = pl, p.Given|photo.GivenPoint
	}
	p.Place = p.Geocoded
	p.Check = a.checkWith(p, md, iptc)
	return p
}

// createdDate reads an IPTC/XMP date created (YYYY, YYYY-MM or
// YYYY-MM-DD, with a time after it or not).
func createdDate(s string) (photo.Date, bool) {
	if len(s) > 10 {
		s = s[:10]
	}
	d, err := photo.ParseDate(s)
	return d, err == nil
}

// locationText is the IPTC location as a sentence the geocoder reads:
// sub-location, city, province and country, most specific first.
func locationText(md imagemeta.Metadata) string {
	loc := imagemeta.Location{Sublocation: md.Sublocation, City: md.City, State: md.State, Country: md.Country}
	if loc.City == "" && loc.Sublocation == "" {
		for _, l := range append(md.Taken, md.Shown...) {
			if l.City != "" || l.Sublocation != "" {
				loc = l
				break
			}
		}
	}
	var parts []string
	for _, s := range []string{loc.Sublocation, loc.City, loc.State, loc.Country} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Photo taken in " + strings.Join(parts, ", ") + "."
}

// PlaceOfIPTC geocodes the IPTC city and country a photo's file gave, as
// its check read them, for the review map; the zero Place when the
// gazetteer knows none.
func (a *Archive) PlaceOfIPTC(city, country string) photo.Place {
	return a.placeOfLocation(imagemeta.Metadata{City: city, Country: country})
}

// placeOfLocation geocodes an image's IPTC location; the zero Place when
// it has none or names nothing the gazetteer knows.
func (a *Archive) placeOfLocation(md imagemeta.Metadata) photo.Place {
	text := locationText(md)
	if text == "" {
		return photo.Place{}
	}
	return a.place(caption.Parse(text))
}

// writeSide marks the errors of a writer as write failures, so that a
// copy that fails can say which side failed: a full disk is not a file
// that cannot be read.
type writeSide struct{ w io.Writer }

func (s writeSide) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err != nil {
		err = writeFailure{err}
	}
	return n, err
}

// writeFailure is an error of the writing side of a copy.
type writeFailure struct{ err error }

func (w writeFailure) Error() string { return "could not write: " + w.err.Error() }
func (w writeFailure) Unwrap() error { return w.err }

type adoptingKey struct{}

// Adopting marks the image files imported under ctx as the archive's own
// copies (an editor's upload, removed once imported): a folder store of
// originals keeps each by a hard link instead of writing its bytes again.
func Adopting(ctx context.Context) context.Context {
	return context.WithValue(ctx, adoptingKey{}, true)
}

type formDateKey struct{}

// WithFormDate returns ctx for an import whose editor gave its photos
// date d on the upload form: a photo whose caption, file and import give
// no date takes it, as an editor's (photo.DateEditor), and a caption whose
// file gives no reference date reads its relative dates ("on Sunday",
// "أمس") against it. The zero Date gives ctx back.
func WithFormDate(ctx context.Context, d photo.Date) context.Context {
	if d.IsZero() {
		return ctx
	}
	return context.WithValue(ctx, formDateKey{}, d)
}

func formDate(ctx context.Context) (photo.Date, bool) {
	d, ok := ctx.Value(formDateKey{}).(photo.Date)
	return d, ok
}

func adopting(ctx context.Context) bool {
	v, _ := ctx.Value(adoptingKey{}).(bool)
	return v
}

// captionProblem says why an image file's caption cannot be imported, or
// "".
func captionProblem(text string) string {
	switch {
	case text == "":
		return "no caption in its IPTC or XMP metadata"
	case len(text) > ingest.MaxCaption:
		return fmt.Sprintf("the caption is %d bytes long; at most %d", len(text), ingest.MaxCaption)
	}
	return ""
}
