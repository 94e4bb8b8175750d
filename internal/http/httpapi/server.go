// Package httpapi serves the photo archive over HTTP: GeoJSON, GeoJSON text
// sequences and CSV for GIS tools and the map, the timeline and facet
// counts, and the photos' images. Routes are named, and every link is built
// from a route's name. One function turns errors into responses.
package httpapi

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/bag"
	"github.com/syriamap/syriamap/internal/http/eventsapi"
	"github.com/syriamap/syriamap/internal/http/facetcache"
	"github.com/syriamap/syriamap/internal/http/featurestream"
	"github.com/syriamap/syriamap/internal/http/health"
	"github.com/syriamap/syriamap/internal/http/httpcache"
	"github.com/syriamap/syriamap/internal/http/imagery"
	"github.com/syriamap/syriamap/internal/http/importapi"
	"github.com/syriamap/syriamap/internal/http/lane"
	"github.com/syriamap/syriamap/internal/http/memindex"
	"github.com/syriamap/syriamap/internal/http/middleware"
	"github.com/syriamap/syriamap/internal/http/ogcapi"
	"github.com/syriamap/syriamap/internal/http/pages"
	"github.com/syriamap/syriamap/internal/http/respcache"
	"github.com/syriamap/syriamap/internal/http/review"
	"github.com/syriamap/syriamap/internal/http/secondlooks"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/signin"
	"github.com/syriamap/syriamap/internal/http/sitepage"
	"github.com/syriamap/syriamap/internal/http/storyapi"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
)

