// Package storyapi serves the stories: editors write them (with the same
// audit trail as corrections), readers step through the published ones,
// as pages and as JSON and GeoJSON. Drafts are the editors' alone: to
// anyone else a draft is not there.
package storyapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"
	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/sitepage"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/markdown"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
	"github.com/syriamap/syriamap/views"
)

// API serves the stories of an archive. Set its fields before it serves.
type API struct {
	Kit   *sitepage.Kit
	DB    Store
	Guard *session.Guard
	// Tiles is the online tile layer drawn under the basemap, if any.
	Tiles string
	// Base is the scheme, host and prefix absolute links begin with;
	// PageURLs, the server's links for the page models.
	Base     func(r *http.Request) string
	PageURLs func() pagemodel.URLs
	// Feature appends the photo as the API's GeoJSON Feature, its links
	// absolute from base.
	Feature func(b []byte, base string, p *photo.Photo) []byte
	// CacheControl is who may keep a read the API validates itself (a
	// story's JSON, whose ETag is its version): the server's answer for
	// an editor or a reader.
	CacheControl func(editor bool) string
}

// Store is what the stories read and write of the archive.
type Store interface {
	// Photo reads a photo as ctx's viewer may see it (photo.ViewerOf):
	// a withheld photo is found by an editor's read only.
	Photo(ctx context.Context, id string) (*photo.Photo, error)
	Story(ctx context.Context, slug string) (story.Story, error)
	Stories(ctx context.Context, drafts bool) ([]story.Story, error)
	StoryHistory(ctx context.Context, slug string) ([]story.Event, error)
	SaveStory(ctx context.Context, st story.Story, prevSlug, author, action string) (story.Story, error)
	// PublicStory is st as a reader may see it: its steps' withheld
	// photos left out (archive.PublicStory).
	PublicStory(ctx context.Context, st story.Story) (story.Story, error)
	// Gazetteer names the places the steps are at.
	Gazetteer() *gazetteer.Gazetteer
}

// Routes adds the stories' routes to r; get adds a read route.
func (s *API) Routes(r *mux.Router, get, editorial func(name, path string, h http.HandlerFunc)) {
	const slug = "{slug:[a-z0-9]+(?:-[a-z0-9]+)*}"
	editorial("stories", "/stories", s.storiesPage)
	editorial("story.new", "/stories/new", s.storyEditPage)
	editorial("story.edit", "/stories/"+slug+"/edit", s.storyEditPage)
	editorial("story", "/stories/"+slug, s.storyPage)
	editorial("api.stories", "/api/stories", s.storiesJSON)
	editorial("api.story.geojson", "/api/stories/"+slug+".geojson", s.storyGeoJSON)
	editorial("api.story.history", "/api/stories/"+slug+"/history", s.storyHistoryJSON)
	editorial("api.story", "/api/stories/"+slug, s.storyJSON)
	r.Handle("/api/stories", s.Guard.Editing(s.saveStory)).Methods(http.MethodPost).Name("api.story.create")
	r.Handle("/api/stories/"+slug, s.Guard.Editing(s.saveStory)).Methods(http.MethodPut).Name("api.story.save")
}

// editorReads reports whether the request reads as an editor: its routes
// are editorial (session.Guard.Viewing), so the context says.
func editorReads(r *http.Request) bool { return photo.ViewerOf(r.Context()).SeesWithheld() }

// readStory reads the story of the request's slug, as the request may
// see it: a draft is not found by readers, nor the photos withheld from
// the public; what an editor reads of them no cache keeps.
func (s *API) readStory(w http.ResponseWriter, r *http.Request) (story.Story, error) {
	slug := mux.Vars(r)["slug"]
	st, err := s.DB.Story(r.Context(), slug)
	editor := editorReads(r)
	switch {
	case err != nil:
	case st.Status != story.Published && !editor:
		err = photo.Errorf(photo.ENotFound, "no story %q", slug)
	case !editor:
		st, err = s.DB.PublicStory(r.Context(), st)
	default:
		w.Header().Set("Cache-Control", "private, no-store")
	}
	return st, err
}

func (s *API) storiesPage(w http.ResponseWriter, r *http.Request) {
	editor := editorReads(r)
	list, err := s.DB.Stories(r.Context(), editor)
	if err != nil {
		s.Kit.Error(w, r, err)
		return
	}
	m := views.StoryList{Page: s.Kit.Page(r, i18n.T(r.Context(), "stories.title"), "stories")}
	if editor {
		m.NewURL = s.Kit.URL("story.new")
	}
	for _, st := range list {
		it := views.StoryItem{Title: st.Title, SummaryHTML: markdown.Render(st.Summary), URL: s.Kit.URL("story", "slug", st.Slug), Author: st.Author,
			Updated: pagemodel.Updated(i18n.From(r.Context()), st.Updated), Draft: st.Status != story.Published}
		if editor {
			it.EditURL, it.HistoryURL = s.Kit.URL("story.edit", "slug", st.Slug), s.Kit.URL("api.story.history", "slug", st.Slug)
		}
		m.Stories = append(m.Stories, it)
	}
	s.Kit.Render(w, r, http.StatusOK, views.StoriesPage(m))
}

