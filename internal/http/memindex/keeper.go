package memindex

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Keeper keeps the index of the archive's current version and builds the
// next one in the background when the archive changes.
type Keeper struct {
	src    Source
	encode func(key string) Encoder
	log    *slog.Logger

	cur      atomic.Pointer[Index]
	building atomic.Bool
	// mu guards built, closed and replaced each time an index is kept:
	// Wait's signal.
	mu    sync.Mutex
	built chan struct{}
}

// NewKeeper returns a keeper of src's index; encode gives the encoder of
// the Features for a key (the base URL of their links).
func NewKeeper(src Source, encode func(key string) Encoder, log *slog.Logger) *Keeper {
	return &Keeper{src: src, encode: encode, log: log, built: make(chan struct{})}
}

// At returns the index of the archive at version v (the one a response's
// ETag names) built for key, or nil when it is not built yet, starting a
// build if none runs.
func (k *Keeper) At(v int64, key string) *Index {
	if ix := k.cur.Load(); ix != nil && ix.version == v && ix.key == key {
		return ix
	}
	k.Start(key)
	return nil
}

// Wait returns the index of version v built for key, waiting for its
// build (and starting one) until ctx is done.
func (k *Keeper) Wait(ctx context.Context, v int64, key string) (*Index, error) {
	for {
		k.mu.Lock()
		built := k.built
		k.mu.Unlock()
		if ix := k.At(v, key); ix != nil {
			return ix, nil
		}
		select {
		case <-built:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
			// A build that found the archive changed under it, or
			// failed, sends no signal: look again.
		}
	}
}

// Start builds the index for key in the background unless a build runs.
func (k *Keeper) Start(key string) {
	if !k.building.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer k.building.Store(false)
		// An import during the build would leave the index between two
		// versions: it is then built again.
		for try := 0; try < 3; try++ {
			ctx := context.Background()
			v, err := k.src.Version(ctx)
			if err != nil {
				return
			}
			start := time.Now()
			ix, err := Build(ctx, k.src, v, key, k.encode(key))
			if err != nil {
				k.log.Warn("memory index not built; windows are read from SQLite", "err", err)
				return
			}
			if after, err := k.src.Version(ctx); err == nil && after == v {
				k.keep(ix)
				k.log.Debug("memory index built", "photos", ix.Len(), "bytes", ix.Bytes(), "took", time.Since(start))
				// The build's buffers are garbage now; hand their pages
				// back rather than keep them resident.
				freeOSMemory()
				return
			}
		}
	}()
}

// keep makes ix the current index and tells the waiters.
func (k *Keeper) keep(ix *Index) {
	k.cur.Store(ix)
	k.mu.Lock()
	close(k.built)
	k.built = make(chan struct{})
	k.mu.Unlock()
}
