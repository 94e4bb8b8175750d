package publish

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"

	"github.com/a-h/templ"

	"github.com/syriamap/syriamap/assets"
	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/attribution"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// The URLs the explorer's script asks for, relative to the site's root.
// No server answers them: the script's static API (assets/src/
// staticapi.js) does, from the data files the manifest names.
const (
	apiPoints   = "api/points.json"
	apiClusters = "api/clusters"
	apiTimeline = "api/timeline"
	apiFacets   = "api/facets"
	apiLabels   = "api/labels"
	apiList     = "api/photos.geojson"
	apiCSV      = "api/photos.csv"
	apiPhoto    = "api/photos/{id}.geojson"
	apiPlaces   = "api/places/search"
	apiBasemap  = "api/basemap.geojson"
	apiEvents   = "api/events/points.json"
	photoPage   = "photo.html?id={id}"
	// placePage is a place's page (placePath).
	placePage = "places/{id}.html"
)

// assets copies the pages' style sheets, script and icon under their
// hashed names.
func (p *publisher) assets() error {
	for name, body := range assets.Files() {
		if err := p.s.put("assets/"+name, body); err != nil {
			return err
		}
	}
	return nil
}

// gazetteerData writes what the map and the Place filter need of the
// gazetteer: the basemap, the place names the map labels, and the places
// of the published photos with all their names, to find one by any
// spelling.
func (p *publisher) gazetteerData(placeIDs []string) error {
	var err error
	if p.manifest.Basemap, err = p.s.hashedGzip("data", "basemap", ".geojson", geodata.Basemap); err != nil {
		return err
	}
	// Labels: [lon, lat, name, kind, the zoom from which it shows, id,
	// the Arabic name if any],
	// most prominent first, as /api/labels ranks them; a file for each
	// zoom they show from, so that a country's view loads the cities'.
	byZoom := map[int][]byte{}
	for _, pl := range web.LabelPlaces(p.a.Gazetteer()) {
		z := web.LabelZoom[pl.Kind]
		b := byZoom[z]
		if len(b) > 0 {
			b = append(b, ",\n"...)
		}
		b = append(b, '[')
		b = strconv.AppendFloat(b, web.Round6(pl.Point.Lon()), 'f', -1, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, web.Round6(pl.Point.Lat()), 'f', -1, 64)
		b = append(b, ',')
		b = web.AppendString(b, pl.Name)
		b = append(b, ',')
		b = web.AppendString(b, string(pl.Kind))
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(z), 10)
		b = append(b, ',')
		b = web.AppendString(b, pl.ID)
		if pl.NameAr != "" {
			b = append(b, ',')
			b = web.AppendString(b, pl.NameAr)
		}
		byZoom[z] = append(b, ']')
	}
	p.manifest.Labels = map[string]string{}
	for z, b := range byZoom {
		name, err := p.s.hashedGzip("data", "labels-"+strconv.Itoa(z), ".json", append(append([]byte{'['}, b...), ']'))
		if err != nil {
			return err
		}
		p.manifest.Labels[strconv.Itoa(z)] = name
	}
	// The places in the gazetteer's order, which breaks place search's
	// ties, with what its script ranks them by (assets/src/placesearch.js
	// searches them as archive.SearchPlaces does).
	type place struct {
		pagemodel.PlaceFound
		Names      []string `json:"names,omitempty"`
		Prominence float64  `json:"prominence"`
		Country    string   `json:"country"`
	}
	// The places are those the server's search with with_photos=true
	// finds: at, around and above the photos (pagemodel.HoldingPlaces).
	g := p.a.Gazetteer()
	holding := pagemodel.HoldingPlaces(g, placeIDs)
	var places []place
	all := g.Places()
	for i := range all {
		if pl := &all[i]; holding.Held[pl.ID] {
			found := pagemodel.FoundPlace(pl)
			found.Within = holding.Within(pl)
			places = append(places, place{found, pl.Names, gazetteer.Prominence(pl), pl.Country})
		}
	}
	body, err := json.Marshal(places)
	if err != nil {
		return err
	}
	p.manifest.Places, err = p.s.hashedGzip("data", "places", ".json", body)
	return err
}

