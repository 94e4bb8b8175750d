// Package health answers whether the archive is healthy at once, however
// loaded the server is, from a probe run in the background.
package health

import (
	"context"
	"sync"
	"time"
)

// Probe keeps the archive's last health probe, so that /healthz answers
// at once however loaded the server is: a busy server is slow, not down.
// A probe runs at most one at a time, in the background; /healthz waits
// for it only briefly, then answers from the last probe that finished.
// Only a probe that fails (a damaged archive, a full disk) or that takes
// longer than healthDown makes /healthz say the server is down.
type Probe struct {
	mu      sync.Mutex
	err     error
	at      time.Time     // when the last probe finished; zero before the first
	running chan struct{} // closed when the probe in flight ends; nil when none
}

const (
	healthFresh = 2 * time.Second       // a probe younger than this is answered as it is
	healthWait  = 50 * time.Millisecond // how long /healthz waits for a new probe
	healthDown  = 10 * time.Second      // a probe slower than this fails
)

// Check returns the archive's health as probe finds it, from a probe no
// older than healthFresh when one finishes within healthWait, else from
// the last one (the first probe is always waited for).
func (h *Probe) Check(ctx context.Context, probe func(context.Context) error) error {
	h.mu.Lock()
	if !h.at.IsZero() && time.Since(h.at) < healthFresh {
		defer h.mu.Unlock()
		return h.err
	}
	done := h.running
	if done == nil {
		done = make(chan struct{})
		h.running = done
		go func() {
			pctx, cancel := context.WithTimeout(context.Background(), healthDown)
			err := probe(pctx)
			cancel()
			h.mu.Lock()
			h.err, h.at, h.running = err, time.Now(), nil
			h.mu.Unlock()
			close(done)
		}()
	}
	last, known := h.err, !h.at.IsZero()
	h.mu.Unlock()
	wait := time.NewTimer(healthWait)
	defer wait.Stop()
	select {
	case <-done:
	case <-wait.C:
		if known {
			return last
		}
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
	case <-ctx.Done():
		return ctx.Err()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}