// storyPage is the reader's page.
func (s *API) storyPage(w http.ResponseWriter, r *http.Request) {
	st, err := s.readStory(w, r)
	if err != nil {
		s.Kit.Error(w, r, err)
		return
	}
	photos, err := s.storyPhotos(r.Context(), st)
	if err != nil {
		s.Kit.Error(w, r, err)
		return
	}
	m := views.StoryPage{Page: s.Kit.Page(r, i18n.From(r.Context()).Isolate(st.Title), "stories"), Slug: st.Slug, Title: st.Title, SummaryHTML: markdown.Render(st.Summary), Author: st.Author,
		Updated: pagemodel.Updated(i18n.From(r.Context()), st.Updated), Draft: st.Status != story.Published, BasemapURL: s.Kit.URL("basemap"), LabelsURL: s.Kit.URL("labels"),
		ClustersURL: s.Kit.URL("clusters"), ExplorerURL: s.Kit.URL("explorer"), Tiles: s.Tiles,
		EventsURL: s.Kit.URL("events.points")}
	s.Kit.WithMapAssets(&m.Page)
	if editorReads(r) {
		m.EditURL = s.Kit.URL("story.edit", "slug", st.Slug)
	}
	urls := s.PageURLs()
	urls.Explorer = s.Kit.URL("explorer")
	for i, step := range st.Steps {
		m.Steps = append(m.Steps, pagemodel.StoryStep(i18n.From(r.Context()), i+1, step, photos, s.DB.Gazetteer(), urls))
	}
	s.Kit.Render(w, r, http.StatusOK, views.StoryReader(m))
}

// storyPhotos reads the story's photos as they are now: a corrected
// photo shows its corrected place; a photo no longer there is absent.
func (s *API) storyPhotos(ctx context.Context, st story.Story) (map[string]*photo.Photo, error) {
	out := map[string]*photo.Photo{}
	for _, id := range st.PhotoIDs() {
		p, err := s.DB.Photo(ctx, id)
		if photo.ErrorCode(err) == photo.ENotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[id] = p
	}
	return out, nil
}

// storiesJSON lists the stories (drafts for editors), without steps.
func (s *API) storiesJSON(w http.ResponseWriter, r *http.Request) {
	list, err := s.DB.Stories(r.Context(), editorReads(r))
	if err != nil {
		s.Kit.Error(w, r, err)
		return
	}
	type item struct {
		story.Story
		URL string `json:"url"`
	}
	out := []item{}
	for _, st := range list {
		st.Steps = nil
		out = append(out, item{st, s.Base(r) + s.Kit.URL("api.story", "slug", st.Slug)})
	}
	s.Kit.WriteJSON(w, r, "application/json", map[string]any{"stories": out})
}

// storyJSON is a story with its steps.
func (s *API) storyJSON(w http.ResponseWriter, r *http.Request) {
	st, err := s.readStory(w, r)
	if err != nil {
		s.Kit.Error(w, r, err)
		return
	}
	// Its own validator, the story's version: a save sends it back as
	// If-Match.
	h := w.Header()
	h.Add("Vary", "Accept, Cookie, Authorization")
	if s.CacheControl != nil && h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", s.CacheControl(editorReads(r)))
	}
	if web.NotModified(w, r, photo.ETag(photo.VersionStory, st.Version)) {
		return
	}
	s.Kit.WriteJSON(w, r, "application/json", st)
}

// storyGeoJSON is the story's photos for GIS tools: each a Feature as
// the API writes it, with the step it is in (from 1) and its order in
// the story; a photo no longer in the archive is a Feature without
// geometry, marked missing, with the caption it had.
func (s *API) storyGeoJSON(w http.ResponseWriter, r *http.Request) {
	st, err := s.readStory(w, r)
	if err != nil {
		s.Kit.Error(w, r, err)
		return
	}
	base := s.Base(r)
	var b []byte
	b = append(b, `{"type":"FeatureCollection","features":[`...)
	order := 0
	for i, step := range st.Steps {
		for _, ref := range step.Photos {
			order++
			if order > 1 {
				b = append(b, ',')
			}
			p, err := s.DB.Photo(r.Context(), ref.ID)
			if photo.ErrorCode(err) == photo.ENotFound {
				f := geojson.NewFeature(nil)
				f.ID = ref.ID
				f.Properties = geojson.Properties{"caption": ref.Caption, "missing": true, "step": i + 1, "order": order}
				j, _ := json.Marshal(f)
				b = append(b, j...)
				continue
			}
			if err != nil {
				s.Kit.Error(w, r, err)
				return
			}
			enc := s.Feature(nil, base, p)
			// The story's two properties, after the photo's own.
			b = append(b, enc[:len(enc)-2]...)
			b = append(b, fmt.Sprintf(`,"step":%d,"order":%d}}`, i+1, order)...)
		}
	}
	b = append(b, "]}\n"...)
	w.Header().Set("Content-Type", "application/geo+json")
	w.Write(b)
}