// page is the frame of the published page at the slash path at (within
// its language's folder); a page with a map carries the way to the
// site's manifest for its script. current names the site link to mark.
func (p *publisher) page(at, title, current string, withMap bool) views.Page {
	root, pages := p.roots(at)
	nav := []views.Link{{Label: p.loc.T("nav.explore"), URL: cmp.Or(pages, "./"), Current: current == "explore"}}
	if len(p.stories) > 0 {
		nav = append(nav, views.Link{Label: p.loc.T("nav.stories"), URL: pages + "stories.html", Current: current == "stories"})
	}
	nav = append(nav, views.Link{Label: p.loc.T("nav.about"), URL: pages + "about.html", Current: current == "about"})
	pg := views.Page{Title: title, StyleURL: root + "assets/" + assets.Name("style.css"), IconURL: root + "assets/" + assets.Name("favicon.svg"), Nav: nav,
		CSP: web.ContentSecurityPolicy(p.o.Tiles)}
	// The same page in the other language: the one file in the other
	// folder (its script carries the explorer's state across).
	pg.OtherLang, _ = pagemodel.Choices(p.loc, func(string, string) string {
		if p.dir == "" {
			return root + langDir(i18n.Arabic) + at
		}
		return root + at
	})
	if withMap {
		pg.Styles = []string{root + "assets/" + assets.Name("leaflet.css")}
		pg.Scripts = []string{root + "assets/" + assets.Name("app.js")}
		// The way to the site's manifest (site.json): pages that do not
		// change stay the same from one publish to the next.
		pg.Static = map[string]string{"root": root}
	}
	return pg
}

// roots are the ways from the page at (in its language's folder) to the
// site's root, where the data and assets are, and to its language's
// pages.
func (p *publisher) roots(at string) (root, pages string) {
	root = relRoot(p.dir + at)
	return root, root + p.dir
}

// langDir is the folder of a language's pages: English at the site's
// root, Arabic in ar/.
func langDir(l i18n.Lang) string {
	if l == i18n.English {
		return ""
	}
	return string(l) + "/"
}

// mapConfig is the explorer's configuration in the published site, for
// a page whose way to the site's root is root (the API's data is the
// site's; a place's page is in the page's language).
func (p *publisher) mapConfig(root string) views.MapConfig {
	events := ""
	if p.manifest.Events != "" {
		events = root + apiEvents
	}
	return views.MapConfig{EventsURL: events, PointsURL: root + apiPoints, ClustersURL: root + apiClusters, TimelineURL: root + apiTimeline, BasemapURL: root + apiBasemap,
		FacetsURL: root + apiFacets, LabelsURL: root + apiLabels, ListURL: root + apiList, CSVURL: root + apiCSV, PhotoGeoJSONURL: root + apiPhoto,
		PlaceURL: placePage, PlacesSearchURL: root + apiPlaces, Tiles: p.o.Tiles, Total: p.n, PointsLimit: cmp.Or(p.o.PointsLimit, pointsLimit)}
}

// pointsLimit is the explorer's own: up to it the page loads every point
// and filters them itself.
const pointsLimit = 200_000

// pages writes the site's manifest, then in each language the explorer,
// the photo page, the places' pages, the stories and the about page:
// English at the site's root, Arabic in ar/.
func (p *publisher) pages(ctx context.Context, places map[string]*placeStats) error {
	m := p.manifest
	m.Title, m.TileURL, m.PointsLimit = p.o.Title, p.o.Tiles, cmp.Or(p.o.PointsLimit, pointsLimit)
	site, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	if err := p.s.put("site.json", append(site, '\n')); err != nil {
		return err
	}
	defer func() { p.loc, p.dir = i18n.Locale{}, "" }()
	for _, lang := range i18n.Langs {
		p.loc, p.dir = i18n.Locale{Lang: lang}, langDir(lang)
		if err := p.languagePages(ctx, places); err != nil {
			return err
		}
	}
	return nil
}

