package archive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/evidence/framehash"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/evidence/pdq"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// FramesResult is what a pass over the archive's frames did.
type FramesResult struct {
	Hashed, NoOriginal, Unreadable int // images hashed now; without an original; not decodable (or too large to decode)
	Groups                         int // frames that are more than one photo's
	Copies, Conflicts              int // photos whose frame is another's, under an agreeing or a disagreeing caption
	Changed                        int // photos whose reuse changed
	// Undecodable names the pictures not hashed because they cannot be
	// decoded (Unreadable counts them), each with why: a user must be
	// able to find them, since no later pass will hash them either.
	Undecodable []Undecodable
}

// Undecodable is a picture that cannot be hashed, by its photo.
type Undecodable struct {
	PhotoID, SHA256, Why string
}

// reuseMonth: dates further apart than this (days) disagree.
const reuseMonth = 31

// Frames hashes every kept original not hashed yet (a decode each, so it
// is its own step rather than part of an import: about a quarter of a
// second for an agency's 5 MB JPEG), then groups the photos whose images
// are the same frame — resized, recompressed, cropped a little,
// watermarked or mirrored — and flags each whose caption disagrees with
// the one the frame is known from first: a place further than either
// place's size, a date more than a month apart, another photographer.
// Each change is a custody record by actor.
func (a *Archive) Frames(ctx context.Context, actor string, progress func(done, total int)) (FramesResult, error) {
	var r FramesResult
	if a.Originals == nil {
		return r, errors.New("frames: the archive has no store of originals")
	}
	missing, err := a.db.FramesMissing(ctx)
	if err != nil {
		return r, err
	}
	var mu sync.Mutex
	batch := map[string]store.Frame{}
	var firstErr error
	flush := func() {
		if len(batch) == 0 || firstErr != nil {
			return
		}
		if err := a.db.AddFrames(ctx, batch); err != nil {
			firstErr = err
		}
		batch = map[string]store.Frame{}
	}
	jobs := make(chan store.FileRef)
	var wg sync.WaitGroup
	done := 0
	for range max(1, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				frame, err := a.hashOriginal(ctx, f.SHA256)
				mu.Lock()
				switch {
				case errors.Is(err, originals.ErrNotFound):
					r.NoOriginal++
				case err != nil:
					r.Unreadable++
					r.Undecodable = append(r.Undecodable, Undecodable{f.PhotoID, f.SHA256, photo.ErrorMessage(err)})
				default:
					r.Hashed++
					batch[f.SHA256] = frame
					if len(batch) >= 64 {
						flush()
					}
				}
				done++
				if progress != nil {
					progress(done, len(missing))
				}
				mu.Unlock()
			}
		}()
	}
	for _, f := range missing {
		if ctx.Err() != nil {
			break
		}
		jobs <- f
	}
	close(jobs)
	wg.Wait()
	flush()
	slices.SortFunc(r.Undecodable, func(a, b Undecodable) int { return strings.Compare(a.PhotoID, b.PhotoID) })
	if firstErr != nil {
		return r, firstErr
	}
	if err := ctx.Err(); err != nil {
		return r, err
	}
	return a.groupFrames(ctx, actor, r)
}

// hashOriginal decodes the original under sum, within the image budget,
// and hashes it; a picture over the budget's limits is refused from its
// header, undecoded.
func (a *Archive) hashOriginal(ctx context.Context, sum string) (store.Frame, error) {
	rc, err := a.Originals.Open(ctx, sum)
	if err != nil {
		return store.Frame{}, err
	}
	defer rc.Close()
	f, err := a.readFrame(ctx, rc)
	if err != nil {
		return store.Frame{}, fmt.Errorf("frames: %s: %w", sum, err)
	}
	return f, nil
}

// hashPlaneSide is the short side, in pixels of its 1/8-scale plane, from
// which a JPEG is hashed from its DC coefficients rather than decoded
// whole: 96, a 768-pixel picture. From there up both hashes stay within
// a few bits of the full decode's (jpegdc's TestHashesOfThePlane: the
// frame hash 0.2 bits on average, PDQ 2), at a fraction of its cost; a
// smaller picture is cheap to decode whole.
const hashPlaneSide = 96

// readFrame decodes the picture r holds, once, within the image budget,
// and reads both its hashes from it: the frame hash the archive groups
// frames by, and the PDQ hash and quality archives exchange. A large JPEG
// is read from its DC plane (resize.DecodeReduced), each hash weighing
// its blocks as it would the picture's pixels.
func (a *Archive) readFrame(ctx context.Context, r io.Reader) (store.Frame, error) {
	red, err := a.Images.DecodeReduced(ctx, r, hashPlaneSide)
	if err != nil {
		return store.Frame{}, err
	}
	h, m := framehash.OfScaled(red.Image, red.Width, red.Height, red.Scale)
	p, q := pdq.HashScaled(red.Image, red.Width, red.Height, red.Scale)
	return store.Frame{Hash: uint64(h), Mirrored: uint64(m), PDQ: p.String(), PDQQuality: q}, nil
}

