// Package publish writes a static copy of the archive, or of a selection
// of it, that any web host, bucket or CDN serves as files: the explorer,
// the photo page and the about page reading data files instead of the
// API; the photos as vector tiles in one PMTiles archive; downloads for
// GIS tools (GeoJSON whole and per year, CSV, the PMTiles) described by a
// datapackage.json; a search index; and the image derivatives. Nothing in
// it signs in, reviews or writes, and no page asks another host for
// anything unless Options.Tiles names online tiles.
package publish

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/ogcapi"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// Options say what to publish and how.
type Options struct {
	// Filter selects the photos (the explorer's filters); the zero
	// Filter selects all.
	Filter photo.Filter
	// IncludeUnplaced also publishes the photos with no point (listed,
	// not on the map).
	IncludeUnplaced bool
	// BaseURL, when set, makes the links in the data absolute
	// (https://example.org/syria/); pages link relatively either way.
	BaseURL string
	// Title names the site; "" for the explorer's own.
	Title string
	// Tiles is an online tile URL template the map may offer ("" for the
	// offline map alone, and no request to any other host).
	Tiles string
	// Images makes the image derivatives; nil publishes none (captions'
	// own media URLs are kept either way).
	Images *Images
	// PointsLimit is the selection's size above which the page draws the
	// map from the tiles instead of loading every photo's point at once
	// (as the server's explorer switches to its clusters); 0 for 200,000.
	PointsLimit int
}

// Report is what a publish did.
type Report struct {
	Photos, Placed int
	Files, Written int
	// Changed are the files written (slash paths from the folder).
	Changed         []string
	Removed         int
	Bytes           int64
	Images, Missing int
	Took            time.Duration
}

// chunkPhotos is about how many photos one data chunk holds (from a
// quarter to twice as many, see cutsAfter): a list's page (50) or a
// photo's card reads one chunk of about 100 KB compressed.
const chunkPhotos = 500

// Archive is what a publish reads of the archive (*archive.Archive), as
// the public: the photos a filter selects and their counts, the stories
// and their photos, the events and how they are cited, the places, and
// the custody chain's head.
type Archive interface {
	EachFeature(ctx context.Context, flt photo.Filter, fn func(f *photo.Feature) error) error
	Photo(ctx context.Context, id string) (*photo.Photo, error)
	Facets(ctx context.Context, f photo.Filter, limit int, facets ...photo.Facet) (photo.Facets, error)
	Histogram(ctx context.Context, f photo.Filter) ([]photo.MonthCount, error)
	DayHistogram(ctx context.Context, f photo.Filter) ([]photo.MonthCount, error)
	Stories(ctx context.Context, drafts bool) ([]story.Story, error)
	Story(ctx context.Context, slug string) (story.Story, error)
	// PublicStory is st as the public may read it (see archive).
	PublicStory(ctx context.Context, st story.Story) (story.Story, error)
	Events(ctx context.Context, q conflict.EventQuery) ([]conflict.EventRow, int, error)
	EventsCitation(ctx context.Context) (string, error)
	Gazetteer() *gazetteer.Gazetteer
	// Spellings is the table the archive's search reads place names by.
	Spellings() *gazetteer.SearchSpellings
	Head(ctx context.Context) (photo.Checkpoint, error)
}