// languagePages writes the pages of one language (p.loc, in p.dir).
func (p *publisher) languagePages(ctx context.Context, places map[string]*placeStats) error {
	root, _ := p.roots("index.html")
	cfg := p.mapConfig(root)
	downloads := []views.Link{{Label: p.loc.T("downloads.all-geojson-gz"), URL: p.manifest.GeoJSON}, {Label: p.loc.T("downloads.all-csv-gz"), URL: p.manifest.CSV}}
	explorer := views.Explorer{Page: p.page("index.html", cmp.Or(p.o.Title, p.loc.T("explorer.heading")), "explore", true), Total: p.n, Map: cfg, Downloads: downloads,
		Filters: views.Filters{Action: "./", VerifiedOffered: true, EventOffered: p.manifest.EventPhotos != ""}}
	// The data files a first visit reads (staticapi.js photos, map.js
	// loadBasemap), started with the page rather than after the script
	// and the manifest.
	explorer.Page.Preloads = []string{root + p.manifest.Basemap}
	if p.n <= cfg.PointsLimit {
		explorer.Page.Preloads = append(explorer.Page.Preloads, root+p.manifest.Points)
	}
	if err := p.render("index.html", views.ExplorerPage(explorer)); err != nil {
		return err
	}
	photo := views.StaticPhoto{Page: p.page("photo.html", p.loc.T("photo.title"), "", true), Map: cfg}
	if err := p.render("photo.html", views.StaticPhotoPage(photo)); err != nil {
		return err
	}
	for id, st := range places {
		if err := p.placePage(id, st, places); err != nil {
			return err
		}
	}
	if err := p.storyPages(ctx, places); err != nil {
		return fmt.Errorf("publish: the stories: %w", err)
	}
	var c attribution.Credits
	if err := json.Unmarshal(geodata.Attribution, &c); err != nil {
		return fmt.Errorf("publish: reading the attribution: %w", err)
	}
	about := views.About{Page: p.page("about.html", p.loc.T("about.title"), "about", false), Photos: p.n, Places: p.a.Gazetteer().Len(), Downloads: downloads, Published: true}
	about.Credits, about.Pages = pagemodel.Credits(p.loc, p.a.Gazetteer(), c, func(id string) string {
		if places[id] == nil {
			return ""
		}
		return placePath(id)
	})
	return p.render("about.html", views.AboutPage(about))
}

// placePath is a place's page: its id as the file's name, so that the
// explorer's link (encodeURIComponent of the id, in placePage) finds it.
func placePath(id string) string { return "places/" + id + ".html" }

// placeStats is what a place's page shows of the published photos
// placed there, gathered as they are written.
type placeStats struct {
	n      int
	months map[string]int // as the store's Histogram bins them
	recent []photo.Photo  // the newest, at most placeRecent
}

const placeRecent = 10

func (st *placeStats) add(ft *photo.Feature) {
	st.n++
	if !ft.Date.IsZero() {
		bin := ft.Date.String()
		if ft.Date.Precision == "day" {
			bin = bin[:7]
		}
		st.months[bin]++
	}
	if len(st.recent) < placeRecent {
		st.recent = append(st.recent, photo.Photo{ID: ft.ID, Caption: ft.Caption, Date: ft.Date, Photographer: ft.Photographer,
			Agency: ft.Agency, ImageFile: ft.ImageFile, Place: photo.Place{ID: ft.PlaceID, Name: ft.PlaceName, Located: ft.Located,
				Precision: ft.Precision, Confidence: ft.Confidence}})
	}
}

