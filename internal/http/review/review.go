// Package review serves the review: the queue of groups of photos no
// person has checked, a photo's review page and the forms it posts
// (confirm, a reading, a place, a point, a date and credit, for one photo
// or its whole group), undo, the log and a photo's history, the JSON
// write API other tools use (placement, details), and the harm marks
// (graphic, withheld) with the page a stale form is answered with.
package review

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/facetcache"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/sitepage"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// maxGroups bounds the groups the review page lists.
const maxGroups = 500

// API serves the review of an archive. Set its fields before it serves.
// What the review shows of a photo that other features own (its events,
// its image file, its Feature) the server lends it as functions.
type API struct {
	Kit   *sitepage.Kit
	Store Store
	Guard *session.Guard
	// Groups keeps the review queue's groups of each filter and counts
	// again only the groups a change touched: grouping every unchecked
	// photo a full-text filter selects takes seconds at 200,000 photos.
	Groups *facetcache.Groups
	// Tiles is the online tile layer drawn under the basemap, if any;
	// PublicGPS, whether every reader sees a camera's GPS point.
	Tiles     string
	PublicGPS bool
	// Error answers an error as the server answers every other (a page's
	// form that met a newer version gets StalePage).
	Error func(w http.ResponseWriter, r *http.Request, err error)
	// Filter reads the list filters of a query (web.ParseFilter, a place
	// by any of its ids); Facets starts counting the facets of a filter
	// and returns what waits for them.
	Filter func(q url.Values) (photo.Filter, error)
	Facets func(ctx context.Context, f photo.Filter) (wait func() (photo.Facets, error))
	// ShowsGPS reports whether the request may see a camera's GPS point.
	ShowsGPS func(r *http.Request) bool
	// ImageFile is what a photo's image file says, as its page shows it.
	ImageFile func(ctx context.Context, l i18n.Locale, p *photo.Photo, gps bool) *views.ImageFile
	// PhotoEvents is the photo's events and candidates, for its pages.
	PhotoEvents func(r *http.Request, page views.Page, p *photo.Photo) (*views.PhotoEvents, error)
	// Feature is the photo as the API's GeoJSON Feature (gps: with the
	// camera's point), the answer to a write.
	Feature func(r *http.Request, p *photo.Photo, gps bool) ([]byte, error)
	// Title is a photo's title on its pages; UploadURL the upload page
	// ("" when the server takes none); PageURLs the links of the page
	// models.
	Title     func(l i18n.Locale, p *photo.Photo) string
	UploadURL func() string
	PageURLs  func() pagemodel.URLs
}

// Store is what the review reads and writes of the archive. Every change
// goes through Apply (or ApplyBatch), which records it as an event.
type Store interface {
	// Photo reads a photo as ctx's viewer may see it (photo.ViewerOf).
	Photo(ctx context.Context, id string) (*photo.Photo, error)
	Apply(ctx context.Context, ids []string, c photo.Change) (int, error)
	ApplyBatch(ctx context.Context, ids []string, c photo.Change) (n int, batch int64, err error)
	Undo(ctx context.Context, batch int64, author, note string) (int, error)
	History(ctx context.Context, id string) ([]photo.Event, error)
	RecentEvents(ctx context.Context, limit int) ([]photo.Event, error)
	ReviewIDs(ctx context.Context, f photo.Filter, mention string) ([]string, error)
	ReviewSplit(ctx context.Context, f photo.Filter, mention string) ([]photo.GroupPart, error)
	// SameReading lists the photos no person has checked whose place was
	// read as photo id's was, shown where it is (a group's "apply to
	// all"); LeftOf says what such a decision left for a person.
	SameReading(ctx context.Context, id, to string) ([]string, error)
	LeftOf(ctx context.Context, place photo.Place, to string) (archive.LeftForReview, error)
	Names(caption, placeID string) bool
	PlaceOf(placeID string, point *[2]float64) (photo.Place, error)
	PlaceOfIPTC(city, country string) photo.Place
	AddPlaces(ctx context.Context, places []photo.AddedPlace, by string) ([]photo.AddedPlace, error)
	// SetHarm marks a photo graphic or withheld, or takes the mark off;
	// MarkedPhotos lists the marked ones; CustodyOf, a photo's custody
	// records (who marked it, and why).
	SetHarm(ctx context.Context, id, harm, actor, reason string) (changed bool, err error)
	MarkedPhotos(ctx context.Context, limit int) ([]photo.Photo, error)
	CustodyOf(ctx context.Context, photoID string) ([]photo.Custody, error)
	Gazetteer() *gazetteer.Gazetteer
}

