package publish

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/markdown"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
	"github.com/syriamap/syriamap/views"
)

// storyPages writes the archive's published stories: a list (stories.html)
// and each story's page (stories/<slug>.html), the server's reader with
// the site's data. A story's photo outside the published selection is
// shown by its caption, as a photo gone from the archive is.
func (p *publisher) storyPages(ctx context.Context, places map[string]*placeStats) error {
	if len(p.stories) == 0 {
		return nil
	}
	m := views.StoryList{Page: p.page("stories.html", p.loc.T("stories.title"), "stories", false)}
	for _, st := range p.stories {
		if err := p.storyPage(ctx, st, places, p.storyPhotos); err != nil {
			return err
		}
		m.Stories = append(m.Stories, views.StoryItem{Title: st.Title, SummaryHTML: markdown.Render(st.Summary), URL: storyPath(st.Slug), Author: st.Author,
			Updated: pagemodel.Updated(p.loc, st.Updated)})
	}
	return p.render("stories.html", views.StoriesPage(m))
}

func storyPath(slug string) string { return "stories/" + slug + ".html" }

func (p *publisher) storyPage(ctx context.Context, st story.Story, places map[string]*placeStats, published map[string]bool) error {
	at := storyPath(st.Slug)
	root, pages := p.roots(at)
	photos := map[string]*photo.Photo{}
	for _, id := range st.PhotoIDs() {
		if !published[id] {
			continue
		}
		ph, err := p.a.Photo(ctx, id)
		if err != nil {
			return fmt.Errorf("publish: story %q: %w", st.Slug, err)
		}
		photos[id] = ph
	}
	urls := p.pageURLs(root, pages, places)
	urls.Explorer = pages + "./"
	m := views.StoryPage{Page: p.page(at, p.loc.Isolate(st.Title), "stories", true), Slug: st.Slug, Title: st.Title, SummaryHTML: markdown.Render(st.Summary), Author: st.Author,
		Updated: pagemodel.Updated(p.loc, st.Updated), BasemapURL: root + apiBasemap, LabelsURL: root + apiLabels,
		ClustersURL: root + apiClusters, ExplorerURL: urls.Explorer, Tiles: p.o.Tiles, EventsURL: p.mapConfig(root).EventsURL}
	for i, step := range st.Steps {
		v := pagemodel.StoryStep(p.loc, i+1, step, photos, p.a.Gazetteer(), urls)
		for j := range v.Photos {
			if v.Photos[j].Missing && !published[v.Photos[j].Row.ID] && step.Photos[j].ID == v.Photos[j].Row.ID {
				v.Photos[j].MissingWhy = "story.not-published"
			}
		}
		m.Steps = append(m.Steps, v)
	}
	return p.render(at, views.StoryReader(m))
}

// pageURLs are the links of a published page whose way to the site's
// root is root and to its language's pages is pages: a place links to its
// page only if it has one.
func (p *publisher) pageURLs(root, pages string, places map[string]*placeStats) pagemodel.URLs {
	return pagemodel.URLs{
		Photo: func(ph *photo.Photo) string {
			from, _ := ph.Date.Span()
			return pages + "photo.html?id=" + url.QueryEscape(ph.ID) + "&d=" + strconv.Itoa(from)
		},
		Place: func(id string) string {
			if places[id] == nil {
				return "" // no photo there: no page
			}
			return pages + placePath(id)
		},
		Thumbnail: func(ph *photo.Photo) string {
			if ph.ImageFile == "" || p.o.Images == nil {
				return ""
			}
			return root + imagePath(ph.ImageFile, smallSide)
		},
	}
}
