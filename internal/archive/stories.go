package archive

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
	"github.com/syriamap/syriamap/internal/story"
)

// ExportStories writes every story, drafts too, one JSON object a line
// (JSON Lines), each with its steps and its photos' captions, for
// ImportStories in another archive. It returns how many it wrote.
func (a *Archive) ExportStories(ctx context.Context, w io.Writer) (int, error) {
	list, err := a.db.Stories(ctx, true)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, it := range list {
		st, err := a.db.Story(ctx, it.Slug)
		if err != nil {
			return 0, err
		}
		if err := enc.Encode(st); err != nil {
			return 0, err
		}
	}
	return len(list), bw.Flush()
}

// StoryImport is what an import of stories did: each line's outcome.
type StoryImport struct {
	Imported, Replaced, Skipped int
	Lines                       []string
}

// ImportStories reads stories as ExportStories writes them (name is the
// file's, for messages). A story whose slug the archive has is skipped,
// or replaced with replace; a photo this archive lacks stays in its step
// by the caption it had. Each story is saved with an "imported" event by
// its author. All or nothing, as every import: every line is read and
// checked first, then all are saved in one transaction; a line that is
// not a valid story is an error naming file and line, and nothing is
// imported.
func (a *Archive) ImportStories(ctx context.Context, r io.Reader, name string, replace bool) (StoryImport, error) {
	var rep StoryImport
	var saves []store.StorySave
	var lines []int
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 8<<20)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var st story.Story
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&st); err != nil {
			return StoryImport{}, photo.Errorf(photo.EInvalid, "%s:%d: not a story: %v; nothing was imported", name, line, err)
		}
		if err := st.Validate(); err != nil {
			return StoryImport{}, photo.Errorf(photo.EInvalid, "%s:%d: %v; nothing was imported", name, line, err)
		}
		prev := ""
		if _, err := a.db.Story(ctx, st.Slug); err == nil {
			if !replace {
				rep.Skipped++
				rep.Lines = append(rep.Lines, fmt.Sprintf("%s:%d: skipped %q: the archive has a story with that slug (--replace replaces it)", name, line, st.Slug))
				continue
			}
			prev = st.Slug
		} else if photo.ErrorCode(err) != photo.ENotFound {
			return StoryImport{}, err
		}
		author := st.Author
		if author == "" {
			author = "import"
		}
		saves = append(saves, store.StorySave{Story: st, PrevSlug: prev, Author: author, Action: "imported"})
		lines = append(lines, line)
		if prev != "" {
			rep.Replaced++
		} else {
			rep.Imported++
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return StoryImport{}, photo.Errorf(photo.EInvalid, "%s: a line is longer than 8 MB; nothing was imported", name)
		}
		return StoryImport{}, fmt.Errorf("reading %s: %w; nothing was imported", name, err)
	}
	if i, err := a.db.SaveStories(ctx, saves); err != nil {
		if i < len(lines) {
			return StoryImport{}, fmt.Errorf("%s:%d: %w; nothing was imported", name, lines[i], err)
		}
		return StoryImport{}, err
	}
	return rep, nil
}
