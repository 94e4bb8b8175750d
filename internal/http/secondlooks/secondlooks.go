// Package secondlooks serves two-person confirmation: the queue of
// rounds waiting for a blind second look, the blind page and its answer,
// the third editor's page and decision, the archive's two-person setting,
// a photo's request for a look, and how often editors agree (the
// agreement page and its CSV). The rules — who may answer, decide and
// confirm, what the second editor may see, what agreeing means — are
// package secondlook's; this package reads requests and answers them.
package secondlooks

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/sitepage"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/secondlook"
	"github.com/syriamap/syriamap/views"
)

// What the second editor is shown — page and API alike — is built by
// blindLook alone, which reads nothing of the first answer.

// API serves the second looks of an archive. Set its fields before it
// serves.
type API struct {
	Kit   *sitepage.Kit
	Store Store
	Guard *session.Guard
	// Tiles is the online tile layer drawn under the basemap, if any.
	Tiles string
	// Error answers an error as the server answers every other: a page's
	// form that met a newer version gets the stale page.
	Error func(w http.ResponseWriter, r *http.Request, err error)
	// ShowsGPS reports whether the request may see a camera's GPS point
	// (an editor, or every reader with --public-gps).
	ShowsGPS func(r *http.Request) bool
	// ReviewMap is the review pages' map of a photo: the blind look is
	// placed on the same map as the first.
	ReviewMap func(w http.ResponseWriter, r *http.Request, l i18n.Locale, p *photo.Photo) views.ReviewMap
	// ImageFile is what a photo's image file says, as its page shows it
	// (gps: the camera's point too).
	ImageFile func(ctx context.Context, l i18n.Locale, p *photo.Photo, gps bool) *views.ImageFile
}

// Store is what the second looks read and write of the archive.
type Store interface {
	// Photo reads a photo as ctx's viewer may see it (photo.ViewerOf).
	Photo(ctx context.Context, id string) (*photo.Photo, error)
	TwoPerson(ctx context.Context) (bool, error)
	SetTwoPerson(ctx context.Context, on bool, by string) error
	RequestSecondLook(ctx context.Context, id, by string) (bool, error)
	LookRound(ctx context.Context, id int64) (secondlook.Round, error)
	// LookRounds lists the rounds in state, answered within [from, to)
	// ("" for no bound), at most limit.
	LookRounds(ctx context.Context, state, from, to string, limit int) ([]secondlook.Round, error)
	LastLook(ctx context.Context, photoID string) (secondlook.Round, bool, error)
	AnswerSecondLook(ctx context.Context, id int64, by, placeID string, point *[2]float64, unplaceable bool, note string) (secondlook.Round, error)
	Adjudicate(ctx context.Context, id int64, by, choice, placeID string, point *[2]float64, note string) (secondlook.Round, error)
	AgreementBetween(ctx context.Context, from, to string) (archive.Agreement, error)
	// Gazetteer names the places of the answers.
	Gazetteer() *gazetteer.Gazetteer
}

// Routes adds the second looks' routes to r; editorial adds a read that
// shows an editor more than the public (session.Guard.Viewing).
func (s *API) Routes(r *mux.Router, editorial func(name, path string, h http.HandlerFunc)) {
	const look = "{look:[0-9]+}"
	editorial("second-looks", "/review/second-looks", s.secondLooksPage)
	editorial("second-look", "/review/second-looks/"+look, s.secondLookPage)
	r.Handle("/review/second-looks/"+look, s.Guard.Editing(s.postSecondLook)).Methods(http.MethodPost)
	r.Handle("/review/second-looks/setting", s.Guard.Editing(s.postTwoPerson)).Methods(http.MethodPost).Name("second-looks.setting")
	editorial("adjudication", "/review/adjudications/"+look, s.adjudicationPage)
	r.Handle("/review/adjudications/"+look, s.Guard.Editing(s.postAdjudication)).Methods(http.MethodPost)
	editorial("agreement", "/review/agreement", s.agreementPage)
	editorial("agreement.csv", "/review/agreement.csv", s.agreementCSV)
	editorial("second-looks.json", "/api/second-looks", s.secondLooksJSON)
	editorial("second-look.json", "/api/second-looks/"+look, s.secondLookJSON)
	r.Handle("/api/second-looks/"+look, s.Guard.Editing(s.putSecondLook)).Methods(http.MethodPut)
	r.Handle("/api/second-looks/"+look+"/decision", s.Guard.Editing(s.putAdjudication)).Methods(http.MethodPut).Name("adjudication.json")
	r.Handle("/api/photos/{id}/second-look", s.Guard.Editing(session.Expecting(photo.VersionPhoto, "id", s.postRequestLook))).
		Methods(http.MethodPost).Name("photo.second-look")
}