// placePage writes the page of place id, as the server's place page
// with the published photos.
func (p *publisher) placePage(id string, st *placeStats, places map[string]*placeStats) error {
	pl := p.a.Gazetteer().ByID(id)
	if pl == nil {
		return nil
	}
	at := placePath(id)
	root, pages := p.roots(at)
	urls := p.pageURLs(root, pages, places)
	name := pagemodel.GazetteerName(p.loc, pl)
	m := views.PlacePage{Page: p.page(at, name, "", true), ID: pl.ID, Name: pl.Name, NameAr: pl.NameAr, Kind: p.loc.Named("kind.", string(pl.Kind)),
		Within: pagemodel.Within(p.loc, p.a.Gazetteer(), pl, urls.Place), OtherSide: pagemodel.OtherSide(p.loc, p.a.Gazetteer(), pl, urls.Place), Country: pagemodel.CountryName(p.loc, pl.Country), Names: pagemodel.ShownNames(pl.Names, pl.Name, pl.NameAr),
		Records: pagemodel.Records(p.loc, pl), Photos: st.n}
	if pl.Located {
		m.Coordinates = pagemodel.Coordinates(p.loc, pl.Point.Lon(), pl.Point.Lat())
		m.Map = &views.MiniMap{BasemapURL: root + apiBasemap, LabelsURL: root + apiLabels, Tiles: p.o.Tiles, Label: name,
			Lon: strconv.FormatFloat(pl.Point.Lon(), 'f', 6, 64), Lat: strconv.FormatFloat(pl.Point.Lat(), 'f', 6, 64)}
	}
	bins := make([]photo.MonthCount, 0, len(st.months))
	for b, n := range st.months {
		bins = append(bins, photo.MonthCount{Month: b, Count: n})
	}
	m.Bars, m.First, m.Last = pagemodel.MonthBars(p.loc, bins)
	for i := range st.recent {
		m.Recent = append(m.Recent, pagemodel.PhotoRow(p.loc, &st.recent[i], p.a.Gazetteer(), urls))
	}
	q := url.Values{"place": {pl.ID}}
	m.PhotosURL = cmp.Or(pages, "./") + "?" + q.Encode()
	q.Set("download", "1")
	m.Downloads = []views.Link{{Label: p.loc.T("downloads.geojson"), URL: root + apiList + "?" + q.Encode()}, {Label: p.loc.T("downloads.csv"), URL: root + apiCSV + "?" + q.Encode()}}
	return p.render(at, views.PlacePageView(m))
}

// render writes the page name of the language being written, in it.
func (p *publisher) render(name string, c templ.Component) error {
	var b bytes.Buffer
	if err := c.Render(i18n.With(context.Background(), p.loc), &b); err != nil {
		return fmt.Errorf("publish: rendering %s: %w", p.dir+name, err)
	}
	return p.s.put(p.dir+name, b.Bytes())
}

// datapackage describes the downloads (Frictionless Data Package 1.0).
func (p *publisher) datapackage(years []int) error {
	type resource struct {
		Name        string `json:"name"`
		Path        string `json:"path"`
		Format      string `json:"format"`
		MediaType   string `json:"mediatype"`
		Compression string `json:"compression,omitempty"`
		Description string `json:"description"`
	}
	res := []resource{
		{"photos", p.manifest.GeoJSON, "geojson", "application/geo+json", "gz",
			fmt.Sprintf("The %d published photos as a GeoJSON FeatureCollection (WGS84), newest first, gzipped (GDAL: /vsigzip/)", p.n)},
		{"photos-csv", p.manifest.CSV, "csv", "text/csv", "gz", "The same photos as CSV, gzipped; lon and lat columns"},
		{"photos-tiles", p.manifest.Tiles, "pmtiles", "application/vnd.pmtiles", "",
			"The placed photos as vector tiles (layer photos: clusters with counts below zoom 14, single photos from it) in one PMTiles archive"},
	}
	for _, y := range years {
		res = append(res, resource{fmt.Sprintf("photos-%d", y), p.manifest.Years[strconv.Itoa(y)], "geojson", "application/geo+json", "gz",
			fmt.Sprintf("The published photos dated in %d, gzipped", y)})
	}
	pkg := map[string]any{
		"profile": "data-package", "name": "syriamap", "title": cmp.Or(p.o.Title, i18n.Locale{}.T("explorer.heading")),
		"description": "Photos of the Syrian war, placed on the map from their captions by syriamap",
		"licenses":    []map[string]string{{"name": "see-captions", "title": "Each photo's rights are its agency's; the gazetteer's sources are credited in about.html"}},
		"resources":   res,
	}
	b, err := json.MarshalIndent(pkg, "", "  ")
	if err != nil {
		return err
	}
	return p.s.put("datapackage.json", append(b, '\n'))
}
