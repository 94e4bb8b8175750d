// Package pages serves the reader's pages: the explorer (the map, the
// filters and the list of photos), a photo's page, a place's page and
// the about page, with the files they load (the assets, the basemap).
// Each handler builds its view model, with every link from a named
// route, and renders it; the pages work without JavaScript. What a
// photo's page shows that other features own (its history, custody,
// harm mark, events and second looks; its image file) the server lends
// as functions, as it does to the stories.
package pages

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/assets"
	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/attribution"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/sitepage"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// API serves the reader's pages. Set its fields before it serves.
type API struct {
	// Kit builds links from the routes' names, renders pages in the
	// site's frame and answers errors.
	*sitepage.Kit
	Store Store
	// PointsLimit is the archive size above which the explorer's map
	// asks for clusters instead of every point.
	PointsLimit int
	// Media is whether the server serves a media folder (photos imported
	// with an image_path); PublicGPS, whether anyone may see a camera's
	// GPS point (Options.PublicGPS).
	Media, PublicGPS bool
	// Base is the scheme, host and prefix absolute links begin with;
	// PageURLs, the server's links for the page models.
	Base     func(r *http.Request) string
	PageURLs func() pagemodel.URLs
	// Filter reads the list filters of a query, as every list reads them.
	Filter func(q url.Values) (photo.Filter, error)
	// Facets starts counting the facets of f for a page's filters and
	// returns the wait for them, a short one.
	Facets func(ctx context.Context, f photo.Filter) (wait func() (photo.Facets, error))
	// ShowsGPS reports whether the request may see a camera's GPS point;
	// ImageFile is what a photo's image file says, as its page shows it.
	ShowsGPS  func(r *http.Request) bool
	ImageFile func(ctx context.Context, l i18n.Locale, p *photo.Photo, gps bool) *views.ImageFile
	// Records fills what a photo's page says of the photo's records, each
	// section from the feature that owns it.
	Records func(r *http.Request, m *views.PhotoPage, p *photo.Photo) error
}

// Store is what the pages read of the archive.
type Store interface {
	// Count is the number of photos the request's viewer may see;
	// CountPhotos, Photos and Histogram read those f selects.
	Count(ctx context.Context) (int, error)
	CountPhotos(ctx context.Context, f photo.Filter) (int, error)
	Photos(ctx context.Context, f photo.Filter) ([]photo.Photo, error)
	Histogram(ctx context.Context, f photo.Filter) ([]photo.MonthCount, error)
	// Photo reads a photo as ctx's viewer may see it (photo.ViewerOf): a
	// withheld photo is found by an editor's read only.
	Photo(ctx context.Context, id string) (*photo.Photo, error)
	// EventDatasets are the conflict events' datasets held, for the
	// about page's credits.
	EventDatasets(ctx context.Context) ([]conflict.EventsHeld, error)
	Gazetteer() *gazetteer.Gazetteer
}

// Routes adds the pages' routes: get adds a read route, editorial one
// that shows a signed-in editor more (a withheld photo's page), costly
// admits a handler through the lane of costly reads.
func (s *API) Routes(get, editorial func(name, path string, h http.HandlerFunc), costly func(http.HandlerFunc) http.HandlerFunc) {
	get("explorer", "/", costly(s.explorer))
	get("about", "/about", s.about)
	editorial("photo", "/photos/{id}", s.photoPage)
	get("place", "/places/{id}", s.placePage)
	get("asset", "/assets/{file}", s.asset)
	get("favicon", "/favicon.ico", s.favicon)
	get("basemap", "/basemap.geojson", s.basemap)
}

// photoRow is a photo's line in a list.
func (s *API) photoRow(l i18n.Locale, p *photo.Photo) views.PhotoRow {
	return pagemodel.PhotoRow(l, p, s.Store.Gazetteer(), s.PageURLs())
}

// pageSize is how many photos a list page shows.
const pageSize = 50

// favicon answers the browsers that ask for /favicon.ico whatever the
// page says, with the site's icon.
func (s *API) favicon(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, s.URL("asset", "file", assets.Name("favicon.svg")), http.StatusMovedPermanently)
}

func (s *API) asset(w http.ResponseWriter, r *http.Request) {
	if !assets.Serve(w, r, mux.Vars(r)["file"]) {
		s.Error(w, r, web.NotFound("no such file: %s", r.URL.Path))
	}
}