// lookDone are the messages of a step taken, by the done= the queue is
// sent back with.
var lookDone = map[string]string{secondlook.Agreed: "looks.done-agreed", secondlook.Disagreed: "looks.done-disagreed",
	doneNested: "looks.done-nested", secondlook.Adjudicated: "looks.done-adjudicated", "setting": "looks.done-setting"}

// doneNested is the done= of a second answer that nests with the first
// (a quarter and its city): neither verified nor a plain disagreement.
const doneNested = "nested"

// doneOf is the done= a second answer sends the queue back with.
func doneOf(rd secondlook.Round) string {
	if rd.State == secondlook.Disagreed && rd.Judgement.Nested {
		return doneNested
	}
	return rd.State
}

// lookStates are the words of a photo's second look waiting: for editors,
// and for readers while a placement waits (photo.Photo.AwaitsLook).
var lookStates = map[string]string{secondlook.Requested: "looks.state-requested", secondlook.Waiting: "looks.state-waiting",
	secondlook.Disagreed: "looks.state-disagreed"}

// maxQueue bounds the rounds a queue lists.
const maxQueue = 500

// editorOf is the signed-in editor reading an editorial page, or an
// EUnauthorized error saying what to do.
func editorOf(r *http.Request, what string) (string, error) {
	v := photo.ViewerOf(r.Context())
	if !v.SeesWithheld() {
		return "", photo.Errorf(photo.EUnauthorized, "sign in to %s", what)
	}
	return v.Editor, nil
}

// lookID reads a round's id from the path.
func lookID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(mux.Vars(r)["look"], 10, 64)
	if err != nil || id <= 0 {
		return 0, photo.Errorf(photo.ENotFound, "no second look %q", mux.Vars(r)["look"])
	}
	return id, nil
}

// secondLooksPage lists the rounds this editor may answer and decide.
func (s *API) secondLooksPage(w http.ResponseWriter, r *http.Request) {
	me, err := editorOf(r, "give second looks")
	if err != nil {
		s.Error(w, r, err)
		return
	}
	ctx := r.Context()
	l := i18n.From(ctx)
	m := views.SecondLooks{Page: s.Kit.Page(r, l.T("looks.title"), "review"), SettingAction: s.Kit.URL("second-looks.setting"), CSRF: s.Guard.CSRFOf(r),
		AgreementURL: s.Kit.URL("agreement")}
	if key, ok := lookDone[r.URL.Query().Get("done")]; ok {
		m.Flash = l.T(key)
	}
	if m.TwoPerson, err = s.Store.TwoPerson(ctx); err != nil {
		s.Error(w, r, err)
		return
	}
	waiting, err := s.Store.LookRounds(ctx, secondlook.Waiting, "", "", maxQueue)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	for _, rd := range waiting {
		if photo.SameEditor(rd.First.By, me) {
			m.Mine++
			continue
		}
		m.ToLook = append(m.ToLook, views.LookItem{Caption: rd.Caption, URL: s.Kit.URL("second-look", "look", strconv.FormatInt(rd.ID, 10))})
	}
	disagreed, err := s.Store.LookRounds(ctx, secondlook.Disagreed, "", "", maxQueue)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	for _, rd := range disagreed {
		if rd.ToDecide(me) {
			m.ToDecide = append(m.ToDecide, views.LookItem{Caption: rd.Caption, URL: s.Kit.URL("adjudication", "look", strconv.FormatInt(rd.ID, 10))})
		}
	}
	w.Header().Set("Cache-Control", "private, no-store")
	s.Kit.Render(w, r, http.StatusOK, views.SecondLooksPage(m))
}

