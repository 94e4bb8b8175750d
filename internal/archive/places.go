package archive

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/gazetteer"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// Places the editors add: the archive's gazetteer is the bundled one and
// these, so that a shelter, quarter or camp the bundled one lacks is
// found by import, regeocode, the place searches and the filters once an
// editor has added it.

// addedPrefix begins the id of every added place.
const addedPrefix = "arc:"

// IsAdded reports whether the place id names a place an editor added.
func IsAdded(id string) bool { return strings.HasPrefix(id, addedPrefix) }

// loadLearned rebuilds the archive's gazetteer with what its editors
// taught it (on opening): the places they added, and the spellings their
// corrections taught (store.TaughtNames). Spellings taught while a server
// runs apply from the next opening: the import and regeocode commands,
// which geocode, open the archive afresh.
func (a *Archive) loadLearned(ctx context.Context) error {
	added, err := a.DB.AddedPlaces(ctx)
	if err != nil {
		return err
	}
	if a.taught, err = a.DB.TaughtNames(ctx); err != nil {
		return err
	}
	if len(added) == 0 && len(a.taught) == 0 {
		return nil
	}
	g, err := a.withAdded(added)
	if err != nil {
		return fmt.Errorf("the archive's added places: %w", err)
	}
	a.places.Store(a.newPlaceIndex(g))
	return nil
}

// AddPlaces checks places an editor adds (by, now), gives each its id,
// keeps them all or none, and makes them part of the archive's
// gazetteer at once. It returns them as kept.
func (a *Archive) AddPlaces(ctx context.Context, places []photo.AddedPlace, by string) ([]photo.AddedPlace, error) {
	if strings.TrimSpace(by) == "" {
		return nil, photo.Errorf(photo.EInvalid, "an added place needs who adds it")
	}
	a.learning.Lock()
	defer a.learning.Unlock()
	existing, taken, err := a.addedIDs(ctx)
	if err != nil {
		return nil, err
	}
	now := a.DB.Now().UTC().Format(time.RFC3339)
	out := make([]photo.AddedPlace, len(places))
	for i, p := range places {
		p.Name, p.NameAr, p.Kind, p.Parent, p.Source = strings.TrimSpace(p.Name), strings.TrimSpace(p.NameAr), strings.TrimSpace(p.Kind), strings.TrimSpace(p.Parent), strings.TrimSpace(p.Source)
		p.ID, p.AddedBy, p.AddedAt = a.freeID(p.Name, taken), by, now
		taken[p.ID] = true
		if err := CheckAddedPlace(p); err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, a.keepAdded(ctx, existing, out)
}

// ImportPlaces adds places exported from another archive (see
// AddedPlaces), keeping who added each and when; one whose id this
// archive has is skipped. It returns how many it added.
func (a *Archive) ImportPlaces(ctx context.Context, places []photo.AddedPlace) (int, error) {
	a.learning.Lock()
	defer a.learning.Unlock()
	existing, taken, err := a.addedIDs(ctx)
	if err != nil {
		return 0, err
	}
	var fresh []photo.AddedPlace
	for _, p := range places {
		if taken[p.ID] {
			continue
		}
		if !IsAdded(p.ID) {
			return 0, photo.Errorf(photo.EInvalid, "place %q: an added place's id begins with %s", p.ID, addedPrefix)
		}
		if p.AddedBy == "" || p.AddedAt == "" {
			return 0, photo.Errorf(photo.EInvalid, "place %s: who added it and when are missing (added_by, added_at)", p.ID)
		}
		if err := CheckAddedPlace(p); err != nil {
			return 0, err
		}
		taken[p.ID] = true
		fresh = append(fresh, p)
	}
	if len(fresh) == 0 {
		return 0, nil
	}
	return len(fresh), a.keepAdded(ctx, existing, fresh)
}

// addedIDs returns the places the archive's editors added, and their ids.
func (a *Archive) addedIDs(ctx context.Context) ([]photo.AddedPlace, map[string]bool, error) {
	existing, err := a.DB.AddedPlaces(ctx)
	taken := make(map[string]bool, len(existing))
	for _, p := range existing {
		taken[p.ID] = true
	}
	return existing, taken, err
}

// keepAdded checks that fresh places fit the gazetteer beside the
// existing ones (their parents known), keeps them, and makes the archive
// geocode with them. The caller holds a.learning.
func (a *Archive) keepAdded(ctx context.Context, existing, fresh []photo.AddedPlace) error {
	g, err := a.withAdded(append(slices.Clone(existing), fresh...))
	if err != nil {
		return err
	}
	if err := a.DB.AddPlaces(ctx, fresh); err != nil {
		return err
	}
	a.places.Store(a.newPlaceIndex(g))
	return nil
}

// AddedPlaces returns the places the archive's editors added.
func (a *Archive) AddedPlaces(ctx context.Context) ([]photo.AddedPlace, error) {
	return a.DB.AddedPlaces(ctx)
}

// freeID is an id for a place named name that no place has.
func (a *Archive) freeID(name string, taken map[string]bool) string {
	base := addedPrefix + story.Slugify(name)
	id := base
	for n := 2; taken[id] || a.bundled.ByID(id) != nil; n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	return id
}

// checkAdded refuses an added place that is not whole: every field is
// said in the error, as the import of a file says its line.
func CheckAddedPlace(p photo.AddedPlace) error {
	bad := func(param, format string, args ...any) error {
		return &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("place %q: ", p.Name) + fmt.Sprintf(format, args...), Parameter: param}
	}
	switch {
	case p.Name == "":
		return &photo.Error{Code: photo.EInvalid, Message: "an added place needs a name", Parameter: "name"}
	case !gazetteer.Kind(p.Kind).Valid():
		var kinds []string
		for _, k := range gazetteer.Kinds {
			kinds = append(kinds, string(k))
		}
		return bad("kind", "kind %q is not one of %s", p.Kind, strings.Join(kinds, ", "))
	case !photo.ValidPoint(p.Lon, p.Lat) || p.Lon == 0 && p.Lat == 0:
		return bad("lon", "point %v,%v is not a point (lon −180…180, lat −90…90)", p.Lon, p.Lat)
	}
	if p.Source != "" {
		if u, err := url.Parse(p.Source); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return bad("source", "source %q is not the address of a page (http or https)", p.Source)
		}
	}
	for _, n := range p.Names {
		if strings.TrimSpace(n) == "" {
			return bad("names", "an empty other spelling")
		}
	}
	return nil
}

