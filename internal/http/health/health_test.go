package health

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// /healthz under load: a probe stuck behind a busy machine does not make
// it wait or say the server is down; a failed probe does say so; the first
// probe is waited for; a fresh answer is reused without a probe.
func TestHealthAnswersAtOnceWhenBusy(t *testing.T) {
	var h Probe
	var probes atomic.Int32
	ok := func(context.Context) error { probes.Add(1); return nil }
	if err := h.Check(context.Background(), ok); err != nil {
		t.Fatal(err)
	}
	if h.Check(context.Background(), ok); probes.Load() != 1 {
		t.Errorf("a fresh answer probed again (%d probes)", probes.Load())
	}
	h.mu.Lock()
	h.at = time.Now().Add(-healthFresh) // stale: the next check probes
	h.mu.Unlock()
	release := make(chan struct{})
	slow := func(context.Context) error { <-release; return nil }
	start := time.Now()
	if err := h.Check(context.Background(), slow); err != nil {
		t.Errorf("a busy archive reported as down: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("/healthz waited %v for a slow probe", d)
	}
	close(release)
	probeEnded(&h) // the slow probe ends
	// A probe that fails is reported, once it finishes.
	h.mu.Lock()
	h.at = time.Now().Add(-healthFresh)
	h.mu.Unlock()
	damaged := func(context.Context) error { return errors.New("damaged") }
	err := h.Check(context.Background(), damaged)
	if err == nil { // the probe outlasted healthWait on a busy machine: its answer is the next
		probeEnded(&h)
		err = h.Check(context.Background(), damaged)
	}
	if err == nil {
		t.Error("a failed probe is never reported")
	}
}

// probeEnded waits until the probe in flight, if any, has ended and
// left its answer.
func probeEnded(h *Probe) {
	h.mu.Lock()
	done := h.running
	h.mu.Unlock()
	if done != nil {
		<-done
	}
}