// Routes adds the review's routes to r: the queue and a photo's page
// (run by inLane, apart from the readers' costly work), the forms they
// post, undo, the write API (placement, details, harm marks) and a
// photo's history. editorial adds a read that shows an editor more than
// the public (session.Guard.Viewing).
func (s *API) Routes(r *mux.Router, editorial func(name, path string, h http.HandlerFunc), inLane func(http.HandlerFunc) http.HandlerFunc) {
	editing := func(h session.Write) http.HandlerFunc {
		return s.Guard.Editing(session.Expecting(photo.VersionPhoto, "id", h))
	}
	editorial("review", "/review", inLane(s.reviewQueue))
	editorial("review.log", "/review/log", s.reviewLog)
	editorial("review.photo", "/review/photos/{id}", inLane(s.reviewPhoto))
	r.Handle("/review/photos/{id}", editing(s.reviewSubmit)).Methods(http.MethodPost)
	r.Handle("/review/undo", s.Guard.Editing(s.reviewUndo)).Methods(http.MethodPost).Name("review.undo")
	r.Handle("/review/photos/{id}/place-named", s.Guard.Editing(s.reviewPlaceNamed)).Methods(http.MethodPost).Name("review.place-named")
	r.Handle("/api/photos/{id}/placement", editing(s.putPlacement)).Methods(http.MethodPut).Name("placement")
	r.Handle("/api/photos/{id}/details", editing(s.putDetails)).Methods(http.MethodPut).Name("details")
	r.Handle("/api/photos/{id}/harm", editing(s.putHarm)).Methods(http.MethodPut, http.MethodPost).Name("harm")
	editorial("history", "/api/photos/{id}/history", s.historyJSON)
}