// blindLookJSON is what a second editor is shown of a round: the photo's
// caption, date, credit, image and file, and nothing of any answer — not
// the first editor's pin, place or note, nor the geocoder's reading (which
// is most often what the first editor confirmed). The file's agreement
// with the caption is left out too: it is worked out against the place
// the photo is shown at.
type blindLookJSON struct {
	ID           int64       `json:"id"`
	PhotoID      string      `json:"photo_id"`
	Caption      string      `json:"caption"`
	Date         string      `json:"date,omitempty"`
	Photographer string      `json:"photographer,omitempty"`
	Agency       string      `json:"agency,omitempty"`
	ImageURL     string      `json:"image_url,omitempty"`
	IPTCCity     string      `json:"iptc_city,omitempty"`
	IPTCCountry  string      `json:"iptc_country,omitempty"`
	GPS          *[2]float64 `json:"gps,omitempty"`
	EXIFTime     string      `json:"exif_time,omitempty"`
	Answer       string      `json:"answer"`
}

// blindLook builds the blind view of round rd's photo p (secondlook.Blind).
func (s *API) blindLook(r *http.Request, rd secondlook.Round, p *photo.Photo) blindLookJSON {
	p = secondlook.Blind(p)
	b := blindLookJSON{ID: rd.ID, PhotoID: p.ID, Caption: p.Caption, Date: p.Date.String(), Photographer: p.Photographer, Agency: p.Agency,
		IPTCCity: p.Check.IPTCCity, IPTCCountry: p.Check.IPTCCountry, EXIFTime: p.Check.EXIFTime,
		Answer: s.Kit.URL("second-look.json", "look", strconv.FormatInt(rd.ID, 10))}
	if p.ImageFile != "" {
		b.ImageURL = s.Kit.URL("image.large", "sha", p.ImageFile)
	}
	if p.Check.HasGPS && s.ShowsGPS(r) {
		b.GPS = &[2]float64{p.Check.GPSLon, p.Check.GPSLat}
	}
	return b
}

// lookFor reads round id with its photo, as this editor may see it.
func (s *API) lookFor(w http.ResponseWriter, r *http.Request) (secondlook.Round, *photo.Photo, error) {
	id, err := lookID(r)
	if err != nil {
		return secondlook.Round{}, nil, err
	}
	rd, err := s.Store.LookRound(r.Context(), id)
	if err != nil {
		return rd, nil, err
	}
	p, err := web.ReadPhoto(w, r, s.Store, rd.PhotoID)
	return rd, p, err
}