// basemapETag names the embedded basemap's content.
var basemapETag = func() string {
	sum := sha256.Sum256(geodata.Basemap)
	return `"basemap-` + hex.EncodeToString(sum[:8]) + `"`
}()

// basemap serves the map's offline background, the same for the life of
// the binary.
func (s *API) basemap(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/geo+json")
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("ETag", web.ETagFor(r, basemapETag))
	web.ServeContent(w, r, "", time.Time{}, bytes.NewReader(geodata.Basemap))
}

// explorer lists the photos under the filters in the query, newest first.
func (s *API) explorer(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := s.Filter(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	offset, err := web.IntParam(q, "offset", 0, 0, 10_000_000)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	ctx := r.Context()
	facetsOf := s.Facets(ctx, f)
	m := views.Explorer{Page: s.Page(r, i18n.T(r.Context(), "explorer.title"), "explore")}
	s.WithMapAssets(&m.Page)
	if m.Total, err = s.Store.Count(ctx); err == nil {
		m.Matching, err = s.Store.CountPhotos(ctx, f)
	}
	var facets photo.Facets
	if err == nil {
		facets, err = facetsOf()
	}
	var rows []photo.Photo
	if err == nil {
		pageF := f
		pageF.Limit, pageF.Offset = pageSize, offset
		rows, err = s.Store.Photos(ctx, pageF)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	for i := range rows {
		m.Rows = append(m.Rows, s.photoRow(i18n.From(ctx), &rows[i]))
	}
	if len(rows) > 0 {
		m.From, m.To = offset+1, offset+len(rows)
	}
	filters := web.FilterQuery(q)
	if offset > 0 {
		m.PrevURL = s.URL("explorer") + web.WithOffset(filters, max(0, offset-pageSize))
	}
	if offset+len(rows) < m.Matching {
		m.NextURL = s.URL("explorer") + web.WithOffset(filters, offset+pageSize)
	}
	m.Downloads = s.downloads(filters, i18n.T(ctx, "downloads.geojson"), i18n.T(ctx, "downloads.csv"))
	m.Map = views.MapConfig{
		PointsURL: s.URL("points"), ClustersURL: s.URL("clusters"), TimelineURL: s.URL("timeline"), BasemapURL: s.URL("basemap"),
		FacetsURL: s.URL("facets"), LabelsURL: s.URL("labels"),
		ListURL: s.URL("photos.geojson"), CSVURL: s.URL("photos.csv"),
		PhotoGeoJSONURL: s.URL("photo.geojson", "id", "{id}"), PlaceURL: s.URL("place", "id", "{id}"),
		PlacesSearchURL: s.URL("places.search"), EventsURL: s.URL("events.points"),
		Tiles: s.Tiles, Total: m.Total, PointsLimit: s.PointsLimit, Editor: m.Page.Editor != "",
	}
	if m.Page.Editor != "" && m.Page.CSRF != "" {
		m.Map.EvidenceURL, m.Map.CSRF = s.URL("evidence"), m.Page.CSRF
	}
	if !narrowed(q) {
		m.Page.Preloads = explorerPreloads(m.Map)
	}
	m.Filters = pagemodel.Filters(i18n.From(ctx), s.Store.Gazetteer(), s.URL("explorer"), s.URL("facets"), s.URL("places.search"), q, f, facets)
	m.Filters.EventOffered, m.Filters.VerifiedOffered = true, true
	s.Render(w, r, http.StatusOK, views.ExplorerPage(m))
}

// explorerPreloads are the requests the explorer's script makes first
// when no filter narrows the photos (explorer.js load, map.js
// loadBasemap): the page starts them, so that they do not wait for the
// script. With a filter the points' URL is the script's to write.
func explorerPreloads(c views.MapConfig) []string {
	out := []string{c.TimelineURL + "?bin=month", c.BasemapURL}
	if c.Total <= c.PointsLimit { // else the server clusters each view
		out = append(out, c.PointsURL)
	}
	return out
}

// narrowed reports whether q has a filter beyond the time window and
// the box (the explorer's state.js multiKeys and singleKeys).
func narrowed(q url.Values) bool {
	for _, k := range []string{"agency", "photographer", "place", "governorate", "q", "min_confidence", "agreement", "reuse", "event", "verified"} {
		for _, v := range q[k] {
			if strings.TrimSpace(v) != "" {
				return true
			}
		}
	}
	return false
}

// photoPage shows one photo with everything known about it.
func (s *API) photoPage(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	p, err := web.ReadPhoto(w, r, s.Store, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	l := i18n.From(r.Context())
	row := s.photoRow(l, p)
	m := views.PhotoPage{
		Page:  s.Page(r, pagemodel.PhotoTitle(l, p, s.Store.Gazetteer()), ""),
		Photo: row, DatePrecision: p.Date.Precision, Photographer: p.Photographer, Agency: pagemodel.AgencyName(l, p.Agency),
		PlaceKind: p.Place.Kind, Governorate: pagemodel.GovernorateName(l, s.Store.Gazetteer(), p.Place.Governorate),
		Confidence: l.Decimal(p.Place.Confidence, 2), Precision: pagemodel.PlacementWord(l, p.Place),
		Mention: p.Place.Mention, Note: p.Place.Note, GeoJSONURL: s.URL("photo.geojson", "id", p.ID),
	}
	if !p.Date.IsZero() && p.DateSource != "" {
		m.DateSource = l.T("date-source." + p.DateSource)
	}
	switch {
	case p.ImageFile != "":
		m.ImageURL = s.URL("image.large", "sha", p.ImageFile)
		gps := s.ShowsGPS(r)
		m.File = s.ImageFile(r.Context(), l, p, gps)
		if gps && !s.PublicGPS {
			w.Header().Set("Cache-Control", "private, no-store")
		}
	case p.ImagePath != "" && s.Media:
		m.ImageURL = s.URL("media", "path", p.ImagePath)
	case p.ImageURL != "":
		m.RemoteImage = p.ImageURL
	}
	for _, im := range p.Images {
		u := im.URL
		if im.Path != "" && s.Media {
			u = s.URL("media", "path", im.Path)
		}
		if u != "" && u != m.ImageURL && u != m.RemoteImage && (im.URL != p.ImageURL || im.Path != p.ImagePath) {
			m.OtherImages = append(m.OtherImages, u)
		}
	}
	if p.Place.Located {
		m.Coordinates = pagemodel.Coordinates(l, p.Place.Lon, p.Place.Lat)
		label := row.PlaceName
		if label == "" {
			label = l.T("photo.its-point")
		}
		m.Map = s.MiniMap(&m.Page, p.Place.Lon, p.Place.Lat, label)
		if p.Check.HasGPS && p.ImageFile != "" && s.ShowsGPS(r) {
			m.Map.GPSLon, m.Map.GPSLat = strconv.FormatFloat(p.Check.GPSLon, 'f', 6, 64), strconv.FormatFloat(p.Check.GPSLat, 'f', 6, 64)
		}
	}
	if c := p.Correction; c != nil {
		on := c.Created.UTC()
		m.Corrected = l.T("photo.corrected-on", "date", l.Date(on.Year(), on.Month(), on.Day()))
		if c.Note != "" {
			m.Corrected = l.T("photo.corrected-on-note", "date", l.Date(on.Year(), on.Month(), on.Day()), "note", c.Note)
		}
	}
	for _, a := range p.Place.Alternatives {
		alt := views.Alternative{Name: a.Name, Mention: a.Mention, Score: l.Decimal(a.Score, 2)}
		if pl := s.Store.Gazetteer().ByID(a.ID); pl != nil {
			alt.URL = s.URL("place", "id", a.ID)
			// Damascus the city, the governorate, the district
			alt.Name = l.T("place.within", "place", pagemodel.GazetteerName(l, pl), "kind", l.Named("kind.", string(pl.Kind)))
		}
		m.Alternatives = append(m.Alternatives, alt)
	}
	for _, src := range p.Sources {
		m.Sources = append(m.Sources, views.Source{File: web.SourceName(src.File), Line: src.Line, Ref: src.Ref, Label: src.Label})
	}
	m.ReviewURL = s.URL("review.photo", "id", p.ID)
	m.EvidenceURL = s.URL("evidence")
	if err := s.Records(r, &m, p); err != nil {
		s.Error(w, r, err)
		return
	}
	s.Render(w, r, http.StatusOK, views.PhotoPageView(m))
}

// placePage shows a gazetteer place and its photos over time.
func (s *API) placePage(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	pl := s.Store.Gazetteer().ByID(id)
	if pl == nil {
		s.Error(w, r, web.NotFound("no place has the id %q", id))
		return
	}
	ctx := r.Context()
	f := photo.Filter{PlaceIDs: []string{pl.ID}}
	n, err := s.Store.CountPhotos(ctx, f)
	var bins []photo.MonthCount
	if err == nil {
		bins, err = s.Store.Histogram(ctx, f)
	}
	var recent []photo.Photo
	if err == nil {
		f.Limit = 10
		recent, err = s.Store.Photos(ctx, f)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	l := i18n.From(ctx)
	m := views.PlacePage{
		Page: s.Page(r, pagemodel.GazetteerName(l, pl), ""), ID: pl.ID, Name: pl.Name, NameAr: pl.NameAr, Kind: l.Named("kind.", string(pl.Kind)),
		Within: pagemodel.Within(l, s.Store.Gazetteer(), pl, s.PageURLs().Place), OtherSide: pagemodel.OtherSide(l, s.Store.Gazetteer(), pl, s.PageURLs().Place), Country: pagemodel.CountryName(l, pl.Country),
		Names: pagemodel.ShownNames(pl.Names, pl.Name, pl.NameAr), Records: pagemodel.Records(l, pl), Photos: n,
	}
	if pl.Located {
		m.Coordinates = pagemodel.Coordinates(l, pl.Point.Lon(), pl.Point.Lat())
		m.Map = s.MiniMap(&m.Page, pl.Point.Lon(), pl.Point.Lat(), pagemodel.GazetteerName(l, pl))
	}
	m.Bars, m.First, m.Last = pagemodel.MonthBars(l, bins)
	for i := range recent {
		m.Recent = append(m.Recent, s.photoRow(l, &recent[i]))
	}
	filters := url.Values{"place": {pl.ID}}
	m.PhotosURL = s.URL("explorer") + "?" + filters.Encode()
	m.Downloads = s.downloads(filters, l.T("downloads.geojson"), l.T("downloads.csv"))
	s.Render(w, r, http.StatusOK, views.PlacePageView(m))
}

// credits are the bundled data's sources, read once.
var credits = sync.OnceValues(func() (attribution.Credits, error) {
	var c attribution.Credits
	err := json.Unmarshal(geodata.Attribution, &c)
	return c, err
})

// about says what syriamap is and whose data it uses.
func (s *API) about(w http.ResponseWriter, r *http.Request) {
	n, err := s.Store.Count(r.Context())
	if err != nil {
		s.Error(w, r, err)
		return
	}
	c, err := credits()
	if err != nil {
		s.Error(w, r, err)
		return
	}
	m := views.About{Page: s.Page(r, i18n.T(r.Context(), "about.title"), "about"), Photos: n, Places: s.Store.Gazetteer().Len(),
		Downloads: s.downloads(nil, i18n.T(r.Context(), "downloads.all-geojson"), i18n.T(r.Context(), "downloads.all-csv")),
		OGCURL:    s.Base(r) + s.URL("ogc"), TileJSONURL: s.Base(r) + s.URL("tilejson")}
	held, err := s.Store.EventDatasets(r.Context())
	if err != nil {
		s.Error(w, r, err)
		return
	}
	for _, h := range held {
		// GED's events only: ACLED's terms keep its rows from readers.
		if h.Dataset == conflict.GED {
			m.GEDEvents += h.Events
			m.GEDVersion = h.Version // the latest, as the versions sort
			m.GEDCitation = geodata.CiteGED(h.Version)
		}
	}
	g := s.Store.Gazetteer()
	m.Credits, m.Pages = pagemodel.Credits(i18n.From(r.Context()), g, c, func(id string) string {
		if g.ByID(id) == nil {
			return ""
		}
		return s.URL("place", "id", id)
	})
	s.Render(w, r, http.StatusOK, views.AboutPage(m))
}

// downloads links to the GeoJSON and CSV of exactly the filtered photos.
func (s *API) downloads(filters url.Values, geojsonLabel, csvLabel string) []views.Link {
	q := url.Values{"download": {"1"}}
	for k, v := range filters {
		q[k] = v
	}
	return []views.Link{
		{Label: geojsonLabel, URL: s.URL("photos.geojson") + "?" + q.Encode()},
		{Label: csvLabel, URL: s.URL("photos.csv") + "?" + q.Encode()},
	}
}
