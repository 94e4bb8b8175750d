// Package archive is syriamap's photo archive as its commands and its
// server see it: the domain's rules over the store and the gazetteer. Its
// jobs, a file each:
//
//   - import.go, images.go: reading files, captions and image files in,
//     each caption read and geocoded (Build), originals kept;
//   - places.go, mentionkey.go, unknown.go: the places the geocoder knows,
//     with those editors added and the spellings their corrections taught;
//   - confidence.go: the confidence model refitted on the reviews;
//   - review.go, corrections.go: what a decision about a photo says of the
//     others, and the corrections exported and imported;
//   - check.go, checknote.go: the caption against its image file;
//   - frames.go: the same frame under other captions;
//   - verify.go, harm.go: the custody chain and fixity, the harm marks;
//   - stories.go, storage.go: stories moved between archives, and what
//     the commands read and count.
package archive

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
	"github.com/syriamap/syriamap/internal/ingest"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize"
	"github.com/syriamap/syriamap/internal/store"
)

// Archive joins the store, the gazetteer and the geocoder.
type Archive struct {
	// db is the storage. Who sees what it answers is the context's
	// viewer (photo.ViewerOf), whoever reaches it: see Store.
	db *store.DB
	// Workers is how many captions are read at once; it defaults to the
	// number of CPUs.
	Workers int
	// bundled is the gazetteer the app ships; places is it with the
	// places the archive's editors added, replaced whole when one is
	// added.
	bundled *gazetteer.Gazetteer
	places  atomic.Pointer[placeIndex]
	// taught are the spellings corrections taught, by place id, as read
	// on opening.
	taught map[string][]store.TaughtName
	// model is the confidence model refitted on the archive's reviews,
	// nil for the shipped one.
	model *geocode.Model
	// learning serialises what rebuilds the place index (adding places,
	// the refit), so that one rebuild never drops another's place.
	learning sync.Mutex
	// syria is the area of the bundled gazetteer's Syrian places (see
	// syriaBox), worked out once.
	syria     orb.Bound
	syriaOnce sync.Once
	// Originals keeps each imported image file as read; nil keeps none
	// (an archive of captions only, tests).
	Originals originals.Store
	// FramesLater leaves the frame hashes of imported pictures to
	// `syriamap frames` (see ImportImages): a decode each, most of an
	// import's time.
	FramesLater bool
	// reading bounds the pictures read at once (a decode each) across
	// every import running, Workers of them: an upload's jobs run side
	// by side (one's pictures read while another's are written) without
	// more decodes in flight than one import has (readSlot).
	readingOnce sync.Once
	reading     chan struct{}
	// arriving serialises what imports of pictures write, from the
	// lookup of their frames to the transaction: an import running
	// beside another sees its frames once written, as the next one
	// would.
	arriving sync.Mutex
	// ahead are the frames hashed ahead of their import, by SHA-256
	// (HashAhead).
	aheadMu      sync.Mutex
	ahead        map[string]*ahead
	aheadQueue   []*ahead // in the order asked
	aheadReaders int      // goroutines reading them
	// Images is the image budget every decode of a picture takes (the
	// frame hash's, on import and in Frames); a server's derivatives
	// share it, so that the decodes in flight stay within one budget.
	// New sets one of resize.DefaultBudget.
	Images *resize.Pipeline
}

// placeIndex is a gazetteer with what is made of it: its geocoder and
// its names folded for SearchPlaces (made on the first search).
type placeIndex struct {
	gazetteer   *gazetteer.Gazetteer
	geocoder    *geocode.Geocoder
	foldOnce    sync.Once
	foldedNames map[*gazetteer.Place][]gazetteer.Key
	// spellings are the place names a search reads (Spellings).
	spellingsOnce sync.Once
	spellings     *gazetteer.SearchSpellings
}

// newPlaceIndex indexes g, with the archive's confidence model.
func (a *Archive) newPlaceIndex(g *gazetteer.Gazetteer) *placeIndex {
	gc := geocode.New(g)
	if a.model != nil {
		gc = geocode.NewWithModel(g, *a.model)
	}
	return &placeIndex{gazetteer: g, geocoder: gc}
}