// secondLookPage is the blind look at one photo.
func (s *API) secondLookPage(w http.ResponseWriter, r *http.Request) {
	me, err := editorOf(r, "give second looks")
	if err != nil {
		s.Error(w, r, err)
		return
	}
	rd, p, err := s.lookFor(w, r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	l := i18n.From(r.Context())
	p = secondlook.Blind(p)
	b := s.blindLook(r, rd, p)
	m := views.SecondLook{Page: s.Kit.Page(r, l.T("looks.look-title"), "review"), Caption: b.Caption, DateShown: pagemodel.Date(l, p.Date),
		Photographer: b.Photographer, Agency: pagemodel.AgencyName(l, b.Agency), ImageURL: b.ImageURL, Action: s.Kit.URL("second-look", "look", strconv.FormatInt(rd.ID, 10)),
		CSRF: s.Guard.CSRFOf(r), SearchURL: s.Kit.URL("places.search"), Map: s.ReviewMap(w, r, l, p), QueueURL: s.Kit.URL("second-looks")}
	switch {
	case photo.SameEditor(rd.First.By, me):
		m.Refusal = l.T("looks.refused-own")
	case rd.State != secondlook.Waiting:
		m.Refusal = l.T("looks.refused-state")
	}
	if p.ImageFile != "" {
		m.File = s.ImageFile(r.Context(), l, p, s.ShowsGPS(r))
		// The file's agreement with the caption is measured against the
		// place the photo is shown at: it would tell that place.
		m.File.Agreement, m.File.Parts, m.File.Note, m.File.NoteLang = "", "", "", ""
	}
	s.Kit.WithMapAssets(&m.Page)
	w.Header().Set("Cache-Control", "private, no-store")
	s.Kit.Render(w, r, http.StatusOK, views.SecondLookPage(m))
}

// lookAnswer reads a second look's answer from a form or JSON: a place
// (place_id, as typed in the search), a point (lon, lat), or unplaceable.
type lookAnswer struct {
	PlaceID     string   `json:"place_id"`
	Lon         *float64 `json:"lon"`
	Lat         *float64 `json:"lat"`
	Unplaceable bool     `json:"unplaceable"`
	Note        string   `json:"note"`
	Choice      string   `json:"choice"` // a third editor's
}

func (a lookAnswer) point() (*[2]float64, error) {
	if a.Lon == nil && a.Lat == nil {
		return nil, nil
	}
	if a.Lon == nil || a.Lat == nil {
		return nil, photo.ParamErrorf("lon", "a point needs lon and lat")
	}
	return &[2]float64{*a.Lon, *a.Lat}, nil
}

// formAnswer reads a look's form: action place, point or unplaceable (a
// third editor's choice first, second or other).
func formAnswer(r *http.Request) (lookAnswer, error) {
	r.ParseForm()
	a := lookAnswer{Note: r.PostFormValue("note"), Choice: r.PostFormValue("choice")}
	action := r.PostFormValue("action")
	placeID := web.TypedPlaceID(r.PostFormValue("place_id"))
	lon, lat := strings.TrimSpace(r.PostFormValue("lon")), strings.TrimSpace(r.PostFormValue("lat"))
	switch {
	case action == "unplaceable":
		a.Unplaceable = true
	case action == "place" || (action == "" && placeID != ""):
		if placeID == "" {
			return a, photo.ParamErrorf("place_id", "choose a place first")
		}
		a.PlaceID = placeID
	case action == "point" || lon != "" || lat != "":
		pt, err := web.FormPoint(lon, lat)
		if err != nil {
			return a, err
		}
		a.Lon, a.Lat = &pt[0], &pt[1]
	case a.Choice == "":
		return a, photo.ParamErrorf("action", "give a place, a point, or say the photo cannot be placed")
	}
	return a, nil
}

// postSecondLook takes a blind answer from the page's form.
func (s *API) postSecondLook(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	a, err := formAnswer(r)
	if err == nil {
		var rd secondlook.Round
		if rd, err = s.answerLook(r, ed, a); err == nil {
			http.Redirect(w, r, s.Kit.URL("second-looks")+"?done="+doneOf(rd), http.StatusSeeOther)
			return
		}
	}
	s.Error(w, r, err)
}

// putSecondLook takes a blind answer as JSON and answers the round as the
// second editor may now see it: both answers and how they compare.
func (s *API) putSecondLook(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	var a lookAnswer
	err := web.DecodeWrite(r, &a)
	if err == nil {
		var rd secondlook.Round
		if rd, err = s.answerLook(r, ed, a); err == nil {
			w.Header().Set("Cache-Control", "no-store")
			s.Kit.WriteJSON(w, r, "application/json", roundJSONOf(rd))
			return
		}
	}
	s.Error(w, r, err)
}

func (s *API) answerLook(r *http.Request, ed *session.Editor, a lookAnswer) (secondlook.Round, error) {
	id, err := lookID(r)
	if err != nil {
		return secondlook.Round{}, err
	}
	pt, err := a.point()
	if err != nil {
		return secondlook.Round{}, err
	}
	if !a.Unplaceable && a.PlaceID == "" && pt == nil {
		return secondlook.Round{}, photo.ParamErrorf("place_id", `give place_id, lon and lat, or "unplaceable": true`)
	}
	return s.Store.AnswerSecondLook(r.Context(), id, ed.Name, a.PlaceID, pt, a.Unplaceable, a.Note)
}

// secondLooksJSON lists the rounds waiting for this editor's blind look.
func (s *API) secondLooksJSON(w http.ResponseWriter, r *http.Request) {
	me, err := editorOf(r, "give second looks")
	if err != nil {
		s.Error(w, r, err)
		return
	}
	waiting, err := s.Store.LookRounds(r.Context(), secondlook.Waiting, "", "", maxQueue)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := []blindLookJSON{}
	for _, rd := range waiting {
		if photo.SameEditor(rd.First.By, me) {
			continue
		}
		p, err := s.Store.Photo(r.Context(), rd.PhotoID)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		out = append(out, s.blindLook(r, rd, p))
	}
	w.Header().Set("Cache-Control", "private, no-store")
	s.Kit.WriteJSON(w, r, "application/json", map[string]any{"second_looks": out})
}

// secondLookJSON answers one round: blind to an editor who may still
// answer it, whole once it no longer waits (or to its first editor).
func (s *API) secondLookJSON(w http.ResponseWriter, r *http.Request) {
	me, err := editorOf(r, "give second looks")
	if err != nil {
		s.Error(w, r, err)
		return
	}
	rd, p, err := s.lookFor(w, r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "private, no-store")
	if rd.State == secondlook.Waiting && !photo.SameEditor(rd.First.By, me) {
		s.Kit.WriteJSON(w, r, "application/json", s.blindLook(r, rd, p))
		return
	}
	s.Kit.WriteJSON(w, r, "application/json", roundJSONOf(rd))
}

// roundJSON is a round with both answers: for its editors once answered,
// and for the third editor.
type roundJSON struct {
	ID        int64          `json:"id"`
	PhotoID   string         `json:"photo_id"`
	State     string         `json:"state"`
	First     answerJSON     `json:"first"`
	Second    *answerJSON    `json:"second,omitempty"`
	Judgement map[string]any `json:"judgement,omitempty"`
	Third     *answerJSON    `json:"third,omitempty"`
}

type answerJSON struct {
	By       string   `json:"by"`
	Decision string   `json:"decision,omitempty"`
	Choice   string   `json:"choice,omitempty"`
	PlaceID  string   `json:"place_id,omitempty"`
	Place    string   `json:"place,omitempty"`
	Lon      *float64 `json:"lon,omitempty"`
	Lat      *float64 `json:"lat,omitempty"`
	Note     string   `json:"note,omitempty"`
	At       string   `json:"at"`
}

func answerJSONOf(a secondlook.Answer) answerJSON {
	j := answerJSON{By: a.By, Decision: a.Decision, Choice: a.Choice, PlaceID: a.PlaceID, Place: a.PlaceName, Note: a.Note, At: a.At.UTC().Format("2006-01-02T15:04:05Z")}
	if a.Located {
		j.Lon, j.Lat = &a.Lon, &a.Lat
	}
	return j
}

func roundJSONOf(rd secondlook.Round) roundJSON {
	out := roundJSON{ID: rd.ID, PhotoID: rd.PhotoID, State: rd.State, First: answerJSONOf(rd.First)}
	if rd.Second.By != "" {
		sec := answerJSONOf(rd.Second)
		out.Second = &sec
		j := rd.Judgement
		out.Judgement = map[string]any{"same_place": j.SamePlace, "nested": j.Nested, "same_governorate": j.SameGovernorate,
			"within_size": j.WithinSize, "size_km": j.SizeKm, "agreed": j.Agreed}
		if !math.IsNaN(j.DistanceKm) {
			out.Judgement["distance_km"] = math.Round(j.DistanceKm*100) / 100
		}
	}
	if rd.Third.By != "" {
		th := answerJSONOf(rd.Third)
		out.Third = &th
	}
	return out
}

// adjudicationPage shows a disagreement to a third editor.
func (s *API) adjudicationPage(w http.ResponseWriter, r *http.Request) {
	me, err := editorOf(r, "decide between two editors")
	if err != nil {
		s.Error(w, r, err)
		return
	}
	rd, p, err := s.lookFor(w, r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	l := i18n.From(r.Context())
	// Before the second answer, the page would show the first to someone
	// who may still give the second: it is not shown.
	if rd.State == secondlook.Waiting {
		s.Error(w, r, photo.Errorf(photo.ENotFound, "the second look at photo %s is not answered yet: nothing to decide", rd.PhotoID))
		return
	}
	m := views.Adjudication{Page: s.Kit.Page(r, l.T("looks.decide-title"), "review"), Caption: p.Caption, DateShown: pagemodel.Date(l, p.Date),
		PhotoURL: s.Kit.URL("photo", "id", p.ID), A: s.answerView(l, 1, rd.First), B: s.answerView(l, 2, rd.Second), Judgement: s.judgementOf(l, rd),
		Action: s.Kit.URL("adjudication", "look", strconv.FormatInt(rd.ID, 10)), CSRF: s.Guard.CSRFOf(r), SearchURL: s.Kit.URL("places.search"),
		Map: views.ReviewMap{BasemapURL: s.Kit.URL("basemap"), LabelsURL: s.Kit.URL("labels"), Tiles: s.Tiles}, QueueURL: s.Kit.URL("second-looks")}
	switch {
	case rd.Third.By != "":
		d := s.answerView(l, 3, rd.Third)
		m.Decided = &d
	case photo.SameEditor(rd.First.By, me) || photo.SameEditor(rd.Second.By, me):
		m.Refusal = l.T("looks.refused-party")
	case rd.State != secondlook.Disagreed:
		m.Refusal = l.T("looks.refused-state")
	}
	s.Kit.WithMapAssets(&m.Page)
	w.Header().Set("Cache-Control", "private, no-store")
	s.Kit.Render(w, r, http.StatusOK, views.AdjudicationPage(m))
}

func (s *API) answerView(l i18n.Locale, n int, a secondlook.Answer) views.LookAnswerView {
	v := views.LookAnswerView{N: n, Editor: a.By, Note: a.Note, When: pagemodel.DateTime(l, a.At)}
	switch {
	case a.Decision == agreement.Unplaceable || !a.Located && a.PlaceID == "":
		v.Place = l.T("looks.unplaceable-answer")
	default:
		v.Place = pagemodel.OrPoint(l, pagemodel.NameOf(l, s.Store.Gazetteer(), a.PlaceID, a.PlaceName))
		v.Lon, v.Lat = strconv.FormatFloat(a.Lon, 'f', 6, 64), strconv.FormatFloat(a.Lat, 'f', 6, 64)
	}
	return v
}

// judgementText says how two answers compared, the three ways.
func judgementText(l i18n.Locale, j agreement.Judgement) string {
	if math.IsNaN(j.DistanceKm) {
		return l.T("looks.judged-unplaceable")
	}
	yes := func(b bool) string {
		if b {
			return l.T("common.yes")
		}
		return l.T("common.no")
	}
	return l.T("looks.judged", "same", yes(j.SamePlace), "nested", yes(j.Nested), "km", l.Decimal(j.DistanceKm, 1), "size", l.Decimal(j.SizeKm, 1))
}

// judgementOf says how a round's two answers compared; for answers that
// nest, which place both editors named and whose the finer one is.
func (s *API) judgementOf(l i18n.Locale, rd secondlook.Round) string {
	text := judgementText(l, rd.Judgement)
	if rd.Judgement.Nested && !math.IsNaN(rd.Judgement.DistanceKm) {
		coarser, finer := secondlook.Nesting(rd)
		g := s.Store.Gazetteer()
		text += " " + l.T("looks.judged-nested", "both", pagemodel.NameOf(l, g, coarser.PlaceID, coarser.PlaceName),
			"finer", pagemodel.OrPoint(l, pagemodel.NameOf(l, g, finer.PlaceID, finer.PlaceName)), "editor", finer.By)
	}
	return text
}

// postAdjudication takes a third editor's decision from the page's form.
func (s *API) postAdjudication(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	a, err := formAnswer(r)
	if err == nil {
		if _, err = s.adjudicate(r, ed, a); err == nil {
			http.Redirect(w, r, s.Kit.URL("second-looks")+"?done=adjudicated", http.StatusSeeOther)
			return
		}
	}
	s.Error(w, r, err)
}

// putAdjudication takes a third editor's decision as JSON: {"choice":
// "first" | "second" | "other", "place_id" or "lon" and "lat" for other,
// "note"}.
func (s *API) putAdjudication(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	var a lookAnswer
	err := web.DecodeWrite(r, &a)
	if err == nil {
		var rd secondlook.Round
		if rd, err = s.adjudicate(r, ed, a); err == nil {
			w.Header().Set("Cache-Control", "no-store")
			s.Kit.WriteJSON(w, r, "application/json", roundJSONOf(rd))
			return
		}
	}
	s.Error(w, r, err)
}

func (s *API) adjudicate(r *http.Request, ed *session.Editor, a lookAnswer) (secondlook.Round, error) {
	id, err := lookID(r)
	if err != nil {
		return secondlook.Round{}, err
	}
	pt, err := a.point()
	if err != nil {
		return secondlook.Round{}, err
	}
	return s.Store.Adjudicate(r.Context(), id, ed.Name, a.Choice, web.TypedPlaceID(a.PlaceID), pt, a.Note)
}

// postTwoPerson switches the archive's two-person confirmation.
func (s *API) postTwoPerson(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	r.Body = http.MaxBytesReader(w, r.Body, session.MaxFormBytes)
	r.ParseForm()
	var on bool
	switch v := r.PostFormValue("two_person"); v {
	case "on":
		on = true
	case "off":
	default:
		s.Error(w, r, photo.ParamErrorf("two_person", "%q: want on or off", v))
		return
	}
	if err := s.Store.SetTwoPerson(r.Context(), on, ed.Name); err != nil {
		s.Error(w, r, err)
		return
	}
	if web.IsForm(r) {
		http.Redirect(w, r, s.Kit.URL("second-looks")+"?done=setting", http.StatusSeeOther)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	s.Kit.WriteJSON(w, r, "application/json", map[string]bool{"two_person": on})
}

// postRequestLook asks a second look at a photo ("needs a second look"):
// from the photo page's form (back to the page) or the API (the photo's
// state as JSON).
func (s *API) postRequestLook(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	id := mux.Vars(r)["id"]
	if _, err := s.Store.RequestSecondLook(r.Context(), id, ed.Name); err != nil {
		s.Error(w, r, err)
		return
	}
	if web.IsForm(r) {
		http.Redirect(w, r, s.Kit.URL("photo", "id", id)+"#verified", http.StatusSeeOther)
		return
	}
	p, err := s.Store.Photo(r.Context(), id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("ETag", photo.ETag(photo.VersionPhoto, p.Rev))
	s.Kit.WriteJSON(w, r, "application/json", map[string]any{"photo_id": id, "second_look": p.SecondLook, "verified": p.Verified})
}

// VerifiedMark is the photo page's line on its verification ("Placed by
// A, checked by B without seeing A's answer, 3 December 2026"), and for
// an editor where its second look stands, with a request for one.
func (s *API) VerifiedMark(r *http.Request, page views.Page, p *photo.Photo) (*views.VerifiedMark, error) {
	l := i18n.From(r.Context())
	var m views.VerifiedMark
	if p.Verified {
		rd, ok, err := s.Store.LastLook(r.Context(), p.ID)
		if err != nil {
			return nil, err
		}
		if ok {
			if rd.Third.By != "" {
				m.Text = l.T("verified.adjudicated", "first", rd.First.By, "second", rd.Second.By, "third", rd.Third.By, "when", pagemodel.Day(l, rd.Third.At))
			} else {
				m.Text = l.T("verified.agreed", "first", rd.First.By, "second", rd.Second.By, "when", pagemodel.Day(l, rd.Second.At))
			}
		}
	}
	// A placement waiting for a look is said to everyone: to all but its
	// first editor, the photo is shown without it (photo.Viewer.Shown).
	key, asked := lookStates[p.SecondLook]
	switch {
	case asked && (page.Editor != "" || p.AwaitsLook()):
		m.State = l.T(key)
	case !asked && page.Editor != "" && p.Place.Located && page.CSRF != "":
		m.RequestAction, m.CSRF, m.Version = s.Kit.URL("photo.second-look", "id", p.ID), page.CSRF, strconv.FormatInt(p.Rev, 10)
	}
	if m == (views.VerifiedMark{}) {
		return nil, nil
	}
	return &m, nil
}