// groupFrames joins the photos whose frames are within framehash.Radius
// (a mirrored copy through the mirrored hash), and whose PDQ hashes agree
// (samePicture), and sets each one's reuse.
// The groups are the public's, whoever runs it (an editor withholding a
// photo): a reuse flag is on public pages, so a withheld photo's frame
// makes no other photo a copy.
func (a *Archive) groupFrames(ctx context.Context, actor string, r FramesResult) (FramesResult, error) {
	frames, err := a.db.PhotoFrames(photo.WithViewer(ctx, photo.Public))
	if err != nil {
		return r, err
	}
	x := framehash.NewIndex()
	pdqs := make([]*pdq.Hash256, len(frames))
	for i, f := range frames {
		x.Add(int64(i), framehash.Hash(f.Hash))
		pdqs[i] = confirmable(&f.Frame)
	}
	parent := make([]int, len(frames))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i, f := range frames {
		for k, q := range []uint64{f.Hash, f.Mirrored} {
			x.Near(framehash.Hash(q), framehash.Radius, func(m framehash.Match) {
				if !samePicture(pdqs[i], pdqs[m.ID], k == 1) {
					return
				}
				if a, b := find(i), find(int(m.ID)); a != b {
					parent[a] = b
				}
			})
		}
	}
	members := map[int][]string{}
	for i, f := range frames {
		members[find(i)] = append(members[find(i)], f.PhotoID)
	}
	reuses := map[string]store.Reuse{}
	for _, ids := range members {
		// A photo's frames come together (PhotoFrames is in photo order):
		// one id each.
		ids = slices.Compact(ids)
		if len(ids) < 2 {
			continue
		}
		r.Groups++
		var group []*photo.Photo
		for _, id := range ids {
			p, err := a.db.Photo(ctx, id)
			if err != nil {
				return r, err
			}
			group = append(group, p)
		}
		first := earliest(group)
		for id, u := range reusesOf(group) {
			reuses[id] = u
			switch {
			case id == first.ID:
			case u.Kind == photo.ReuseConflict:
				r.Conflicts++
			default:
				r.Copies++
			}
		}
	}
	r.Changed, err = a.db.SetReuse(ctx, actor, reuses)
	return r, err
}

// earliest is the photo a frame is known from first: the earliest dated,
// else the first imported.
func earliest(group []*photo.Photo) *photo.Photo {
	sorted := append([]*photo.Photo(nil), group...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i].Date, sorted[j].Date
		if a.IsZero() != b.IsZero() {
			return !a.IsZero()
		}
		fa, _ := a.Span()
		fb, _ := b.Span()
		return fa < fb
	})
	return sorted[0]
}

// disagreements names how a copy's caption disagrees with the first's:
// "place" further apart than either place spreads, "date" more than a
// month apart, "photographer".
func disagreements(first, p *photo.Photo) []string {
	var why []string
	if a, b := first.Place, p.Place; a.Located && b.Located {
		d := geo.Distance(orb.Point{a.Lon, a.Lat}, orb.Point{b.Lon, b.Lat}) / 1000
		if d > math.Max(tolerance(a.Kind), tolerance(b.Kind)) {
			why = append(why, "place")
		}
	}
	if OlderBy(first.Date, p.Date) > 0 || OlderBy(p.Date, first.Date) > 0 {
		why = append(why, "date")
	}
	if first.Photographer != "" && p.Photographer != "" && foldName(first.Photographer) != foldName(p.Photographer) {
		why = append(why, "photographer")
	}
	return why
}

// OlderBy is how many days a frame known from date known comes before
// the date a caption claims, when that is more than a month: the picture
// is older than the event its caption names. 0 when it is not, or either
// date is unknown.
func OlderBy(known, claimed photo.Date) int {
	if known.IsZero() || claimed.IsZero() {
		return 0
	}
	a, _ := known.Span()
	b, _ := claimed.Span()
	if n := days(b) - days(a); n > reuseMonth {
		return n
	}
	return 0
}

// days counts the days of a YYYYMMDD date from a fixed one.
func days(ymd int) int {
	y, m, d := ymd/10000, ymd/100%100, ymd%100
	return int(dateOf(y, m, d).Unix() / 86400)
}

