package httpapi

import (
	"strings"

	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// The list endpoints stream features as the store reads them, encoded by
// hand: reflection-based marshalling of 100,000 features costs more than
// reading them. Single features and places go through orb/geojson.

// links builds a photo's absolute links (base is the server's
// scheme://host, so that a downloaded file still links back): its page,
// and its image and thumbnail, from its image_url or, served from --media,
// its image_path.
func (s *Server) links(base string, f *photo.Feature) web.FeatureLinks {
	l := web.FeatureLinks{Page: s.photoPath.fill(base, f.ID), Image: f.ImageURL}
	if pl := s.archive.Gazetteer().ByID(f.PlaceID); pl != nil {
		l.PlaceNameAr = pl.NameAr
	}
	switch {
	case f.ImageFile != "":
		// An imported image file: its derivatives, never the original.
		l.Image = s.largePath.fill(base, f.ImageFile)
		l.Thumbnail = s.smallPath.fill(base, f.ImageFile)
	case f.ImagePath != "" && s.media != nil:
		l.Image = s.mediaPath.fill(base, f.ImagePath)
		l.Thumbnail = s.thumbPath.fill(base, f.ImagePath)
	}
	return l
}

// pathTemplate is a named route's path with its one variable cut out,
// made once: asking the router for the link of each of 100,000 features
// costs more than encoding them.
type pathTemplate struct{ before, after string }

// placeholder stands for the variable while the router builds the path;
// it matches every route's variable pattern and appears in no route.
const placeholder = "SYRIAMAP-PLACEHOLDER"

func (s *Server) pathTemplate(name, key string) pathTemplate {
	before, after, _ := strings.Cut(s.URL(name, key, placeholder), placeholder)
	return pathTemplate{before, after}
}

// fill returns base + the path with v for its variable.
func (t pathTemplate) fill(base, v string) string {
	return base + t.before + v + t.after
}
