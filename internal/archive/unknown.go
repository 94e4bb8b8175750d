package archive

import (
	"context"
	"runtime"
	"sort"
	"sync"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/photo"
)

// UnknownName is a name the archive's captions read as a place that the
// gazetteer does not know, with how many photos name it.
type UnknownName struct {
	Name    string // the most frequent spelling
	Photos  int
	Example string // the id of a photo that names it
}

// UnknownNames reads every caption in the archive again and returns the
// place-like names the gazetteer could not resolve, the most photographed
// first: where the gazetteer must still grow. Spellings of one name (by
// gazetteer.Fold) are counted together.
func (a *Archive) UnknownNames(ctx context.Context) ([]UnknownName, error) {
	type item struct{ id, caption string }
	items := make(chan item, 256)
	type tally struct {
		photos   int
		spelling map[string]int
		example  string
	}
	var mu sync.Mutex
	counts := map[string]*tally{}
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range items {
				r := a.places.Load().geocoder.Geocode(caption.Parse(it.caption))
				seen := map[string]bool{}
				mu.Lock()
				for _, name := range r.Unknown {
					key := gazetteer.Fold(name).Fine
					if key == "" || seen[key] {
						continue
					}
					seen[key] = true
					t := counts[key]
					if t == nil {
						t = &tally{spelling: map[string]int{}, example: it.id}
						counts[key] = t
					}
					t.photos++
					t.spelling[name]++
				}
				mu.Unlock()
			}
		}()
	}
	err := a.db.EachFeature(ctx, photo.Filter{}, func(f *photo.Feature) error {
		select {
		case items <- item{f.ID, f.Caption}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	close(items)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	out := make([]UnknownName, 0, len(counts))
	for _, t := range counts {
		best, n := "", 0
		for s, c := range t.spelling {
			if c > n || c == n && s < best {
				best, n = s, c
			}
		}
		out = append(out, UnknownName{Name: best, Photos: t.photos, Example: t.example})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Photos != out[j].Photos {
			return out[i].Photos > out[j].Photos
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}
