package lane

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestAdmitAndWait: a full lane refuses past its queue (unavailable),
// Wait waits however many wait, and a leave frees the slot.
func TestAdmitAndWait(t *testing.T) {
	l := New(1, 1)
	leave, err := l.Admit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() { // waits in the queue
		leave2, err := l.Admit(context.Background())
		if err == nil {
			leave2()
		}
		got <- err
	}()
	for l.waiting.Load() == 0 { // the second request is queued
		runtime.Gosched()
	}
	if _, err := l.Admit(context.Background()); photo.ErrorCode(err) != photo.EUnavailable {
		t.Errorf("past the queue: %v, want unavailable", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := l.Wait(ctx); err == nil {
		t.Error("Wait took a slot that is held")
	}
	leave()
	if err := <-got; err != nil {
		t.Errorf("the queued request: %v", err)
	}
}