func dateOf(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

// framesOnArrival looks each new picture's frame (hashed as it was read)
// up among the frames the archive holds, and among the others of the
// same import, and sets on its record the reuses it brings: a frame the
// archive knows under a caption that disagrees is a conflict from the
// moment it arrives, written in the import's own transaction (see
// store.Record). The groups are the public's, as Frames' are.
func (a *Archive) framesOnArrival(ctx context.Context, recs []store.Record) error {
	hashed := 0
	for _, r := range recs {
		if r.Frame != nil {
			hashed++
		}
	}
	if hashed == 0 {
		return nil
	}
	// The frames and the photos they name are read as the public, not
	// as the importing editor: a withheld photo's frame flags no copy.
	public := photo.WithViewer(ctx, photo.Public)
	known, err := a.db.PhotoFrames(public)
	if err != nil {
		return err
	}
	// Index ids: the archive's frames by their position, the import's
	// after them.
	x := framehash.NewIndex()
	pdqs := make([]*pdq.Hash256, len(known)+len(recs)) // by index id
	for i, f := range known {
		x.Add(int64(i), framehash.Hash(f.Hash))
		pdqs[i] = confirmable(&f.Frame)
	}
	arriving := map[string]*photo.Photo{}
	// The archive's photos a frame names, each read once: a frame copied
	// a thousand times names a thousand photos for each copy arriving.
	held := map[string]*photo.Photo{}
	stands := map[string]store.Reuse{} // what this import has decided so far
	for i := range recs {
		r := &recs[i]
		if r.Frame == nil {
			continue
		}
		ids := map[string]bool{}
		p := confirmable(r.Frame)
		for k, q := range []uint64{r.Frame.Hash, r.Frame.Mirrored} {
			x.Near(framehash.Hash(q), framehash.Radius, func(m framehash.Match) {
				if !samePicture(p, pdqs[m.ID], k == 1) {
					return
				}
				if int(m.ID) < len(known) {
					ids[known[m.ID].PhotoID] = true
				} else {
					ids[recs[int(m.ID)-len(known)].Photo.ID] = true
				}
			})
		}
		x.Add(int64(len(known)+i), framehash.Hash(r.Frame.Hash))
		pdqs[len(known)+i] = p
		arriving[r.Photo.ID] = r.Photo
		delete(ids, r.Photo.ID) // its own earlier import
		if len(ids) == 0 {
			continue
		}
		group := []*photo.Photo{r.Photo}
		for _, id := range slices.Sorted(maps.Keys(ids)) {
			p := arriving[id]
			if p == nil {
				p = held[id]
			}
			if p == nil {
				if p, err = a.db.Photo(public, id); err != nil {
					return err
				}
				held[id] = p
			}
			group = append(group, p)
		}
		r.Reuses = reusesOf(group)
		first := earliest(group)
		r.Arrived = arrivedAs(r.Photo, first, r.Reuses)
		for _, p := range group[1:] {
			was, ok := stands[p.ID]
			if !ok {
				was = store.Reuse{Kind: p.Reuse, Of: p.ReuseOf}
			}
			// What already stands is not recorded again, nor which copy
			// a frame's first photo names, once it names one.
			if u := r.Reuses[p.ID]; was.Kind == u.Kind && was.Of == u.Of || p == first && was.Kind != "" {
				delete(r.Reuses, p.ID)
			}
		}
		for id, u := range r.Reuses {
			stands[id] = u
		}
	}
	return nil
}

// arrivedAs is how p, arriving, meets the frame its group holds: its own
// reuse; or, when it is the group's first (dated before those held), a
// conflict when any of the others now disagrees with it, else a copy.
func arrivedAs(p, first *photo.Photo, reuses map[string]store.Reuse) string {
	if p != first {
		return reuses[p.ID].Kind
	}
	for id, u := range reuses {
		if id != p.ID && u.Kind == photo.ReuseConflict {
			return photo.ReuseConflict
		}
	}
	return photo.ReuseCopy
}

// reusesOf is how each photo of a group of one frame stands: a copy, or
// a conflict when its caption disagrees with the one the frame is known
// from first (which is a copy of the next), as groupFrames sets them.
func reusesOf(group []*photo.Photo) map[string]store.Reuse {
	out := map[string]store.Reuse{}
	first := earliest(group)
	for _, p := range group {
		if p == first {
			continue
		}
		kind, why := photo.ReuseCopy, disagreements(first, p)
		if len(why) > 0 {
			kind = photo.ReuseConflict
		}
		out[p.ID] = store.Reuse{Kind: kind, Of: first.ID, Why: why}
	}
	next := group[0]
	if next == first {
		next = group[1]
	}
	out[first.ID] = store.Reuse{Kind: photo.ReuseCopy, Of: next.ID}
	return out
}