// Options configure a Server.
type Options struct {
	// Media is the only folder the server reads photo images from, for
	// photos imported with an image_path; "" serves none.
	Media  string
	Logger *slog.Logger
	// Uploads is the folder editors' uploads wait in for their import
	// (POST /api/imports); "" takes none.
	Uploads string
	// UploadLimits bound an upload; zero is importapi.DefaultLimits.
	UploadLimits importapi.Limits
	// Tiles is an online tile layer's URL template
	// (https://tile.example.org/{z}/{x}/{y}.png) drawn under the offline
	// basemap; "" keeps the map offline.
	Tiles string
	// PointsLimit is the archive size above which the map asks the server
	// for clusters instead of loading every point; 0 means 200,000.
	PointsLimit int
	// ReadOnly refuses every write (the archive was opened read-only);
	// without editors in the archive the server takes none either.
	ReadOnly bool
	// TLSCert and TLSKey, both or neither, serve HTTPS (otherwise put the
	// server behind a proxy that does).
	TLSCert, TLSKey string
	// ServeOriginals serves imported image files as they are, with their
	// metadata (GPS included); otherwise only imagery.Derivatives are served.
	ServeOriginals bool
	// PublicGPS publishes the camera's GPS point of imported image files
	// and its distance from the photo's place in every route; otherwise
	// only editors see them, and the public routes say in words how it
	// agrees (where a photographer stood can endanger them; the agency's
	// caption is what they chose to publish).
	PublicGPS bool
	// ImageCache is the folder imagery.Derivatives of imported images are kept
	// in; "" keeps them in memory only.
	ImageCache string
	// NoMemIndex answers every window from SQLite, without the memory
	// index (internal/memindex); for comparisons and tests.
	NoMemIndex bool
	// BaseURL is the scheme, host and any path prefix the server is
	// reached at (https://photos.example.org), for the absolute links in
	// downloads; "" takes the address Serve listens on. The request's Host
	// header is never used: a client could put anything in it.
	BaseURL string
	// CacheBytes bounds the response cache (finished answers of the read
	// routes to readers, kept until the archive changes); 0 means 64 MB,
	// less than 0 keeps none.
	CacheBytes int64
	// SharedMaxAge is how long a shared cache (a CDN, a newsroom's proxy)
	// may keep a reader's answer without asking again; 0 means a minute,
	// less than 0 none. An editor's answers are never shared.
	SharedMaxAge time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (for the sign-in's brake); no other peer's is believed.
	TrustedProxies session.Proxies
	// Replica names this server in every answer's X-Syriamap-Replica
	// header, among replicas on one archive behind a load balancer; ""
	// sends none.
	Replica string
}

// storage is what this package's handlers ask of the archive: the reads
// of photos and counts, whether an image is only withheld photos', the
// versions a write's answer names, and the editors' sessions, each
// declared beside its handlers. The feature packages (review,
// secondlooks, storyapi …) declare their own Store, which the archive
// satisfies.
type storage interface {
	photoStore
	imageStore
	versionStore
	storyapi.Store
	session.Store
}

// Server is syriamap's HTTP server.
type Server struct {
	// Kit builds links from the routes' names, renders pages in the
	// site's frame and answers errors.
	*sitepage.Kit
	// archive gives the gazetteer and the geocoder's rules; db is its
	// storage, seen through what the handlers ask of it.
	archive *archive.Archive
	db      storage
	// uploads serve editors' uploads; nil without Options.Uploads. On a
	// read-only server they take none and say so.
	uploads *importapi.Handlers
	now     func() time.Time
	media   *imagery.MediaDir
	images  *imagery.Files
	// derivatives makes and keeps the JPEGs served for image files;
	// imageHandlers serve them and the files.
	derivatives   *imagery.Derivatives
	imageHandlers *imagery.Handlers
	// memIndex answers the map's windows from memory; nil when
	// Options.NoMemIndex.
	memIndex *memindex.Keeper
	log      *slog.Logger
	router   *mux.Router
	tiles    string
	// pointsLimit: see Options.PointsLimit.
	pointsLimit int
	facetCache  *facetcache.Cache
	// reviewGroups keeps the review queue's groups of each filter and
	// counts again only the groups a change touched: grouping every
	// unchecked photo a full-text filter selects takes seconds at 200,000
	// photos, and uploads change the archive every few seconds.
	reviewGroups *facetcache.Groups
	// reviewLane admits the review pages apart from the readers' costly
	// searches and downloads, so that a crowd of searches never queues
	// the editors' work behind it.
	reviewLane *lane.Lane
	// Paths of the routes every feature links to (see links).
	photoPath, mediaPath, thumbPath, smallPath, largePath pathTemplate
	// baseURL: see Options.BaseURL; "" until Serve knows its address
	// (links are then root-relative).
	baseURL string
	// stream writes lists and downloads of any size.
	stream *featurestream.Streamer
	// integrity is the start-up integrity check's outcome: nil while it
	// runs or when it found nothing.
	integrity atomic.Pointer[error]
	// lane admits searches and the chunks of downloads (see lane).
	lane *lane.Lane
	// labelPlaces are the places the map may name, most prominent first.
	labelPlaces []*gazetteer.Place
	// ogc serves OGC API – Features and the vector tiles.
	ogc *ogcapi.API
	// guard tells who a request comes from and guards the writes.
	guard     *session.Guard
	publicGPS bool
	// signin serves the editors' sign-in, sign-out and password change;
	// stories, the stories.
	signin  *signin.Handlers
	stories *storyapi.API
	// looks serves the second looks (two-person confirmation); review,
	// the review, its writes and the harm marks.
	looks  *secondlooks.API
	review *review.API
	// pages serves the reader's pages: the explorer, a photo's, a
	// place's, the about page.
	pages *pages.API
	// events serves the conflict events and the photos' links to them;
	// evidence, an editor's bag, zipped.
	events   *eventsapi.API
	evidence *bag.Download
	// health is the archive's last health probe (see internal/health).
	health health.Probe
	// conditional is the layer in front of the read routes: ETags, 304s,
	// who may keep an answer, the response cache.
	conditional     *httpcache.Layer
	tlsCert, tlsKey string
	// replica names this server in every answer (Options.Replica).
	replica string
}

// New returns a server over the archive a.
func New(a *archive.Archive, opts Options) (*Server, error) {
	s := &Server{archive: a, db: a, now: a.Now, log: opts.Logger, router: mux.NewRouter(), tiles: opts.Tiles, pointsLimit: opts.PointsLimit,
		lane: lane.Default(), publicGPS: opts.PublicGPS,
		tlsCert: opts.TLSCert, tlsKey: opts.TLSKey, replica: opts.Replica}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.Kit = sitepage.New(s.router, s.log)
	s.Kit.Tiles = s.tiles
	if (s.tlsCert == "") != (s.tlsKey == "") {
		return nil, fmt.Errorf("--tls-cert and --tls-key go together")
	}
	s.conditional = &httpcache.Layer{Versions: a.VersionsFor, Error: s.Error, SharedMaxAge: cmp.Or(opts.SharedMaxAge, httpcache.DefaultSharedMaxAge),
		Own: ownValidators, Log: s.log}
	switch {
	case opts.CacheBytes == 0:
		s.conditional.Cache = respcache.New(httpcache.DefaultCacheBytes)
	case opts.CacheBytes > 0:
		s.conditional.Cache = respcache.New(opts.CacheBytes)
	}
	if s.pointsLimit <= 0 {
		s.pointsLimit = 200_000
	}
	if opts.BaseURL != "" {
		base, err := CheckBaseURL(opts.BaseURL)
		if err != nil {
			return nil, err
		}
		s.baseURL = base
	}
	if err := CheckTiles(s.tiles); err != nil {
		return nil, err
	}
	if opts.Media != "" {
		m, err := imagery.OpenMedia(opts.Media)
		if err != nil {
			return nil, err
		}
		s.media = m
	}
	if !opts.NoMemIndex {
		s.memIndex = memindex.NewKeeper(a, s.featureEncoder, s.log)
	}
	s.images = imagery.NewFiles(a, opts.Media, opts.ServeOriginals)
	s.images.KeptIn(func() originals.Store { return a.Originals })
	s.derivatives = imagery.NewDerivatives(a.Images, s.lane, opts.ImageCache) // one budget with the archive's frame hashes
	s.imageHandlers = imagery.NewHandlers(s.images, s.media, s.derivatives, s.imageWithheld, s.Error)
	s.stream = featurestream.New(a, s.lane, s.Error, s.log)
	s.labelPlaces = web.LabelPlaces(a.Gazetteer())
	s.facetCache = facetcache.New(a)
	s.reviewGroups = facetcache.NewGroups(a)
	s.reviewLane = lane.New(1, 32)
	s.guard = session.New(a, opts.ReadOnly, s.Error)
	s.Kit.Guard = s.guard
	s.signin = &signin.Handlers{Kit: s.Kit, DB: a, Guard: s.guard, Log: s.log, Now: s.now, Base: func() string { return s.baseURL },
		Brake: auth.Brake{Ledger: a}, Proxies: opts.TrustedProxies, Checks: make(chan struct{}, signin.PasswordChecks)}
	s.stories = &storyapi.API{Kit: s.Kit, DB: a, Guard: s.guard, Tiles: s.tiles, Base: s.base, PageURLs: s.pageURLs,
		Feature: func(b []byte, base string, p *photo.Photo) []byte {
			ft := featureOf(p)
			return web.AppendFeature(b, &ft, s.links(base, &ft), s.publicGPS)
		}, CacheControl: s.conditional.CacheControl}
	s.review = &review.API{Kit: s.Kit, Store: a, Guard: s.guard, Groups: s.reviewGroups, Tiles: s.tiles, PublicGPS: s.publicGPS, Error: s.Error,
		Filter: s.parseFilter, Facets: s.pageFacets, ShowsGPS: s.showsGPS, ImageFile: s.imageFileView, PhotoEvents: s.photoEventsView,
		Feature: s.photoFeature, Title: s.titleOf, UploadURL: s.uploadURL, PageURLs: s.pageURLs}
	s.looks = &secondlooks.API{Kit: s.Kit, Store: a, Guard: s.guard, Tiles: s.tiles, Error: s.Error, ShowsGPS: s.showsGPS,
		ReviewMap: s.review.Map, ImageFile: s.imageFileView}
	s.pages = &pages.API{Kit: s.Kit, Store: a, PointsLimit: s.pointsLimit, Media: s.media != nil, PublicGPS: s.publicGPS, Base: s.base,
		PageURLs: s.pageURLs, Filter: s.parseFilter, Facets: s.pageFacets, ShowsGPS: s.showsGPS, ImageFile: s.imageFileView, Records: s.photoRecords}
	s.events = &eventsapi.API{Kit: s.Kit, DB: a, Guard: s.guard, Error: s.Error, TagPhoto: s.tagPhoto, Base: s.base, PageURLs: s.pageURLs, Now: s.now}
	s.evidence = &bag.Download{DB: a, Guard: s.guard, Error: s.Error, Log: s.log, Now: s.now}
	s.ogc = ogcapi.New(ogcHost{s}, a, a.Gazetteer(), opts.PublicGPS, s.log)
	if opts.Uploads != "" {
		s.uploads = &importapi.Handlers{Kit: s.Kit, Guard: s.guard}
	}
	if opts.Uploads != "" && !opts.ReadOnly {
		limits := opts.UploadLimits
		if limits == (importapi.Limits{}) {
			limits = importapi.DefaultLimits
		}
		im, err := importapi.New(context.Background(), a, opts.Uploads, limits, s.log)
		if err != nil {
			return nil, err
		}
		s.uploads.Imports = im
		if s.uploads.Resumable, err = im.Resumable("/api/uploads/"); err != nil {
			return nil, err
		}
	}
	s.routes()
	s.guard.SignInURL = s.URL("signin")
	s.photoPath = s.pathTemplate("photo", "id")
	s.mediaPath = s.pathTemplate("media", "path")
	s.thumbPath = s.pathTemplate("thumbnail", "path")
	s.smallPath = s.pathTemplate("image.small", "sha")
	s.largePath = s.pathTemplate("image.large", "sha")
	return s, nil
}

// ownValidators are the read routes the conditional layer leaves alone:
// their answers are files (the binary's assets, images) with validators of
// their own content, or probes that must do their work every time.
var ownValidators = map[string]bool{"healthz": true, "metrics": true, "asset": true, "favicon": true, "basemap": true,
	"thumbnail": true, "image.small": true, "image.large": true, "image.original": true, "media": true,
	"imports.job": true, "uploads": true, "photo.geojson": true, "api.story": true}

// CacheStats returns the response cache's counters (all zero when it is
// off).
func (s *Server) CacheStats() respcache.Stats { return s.conditional.Stats() }

// routes names every route; handlers and pages build links with url.
func (s *Server) routes() {
	r := s.router
	r.StrictSlash(false)
	r.Use(s.conditional.Middleware)
	get := func(name, path string, h http.HandlerFunc) {
		r.Handle(path, h).Methods(http.MethodGet, http.MethodHead).Name(name)
	}
	// open routes serve GIS clients on any origin (a web map elsewhere
	// reads the tiles and features): they are read-only and public.
	open := func(name, path string, h http.HandlerFunc) {
		get(name, path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Access-Control-Allow-Origin", "*")
			h(w, r)
		})
	}
	// editorial routes show a signed-in editor more than the public (see
	// session.Guard.Viewing); every other read is the public's, whoever
	// asks, and the store leaves out what the public may not see.
	editorial := func(name, path string, h http.HandlerFunc) { get(name, path, s.guard.Viewing(h)) }
	get("healthz", "/healthz", s.healthz)
	get("metrics", "/metrics", s.conditional.Metrics)
	get("photos.geojson", "/api/photos.geojson", s.photosGeoJSON)
	get("photos.geojsonl", "/api/photos.geojsonl", s.photosGeoJSONSeq)
	get("photos.csv", "/api/photos.csv", s.photosCSV)
	get("points", "/api/points.json", s.photosPoints)
	s.events.Routes(r, get, open, editorial)
	get("clusters", "/api/clusters", s.costly(s.clusters))
	editorial("photo.geojson", "/api/photos/{id}.geojson", s.photoGeoJSON)
	get("timeline", "/api/timeline", s.costly(s.timeline))
	get("facets", "/api/facets", s.costly(s.facets))
	get("places.geojson", "/api/places.geojson", s.costly(s.placesGeoJSON))
	get("labels", "/api/labels", s.labels)
	s.pages.Routes(get, editorial, s.costly)
	get("signin", "/signin", s.signin.Form)
	r.Handle("/signin", http.HandlerFunc(s.signin.SignIn)).Methods(http.MethodPost)
	r.Handle("/signout", s.guard.Editing(s.signin.SignOut)).Methods(http.MethodPost).Name("signout")
	r.Handle("/signin/password", s.guard.Editing(s.signin.ChangePassword)).Methods(http.MethodPost).Name("password")
	s.review.Routes(r, editorial, func(h http.HandlerFunc) http.HandlerFunc { return s.inLane(&s.reviewLane, h) })
	s.looks.Routes(r, editorial)
	get("places.search", "/api/places/search", s.searchPlaces)
	get("search.spellings", "/api/search/spellings", s.searchSpellings)
	r.Handle("/api/places", s.guard.Editing(s.addPlace)).Methods(http.MethodPost).Name("places.add")
	// An added place's id begins with arc: (no other place can be taken
	// back), which keeps these apart from /api/places/search.
	r.Handle("/api/places/{place:arc:[^/]+}", s.guard.Editing(expecting(photo.VersionPlace, "place", s.changePlace))).Methods(http.MethodDelete, http.MethodPatch).Name("places.change")
	r.Handle("/api/places/{place:arc:[^/]+}/restore", s.guard.Editing(expecting(photo.VersionPlace, "place", s.changePlace))).Methods(http.MethodPost).Name("places.restore")
	s.evidence.Routes(r)
	// A server started with a folder for uploads; read-only, its guard
	// says so to every upload.
	if s.uploads != nil {
		s.uploads.Routes(r, editorial)
	}
	s.stories.Routes(r, get, editorial)
	open("ogc", "/ogc", s.ogc.Landing)
	open("ogc.conformance", "/ogc/conformance", s.ogc.Conformance)
	open("ogc.api", "/ogc/api", s.ogc.OpenAPI)
	open("ogc.collections", "/ogc/collections", s.ogc.Collections)
	open("ogc.collection", "/ogc/collections/{collection}", s.ogc.Collection)
	open("ogc.queryables", "/ogc/collections/{collection}/queryables", s.ogc.Queryables)
	open("ogc.items", "/ogc/collections/{collection}/items", s.costly(s.ogc.Items))
	open("ogc.item", "/ogc/collections/{collection}/items/{id}", s.ogc.Item)
	open("tilejson", "/tiles/photos.json", s.ogc.TileJSON)
	open("tile", "/tiles/photos/{z:[0-9]+}/{x:[0-9]+}/{y:[0-9]+}.mvt", s.costly(s.ogc.Tile))
	get("thumbnail", "/media/thumb/{path:.+}", s.imageHandlers.Thumbnail)
	get("image.small", "/images/{sha}/320.jpg", s.imageHandlers.Small)
	get("image.large", "/images/{sha}/1280.jpg", s.imageHandlers.Large)
	get("image.original", "/images/{sha}/original.jpg", s.imageHandlers.Original)
	get("media", "/media/{path:.+}", s.imageHandlers.MediaFile)
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.Error(w, r, web.NotFound("no such page: %s", r.URL.Path))
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(s.MethodNotAllowed)
}

