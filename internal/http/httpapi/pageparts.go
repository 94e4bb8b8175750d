package httpapi

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// What the server lends the features' pages (internal/http/pages, the
// review, the second looks, the events): the sections of a photo's page
// other features own, the links of the page models, and the facet
// counts a page waits for a moment at most.

// facetWait bounds how long a page waits for its filters' counts: over
// a large selection they take seconds. Past it the page lists the chosen
// values without counts; the count goes on and serves the next page, and
// the script asks for the counts when a list is opened. (A year of a
// 250,000-photo archive takes longer than 300 ms to count the first
// time — such pages waited the whole 300 ms — and the wait comes before
// the map can start: a quarter of the first markers' budget.)
const facetWait = 120 * time.Millisecond

// pageFacets starts counting the facets of f for a page's filters, and
// returns the wait for them: none when they take longer than facetWait
// from the start, which the page's own reads run during.
func (s *Server) pageFacets(ctx context.Context, f photo.Filter) (wait func() (photo.Facets, error)) {
	type counted struct {
		fc  photo.Facets
		err error
	}
	done := make(chan counted, 1)
	go func() {
		fc, err := s.facetCache.Facets(context.WithoutCancel(ctx), f, 50)
		done <- counted{fc, err}
	}()
	deadline := time.NewTimer(facetWait)
	return func() (photo.Facets, error) {
		defer deadline.Stop()
		select {
		case c := <-done:
			return c.fc, c.err
		case <-deadline.C:
			return photo.Facets{}, nil
		case <-ctx.Done():
			return photo.Facets{}, ctx.Err()
		}
	}
}

// photoRecords fills what the photo page says of the photo's records:
// its history and custody, its harm mark, its conflict events and its
// verification.
func (s *Server) photoRecords(r *http.Request, m *views.PhotoPage, p *photo.Photo) error {
	var err error
	if m.History, err = s.review.EventRows(r, p.ID); err != nil {
		return err
	}
	if m.Custody, err = s.custodyRows(r, p.ID); err != nil {
		return err
	}
	if m.Harm, err = s.review.HarmView(r, m.Page, p); err != nil {
		return err
	}
	if m.Events, err = s.photoEventsView(r, m.Page, p); err != nil {
		return err
	}
	if m.Events != nil && m.Events.Action != "" && len(m.Page.Scripts) == 0 {
		s.WithScript(&m.Page) // an editor's decisions, sent without leaving the page
	}
	m.Verified, err = s.looks.VerifiedMark(r, m.Page, p)
	return err
}

// photoEventsView is the events section of photo p's page and of its
// review page (eventsapi.API.PhotoEventsView).
func (s *Server) photoEventsView(r *http.Request, page views.Page, p *photo.Photo) (*views.PhotoEvents, error) {
	return s.events.PhotoEventsView(r, page, p)
}

// pageURLs are the server's links for the page models.
func (s *Server) pageURLs() pagemodel.URLs {
	return pagemodel.URLs{
		Photo: func(p *photo.Photo) string { return s.URL("photo", "id", p.ID) },
		Place: func(id string) string { return s.URL("place", "id", id) },
		Thumbnail: func(p *photo.Photo) string {
			switch {
			case p.ImageFile != "":
				return s.URL("image.small", "sha", p.ImageFile)
			case p.ImagePath != "" && s.media != nil:
				return s.URL("thumbnail", "path", p.ImagePath)
			}
			return ""
		},
	}
}

// titleOf names a photo's page by its place and date.
func (s *Server) titleOf(l i18n.Locale, p *photo.Photo) string {
	return pagemodel.PhotoTitle(l, p, s.archive.Gazetteer())
}

// imageFileView is what a photo's image file says and how it agrees with
// the caption, for its page; gps shows the camera's GPS point and its
// distance from the photo's place, else only that the file has one.
func (s *Server) imageFileView(ctx context.Context, l i18n.Locale, p *photo.Photo, gps bool) *views.ImageFile {
	v := &views.ImageFile{Agreement: p.Check.Agreement, Parts: p.Check.Parts, Note: p.Check.Note, NoteLang: "en", EXIFTime: pagemodel.CameraTime(l, p.Check.EXIFTime)}
	v.Reuse = s.reuseLine(ctx, l, p)
	// The stored note is English; checked again, the same findings are
	// said in the reader's language.
	if c, err := s.archive.FileCheck(p); err == nil && c.Agreement == p.Check.Agreement && c.Note == p.Check.Note {
		v.Note, v.NoteLang = archive.CheckNote(l, s.archive.Gazetteer(), c.Findings), ""
	}
	if p.File != nil {
		v.Name = filepath.Base(p.File.Path)
		var md imagemeta.Metadata
		if json.Unmarshal([]byte(p.File.Meta), &md) == nil {
			v.From = md.From
			loc := []string{}
			for _, s := range []string{md.Sublocation, md.City, md.State, cmp.Or(md.Country, md.CountryCode)} {
				if s != "" {
					loc = append(loc, s)
				}
			}
			v.Location = strings.Join(loc, ", ")
			v.Credit = strings.Trim(strings.Join(md.Creators, ", ")+" / "+cmp.Or(md.Credit, md.Source), " /")
			v.Created = md.Created
			if md.EXIF.Make != "" || md.EXIF.Model != "" {
				v.Camera = strings.TrimSpace(md.EXIF.Make + " " + strings.TrimPrefix(md.EXIF.Model, md.EXIF.Make))
			}
		}
	}
	switch {
	case p.Check.HasGPS && gps:
		v.GPS = fmt.Sprintf("%.6f, %.6f", p.Check.GPSLon, p.Check.GPSLat)
		if p.Place.Located {
			km := geo.Distance(orb.Point{p.Place.Lon, p.Place.Lat}, orb.Point{p.Check.GPSLon, p.Check.GPSLat}) / 1000
			v.GPS += " · " + l.T("image.gps-km", "km", int(math.Round(km)), "place", pagemodel.NameOf(l, s.archive.Gazetteer(), p.Place.ID, p.Place.Name))
		}
	case p.Check.HasGPS:
		// No distance: with the place's point, two of them (before and
		// after a correction) give the point away.
		v.GPS = l.T("image.gps-hidden")
	}
	return v
}
