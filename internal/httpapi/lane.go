package httpapi

import (
	"context"
	"net/http"
	"runtime"
	"sync/atomic"

	"github.com/syriamap/syriamap/internal/photo"
)

// lane admits costly work a few at a time, so that it cannot crowd out
// the cheap requests that most users make (a map window, a photo page, a
// health check): full-text searches, and the reading and encoding of
// downloads, which each keep a core busy for as long as they run. With
// as many at once as there are cores, a cheap request still finds the
// processor within a scheduler slice or two.
type lane struct {
	slots   chan struct{}
	waiting atomic.Int32
	// queue is how many requests may wait for a slot before more are
	// refused as unavailable (503 with Retry-After).
	queue int32
}

func newLane(slots, queue int) *lane {
	return &lane{slots: make(chan struct{}, slots), queue: int32(queue)}
}

// defaultLane runs as many costly reads as there are cores, with four
// times as many waiting.
func defaultLane() *lane {
	n := max(1, runtime.GOMAXPROCS(0))
	return newLane(n, 4*n)
}

// admit waits for a slot for a request's costly work, or refuses it at
// once when too many already wait. leave gives the slot back.
func (l *lane) admit(ctx context.Context) (leave func(), err error) {
	if l.waiting.Add(1) > l.queue {
		l.waiting.Add(-1)
		return nil, photo.Errorf(photo.EUnavailable, "the server is busy with searches and downloads; try again in a few seconds")
	}
	defer l.waiting.Add(-1)
	return l.wait(ctx)
}

// wait waits for a slot however many wait: for work that cannot be
// refused any more (the next chunk of a download whose status is sent).
func (l *lane) wait(ctx context.Context) (leave func(), err error) {
	select {
	case l.slots <- struct{}{}:
		return func() { <-l.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// costly runs the whole of a request whose filter has a full-text search
// in the lane: its counts, facets or page are all the search's work.
// Streams, which must not hold a slot while a client reads, admit their
// own parts instead (see streamFeatures).
func (s *Server) costly(next http.HandlerFunc) http.HandlerFunc {
	inLane := s.heavy(next)
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("q") == "" {
			next(w, r)
			return
		}
		inLane(w, r)
	}
}

// heavy runs the whole of a request in the lane whatever its filter: the
// review pages group and rank every photo the filter selects (a second or
// more over a large archive), search or not.
func (s *Server) heavy(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		leave, err := s.lane.admit(r.Context())
		if err != nil {
			s.error(w, r, err)
			return
		}
		defer leave()
		next(w, r)
	}
}