// Publish writes the site into dir. A folder published before is
// updated in place: unchanged files are left as they are, files no longer
// part of the site are removed.
func Publish(ctx context.Context, a Archive, dir string, o Options) (Report, error) {
	ctx = photo.WithViewer(ctx, photo.Public) // a published site is the public's, whoever publishes it
	start := time.Now()
	s, err := newSite(dir)
	if err != nil {
		return Report{}, err
	}
	p := &publisher{a: a, o: o, s: s, manifest: manifest{Days: map[string]string{}, TileZoom: ogcapi.SingleZoom}}
	if err := p.run(ctx); err != nil {
		s.removeTemps() // what this publish had half written (a killed one's go at the next)
		return Report{}, err
	}
	// The custody chain's head as published: a copy kept away from the
	// archive (syriamap verify --since reads it), so the chain cannot be
	// shortened unseen.
	head, err := a.Head(ctx)
	if err != nil {
		return Report{}, err
	}
	b, _ := json.MarshalIndent(head, "", "  ")
	if err := s.put("custody-head.json", append(b, '\n')); err != nil {
		return Report{}, fmt.Errorf("publish: writing custody-head.json: %w", err)
	}
	removed, err := s.prune()
	if err != nil {
		return Report{}, err
	}
	return Report{Photos: p.n, Placed: p.placed, Files: len(s.kept), Written: s.written, Changed: s.changed, Removed: removed, Bytes: s.bytes,
		Images: p.images, Missing: p.missing, Took: time.Since(start)}, nil
}

// publisher holds one publish's state.
type publisher struct {
	// loc is the language the pages are being written in, dir its folder
	// ("" or "ar/").
	loc i18n.Locale
	dir string
	a   Archive
	o   Options
	s   *site

	n, placed       int
	images, missing int
	// manifest names the data files the pages read.
	manifest manifest
	chunks   chunkTable
	// stories are the archive's published stories; storyPhotos the
	// photos they show, true once one is published in this selection.
	stories     []story.Story
	storyPhotos map[string]bool
}

// manifest is what a page needs to find the site's data: site.json, the
// one file a page reads by a name that stays (with the pages and the
// downloads, which keep theirs).
type manifest struct {
	Title  string `json:"title"`
	Total  int    `json:"total"`
	Points string `json:"points"`
	// Chunks is the file of the photo chunks' table (chunkTable).
	Chunks string `json:"chunks"`
	// Days are each year's counts of its day-dated photos by day.
	Days map[string]string `json:"days"`
	// Timeline is the month counts of the whole selection; Counts its
	// facets, whole and per year.
	Timeline string `json:"timeline"`
	Counts   string `json:"counts"`
	// Search is the full-text index in pieces, by the first letter of
	// the words they file (shardOf): a search loads only its letters'.
	Search map[string]string `json:"search"`
	// Spellings is the table by which a search reads the place names
	// among its words (gazetteer.SearchSpellings), as the archive's does:
	// the places some of whose spellings the captions hold.
	Spellings string `json:"spellings"`
	Places    string `json:"places"`
	// Labels are the place names the map shows, one file per zoom from
	// which they show ("6", "9", "12").
	Labels  map[string]string `json:"labels"`
	Basemap string            `json:"basemap"`
	Tiles   string            `json:"tiles"`
	// TileZoom is the deepest zoom of Tiles (ogcapi.SingleZoom): single
	// photos there, clusters with their months' counts above it.
	TileZoom int `json:"tile_zoom"`
	// Overview holds Tiles' tiles down to OverviewZoom, for a page to
	// read whole when the host does not answer range requests.
	Overview     string `json:"overview"`
	OverviewZoom int    `json:"overview_zoom"`
	// Events are the UCDP GED events for the map's events layer
	// (web.EventPointsJSON); "" when the archive holds none.
	Events string `json:"events,omitempty"`
	// EventPhotos are the photos of the site linked to each event, by
	// the event's key: {"ucdp-ged:270123": [photo numbers, in the
	// lists' order (the rows of Points)]}; the site's filter of linked
	// photos (event=) reads it. "" when the archive holds no events.
	EventPhotos string `json:"event_photos,omitempty"`
	// PointsLimit is the explorer's: a site of more photos reads its
	// map from Tiles, by range requests; a smaller one from Points.
	PointsLimit int `json:"points_limit"`
	// Downloads are the selection's files for GIS tools.
	GeoJSON string            `json:"geojson"`
	CSV     string            `json:"csv"`
	Years   map[string]string `json:"years"`
	// TileURL is the online map's template ("" for none).
	TileURL string `json:"tile_url,omitempty"`
}

