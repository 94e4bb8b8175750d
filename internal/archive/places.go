package archive

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/ingest"
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
	added, err := a.db.AddedPlaces(ctx)
	if err != nil {
		return err
	}
	if a.taught, err = a.db.TaughtNames(ctx); err != nil {
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
	now := a.db.Now().UTC().Format(time.RFC3339)
	out := make([]photo.AddedPlace, len(places))
	for i, p := range places {
		p.Name, p.NameAr, p.Kind, p.Parent, p.Source = strings.TrimSpace(p.Name), strings.TrimSpace(p.NameAr), strings.TrimSpace(p.Kind), strings.TrimSpace(p.Parent), strings.TrimSpace(p.Source)
		p.ID, p.AddedBy, p.AddedAt = a.freeID(p.Name, taken), by, now
		taken[p.ID] = true
		if err := CheckAddedPlace(p); err != nil {
			return nil, err
		}
		if err := a.checkFits(p, existing); err != nil {
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
		if err := a.checkFits(p, existing); err != nil {
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
	existing, err := a.db.AddedPlaces(ctx)
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
	if err := a.db.AddPlaces(ctx, fresh); err != nil {
		return err
	}
	a.places.Store(a.newPlaceIndex(g))
	return nil
}

// AddedPlaces returns the places the archive's editors added.
func (a *Archive) AddedPlaces(ctx context.Context) ([]photo.AddedPlace, error) {
	return a.db.AddedPlaces(ctx)
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
	case p.Country != "" && !validCountry(p.Country):
		return bad("country", "country %q is not an ISO 3166 code of two capital letters (SY, TR, LB, JO, IQ, GR…)", p.Country)
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
	for field, v := range map[string]string{"name": p.Name, "name_ar": p.NameAr, "names": strings.Join(p.Names, " ")} {
		if err := photo.CheckName(field, v); err != nil {
			return err
		}
	}
	return nil
}

func validCountry(c string) bool {
	return len(c) == 2 && c[0] >= 'A' && c[0] <= 'Z' && c[1] >= 'A' && c[1] <= 'Z'
}

// syriaMargin is how far (in degrees, about 5 km) past the bundled
// gazetteer's Syrian places a place not said to be abroad may lie.
const syriaMargin = 0.05

// checkFits refuses an added place that does not fit the gazetteer: a
// point outside Syria's area without the country the editor says it is
// in, and a name and kind that a place of the gazetteer (or another added
// place) already has in that country, unless the editor marked it as
// another place of that name (Distinct): a second "Aleppo" must never
// silently take the first one's captions or make them less sure.
func (a *Archive) checkFits(p photo.AddedPlace, existing []photo.AddedPlace) error {
	country := p.Country
	if p.Parent != "" {
		if parent := a.bundled.ByID(p.Parent); parent != nil && parent.Country != "" {
			country = parent.Country
		}
	}
	if country == "" {
		if box := a.syriaBox(); !box.Contains(orb.Point{p.Lon, p.Lat}) {
			return &photo.Error{Code: photo.EInvalid, Parameter: "country", Message: fmt.Sprintf("place %q: the point %.4f, %.4f lies outside Syria "+
				"(lon %.2f…%.2f, lat %.2f…%.2f): if the place is abroad, say so with its country (country: GR, TR, LB…)",
				p.Name, p.Lon, p.Lat, box.Min[0], box.Max[0], box.Min[1], box.Max[1])}
		}
		country = "SY"
	}
	if p.Distinct {
		return nil
	}
	same := func(name, kind, in string) bool {
		return kind == p.Kind && in == country && gazetteer.Fold(name) == gazetteer.Fold(p.Name)
	}
	for _, q := range a.bundled.Lookup(p.Name) {
		if same(q.Name, string(q.Kind), q.Country) {
			return &photo.Error{Code: photo.EConflict, Parameter: "distinct", Message: fmt.Sprintf("place %q: the gazetteer has a %s of that name in %s (%s): "+
				"give it another spelling, or mark it as another place of that name (distinct: true)", p.Name, q.Kind, country, q.ID)}
		}
	}
	for _, q := range existing {
		qc := q.Country
		if qc == "" {
			qc = "SY"
		}
		if same(q.Name, q.Kind, qc) {
			return &photo.Error{Code: photo.EConflict, Parameter: "distinct", Message: fmt.Sprintf("place %q: %s added a %s of that name (%s): "+
				"move or correct that one, or mark this as another place of that name (distinct: true)", p.Name, q.AddedBy, q.Kind, q.ID)}
		}
	}
	return nil
}

// syriaBox is the area of the bundled gazetteer's Syrian places, with a
// margin.
func (a *Archive) syriaBox() orb.Bound {
	a.syriaOnce.Do(func() {
		first := true
		for _, q := range a.bundled.Places() {
			if q.Country != "SY" || !q.Located {
				continue
			}
			if first {
				a.syria, first = q.Point.Bound(), false
			}
			a.syria = a.syria.Extend(q.Point)
		}
		a.syria = a.syria.Pad(syriaMargin)
	})
	return a.syria
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
			Point: orb.Point{p.Lon, p.Lat}, Located: true, Parent: p.Parent, Country: cmp.Or(p.Country, "SY"), PointFrom: p.ID, Secondary: p.Distinct}
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
			if taught := a.taught[p.ID]; len(taught) > 0 {
				p.Names = slices.Clone(p.Names)
				for _, n := range taught {
					p.Names = append(p.Names, n.Name)
				}
			}
		}
	}
	return a.Gazetteer().With(places)
}

