package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"

	"github.com/syriamap/syriamap/internal/store"
)

// maxAhead bounds the frames hashed ahead and not yet imported (a few
// hundred bytes each); past it a picture's frame waits for its import.
const maxAhead = 10000

// ahead is a picture's frame hashed ahead of its import (HashAhead).
type ahead struct {
	ctx  context.Context
	sum  string
	path string // where the file is (HashAhead again when it moved)
	// started is set once a reader has taken it (its decode runs);
	// claimed once its import came first and hashes it itself, or it
	// was forgotten.
	started, claimed bool
	done             chan struct{} // closed once frame is set (nil when unreadable)
	frame            *store.Frame
}

// HashAhead hashes the frame of the picture at path, whose SHA-256 is
// sum, in the background, in the order asked, within the pictures read
// at once (Workers, shared with every import) and the image budget, so
// that its import finds it hashed: an upload's pictures are hashed as
// they arrive, while the next ones are sent, rather than once their job
// runs. The frame is kept only when the bytes read are sum's; it is
// dropped when the file is gone first, and forgotten by Forget; HashAhead
// again with the same sum says where the file moved. Nothing is done
// when frames are hashed later (FramesLater) or maxAhead frames wait
// already. Safe for concurrent use; ctx stops the work.
func (a *Archive) HashAhead(ctx context.Context, sum, path string) {
	if a.FramesLater {
		return
	}
	a.aheadMu.Lock()
	defer a.aheadMu.Unlock()
	if a.ahead == nil {
		a.ahead = map[string]*ahead{}
	}
	if e := a.ahead[sum]; e != nil || len(a.ahead) >= maxAhead {
		if e != nil && !e.started {
			e.path = path
		}
		return
	}
	e := &ahead{ctx: ctx, sum: sum, path: path, done: make(chan struct{})}
	a.ahead[sum] = e
	a.aheadQueue = append(a.aheadQueue, e)
	// At most Workers readers: the others wait in the queue, not as
	// goroutines.
	if a.aheadReaders < max(1, a.Workers) {
		a.aheadReaders++
		go a.readAhead()
	}
}

// readAhead hashes the frames queued by HashAhead, one after another,
// until none waits.
func (a *Archive) readAhead() {
	for {
		a.aheadMu.Lock()
		if len(a.aheadQueue) == 0 {
			a.aheadReaders--
			a.aheadMu.Unlock()
			return
		}
		e := a.aheadQueue[0]
		a.aheadQueue[0] = nil
		a.aheadQueue = a.aheadQueue[1:]
		a.aheadMu.Unlock()
		a.hashAhead(e)
	}
}

// hashAhead hashes e's frame in a read place, unless its import took it
// first, and says it is done.
func (a *Archive) hashAhead(e *ahead) {
	defer close(e.done)
	a.aheadMu.Lock()
	claimed := e.claimed
	a.aheadMu.Unlock()
	if claimed {
		return
	}
	free, err := a.readSlot(e.ctx)
	if err != nil {
		return
	}
	defer free()
	a.aheadMu.Lock()
	claimed, path := e.claimed, e.path
	e.started = !claimed
	a.aheadMu.Unlock()
	if !claimed {
		e.frame = a.hashFile(e.ctx, e.sum, path)
	}
}

// hashFile reads the frame of the file at path, nil when it cannot or
// its bytes are not sum's.
func (a *Archive) hashFile(ctx context.Context, sum, path string) *store.Frame {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	h := sha256.New()
	r := io.TeeReader(f, h)
	fr, err := a.readFrame(ctx, r)
	if err != nil {
		return nil
	}
	if _, err := io.Copy(io.Discard, r); err != nil || hex.EncodeToString(h.Sum(nil)) != sum {
		return nil
	}
	return &fr
}

// frameAhead takes the frame hashed ahead for the bytes of sum: waiting
// for it when its decode runs; nil when none is (the import hashes it,
// and a reader yet to start leaves it).
func (a *Archive) frameAhead(sum string) *store.Frame {
	a.aheadMu.Lock()
	e := a.ahead[sum]
	delete(a.ahead, sum)
	claimed := e != nil && !e.started
	if claimed {
		e.claimed = true
	}
	a.aheadMu.Unlock()
	if e == nil || claimed {
		return nil
	}
	<-e.done
	return e.frame
}

// Forget drops what HashAhead kept for the bytes of sum, once they will
// not be imported (an upload removed unimported).
func (a *Archive) Forget(sum string) {
	a.aheadMu.Lock()
	defer a.aheadMu.Unlock()
	if e := a.ahead[sum]; e != nil && !e.started {
		e.claimed = true
	}
	delete(a.ahead, sum)
}
