package publish

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/syriamap/syriamap/internal/http/imagery"
)

// The derivatives a published photo has, as the server makes them:
// decoded, scaled and re-encoded, so that they carry none of the file's
// metadata (a camera's GPS point among it).
const (
	smallSide = 320
	largeSide = 1280
)

// Images publishes the derivatives of the archive's image files, and
// the files themselves with Originals.
type Images struct {
	Files       *imagery.Files
	Derivatives *imagery.Derivatives
	Originals   bool
}

// imagePath is a derivative's path in the site: its file's hash names it.
func imagePath(sha string, side int) string {
	return fmt.Sprintf("images/%s/%d.jpg", sha, side)
}

// publish writes the image sha's derivatives (and original); false when
// its file is gone or unreadable, which leaves the photo without a
// picture rather than the site unpublished.
func (im *Images) publish(ctx context.Context, s *site, sha string) (bool, error) {
	if !imagery.IsSHA256(sha) {
		return false, nil
	}
	for _, side := range []int{smallSide, largeSide} {
		body, err := im.Derivatives.Get(ctx, sha, side, true, func() (*os.File, int, error) {
			f, st, err := im.Files.Open(ctx, sha)
			if err != nil {
				return nil, 0, err
			}
			if err := imagery.CheckHash(f, sha); err != nil {
				f.Close()
				return nil, 0, err
			}
			return f, st.Orientation, nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			return false, nil
		}
		if err := s.put(imagePath(sha, side), body); err != nil {
			return false, err
		}
	}
	if im.Originals {
		f, _, err := im.Files.Open(ctx, sha)
		if err != nil {
			return true, nil // its derivatives are published; the file went since
		}
		defer f.Close()
		body, err := io.ReadAll(f)
		if err != nil {
			return false, fmt.Errorf("publish: reading image %s: %w", sha, err)
		}
		if err := s.put(fmt.Sprintf("images/%s/original.jpg", sha), body); err != nil {
			return false, err
		}
	}
	return true, nil
}
