package store

import (
	"context"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

func TestStories(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	st := story.Story{Title: "Eastern Aleppo, 2016", Status: story.Draft, Steps: []story.Step{
		{Heading: "Before", Text: "The **siege** begins.", Photos: []story.PhotoRef{{ID: "a", Caption: "A street"}}, Highlight: "a"},
		{Heading: "The fall", State: "from=2016-12&to=2016-12&map=13/36.2/37.16"},
	}}
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	saved, err := db.SaveStory(ctx, st, "", "rania", "")
	if err != nil {
		t.Fatal(err)
	}
	if saved.Slug != "eastern-aleppo-2016" || saved.Author != "rania" || saved.Created == "" {
		t.Fatalf("saved %+v", saved)
	}
	// A second new story with the same slug is refused, the first kept.
	if _, err := db.SaveStory(ctx, st, "", "omar", ""); photo.ErrorCode(err) != photo.EInvalid {
		t.Errorf("a second story with the slug: %v; want the slug refused", err)
	}
	// Drafts are the editors' alone.
	if list, _ := db.Stories(ctx, false); len(list) != 0 {
		t.Errorf("readers see %d stories; the only one is a draft", len(list))
	}
	// Published and renamed, by another editor: the author stays.
	st.Status, st.Slug = story.Published, "aleppo-2016"
	st.Steps = append([]story.Step{{Heading: "Summer"}}, st.Steps...)
	if _, err := db.SaveStory(ctx, st, "eastern-aleppo-2016", "omar", ""); err != nil {
		t.Fatal(err)
	}
	got, err := db.Story(ctx, "aleppo-2016")
	if err != nil {
		t.Fatal(err)
	}
	if got.Author != "rania" || len(got.Steps) != 3 || got.Steps[1].Photos[0].Caption != "A street" || got.Steps[2].State == "" || got.Steps[0].Photos == nil {
		t.Errorf("read back %+v", got)
	}
	if _, err := db.Story(ctx, "eastern-aleppo-2016"); photo.ErrorCode(err) != photo.ENotFound {
		t.Errorf("the old slug: %v; want not found", err)
	}
	if list, _ := db.Stories(ctx, false); len(list) != 1 || list[0].Slug != "aleppo-2016" {
		t.Errorf("readers see %+v", list)
	}
	h, err := db.StoryHistory(ctx, "aleppo-2016")
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[0].Action != "created" || h[0].Author != "rania" || h[1].Action != "published" || h[1].Author != "omar" || len(h[0].Story.Steps) != 2 {
		t.Errorf("history %+v", h)
	}
	// Saving a story that is not there is an error, not a new story.
	if _, err := db.SaveStory(ctx, st, "gone", "omar", ""); photo.ErrorCode(err) != photo.ENotFound {
		t.Errorf("saving over a missing story: %v", err)
	}
}
