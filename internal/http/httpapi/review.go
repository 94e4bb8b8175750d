package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// The review: pages where an editor checks the photos no person has yet,
// group by group. The forms they post are reviewforms.go's, the JSON write
// API other tools use writeapi.go's, a photo's history history.go's.
// Every change goes through store.Apply, which records it as an event.

// maxGroups bounds the groups the review page lists.
const maxGroups = 500

// reviewStore is what the review handlers ask of the archive's storage.
type reviewStore interface {
	Apply(ctx context.Context, ids []string, c photo.Change) (int, error)
	ApplyBatch(ctx context.Context, ids []string, c photo.Change) (n int, batch int64, err error)
	Undo(ctx context.Context, batch int64, author, note string) (int, error)
	History(ctx context.Context, id string) ([]photo.Event, error)
	RecentEvents(ctx context.Context, limit int) ([]photo.Event, error)
	ReviewGroups(ctx context.Context, f photo.Filter, limit int) ([]photo.ReviewGroup, error)
	ReviewIDs(ctx context.Context, f photo.Filter, mention string) ([]string, error)
	ReviewSplit(ctx context.Context, f photo.Filter, mention string) ([]photo.GroupPart, error)
}

// reviewQueue lists the groups of photos to check.
func (s *Server) reviewQueue(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := s.parseFilter(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	ctx := r.Context()
	facetsOf := s.pageFacets(ctx, f)
	groups, err := s.reviewGroups.Get(ctx, f, maxGroups)
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
	m := views.ReviewQueue{Page: s.Page(r, l.T("review.title"), "review"), LogURL: s.URL("review.log"), SecondLooksURL: s.URL("second-looks"), UploadURL: s.uploadURL(), WhyNot: s.whyNot(r), Flash: s.doneMessage(l, q.Get("done")),
		Undo: s.undoOf(r, q.Get("done"))}
	s.WithScript(&m.Page) // the filters' lists to search
	m.Filters = pagemodel.Filters(i18n.From(r.Context()), s.archive.Gazetteer(), s.URL("review"), s.URL("facets"), s.URL("places.search"), q, f, facets)
	filters := web.FilterQuery(q)
	for _, g := range groups {
		m.Unchecked += g.Photos
		m.Groups = append(m.Groups, views.ReviewGroup{Mention: g.Mention, AlsoWritten: slices.DeleteFunc(slices.Clone(g.Spellings), func(s string) bool { return s == g.Mention }), Photos: g.Photos, Unplaced: g.Unplaced,
			Fallback: g.Fallback, Low: g.Low, Disagrees: g.Disagrees, PlaceName: pagemodel.NameOf(l, s.archive.Gazetteer(), g.PlaceID, g.PlaceName), URL: s.reviewURL(g.Example, g.Mention, filters)})
	}
	if m.Marked, err = s.markedView(r, m.Page); err != nil {
		s.Error(w, r, err)
		return
	}
	if len(m.Marked) > 0 {
		w.Header().Set("Cache-Control", "private, no-store") // withheld photos' captions
	}
	s.Render(w, r, http.StatusOK, views.ReviewQueuePage(m))
}

// whyNot says why the visitor cannot correct photos, or "".
func (s *Server) whyNot(r *http.Request) string {
	l := i18n.From(r.Context())
	if err := s.guard.Writable(r.Context()); err != nil {
		if l.Lang != i18n.English {
			return l.T("review.read-only", "why", photo.ErrorMessage(err))
		}
		return photo.ErrorMessage(err) + "."
	}
	ed, err := s.guard.EditorOf(r)
	if err != nil || ed == nil {
		return l.T("review.sign-in-to-correct")
	}
	return ""
}

// reviewURL is the review page of a photo within its group, keeping the
// filters.
func (s *Server) reviewURL(id, group string, filters url.Values) string {
	q := url.Values{}
	for k, v := range filters {
		q[k] = v
	}
	q.Set("group", group)
	return s.URL("review.photo", "id", id) + "?" + q.Encode()
}

// reviewPhoto shows one photo under review.
func (s *Server) reviewPhoto(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	ctx := r.Context()
	p, err := s.photoFor(w, r, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	q := r.URL.Query()
	f, err := s.parseFilter(q)
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
	m := views.ReviewPhoto{Page: s.Page(r, l.T("review.photo-title", "photo", s.titleOf(l, p)), "review"), ID: p.ID, PhotoURL: s.URL("photo", "id", p.ID),
		Version: strconv.FormatInt(p.Rev, 10),
		Caption: pagemodel.CaptionParts(p.Caption, p.Place.Mention), Date: p.Date.String(), DateShown: pagemodel.Date(l, p.Date), DatePrecision: p.Date.Precision,
		Photographer: p.Photographer, Agency: p.Agency, AgencyShown: pagemodel.AgencyName(l, p.Agency), Placement: pagemodel.Placement(l, p.Place), Mention: p.Place.Mention, Note: p.Place.Note,
		Action: s.URL("review.photo", "id", p.ID), CSRF: s.csrfOf(r), WhyNot: s.whyNot(r), Group: group,
		QueueURL: s.URL("review") + web.WithOffset(web.FilterQuery(q), 0), SearchURL: s.URL("places.search"),
		Flash: s.doneMessage(l, q.Get("done")), Undo: s.undoOf(r, q.Get("done")), Offer: s.offerOf(r, p.ID, group, q.Get("done")), Draft: map[string]string{}}
	if p.AwaitsLook() && !photo.ViewerOf(ctx).SeesAnswer(p.ReviewedBy) {
		m.AwaitsLookURL = s.URL("second-looks")
	}
	s.reviewEvidence(w, r, l, p, &m)
	for name, v := range q {
		if field, ok := strings.CutPrefix(name, "draft_"); ok && len(v) > 0 {
			m.Draft[field] = v[0]
		}
	}
	s.WithMapAssets(&m.Page)
	for _, k := range []gazetteer.Kind{gazetteer.Camp, gazetteer.Neighbourhood, gazetteer.Village, gazetteer.Town, gazetteer.Landmark, gazetteer.Crossing, gazetteer.Region} {
		m.AddKinds = append(m.AddKinds, views.Option{Value: string(k), Label: l.Named("kind.", string(k))})
	}
	m.Chosen, m.Alternatives = s.reviewChoices(l, p)
	// Where this photo stands in its group, and where to go next.
	ids, err := s.db.ReviewIDs(ctx, f, group)
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
		parts, err := s.db.ReviewSplit(ctx, f, group)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		m.Split, m.Same, m.SameAt = pagemodel.GroupParts(l, s.archive.Gazetteer(), parts, p.Place, func(id, name string) string { return pagemodel.NameOf(l, s.archive.Gazetteer(), id, name) })
	}
	m.Next = m.NextURL
	if m.Next == "" {
		m.Next = m.QueueURL
	}
	if m.History, err = s.eventRows(r, p.ID); err == nil {
		m.Graphic = p.Harm == photo.HarmGraphic
		m.Harm, err = s.harmView(r, m.Page, p)
	}
	if err == nil {
		m.Events, err = s.photoEventsView(r, m.Page, p)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.Render(w, r, http.StatusOK, views.ReviewPhotoPage(m))
}

// reviewEvidence puts on the review page the evidence the placement is
// judged by: the picture and what its file says (the GPS point to whoever
// may see it, and then no cache keeps the page).
func (s *Server) reviewEvidence(w http.ResponseWriter, r *http.Request, l i18n.Locale, p *photo.Photo, m *views.ReviewPhoto) {
	m.Map = s.reviewMap(w, r, l, p)
	if p.ImageFile != "" {
		m.ImageURL = s.URL("image.large", "sha", p.ImageFile)
		m.File = s.imageFileView(r.Context(), l, p, s.showsGPS(r))
	} else if p.ImageURL != "" {
		m.RemoteImage = p.ImageURL
	}
}

// reviewMap is the review pages' map of photo p: the offline basemap, and
// where its file puts it (the GPS point to whoever may see it, and then no
// cache keeps the page; the place its IPTC location names).
func (s *Server) reviewMap(w http.ResponseWriter, r *http.Request, l i18n.Locale, p *photo.Photo) views.ReviewMap {
	m := views.ReviewMap{BasemapURL: s.URL("basemap"), LabelsURL: s.URL("labels"), Tiles: s.tiles}
	if p.ImageFile == "" {
		return m
	}
	gps := s.showsGPS(r)
	if gps && p.Check.HasGPS {
		m.GPSLon, m.GPSLat = strconv.FormatFloat(p.Check.GPSLon, 'f', 6, 64), strconv.FormatFloat(p.Check.GPSLat, 'f', 6, 64)
	}
	if p.Check.IPTCCity != "" {
		if pl := s.archive.PlaceOfIPTC(p.Check.IPTCCity, p.Check.IPTCCountry); pl.Located {
			m.IPTCLon, m.IPTCLat = strconv.FormatFloat(pl.Lon, 'f', 6, 64), strconv.FormatFloat(pl.Lat, 'f', 6, 64)
			m.IPTCLabel = l.T("review.iptc-pin", "place", p.Check.IPTCCity)
		}
	}
	if gps && !s.publicGPS {
		w.Header().Set("Cache-Control", "private, no-store")
	}
	return m
}

// reviewChoices are the photo's place and the first three places the
// geocoder weighed, as the review offers them.
func (s *Server) reviewChoices(l i18n.Locale, p *photo.Photo) (chosen *views.ReviewChoice, alternatives []views.ReviewChoice) {
	if p.Place.Located {
		chosen = &views.ReviewChoice{PlaceID: p.Place.ID, Name: pagemodel.OrPoint(l, pagemodel.NameOf(l, s.archive.Gazetteer(), p.Place.ID, p.Place.Name)), Kind: l.Named("kind.", p.Place.Kind),
			Lon: strconv.FormatFloat(p.Place.Lon, 'f', 6, 64), Lat: strconv.FormatFloat(p.Place.Lat, 'f', 6, 64)}
	}
	for _, a := range p.Place.Alternatives {
		c := views.ReviewChoice{N: len(alternatives) + 1, PlaceID: a.ID, Name: a.Name, Score: l.Decimal(a.Score, 2)}
		if pl := s.archive.Gazetteer().ByID(a.ID); pl != nil {
			// Kind and governorate (or country): two villages of one
			// name are told apart (issue 54, defect 1).
			c.Name, c.Kind = pagemodel.GazetteerName(l, pl), pagemodel.PlaceWhere(l, s.archive.Gazetteer(), pl.ID)
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

// csrfOf is the session's CSRF token for a page's forms, or "".
func (s *Server) csrfOf(r *http.Request) string {
	if ed, err := s.guard.EditorOf(r); err == nil && ed != nil {
		return ed.CSRF
	}
	return ""
}

func indexOf(ids []string, id string) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}