// Handler returns the server's handler: the routes inside the security
// headers, request logging, the refusal of credentials in addresses and
// compression.
func (s *Server) Handler() http.Handler {
	routes := middleware.RefuseCredentialsInQuery(middleware.Compress(s.guard.CrossOrigin(i18n.Handler(s.router))), s.Error)
	return middleware.LogRequests(middleware.Replica(middleware.SecurityHeaders(routes, s.tiles), s.replica), s.log,
		func() time.Duration { return s.stream.WriteIdle })
}

// Serve listens on addr until ctx is done, then shuts down gracefully,
// letting requests in flight finish for up to ten seconds. ready, if not
// nil, is called with the address once the server listens.
func (s *Server) Serve(ctx context.Context, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      5 * time.Minute, // a full download of a large archive takes a while
		IdleTimeout:       90 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	if s.baseURL == "" {
		s.baseURL = listenBase(ln.Addr())
		if s.tlsCert != "" {
			s.baseURL = "https://" + strings.TrimPrefix(s.baseURL, "http://")
		}
	}
	if ready != nil {
		ready(ln.Addr())
	}
	go s.CheckIntegrity(ctx)
	go s.conditional.LogCache(ctx, time.Minute)
	if s.memIndex != nil {
		s.memIndex.Start(s.baseURL) // windows are read from SQLite until it is built
	}
	// The explorer's first page counts facets over the whole archive:
	// count them now, while nobody waits.
	go func() {
		if _, err := s.facetCache.Facets(ctx, photo.Filter{}, 50); err != nil && ctx.Err() == nil {
			s.log.Warn("counting facets at start-up", "err", err)
		}
	}()
	errc := make(chan error, 1)
	go func() {
		if s.tlsCert != "" {
			errc <- srv.ServeTLS(ln, s.tlsCert, s.tlsKey)
			return
		}
		errc <- srv.Serve(ln)
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// CheckIntegrity checks the whole archive (about a second per 150 MB), so
// that a damaged archive is found now rather than by the first user whose
// query reads the damaged page: /healthz reports it from then on. Serve
// runs it as the server starts.
func (s *Server) CheckIntegrity(ctx context.Context) {
	if err := s.db.QuickCheck(ctx); err != nil && ctx.Err() == nil {
		s.integrity.Store(&err)
		s.log.Error("the archive failed its integrity check", "err", err)
	}
}

// healthz answers ok when the archive passed the start-up integrity check
// (or it still runs) and answers a cheap read now, on a connection of its
// own, so that it never waits behind other requests.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	if err := s.integrity.Load(); err != nil {
		s.Error(w, r, *err)
		return
	}
	if err := s.health.Check(r.Context(), s.db.Health); err != nil {
		s.Error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintln(w, "ok")
}

// uploadURL is the upload page's address, "" when the server takes no
// uploads.
func (s *Server) uploadURL() string {
	if s.uploads == nil {
		return ""
	}
	return s.uploads.PageURL()
}

// base is the scheme, host and prefix absolute links begin with.
func (s *Server) base(*http.Request) string { return s.baseURL }

// CheckBaseURL checks a --base-url and returns it without a trailing
// slash.
func CheckBaseURL(base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("--base-url %q: want the address people reach the server at, e.g. https://photos.example.org", base)
	}
	return strings.TrimRight(base, "/"), nil
}

// listenBase is the base URL of a listening address: its host and port,
// or localhost for an address that listens on every interface (give
// --base-url then).
func listenBase(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// CheckTiles reports whether tiles is "" or an http(s) tile URL template.
func CheckTiles(tiles string) error {
	if tiles != "" && web.TileOrigin(tiles) == "" {
		return fmt.Errorf("--tiles %q: want an http(s) URL template such as https://tile.example.org/{z}/{x}/{y}.png", tiles)
	}
	return nil
}