// New returns an Archive over db and g (db may be nil for an archive of
// places only, as `places search` uses).
func New(db *store.DB, g *gazetteer.Gazetteer) *Archive {
	if db != nil {
		db.MentionKey = MentionKey
	}
	a := &Archive{db: db, bundled: g, Workers: runtime.NumCPU(), Images: resize.New(resize.DefaultBudget)}
	if db != nil {
		db.WidenSearch = a.widenSearch
	}
	a.places.Store(a.newPlaceIndex(g))
	return a
}

// Gazetteer is the archive's gazetteer: the bundled one and the places
// its editors added.
func (a *Archive) Gazetteer() *gazetteer.Gazetteer { return a.places.Load().gazetteer }

// SetTimeout bounds each read query of the storage (0: none, for a
// command that reads the whole archive in one pass, as publish does).
func (a *Archive) SetTimeout(d time.Duration) { a.db.Timeout = d }

// SetActor names who a command's custody records are by when no editor
// is (store.DB.Actor), and whether imports' records keep the files'
// paths.
func (a *Archive) SetActor(actor string, recordPaths bool) {
	a.db.Actor, a.db.RecordPaths = actor, recordPaths
}

// Now is the time the storage stamps its writes with.
func (a *Archive) Now() time.Time { return a.db.Now() }

// SearchRules are the full-text search's limits and messages, as data
// for the published site's script.
func SearchRules() photo.SearchRules { return store.SearchRulesOf() }

// IsPostgres reports whether an archive's address (--db) names a
// PostgreSQL database (a postgres:// URL) rather than a SQLite file.
func IsPostgres(path string) bool { return store.IsPostgres(path) }