func (s *API) storyHistoryJSON(w http.ResponseWriter, r *http.Request) {
	if !editorReads(r) {
		s.Kit.Error(w, r, photo.Errorf(photo.EUnauthorized, "sign in to read a story's history"))
		return
	}
	h, err := s.DB.StoryHistory(r.Context(), mux.Vars(r)["slug"])
	if err != nil {
		s.Kit.Error(w, r, err)
		return
	}
	s.Kit.WriteJSON(w, r, "application/json", map[string]any{"events": h})
}

// maxStoryBytes bounds a story's JSON.
const maxStoryBytes = 4 << 20

// saveStory creates (POST /api/stories) or saves (PUT /api/stories/{slug})
// a story from its JSON; each chosen photo must be in the archive, and
// its caption is kept with the story.
func (s *API) saveStory(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	var st story.Story
	if err := web.DecodeJSON(r, &st, maxStoryBytes); err != nil {
		s.Kit.Error(w, r, err)
		return
	}
	err := st.Validate()
	for i := range st.Steps {
		for j, ref := range st.Steps[i].Photos {
			if err != nil {
				break
			}
			p, perr := s.DB.Photo(r.Context(), ref.ID) // an editor's read: a withheld photo is found
			switch {
			case perr == nil && p.Harm == photo.HarmWithheld:
				// A story is public: a withheld photo is refused, and the
				// editor told why and what to do (issue 54, 7).
				err = photo.ParamErrorf(fmt.Sprintf("steps[%d].photos", i+1),
					"step %d: photo %s is withheld (editors only), and a story is read by anyone: take it out of the step, or lift the mark on its review page", i+1, ref.ID)
			case photo.ErrorCode(perr) == photo.ENotFound && ref.Caption != "":
				// Kept as it was: a photo gone since it was chosen.
			case photo.ErrorCode(perr) == photo.ENotFound:
				err = photo.ParamErrorf(fmt.Sprintf("steps[%d].photos", i+1), "step %d: no photo %q in the archive", i+1, ref.ID)
			case perr != nil:
				err = perr
			default:
				st.Steps[i].Photos[j].Caption = p.Caption
			}
		}
	}
	if err != nil {
		s.Kit.Error(w, r, err)
		return
	}
	ctx := r.Context()
	if v, ok := web.ExpectedVersion(r, photo.VersionStory); ok && r.Method == http.MethodPut {
		ctx = photo.Expect(ctx, photo.VersionStory, mux.Vars(r)["slug"], v)
	}
	saved, err := s.DB.SaveStory(ctx, st, mux.Vars(r)["slug"], ed.Name, "")
	if err != nil {
		s.Kit.Error(w, r, err)
		return
	}
	status := http.StatusOK
	if r.Method == http.MethodPost {
		status = http.StatusCreated
	}
	w.Header().Set("Location", s.Kit.URL("api.story", "slug", saved.Slug))
	w.Header().Set("ETag", photo.ETag(photo.VersionStory, saved.Version))
	body, _ := web.MarshalJSON(map[string]any{"story": saved, "url": s.Kit.URL("story", "slug", saved.Slug), "edit_url": s.Kit.URL("story.edit", "slug", saved.Slug)})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

// storyEditPage is the editor's page of a new or an existing story; a
// reader is sent to sign in.
func (s *API) storyEditPage(w http.ResponseWriter, r *http.Request) {
	if !editorReads(r) {
		http.Redirect(w, r, s.Kit.URL("signin")+"?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
		return
	}
	m := views.StoryEdit{Page: s.Kit.Page(r, i18n.T(r.Context(), "storyedit.new"), "stories"), Title: i18n.T(r.Context(), "storyedit.new"), SaveURL: s.Kit.URL("api.story.create"), Method: http.MethodPost,
		PhotoURL: strings.Replace(s.Kit.URL("photo.geojson", "id", "ID"), "ID", "{id}", 1), ExplorerURL: s.Kit.URL("explorer")}
	st := story.Story{Status: story.Draft, Steps: []story.Step{}}
	if slug := mux.Vars(r)["slug"]; slug != "" {
		var err error
		if st, err = s.DB.Story(r.Context(), slug); err != nil {
			s.Kit.Error(w, r, err)
			return
		}
		m.Page.Title = i18n.T(r.Context(), "storyedit.edit-title", "title", st.Title)
		m.Title = m.Page.Title
		m.SaveURL, m.Method, m.ReaderURL = s.Kit.URL("api.story.save", "slug", slug), http.MethodPut, s.Kit.URL("story", "slug", slug)
		m.Version = photo.ETag(photo.VersionStory, st.Version)
	}
	js, err := json.Marshal(st)
	if err != nil {
		s.Kit.Error(w, r, err)
		return
	}
	m.Story = string(js)
	s.Kit.WithScript(&m.Page)
	s.Kit.Render(w, r, http.StatusOK, views.StoryEditor(m))
}