func (p *publisher) run(ctx context.Context) error {
	f := p.o.Filter
	f.Newest = true
	f.Limit, f.Offset, f.After = 0, 0, 0
	if err := p.assets(); err != nil {
		return err
	}
	if err := p.readStories(ctx); err != nil {
		return err
	}
	w, err := p.newWriters()
	if err != nil {
		return err
	}
	defer w.abort()
	err = p.a.EachFeature(ctx, f, func(ft *photo.Feature) error {
		if !ft.Located && !p.o.IncludeUnplaced {
			return nil
		}
		return w.add(ctx, p, ft)
	})
	if err != nil {
		return fmt.Errorf("publish: reading the photos: %w", err)
	}
	if err := w.finish(p); err != nil {
		return err
	}
	if err := p.counts(ctx, w.years); err != nil {
		return err
	}
	if err := p.gazetteerData(w.placeIDs); err != nil {
		return err
	}
	if err := p.events(ctx, w.eventPhotos); err != nil {
		return err
	}
	if err := p.pages(ctx, w.placeStats); err != nil {
		return err
	}
	return p.datapackage(w.years)
}

// photoURL is a photo's page: its first day rides along (d), so that the
// page finds its Feature in the chunks (chunkTable) without the list of
// all photos; it stays the same from one publish to the next.
func photoURL(ft *photo.Feature) string {
	from, _ := ft.Date.Span()
	return "photo.html?id=" + url.QueryEscape(ft.ID) + "&d=" + strconv.Itoa(from)
}

// readStories reads the archive's published stories and notes the
// photos they show, so that the writers can say which of them this
// selection holds.
func (p *publisher) readStories(ctx context.Context) error {
	p.storyPhotos = map[string]bool{}
	list, err := p.a.Stories(ctx, false)
	if err != nil {
		return err
	}
	for _, it := range list {
		st, err := p.a.Story(ctx, it.Slug)
		if err == nil {
			st, err = p.a.PublicStory(ctx, st)
		}
		if err != nil {
			return err
		}
		p.stories = append(p.stories, st)
		for _, id := range st.PhotoIDs() {
			p.storyPhotos[id] = false
		}
	}
	return nil
}

// links are a photo's links in the published site.
func (p *publisher) links(ft *photo.Feature) web.FeatureLinks {
	l := web.FeatureLinks{Page: p.o.BaseURL + photoURL(ft), Image: ft.ImageURL}
	if pl := p.a.Gazetteer().ByID(ft.PlaceID); pl != nil {
		l.PlaceNameAr = pl.NameAr
	}
	if ft.ImageFile != "" && p.o.Images != nil {
		l.Image = p.o.BaseURL + imagePath(ft.ImageFile, largeSide)
		l.Thumbnail = p.o.BaseURL + imagePath(ft.ImageFile, smallSide)
	}
	return l
}