// taughtCap is the most confidence a placement read by a spelling that
// one editor's correction taught may have: below the line under which the
// review queue and the map call a placement low (web.PlacementCode), so
// that one editor's word is checked before it is trusted.
const taughtCap = 0.45

// trustTaught holds down a placement read by a taught spelling (one the
// bundled gazetteer does not give the place) until a second editor stands
// behind it (a second correction teaching it, or a confirmation of a
// photo it placed), and always when the place lies outside every
// governorate the caption names: one editor's word never makes the
// geocoder sure. It says so in the placement's note.
func (a *Archive) trustTaught(c caption.Caption, pl *photo.Place) {
	taught := a.taught[pl.ID]
	if len(taught) == 0 || pl.Mention == "" {
		return
	}
	key := gazetteer.Fold(pl.Mention)
	if b := a.bundled.ByID(pl.ID); b != nil {
		for _, n := range append([]string{b.Name, b.NameAr}, b.Names...) {
			if n != "" && gazetteer.Fold(n) == key {
				return // the gazetteer's own spelling
			}
		}
	}
	for _, n := range taught {
		if gazetteer.Fold(n.Name) != key {
			continue
		}
		outside := a.outsideNamedGovernorates(c, pl)
		if n.Editors >= 2 && !outside {
			return
		}
		if pl.Confidence > taughtCap {
			pl.Confidence = taughtCap
		}
		why := fmt.Sprintf("the spelling %q was taught by one editor's correction; it is trusted once a second editor agrees", pl.Mention)
		if outside {
			why = fmt.Sprintf("the spelling %q was taught by a correction, but %s lies outside the governorate the caption names", pl.Mention, pl.Name)
		}
		pl.Note = strings.TrimSpace(why + ". " + pl.Note)
		return
	}
}

// outsideNamedGovernorates reports whether the caption names one or more
// governorates and the place lies in none of them.
func (a *Archive) outsideNamedGovernorates(c caption.Caption, pl *photo.Place) bool {
	g := a.Gazetteer()
	named := false
	for _, m := range c.Mentions {
		for _, q := range g.Lookup(m.Text) {
			if q.Kind != gazetteer.Governorate || q.Country != "SY" {
				continue
			}
			named = true
			if q.PCode() == pl.GovPCode || q.Name == pl.Governorate {
				return false
			}
		}
	}
	return named
}

// ChangePlace removes, restores or moves a place an editor added (see
// store.ChangePlace), rebuilds the archive's gazetteer without it (or
// with it back, or at its new point) and re-geocodes the photos it held,
// which return to the geocoder. It returns how many photos moved.
func (a *Archive) ChangePlace(ctx context.Context, c photo.PlaceChange) (moved int, err error) {
	if !IsAdded(c.ID) {
		return 0, photo.Errorf(photo.EInvalid, "place %s is the bundled gazetteer's: only places editors added (%s…) can be removed or moved", c.ID, addedPrefix)
	}
	if c.Lon != nil && c.Lat != nil {
		if !photo.ValidPoint(*c.Lon, *c.Lat) {
			return 0, photo.ParamErrorf("lon", "point %v,%v is not a point (lon −180…180, lat −90…90)", *c.Lon, *c.Lat)
		}
		added, err := a.db.AddedPlaces(ctx)
		if err != nil {
			return 0, err
		}
		for _, p := range added {
			if p.ID == c.ID && p.Country == "" && !a.syriaBox().Contains(orb.Point{*c.Lon, *c.Lat}) {
				return 0, photo.ParamErrorf("country", "place %s: the point %.4f, %.4f lies outside Syria; a place abroad is added again with its country", c.ID, *c.Lon, *c.Lat)
			}
		}
	}
	a.learning.Lock()
	defer a.learning.Unlock()
	ids, err := a.db.ChangePlace(ctx, c)
	if err != nil {
		return 0, err
	}
	added, err := a.db.AddedPlaces(ctx)
	if err != nil {
		return 0, err
	}
	g, err := a.withAdded(added)
	if err != nil {
		return 0, err
	}
	a.places.Store(a.newPlaceIndex(g))
	_, moved, err = a.db.RegeocodePhotos(ctx, ids, func(text string) photo.Place {
		return a.Build(ingest.Record{Caption: text}).Geocoded
	})
	return moved, err
}