// reviewQueue lists the groups of photos to check.
func (s *API) reviewQueue(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := s.Filter(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	ctx := r.Context()
	facetsOf := s.Facets(ctx, f)
	groups, err := s.Groups.Get(ctx, f, maxGroups)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	facets, err := facetsOf()
	if err != nil {
		s.Error(w, r, err)
		return
	}
	l := i18n.From(ctx)
	m := views.ReviewQueue{Page: s.Kit.Page(r, l.T("review.title"), "review"), LogURL: s.Kit.URL("review.log"), SecondLooksURL: s.Kit.URL("second-looks"), UploadURL: s.UploadURL(), WhyNot: s.whyNot(r), Flash: s.doneMessage(l, q.Get("done")),
		Undo: s.undoOf(r, q.Get("done"))}
	s.Kit.WithScript(&m.Page) // the filters' lists to search
	m.Filters = pagemodel.Filters(i18n.From(r.Context()), s.Store.Gazetteer(), s.Kit.URL("review"), s.Kit.URL("facets"), s.Kit.URL("places.search"), q, f, facets)
	filters := web.FilterQuery(q)
	for _, g := range groups {
		m.Unchecked += g.Photos
		m.Groups = append(m.Groups, views.ReviewGroup{Mention: g.Mention, AlsoWritten: slices.DeleteFunc(slices.Clone(g.Spellings), func(s string) bool { return s == g.Mention }), Photos: g.Photos, Unplaced: g.Unplaced,
			Fallback: g.Fallback, Low: g.Low, Disagrees: g.Disagrees, PlaceName: pagemodel.NameOf(l, s.Store.Gazetteer(), g.PlaceID, g.PlaceName), URL: s.reviewURL(g.Example, g.Mention, filters)})
	}
	if m.Marked, err = s.markedView(r, m.Page); err != nil {
		s.Error(w, r, err)
		return
	}
	if len(m.Marked) > 0 {
		w.Header().Set("Cache-Control", "private, no-store") // withheld photos' captions
	}
	s.Kit.Render(w, r, http.StatusOK, views.ReviewQueuePage(m))
}

// whyNot says why the visitor cannot correct photos, or "".
func (s *API) whyNot(r *http.Request) string {
	l := i18n.From(r.Context())
	if err := s.Guard.Writable(r.Context()); err != nil {
		if l.Lang != i18n.English {
			return l.T("review.read-only", "why", photo.ErrorMessage(err))
		}
		return photo.ErrorMessage(err) + "."
	}
	ed, err := s.Guard.EditorOf(r)
	if err != nil || ed == nil {
		return l.T("review.sign-in-to-correct")
	}
	return ""
}

// reviewURL is the review page of a photo within its group, keeping the
// filters.
func (s *API) reviewURL(id, group string, filters url.Values) string {
	q := url.Values{}
	for k, v := range filters {
		q[k] = v
	}
	q.Set("group", group)
	return s.Kit.URL("review.photo", "id", id) + "?" + q.Encode()
}

// reviewPhoto shows one photo under review.
func (s *API) reviewPhoto(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	ctx := r.Context()
	p, err := web.ReadPhoto(w, r, s.Store, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	q := r.URL.Query()
	f, err := s.Filter(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	group := q.Get("group")
	_, inGroup := q["group"]
	if !inGroup {
		group = p.Place.Mention
	}
	l := i18n.From(ctx)
	m := views.ReviewPhoto{Page: s.Kit.Page(r, l.T("review.photo-title", "photo", s.Title(l, p)), "review"), ID: p.ID, PhotoURL: s.Kit.URL("photo", "id", p.ID),
		Version: strconv.FormatInt(p.Rev, 10),
		Caption: pagemodel.CaptionParts(p.Caption, p.Place.Mention), Date: p.Date.String(), DateShown: pagemodel.Date(l, p.Date), DatePrecision: p.Date.Precision,
		Photographer: p.Photographer, Agency: p.Agency, AgencyShown: pagemodel.AgencyName(l, p.Agency), Placement: pagemodel.Placement(l, p.Place), Mention: p.Place.Mention, Note: p.Place.Note,
		Action: s.Kit.URL("review.photo", "id", p.ID), CSRF: s.Guard.CSRFOf(r), WhyNot: s.whyNot(r), Group: group,
		QueueURL: s.Kit.URL("review") + web.WithOffset(web.FilterQuery(q), 0), SearchURL: s.Kit.URL("places.search"),
		Flash: s.doneMessage(l, q.Get("done")), Undo: s.undoOf(r, q.Get("done")), Offer: s.offerOf(r, p.ID, group, q.Get("done")), Draft: map[string]string{}}
	if p.AwaitsLook() && !photo.ViewerOf(ctx).SeesAnswer(p.ReviewedBy) {
		m.AwaitsLookURL = s.Kit.URL("second-looks")
	}
	s.reviewEvidence(w, r, l, p, &m)
	for name, v := range q {
		if field, ok := strings.CutPrefix(name, "draft_"); ok && len(v) > 0 {
			m.Draft[field] = v[0]
		}
	}
	s.Kit.WithMapAssets(&m.Page)
	for _, k := range []gazetteer.Kind{gazetteer.Camp, gazetteer.Neighbourhood, gazetteer.Village, gazetteer.Town, gazetteer.Landmark, gazetteer.Crossing, gazetteer.Region} {
		m.AddKinds = append(m.AddKinds, views.Option{Value: string(k), Label: l.Named("kind.", string(k))})
	}
	m.Chosen, m.Alternatives = s.reviewChoices(l, p)
	// Where this photo stands in its group, and where to go next.
	ids, err := s.Store.ReviewIDs(ctx, f, group)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	filters := web.FilterQuery(q)
	pos := indexOf(ids, p.ID)
	if pos >= 0 {
		m.Position, m.Of = pos+1, len(ids)
		if pos > 0 {
			m.PrevURL = s.reviewURL(ids[pos-1], group, filters)
		}
		if pos+1 < len(ids) {
			m.NextURL = s.reviewURL(ids[pos+1], group, filters)
		}
	} else if len(ids) > 0 {
		m.NextURL = s.reviewURL(ids[0], group, filters)
	}
	// How the group splits by the place assigned, so that "apply to all"
	// says which part it decides (the part this photo is in).
	if group != "" {
		parts, err := s.Store.ReviewSplit(ctx, f, group)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		m.Split, m.Same, m.SameAt = pagemodel.GroupParts(l, s.Store.Gazetteer(), parts, p.Place, func(id, name string) string { return pagemodel.NameOf(l, s.Store.Gazetteer(), id, name) })
	}
	m.Next = m.NextURL
	if m.Next == "" {
		m.Next = m.QueueURL
	}
	if m.History, err = s.EventRows(r, p.ID); err == nil {
		m.Graphic = p.Harm == photo.HarmGraphic
		m.Harm, err = s.HarmView(r, m.Page, p)
	}
	if err == nil {
		m.Events, err = s.PhotoEvents(r, m.Page, p)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.Kit.Render(w, r, http.StatusOK, views.ReviewPhotoPage(m))
}

// reviewEvidence puts on the review page the evidence the placement is
// judged by: the picture and what its file says (the GPS point to whoever
// may see it, and then no cache keeps the page).
func (s *API) reviewEvidence(w http.ResponseWriter, r *http.Request, l i18n.Locale, p *photo.Photo, m *views.ReviewPhoto) {
	m.Map = s.Map(w, r, l, p)
	if p.ImageFile != "" {
		m.ImageURL = s.Kit.URL("image.large", "sha", p.ImageFile)
		m.File = s.ImageFile(r.Context(), l, p, s.ShowsGPS(r))
	} else if p.ImageURL != "" {
		m.RemoteImage = p.ImageURL
	}
}

// Map is the review pages' map of photo p: the offline basemap, and
// where its file puts it (the GPS point to whoever may see it, and then no
// cache keeps the page; the place its IPTC location names).
func (s *API) Map(w http.ResponseWriter, r *http.Request, l i18n.Locale, p *photo.Photo) views.ReviewMap {
	m := views.ReviewMap{BasemapURL: s.Kit.URL("basemap"), LabelsURL: s.Kit.URL("labels"), Tiles: s.Tiles}
	if p.ImageFile == "" {
		return m
	}
	gps := s.ShowsGPS(r)
	if gps && p.Check.HasGPS {
		m.GPSLon, m.GPSLat = strconv.FormatFloat(p.Check.GPSLon, 'f', 6, 64), strconv.FormatFloat(p.Check.GPSLat, 'f', 6, 64)
	}
	if p.Check.IPTCCity != "" {
		if pl := s.Store.PlaceOfIPTC(p.Check.IPTCCity, p.Check.IPTCCountry); pl.Located {
			m.IPTCLon, m.IPTCLat = strconv.FormatFloat(pl.Lon, 'f', 6, 64), strconv.FormatFloat(pl.Lat, 'f', 6, 64)
			m.IPTCLabel = l.T("review.iptc-pin", "place", p.Check.IPTCCity)
		}
	}
	if gps && !s.PublicGPS {
		w.Header().Set("Cache-Control", "private, no-store")
	}
	return m
}

// reviewChoices are the photo's place and the first three places the
// geocoder weighed, as the review offers them.
func (s *API) reviewChoices(l i18n.Locale, p *photo.Photo) (chosen *views.ReviewChoice, alternatives []views.ReviewChoice) {
	if p.Place.Located {
		chosen = &views.ReviewChoice{PlaceID: p.Place.ID, Name: pagemodel.OrPoint(l, pagemodel.NameOf(l, s.Store.Gazetteer(), p.Place.ID, p.Place.Name)), Kind: l.Named("kind.", p.Place.Kind),
			Lon: strconv.FormatFloat(p.Place.Lon, 'f', 6, 64), Lat: strconv.FormatFloat(p.Place.Lat, 'f', 6, 64)}
		if chosen.Kind != "" { // its kind, beside readings of its name (issue 68, 8)
			chosen.Label = l.T("review.map-choice", "name", chosen.Name, "where", chosen.Kind)
		}
	}
	for _, a := range p.Place.Alternatives {
		c := views.ReviewChoice{N: len(alternatives) + 1, PlaceID: a.ID, Name: a.Name, Score: l.Decimal(a.Score, 2)}
		if pl := s.Store.Gazetteer().ByID(a.ID); pl != nil {
			// Kind and governorate (or country): two villages of one
			// name are told apart (issue 54, defect 1).
			c.Name, c.Kind = pagemodel.GazetteerName(l, pl), pagemodel.PlaceWhere(l, s.Store.Gazetteer(), pl.ID)
			c.Label = l.T("review.map-choice", "name", c.Name, "where", c.Kind)
			if pl.Located {
				c.Lon, c.Lat = strconv.FormatFloat(pl.Point.Lon(), 'f', 6, 64), strconv.FormatFloat(pl.Point.Lat(), 'f', 6, 64)
			}
		}
		if len(alternatives) < 3 {
			alternatives = append(alternatives, c)
		}
	}
	return chosen, alternatives
}

func indexOf(ids []string, id string) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}
