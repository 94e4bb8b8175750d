package archive

import (
	"context"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// SetHarm marks photo id graphic or withheld ("" takes the mark off) for
// reason, by actor, with a custody record. The mark is a person's
// decision: nothing in syriamap looks for faces or wounds. When a photo
// is withheld or given back, the frames are grouped again, so that no
// public page names a withheld photo's caption as another copy of a frame.
func (a *Archive) SetHarm(ctx context.Context, id, harm, actor, reason string) (changed bool, err error) {
	before, err := a.db.Photo(ownRead(ctx), id)
	if err != nil {
		return false, err
	}
	if changed, err = a.db.SetHarm(ctx, id, harm, actor, reason); err != nil || !changed {
		return changed, err
	}
	if (before.Harm == photo.HarmWithheld) != (harm == photo.HarmWithheld) && (before.ImageFile != "" || before.Reuse != "") {
		if _, err := a.groupFrames(ctx, actor, FramesResult{}); err != nil {
			return true, err
		}
	}
	return true, nil
}

// PublicStory is the story as the public reads it: without the photos
// withheld from the public, not even the captions they had when chosen.
func (a *Archive) PublicStory(ctx context.Context, st story.Story) (story.Story, error) {
	withheld, err := a.db.WithheldAmong(ctx, st.PhotoIDs())
	if err != nil {
		return st, err
	}
	return st.Without(withheld), nil
}
