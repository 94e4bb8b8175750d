package httpapi

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/assets"
	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/attribution"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// The HTML pages: each handler builds its view model, with every link from
// a named route, and renders it. They work without JavaScript.

// pageSize is how many photos a list page shows.
const pageSize = 50

// favicon answers the browsers that ask for /favicon.ico whatever the
// page says, with the site's icon.
func (s *Server) favicon(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, s.URL("asset", "file", assets.Name("favicon.svg")), http.StatusMovedPermanently)
}

func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
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
func (s *Server) basemap(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/geo+json")
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("ETag", web.ETagFor(r, basemapETag))
	web.ServeContent(w, r, "", time.Time{}, bytes.NewReader(geodata.Basemap))
}

// explorer lists the photos under the filters in the query, newest first.
func (s *Server) explorer(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := s.parseFilter(q)
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
	facetsOf := s.pageFacets(ctx, f)
	m := views.Explorer{Page: s.Page(r, i18n.T(r.Context(), "explorer.title"), "explore")}
	s.WithMapAssets(&m.Page)
	if m.Total, err = s.db.Count(ctx); err == nil {
		m.Matching, err = s.db.CountPhotos(ctx, f)
	}
	var facets photo.Facets
	if err == nil {
		facets, err = facetsOf()
	}
	var rows []photo.Photo
	if err == nil {
		pageF := f
		pageF.Limit, pageF.Offset = pageSize, offset
		rows, err = s.db.Photos(ctx, pageF)
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
		Tiles: s.tiles, Total: m.Total, PointsLimit: s.pointsLimit, Editor: m.Page.Editor != "",
	}
	if m.Page.Editor != "" && m.Page.CSRF != "" {
		m.Map.EvidenceURL, m.Map.CSRF = s.URL("evidence"), m.Page.CSRF
	}
	if !narrowed(q) {
		m.Page.Preloads = explorerPreloads(m.Map)
	}
	m.Filters = pagemodel.Filters(i18n.From(ctx), s.archive.Gazetteer(), s.URL("explorer"), s.URL("facets"), s.URL("places.search"), q, f, facets)
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

// facetWait bounds how long a page waits for its filters' counts: over
// a large selection they take seconds. Past it the page lists the chosen
// values without counts; the count goes on and serves the next page, and
// the script asks for the counts when a list is opened. (A year of a
// 250,000-photo archive takes longer than 300 ms to count the first
// time — such pages waited the whole 300 ms — and the wait comes before
// the map can start: a quarter of the first markers' budget.)
const facetWait = 120 * time.Millisecond

// pageFacets starts counting the facets of f for a page's filters, and
// returns the wait for them: none when they take longer than facetWait
// from the start, which the page's own reads run during.
func (s *Server) pageFacets(ctx context.Context, f photo.Filter) (wait func() (photo.Facets, error)) {
	type counted struct {
		fc  photo.Facets
		err error
	}
	done := make(chan counted, 1)
	go func() {
		fc, err := s.facetCache.Facets(context.WithoutCancel(ctx), f, 50)
		done <- counted{fc, err}
	}()
	deadline := time.NewTimer(facetWait)
	return func() (photo.Facets, error) {
		defer deadline.Stop()
		select {
		case c := <-done:
			return c.fc, c.err
		case <-deadline.C:
			return photo.Facets{}, nil
		case <-ctx.Done():
			return photo.Facets{}, ctx.Err()
		}
	}
}

// photoPage shows one photo with everything known about it.
func (s *Server) photoPage(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	p, err := s.photoFor(w, r, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	l := i18n.From(r.Context())
	row := s.photoRow(l, p)
	m := views.PhotoPage{
		Page:  s.Page(r, s.titleOf(l, p), ""),
		Photo: row, DatePrecision: p.Date.Precision, Photographer: p.Photographer, Agency: pagemodel.AgencyName(l, p.Agency),
		PlaceKind: p.Place.Kind, Governorate: pagemodel.GovernorateName(l, s.archive.Gazetteer(), p.Place.Governorate),
		Confidence: l.Decimal(p.Place.Confidence, 2), Precision: p.Place.Precision,
		Mention: p.Place.Mention, Note: p.Place.Note, GeoJSONURL: s.URL("photo.geojson", "id", p.ID),
	}
	switch {
	case p.ImageFile != "":
		m.ImageURL = s.URL("image.large", "sha", p.ImageFile)
		gps := s.showsGPS(r)
		m.File = s.imageFileView(r.Context(), l, p, gps)
		if gps && !s.publicGPS {
			w.Header().Set("Cache-Control", "private, no-store")
		}
	case p.ImagePath != "" && s.media != nil:
		m.ImageURL = s.URL("media", "path", p.ImagePath)
	case p.ImageURL != "":
		m.RemoteImage = p.ImageURL
	}
	for _, im := range p.Images {
		u := im.URL
		if im.Path != "" && s.media != nil {
			u = s.URL("media", "path", im.Path)
		}
		if u != "" && u != m.ImageURL && u != m.RemoteImage && (im.URL != p.ImageURL || im.Path != p.ImagePath) {
			m.OtherImages = append(m.OtherImages, u)
		}
	}
	if p.Place.Located {
		m.Coordinates = fmt.Sprintf("%.6f, %.6f", p.Place.Lon, p.Place.Lat)
		label := row.PlaceName
		if label == "" {
			label = l.T("photo.its-point")
		}
		m.Map = s.MiniMap(&m.Page, p.Place.Lon, p.Place.Lat, label)
		if p.Check.HasGPS && p.ImageFile != "" && s.showsGPS(r) {
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
		if pl := s.archive.Gazetteer().ByID(a.ID); pl != nil {
			alt.URL = s.URL("place", "id", a.ID)
			// Damascus the city, the governorate, the district
			alt.Name = l.T("place.within", "place", pagemodel.GazetteerName(l, pl), "kind", l.Named("kind.", string(pl.Kind)))
		}
		m.Alternatives = append(m.Alternatives, alt)
	}
	for _, src := range p.Sources {
		m.Sources = append(m.Sources, views.Source{File: sourceName(src.File), Line: src.Line, Ref: src.Ref, Label: src.Label})
	}
	m.ReviewURL = s.URL("review.photo", "id", p.ID)
	m.EvidenceURL = s.URL("evidence")
	if err := s.photoRecords(r, &m, p); err != nil {
		s.Error(w, r, err)
		return
	}
	s.Render(w, r, http.StatusOK, views.PhotoPageView(m))
}

// photoRecords fills what the photo page says of the photo's records:
// its history and custody, its harm mark, its conflict events and its
// verification.
func (s *Server) photoRecords(r *http.Request, m *views.PhotoPage, p *photo.Photo) error {
	var err error
	if m.History, err = s.review.EventRows(r, p.ID); err != nil {
		return err
	}
	if m.Custody, err = s.custodyRows(r, p.ID); err != nil {
		return err
	}
	if m.Harm, err = s.review.HarmView(r, m.Page, p); err != nil {
		return err
	}
	if m.Events, err = s.photoEventsView(r, m.Page, p); err != nil {
		return err
	}
	m.Verified, err = s.looks.VerifiedMark(r, m.Page, p)
	return err
}

// sourceName is how a source file is shown to visitors: its name, not the
// folder on the importing machine, which is nobody's business.
func sourceName(file string) string { return path.Base(filepath.ToSlash(file)) }

// placePage shows a gazetteer place and its photos over time.
func (s *Server) placePage(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	pl := s.archive.Gazetteer().ByID(id)
	if pl == nil {
		s.Error(w, r, web.NotFound("no place has the id %q", id))
		return
	}
	ctx := r.Context()
	f := photo.Filter{PlaceIDs: []string{pl.ID}}
	n, err := s.db.CountPhotos(ctx, f)
	var bins []photo.MonthCount
	if err == nil {
		bins, err = s.db.Histogram(ctx, f)
	}
	var recent []photo.Photo
	if err == nil {
		f.Limit = 10
		recent, err = s.db.Photos(ctx, f)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	l := i18n.From(ctx)
	m := views.PlacePage{
		Page: s.Page(r, pagemodel.GazetteerName(l, pl), ""), ID: pl.ID, Name: pl.Name, NameAr: pl.NameAr, Kind: l.Named("kind.", string(pl.Kind)),
		Within: pagemodel.Within(l, s.archive.Gazetteer(), pl, s.pageURLs().Place), OtherSide: pagemodel.OtherSide(l, s.archive.Gazetteer(), pl, s.pageURLs().Place), Country: pagemodel.CountryName(l, pl.Country),
		Names: pagemodel.ShownNames(pl.Names), Records: pagemodel.Records(l, pl), Photos: n,
	}
	if pl.Located {
		m.Coordinates = fmt.Sprintf("%.6f, %.6f", pl.Point.Lon(), pl.Point.Lat())
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
func (s *Server) about(w http.ResponseWriter, r *http.Request) {
	n, err := s.db.Count(r.Context())
	if err != nil {
		s.Error(w, r, err)
		return
	}
	c, err := credits()
	if err != nil {
		s.Error(w, r, err)
		return
	}
	m := views.About{Page: s.Page(r, i18n.T(r.Context(), "about.title"), "about"), Photos: n, Places: s.archive.Gazetteer().Len(),
		Downloads: s.downloads(nil, i18n.T(r.Context(), "downloads.all-geojson"), i18n.T(r.Context(), "downloads.all-csv")),
		OGCURL:    s.base(r) + s.URL("ogc"), TileJSONURL: s.base(r) + s.URL("tilejson")}
	held, err := s.archive.EventDatasets(r.Context())
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
	g := s.archive.Gazetteer()
	m.Credits, m.Pages = pagemodel.Credits(i18n.From(r.Context()), g, c, func(id string) string {
		if g.ByID(id) == nil {
			return ""
		}
		return s.URL("place", "id", id)
	})
	s.Render(w, r, http.StatusOK, views.AboutPage(m))
}

// photoEventsView is the events section of photo p's page and of its
// review page (eventsapi.API.PhotoEventsView).
func (s *Server) photoEventsView(r *http.Request, page views.Page, p *photo.Photo) (*views.PhotoEvents, error) {
	return s.events.PhotoEventsView(r, page, p)
}

// photoRow is a photo's line in a list.
func (s *Server) photoRow(l i18n.Locale, p *photo.Photo) views.PhotoRow {
	return pagemodel.PhotoRow(l, p, s.archive.Gazetteer(), s.pageURLs())
}

// pageURLs are the server's links for the page models.
func (s *Server) pageURLs() pagemodel.URLs {
	return pagemodel.URLs{
		Photo: func(p *photo.Photo) string { return s.URL("photo", "id", p.ID) },
		Place: func(id string) string { return s.URL("place", "id", id) },
		Thumbnail: func(p *photo.Photo) string {
			switch {
			case p.ImageFile != "":
				return s.URL("image.small", "sha", p.ImageFile)
			case p.ImagePath != "" && s.media != nil:
				return s.URL("thumbnail", "path", p.ImagePath)
			}
			return ""
		},
	}
}

// titleOf names a photo's page by its place and date.
func (s *Server) titleOf(l i18n.Locale, p *photo.Photo) string {
	return pagemodel.PhotoTitle(l, p, s.archive.Gazetteer())
}

// downloads links to the GeoJSON and CSV of exactly the filtered photos.
func (s *Server) downloads(filters url.Values, geojsonLabel, csvLabel string) []views.Link {
	q := url.Values{"download": {"1"}}
	for k, v := range filters {
		q[k] = v
	}
	return []views.Link{
		{Label: geojsonLabel, URL: s.URL("photos.geojson") + "?" + q.Encode()},
		{Label: csvLabel, URL: s.URL("photos.csv") + "?" + q.Encode()},
	}
}

// imageFileView is what a photo's image file says and how it agrees with
// the caption, for its page; gps shows the camera's GPS point and its
// distance from the photo's place, else only that the file has one.
func (s *Server) imageFileView(ctx context.Context, l i18n.Locale, p *photo.Photo, gps bool) *views.ImageFile {
	v := &views.ImageFile{Agreement: p.Check.Agreement, Parts: p.Check.Parts, Note: p.Check.Note, NoteLang: "en", EXIFTime: pagemodel.CameraTime(l, p.Check.EXIFTime)}
	v.Reuse = s.reuseLine(ctx, l, p)
	// The stored note is English; checked again, the same findings are
	// said in the reader's language.
	if c, err := s.archive.FileCheck(p); err == nil && c.Agreement == p.Check.Agreement && c.Note == p.Check.Note {
		v.Note, v.NoteLang = archive.CheckNote(l, s.archive.Gazetteer(), c.Findings), ""
	}
	if p.File != nil {
		v.Name = filepath.Base(p.File.Path)
		var md imagemeta.Metadata
		if json.Unmarshal([]byte(p.File.Meta), &md) == nil {
			v.From = md.From
			loc := []string{}
			for _, s := range []string{md.Sublocation, md.City, md.State, cmp.Or(md.Country, md.CountryCode)} {
				if s != "" {
					loc = append(loc, s)
				}
			}
			v.Location = strings.Join(loc, ", ")
			v.Credit = strings.Trim(strings.Join(md.Creators, ", ")+" / "+cmp.Or(md.Credit, md.Source), " /")
			v.Created = md.Created
			if md.EXIF.Make != "" || md.EXIF.Model != "" {
				v.Camera = strings.TrimSpace(md.EXIF.Make + " " + strings.TrimPrefix(md.EXIF.Model, md.EXIF.Make))
			}
		}
	}
	switch {
	case p.Check.HasGPS && gps:
		v.GPS = fmt.Sprintf("%.6f, %.6f", p.Check.GPSLon, p.Check.GPSLat)
		if p.Place.Located {
			km := geo.Distance(orb.Point{p.Place.Lon, p.Place.Lat}, orb.Point{p.Check.GPSLon, p.Check.GPSLat}) / 1000
			v.GPS += " · " + l.T("image.gps-km", "km", int(math.Round(km)), "place", pagemodel.NameOf(l, s.archive.Gazetteer(), p.Place.ID, p.Place.Name))
		}
	case p.Check.HasGPS:
		// No distance: with the place's point, two of them (before and
		// after a correction) give the point away.
		v.GPS = l.T("image.gps-hidden")
	}
	return v
}
