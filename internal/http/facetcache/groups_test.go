package facetcache

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// countingStore is the archive's storage, counting the full counts of
// the review groups asked of it.
type countingStore struct {
	*store.DB
	full atomic.Int32
}

func (s *countingStore) ReviewGroupsOf(ctx context.Context, f photo.Filter, keys []string) ([]photo.ReviewGroup, error) {
	if keys == nil {
		s.full.Add(1)
	}
	return s.DB.ReviewGroupsOf(ctx, f, keys)
}

// groupPlaces are the places the test's captions name, several spelled
// two ways (one group, two spellings).
var groupPlaces = []struct{ id, name string }{
	{"gn:1", "Aleppo"}, {"gn:1", "Halab"}, {"gn:2", "Damascus"}, {"gn:3", "Idlib"},
	{"gn:4", "Douma"}, {"gn:4", "Duma"}, {"gn:5", "Kafr Nabl"}, {"gn:6", "Homs"},
}

// groupPhoto is a photo with a random reading of a random place: placed,
// a fallback, unsure or unplaced, on some date or none.
func groupPhoto(rng *rand.Rand, n int) *photo.Photo {
	pl := groupPlaces[rng.IntN(len(groupPlaces))]
	words := []string{"market", "school", "street", "bakery"}
	caption := fmt.Sprintf("A %s in %s, number %d.", words[rng.IntN(len(words))], pl.name, n)
	p := &photo.Photo{ID: photo.ID(caption), Caption: caption, Agency: []string{"AFP", "Reuters"}[rng.IntN(2)]}
	if rng.IntN(4) > 0 {
		p.Date = photo.DateFromSpan(20120101+rng.IntN(5)*10000+rng.IntN(12)*100, 0, "day")
	}
	p.Geocoded = photo.Place{Precision: "none", Mention: pl.name}
	if rng.IntN(6) > 0 {
		p.Geocoded = photo.Place{ID: pl.id, Name: pl.name, Kind: "city", Country: "SY", Lon: 36 + rng.Float64(), Lat: 35 + rng.Float64(), Located: true,
			Precision: []string{"exact", "exact", "fallback"}[rng.IntN(3)], Confidence: float64(rng.IntN(101)) / 100, Mention: pl.name}
	}
	return p
}

// TestGroupsFollowChangesAsAFullCount (issue 65, 9): the review groups
// kept per filter and brought up to date group by group answer, after
// every change of every kind (imports, corrections, confirmations,
// fixes, withholding, re-geocoding, undoing), what counting them all
// answers, for the public and editors, full-text filters and the queue's
// limit alike; and after the first count none is counted in full again.
func TestGroupsFollowChangesAsAFullCount(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "groups.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	src := &countingStore{DB: db}
	c := NewGroups(src)
	w := &groupsWorld{t: t, ctx: ctx, db: db, rng: rand.New(rand.NewPCG(65, 9)), editor: photo.AsEditor(ctx, "rana")}
	w.importSome(200)
	editor := w.editor
	filters := []photo.Filter{{}, {Query: "market"}, {Agencies: []string{"AFP"}}, {PlaceIDs: []string{"gn:1", "gn:4"}}, {From: photo.Date{Year: 2014}, To: photo.Date{Year: 2015}}}
	compare := func(step string) {
		t.Helper()
		for _, viewer := range []context.Context{ctx, editor} {
			for _, f := range filters {
				for _, limit := range []int{3, 500} {
					got, err := c.Get(viewer, f, limit)
					if err != nil {
						t.Fatalf("%s: Get(%+v): %v", step, f, err)
					}
					want, err := db.ReviewGroups(viewer, f, limit)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s, filter %+v, limit %d, editor %v:\nkept    %+v\ncounted %+v", step, f, limit, photo.ViewerOf(viewer).SeesWithheld(), got, want)
					}
				}
			}
		}
	}
	compare("first count")
	firstCounts := src.full.Load()
	for step := range 120 {
		what, id := w.change()
		compare(fmt.Sprintf("step %d (%s of %s)", step, what, id))
	}
	if n := src.full.Load() - firstCounts; n != 0 {
		t.Errorf("%d full counts after the first ones (%d): the changes touched a few groups each", n, firstCounts)
	}
}