// withAdded is the bundled gazetteer with the added places, each in the
// administrative units and country of the place it lies in (its parent,
// whose id must be known), and with the taught spellings among its
// places' names.
func (a *Archive) withAdded(added []photo.AddedPlace) (*gazetteer.Gazetteer, error) {
	places := slices.Clone(a.bundled.Places())
	byID := map[string]*photo.AddedPlace{}
	for i := range added {
		byID[added[i].ID] = &added[i]
	}
	for _, p := range added {
		gp := gazetteer.Place{ID: p.ID, Name: p.Name, NameAr: p.NameAr, Names: p.Names, Kind: gazetteer.Kind(p.Kind),
			Point: orb.Point{p.Lon, p.Lat}, Located: true, Parent: p.Parent, Country: "SY", PointFrom: p.ID}
		if p.Source != "" {
			gp.Sources = []string{p.Source}
		}
		if p.Parent != "" {
			parent := a.bundled.ByID(p.Parent)
			if parent == nil && byID[p.Parent] == nil {
				return nil, &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("place %q: no place %s to lie in", p.Name, p.Parent), Parameter: "parent"}
			}
			if parent != nil {
				gp.Governorate, gp.District, gp.Subdistrict, gp.Country = parent.Governorate, parent.District, parent.Subdistrict, parent.Country
				if parent.Kind == gazetteer.Governorate && gp.Governorate.PCode == "" {
					gp.Governorate = gazetteer.AdminRef{Name: parent.Name, PCode: parent.PCode()}
				}
			}
		}
		places = append(places, gp)
	}
	if len(a.taught) > 0 {
		for i := range places {
			p := &places[i]
			if names := a.taught[p.ID]; len(names) > 0 {
				p.Names = append(slices.Clone(p.Names), names...)
			}
		}
	}
	return gazetteer.New(places)
}
