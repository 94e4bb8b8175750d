// Package lane admits costly work a few at a time (see Lane).
package lane

import (
	"context"
	"runtime"
	"sync/atomic"

	"github.com/syriamap/syriamap/internal/photo"
)

// Lane admits costly work a few at a time, so that it cannot crowd out
// the cheap requests that most users make (a map window, a photo page, a
// health check): full-text searches, and the reading and encoding of
// downloads, which each keep a core busy for as long as they run. With
// as many at once as there are cores, a cheap request still finds the
// processor within a scheduler slice or two.
type Lane struct {
	slots   chan struct{}
	waiting atomic.Int32
	// queue is how many requests may wait for a slot before more are
	// refused as unavailable (503 with Retry-After).
	queue int32
}

// New returns a lane of slots, with queue more that may wait.
func New(slots, queue int) *Lane {
	return &Lane{slots: make(chan struct{}, slots), queue: int32(queue)}
}

// Default runs as many costly reads as there are cores, with four
// times as many waiting.
func Default() *Lane {
	n := max(1, runtime.GOMAXPROCS(0))
	return New(n, 4*n)
}

// Admit waits for a slot for a request's costly work, or refuses it at
// once when too many already wait. leave gives the slot back.
func (l *Lane) Admit(ctx context.Context) (leave func(), err error) {
	if l.waiting.Add(1) > l.queue {
		l.waiting.Add(-1)
		return nil, photo.Errorf(photo.EUnavailable, "the server is busy with searches and downloads; try again in a few seconds")
	}
	defer l.waiting.Add(-1)
	return l.Wait(ctx)
}

// Wait waits for a slot however many wait: for work that cannot be
// refused any more (the next chunk of a download whose status is sent).
func (l *Lane) Wait(ctx context.Context) (leave func(), err error) {
	select {
	case l.slots <- struct{}{}:
		return func() { <-l.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