// change makes one random change to the archive and says what and to
// which photo.
func (w *groupsWorld) change() (what, id string) {
	w.t.Helper()
	all, err := w.db.Photos(w.editor, photo.Filter{})
	if err != nil {
		w.t.Fatal(err)
	}
	p := all[w.rng.IntN(len(all))]
	groups, err := w.db.ReviewGroups(w.editor, photo.Filter{}, 500)
	if err != nil || len(groups) == 0 {
		w.t.Fatalf("the queue: %v, %v", groups, err)
	}
	switch w.rng.IntN(9) {
	case 0:
		what = "import"
		w.importSome(1 + w.rng.IntN(3))
	case 1, 2:
		what = "correction"
		pl := groupPlaces[w.rng.IntN(len(groupPlaces))]
		_, b, err := w.db.ApplyBatch(w.ctx, []string{p.ID}, photo.Change{Author: "rana", Place: &photo.Place{ID: pl.id, Name: pl.name, Lon: 36.5, Lat: 35.5, Located: true}})
		if err != nil {
			w.t.Fatal(err)
		}
		w.batches = append(w.batches, b)
	case 3:
		what = "confirmation"
		if p.Place.Located && p.Review == photo.ReviewAutomatic {
			if _, err := w.db.Apply(w.ctx, []string{p.ID}, photo.Change{Author: "rana", Confirm: true}); err != nil {
				w.t.Fatal(err)
			}
		}
	case 4:
		what = "date fixed"
		d := photo.DateFromSpan(20130305+w.rng.IntN(3)*10000, 0, "day")
		if _, err := w.db.Apply(w.ctx, []string{p.ID}, photo.Change{Author: "rana", Date: &d}); err != nil {
			w.t.Fatal(err)
		}
	case 5:
		what = "withheld or shown"
		harm := []string{photo.HarmWithheld, ""}[w.rng.IntN(2)]
		if _, err := w.db.SetHarm(w.ctx, p.ID, harm, "rana", "the test"); err != nil {
			w.t.Fatal(err)
		}
	case 6:
		what = "re-geocoded"
		pl := groupPlaces[w.rng.IntN(len(groupPlaces))]
		if _, _, err := w.db.RegeocodePhotos(w.ctx, []string{p.ID}, func(string) photo.Place {
			return photo.Place{ID: pl.id, Name: pl.name, Kind: "city", Lon: 36.2, Lat: 35.1, Located: true, Precision: "exact", Confidence: 0.42, Mention: pl.name}
		}); err != nil {
			w.t.Fatal(err)
		}
	case 8:
		what = "a whole group confirmed"
		w.confirmGroup(groups[w.rng.IntN(len(groups))].Key, all)
	case 7:
		what = "undone"
		if len(w.batches) > 0 {
			b := w.batches[len(w.batches)-1]
			w.batches = w.batches[:len(w.batches)-1]
			if _, err := w.db.Undo(w.ctx, b, "rana", "the test"); err != nil && photo.ErrorCode(err) == photo.EInternal {
				w.t.Fatal(err)
			}
		}
	}
	return what, p.ID
}

// groupsWorld is an archive the test changes at random.
type groupsWorld struct {
	t       *testing.T
	ctx     context.Context
	db      *store.DB
	rng     *rand.Rand
	editor  context.Context
	made    int
	batches []int64
}

// importSome imports n new photos.
func (w *groupsWorld) importSome(n int) {
	w.t.Helper()
	var recs []store.Record
	for range n {
		w.made++
		recs = append(recs, store.Record{Photo: groupPhoto(w.rng, w.made), Line: w.made})
	}
	if _, err := w.db.ImportFile(w.ctx, fmt.Sprintf("batch-%d.txt", w.made), store.Records(recs), nil); err != nil {
		w.t.Fatal(err)
	}
}

// confirmGroup confirms every placed photo of the group of key, as
// "apply to all" does: the group leaves the queue, or keeps only its
// unplaced photos.
func (w *groupsWorld) confirmGroup(key string, all []photo.Photo) {
	w.t.Helper()
	ids, err := w.db.ReviewIDs(w.ctx, photo.Filter{}, key)
	if err != nil {
		w.t.Fatal(err)
	}
	var placed []string
	for _, q := range all {
		if slices.Contains(ids, q.ID) && q.Place.Located {
			placed = append(placed, q.ID)
		}
	}
	if len(placed) > 0 {
		if _, err := w.db.Apply(w.ctx, placed, photo.Change{Author: "rana", Confirm: true}); err != nil {
			w.t.Fatal(err)
		}
	}
}

// TestGroupsForgetTheLeastRecent: the groups kept for a kind of viewer
// stay within their bound; past it the filter asked least recently is
// forgotten (counted in full when asked again), not the one just asked.
func TestGroupsForgetTheLeastRecent(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "groups.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	w := &groupsWorld{t: t, ctx: ctx, db: db, rng: rand.New(rand.NewPCG(65, 7)), editor: photo.AsEditor(ctx, "rana")}
	w.importSome(100)
	src := &countingStore{DB: db}
	c := NewGroups(src)
	all, err := db.ReviewGroupsOf(ctx, photo.Filter{}, nil)
	if err != nil || len(all) < 4 {
		t.Fatalf("%d groups, %v", len(all), err)
	}
	c.maxHeld = int64(len(all)) + 1 // the whole queue and one more group
	afp, whole := photo.Filter{Agencies: []string{"AFP"}}, photo.Filter{}
	for _, ask := range []struct {
		f    photo.Filter
		full int32 // full counts so far
	}{
		{afp, 1}, {afp, 1}, // kept
		{whole, 2}, // AFP's forgotten: the two hold more than the bound
		{whole, 2}, // kept
		{afp, 3},   // counted again; the whole queue forgotten in turn
		{whole, 4},
	} {
		if _, err := c.Get(ctx, ask.f, 500); err != nil {
			t.Fatal(err)
		}
		if n := src.full.Load(); n != ask.full {
			t.Fatalf("after asking %+v: %d full counts, want %d", ask.f, n, ask.full)
		}
	}
}