// Open opens the archive at path over the gazetteer g: for writing (the
// schema is made or migrated), or read-only, when nothing may be written.
// Close closes it.
func Open(ctx context.Context, path string, g *gazetteer.Gazetteer, readOnly bool) (*Archive, error) {
	open := store.Open
	if readOnly {
		open = store.OpenReadOnly
	}
	db, err := open(ctx, path)
	if err != nil {
		return nil, err
	}
	a := New(db, g)
	if err := a.loadModel(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := a.loadLearned(ctx); err != nil {
		db.Close()
		return nil, err
	}
	// An archive written before place texts were kept folded gets them.
	if !readOnly {
		if _, err := db.FillMentionKeys(ctx); err != nil {
			db.Close()
			return nil, fmt.Errorf("folding the archive's place texts: %w", err)
		}
		if err := a.doTasks(ctx); err != nil {
			db.Close()
			return nil, err
		}
	}
	return a, nil
}

// doTasks does what an upgrade of the archive left for it to do.
func (a *Archive) doTasks(ctx context.Context) error {
	for _, task := range []struct {
		name, what string
		do         func(context.Context) error
	}{
		{store.TaskRecheckFiles, "checking the image files again", a.recheckFiles},
		{store.TaskBeginCustody, "beginning the photos' custody records", a.beginCustody},
	} {
		pending, err := a.db.TaskPending(ctx, task.name)
		if err != nil {
			return err
		}
		if !pending {
			continue
		}
		if err := task.do(ctx); err != nil {
			return fmt.Errorf("%s: %w", task.what, err)
		}
		if err := a.db.TaskDone(ctx, task.name); err != nil {
			return err
		}
	}
	return nil
}

// Close closes the archive's storage.
func (a *Archive) Close() error { return a.db.Close() }

// Writable reports whether the archive file at path can be written.
func Writable(path string) bool { return store.Writable(path) }

// folded returns each place's names folded: folding every name for each
// search would cost tens of milliseconds a keystroke.
func (x *placeIndex) folded() map[*gazetteer.Place][]gazetteer.Key {
	x.foldOnce.Do(func() {
		places := x.gazetteer.Places()
		x.foldedNames = make(map[*gazetteer.Place][]gazetteer.Key, len(places))
		for i := range places {
			p := &places[i]
			for _, n := range p.AllNames() {
				x.foldedNames[p] = append(x.foldedNames[p], gazetteer.Fold(n))
			}
		}
	})
	return x.foldedNames
}

// Build reads one record into a photo: the caption reader's date and
// credit, the geocoder's place, and the file's own values over them. The
// caption is read at the record's reference date (caption.ParseAt): the
// day its page was published, else the date the file gives the photo.
//
// The photo's date is the caption's own first (a relative one read
// against the reference is still the caption's); the file's date column
// or field when the caption has none, or when it is finer and inside the
// caption's (a day of the caption's month; the caption's own day stays
// the caption's); else the day the page was
// published. The last two are the import's (photo.DateImport), kept as
// values the file gave.
func (a *Archive) Build(rec ingest.Record) *photo.Photo { return a.buildRecord(rec, photo.Date{}) }

// buildRecord is Build with the date an editor gave the upload's photos
// on its form (the zero Date for none): the last of the sources, and the
// reference of a caption whose file gives none (see WithFormDate).
func (a *Archive) buildRecord(rec ingest.Record, form photo.Date) *photo.Photo {
	ref := form
	switch {
	case rec.Published != nil:
		ref = *rec.Published
	case rec.Date != nil:
		ref = *rec.Date
	}
	p := a.read(rec.Caption, ref)
	p.ImageURL, p.ImagePath = rec.ImageURL, rec.ImagePath
	switch {
	case rec.Date != nil && (p.Date.IsZero() || rec.Date.Within(p.Date) && !p.Date.Within(*rec.Date)):
		p.Date, p.DateSource, p.Given = *rec.Date, photo.DateImport, p.Given|photo.GivenDate
	case rec.Date == nil && p.Date.IsZero() && rec.Published != nil && rec.Published.Precision == "day":
		p.Date, p.DateSource, p.Given = *rec.Published, photo.DateImport, p.Given|photo.GivenDate
	case p.Date.IsZero() && !form.IsZero():
		p.Date, p.DateSource, p.Given = form, photo.DateEditor, p.Given|photo.GivenDate
	}
	if rec.Photographer != nil {
		p.Photographer, p.Given = *rec.Photographer, p.Given|photo.GivenPhotographer
	}
	if rec.Agency != nil {
		p.Agency, p.Given = *rec.Agency, p.Given|photo.GivenAgency
	}
	if pt := rec.Point; pt != nil {
		p.Geocoded, p.Given = a.givenPoint(orb.Point{pt[0], pt[1]}, p.Geocoded), p.Given|photo.GivenPoint
	}
	p.Place = p.Geocoded
	return p
}

// read reads a caption at the reference date ref into a photo: its
// date (the caption's), credit and place.
func (a *Archive) read(text string, ref photo.Date) *photo.Photo {
	c := caption.ParseAt(text, ref)
	p := &photo.Photo{
		ID:           photo.ID(text),
		Caption:      text,
		Date:         c.Date,
		Photographer: c.Credit.Photographer,
		Agency:       c.Credit.Agency,
	}
	if !c.Date.IsZero() {
		p.DateSource = photo.DateCaption
	}
	p.Geocoded = a.place(c)
	return p
}

// place geocodes a parsed caption.
func (a *Archive) place(c caption.Caption) photo.Place {
	r := a.places.Load().geocoder.Geocode(c)
	pl := photo.Place{Precision: string(r.Precision), Confidence: r.Confidence, Mention: r.Mention, Note: r.Note}
	if r.Place != nil {
		fillPlace(&pl, r.Place)
	}
	for _, alt := range r.Alternatives {
		pl.Alternatives = append(pl.Alternatives, photo.Alternative{ID: alt.Place.ID, Name: alt.Place.Name, Score: alt.Score, Mention: alt.Mention})
	}
	a.trustTaught(c, &pl)
	return pl
}

func fillPlace(pl *photo.Place, p *gazetteer.Place) {
	pl.ID, pl.Name, pl.Kind, pl.Country = p.ID, p.Name, string(p.Kind), p.Country
	pl.Governorate, pl.GovPCode = p.Governorate.Name, p.Governorate.PCode
	pl.Lon, pl.Lat, pl.Located = p.Point.Lon(), p.Point.Lat(), p.Located
}

// givenPoint places a photo at the point its file gives. When the
// geocoder's own place is within 25 km the photo keeps that place's name
// and governorate; otherwise it is a bare point.
func (a *Archive) givenPoint(pt orb.Point, geocoded photo.Place) photo.Place {
	pl := photo.Place{Lon: pt.Lon(), Lat: pt.Lat(), Located: true, Precision: "given", Confidence: 1, Note: "the point is the one the file gives"}
	if geocoded.Located && geo.Distance(pt, orb.Point{geocoded.Lon, geocoded.Lat}) <= 25000 {
		pl.ID, pl.Name, pl.Kind, pl.Country = geocoded.ID, geocoded.Name, geocoded.Kind, geocoded.Country
		pl.Governorate, pl.GovPCode, pl.Mention = geocoded.Governorate, geocoded.GovPCode, geocoded.Mention
	}
	return pl
}

// spellingTier puts the places found by a spelling of the name above
// those whose names only begin like it (prominence is below 20).
const spellingTier = 100

// sameFine reports whether one of a place's folded names has the query's
// fine form: the name as typed, up to case, marks and articles.
func sameFine(names []gazetteer.Key, query gazetteer.Key) bool {
	for _, f := range names {
		if f.Fine == query.Fine {
			return true
		}
	}
	return false
}

// begins reports whether a folded name begins like the folded query: its
// fine form does, or, for a query of three consonants or more, its
// skeleton does and the first two letters agree ("Bustan" and "Bostan
// Bash"). A shorter skeleton begins too many names ("Al-Qaim", k-m).
func begins(name, query gazetteer.Key) bool {
	if strings.HasPrefix(name.Fine, query.Fine) {
		return true
	}
	return utf8.RuneCountInString(query.Skeleton) >= 3 && strings.HasPrefix(name.Skeleton, query.Skeleton) &&
		strings.HasPrefix(name.Fine, query.Fine[:min(len(query.Fine), 2)])
}

// SearchPlaces returns the gazetteer places one of whose names, English
// or Arabic, is a spelling of name (see gazetteer.Fold) or begins like it
// ("Bustan" finds Bostan Bash, also written Bustan al-Basha), at most
// limit: the name as typed first, then its other spellings, then the
// names that begin like it, each the most prominent first (see
// gazetteer.Prominence). A city's prominence never puts it above a
// village that bears the very name typed. keep, if not nil, leaves out
// the places it refuses before the limit is taken.
func (a *Archive) SearchPlaces(name string, limit int, keep func(*gazetteer.Place) bool) []*gazetteer.Place {
	type match struct {
		p     *gazetteer.Place
		score float64
	}
	var matches []match
	seen := map[*gazetteer.Place]bool{}
	k := gazetteer.Fold(name)
	x := a.places.Load()
	places, folded := x.gazetteer.Places(), x.folded()
	for _, p := range x.gazetteer.Lookup(name) {
		seen[p] = true
		if keep != nil && !keep(p) {
			continue
		}
		score := spellingTier + gazetteer.Prominence(p)
		if sameFine(folded[p], k) {
			score += spellingTier / 2 // the very name typed, not a loose spelling of it
		}
		matches = append(matches, match{p, score})
	}
	if k.Skeleton != "" {
		for i := range places {
			p := &places[i]
			if seen[p] || keep != nil && !keep(p) {
				continue
			}
			for _, f := range folded[p] {
				if begins(f, k) {
					matches = append(matches, match{p, gazetteer.Prominence(p)})
					break
				}
			}
		}
	}
	sort.SliceStable(matches, func(i, j int) bool { return matches[i].score > matches[j].score })
	out := make([]*gazetteer.Place, 0, min(limit, len(matches)))
	for _, m := range matches[:min(limit, len(matches))] {
		out = append(out, m.p)
	}
	return out
}