// counts writes the timeline and facet counts of the whole selection and
// of each year, as the API counts them (they are the store's own).
func (p *publisher) counts(ctx context.Context, years []int) error {
	type bin struct {
		Bin   string `json:"bin"`
		Count int    `json:"count"`
	}
	type value struct {
		Value   string `json:"value"`
		Label   string `json:"label"`
		LabelAr string `json:"label_ar,omitempty"` // the server's (pagemodel.FacetLabelAr)
		Count   int    `json:"count"`
	}
	f := p.selection()
	hist := func(h []photo.MonthCount) []bin {
		out := []bin{}
		for _, mc := range h {
			out = append(out, bin{mc.Month, mc.Count})
		}
		return out
	}
	facets := func(f photo.Filter) (map[string][]value, error) {
		fc, err := p.a.Facets(ctx, f, 100_000)
		if err != nil {
			return nil, err
		}
		out := map[string][]value{}
		for _, facet := range photo.AllFacets {
			vals := []value{}
			for _, c := range *fc.Of(facet) {
				v := value{Value: c.Value, Label: c.Label, LabelAr: pagemodel.FacetLabelAr(p.a.Gazetteer(), facet, c.Value), Count: c.Count}
				vals = append(vals, v)
			}
			out[web.FacetKeys[facet]] = vals
		}
		return out, nil
	}
	months, err := p.a.Histogram(ctx, f)
	if err != nil {
		return fmt.Errorf("publish: counting months: %w", err)
	}
	whole, err := facets(f)
	if err != nil {
		return fmt.Errorf("publish: counting facets: %w", err)
	}
	type year struct {
		Facets map[string][]value `json:"facets"`
	}
	// The months, which every first view draws, apart from the facets,
	// which only an opened filter needs.
	tl, err := json.Marshal(map[string]any{"months": hist(months)})
	if err != nil {
		return err
	}
	if p.manifest.Timeline, err = p.s.hashedGzip("data", "timeline", ".json", tl); err != nil {
		return err
	}
	out := struct {
		Facets map[string][]value `json:"facets"`
		Years  map[string]year    `json:"years"`
	}{whole, map[string]year{}}
	for _, y := range years {
		yf := f
		yf.From, yf.To = photo.Date{Year: y, Precision: "year"}, photo.Date{Year: y, Precision: "year"}
		days, err := p.a.DayHistogram(ctx, yf)
		if err != nil {
			return fmt.Errorf("publish: counting the days of %d: %w", y, err)
		}
		fc, err := facets(yf)
		if err != nil {
			return fmt.Errorf("publish: counting the facets of %d: %w", y, err)
		}
		out.Years[strconv.Itoa(y)] = year{fc}
		// A short window's days, in a file of their own: the first view
		// of a month reads them, not the facets.
		db, err := json.Marshal(map[string]any{"days": hist(days)})
		if err != nil {
			return err
		}
		if p.manifest.Days[strconv.Itoa(y)], err = p.s.hashedGzip("data", "days-"+strconv.Itoa(y), ".json", db); err != nil {
			return err
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	p.manifest.Counts, err = p.s.hashedGzip("data", "counts", ".json", b)
	return err
}

// selection is the filter of what is published, as the store takes it:
// the photos with no point are left out by the writers, and so by the
// counts only when they are published.
func (p *publisher) selection() photo.Filter {
	f := p.o.Filter
	f.Limit, f.Offset, f.After, f.Newest = 0, 0, 0, false
	if !p.o.IncludeUnplaced && f.BBox == nil {
		// Every placed photo lies inside the world's box; an unplaced
		// one inside none.
		f.BBox = &worldBox
	}
	return f
}

// events writes the UCDP GED events for the map's events layer, as the
// server answers /api/events/points.json but for the pages of events,
// which a site does not have, and the photos of this site linked to each
// (linked: their numbers by event key, from the writers), which the
// site's list shows by the event filter. An event's count of photos is
// of those in this site, which its popup's link lists, not of the
// archive's.
func (p *publisher) events(ctx context.Context, linked map[string][]int) error {
	rows, _, err := p.a.Events(ctx, conflict.EventQuery{})
	if err != nil || len(rows) == 0 {
		return err
	}
	citation, err := p.a.EventsCitation(ctx)
	if err != nil {
		return err
	}
	for i := range rows {
		rows[i].Photos = len(linked[photo.EventKey(rows[i].Dataset, rows[i].ID)])
	}
	if p.manifest.Events, err = p.s.hashedGzip("data", "events", ".json", web.EventPointsJSON(rows, citation, "")); err != nil {
		return err
	}
	b, err := json.Marshal(linked)
	if err != nil {
		return err
	}
	p.manifest.EventPhotos, err = p.s.hashedGzip("data", "event-photos", ".json", b)
	return err
}
