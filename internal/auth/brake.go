package auth

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Brake slows down guessing passwords. Each failed sign-in makes its
// client wait before it may try again, and the editor name too, twice as
// long after each failure (1 s, 2 s, 4 s … up to 15 minutes). The name's
// wait holds only for clients that have failed themselves: editor names
// are public (the history shows them), and a brake that any client could
// pull on a name would let anyone lock an editor out.
//
// A client is an address (an IPv6 one by its /64, which one subscriber
// holds whole: see ClientKey), so fresh addresses would each get a guess.
// Each name therefore has a budget of checked guesses from unknown
// browsers: NameGuesses in NameWindow. Past it, the name's password is
// checked only for a browser that has signed in as it before (a device
// cookie: OWASP's "device cookies" scheme), each such browser braked on
// its own failures. The editor at their usual browser is never locked out,
// however many addresses guess; a guesser gets NameGuesses an hour. At a
// new browser, the editor signs in with a one-time code the server's
// operator gives them (syriamap users code), which stands for a known
// browser once: a guesser can spend the budget hour after hour, and still
// never keep the editor out.
//
// An attempt is recorded as failed when it begins, before its password is
// checked, so that a hundred simultaneous guesses from one client are one
// guess and ninety-nine waits; a success takes its record back.
//
// The brake keeps its records in its Ledger — the archive, so that every
// server on one archive brakes with one budget (a guesser gains nothing
// from a load balancer that spreads their guesses) — or, with none, in
// its own memory. A Brake is safe for concurrent use; set its fields
// before it brakes.
type Brake struct {
	Ledger Ledger
	Now    func() time.Time

	mu  sync.Mutex
	mem Records // without a Ledger
}

// The budget of checked guesses at one name from browsers it has not
// signed in from.
const (
	NameGuesses = 10
	NameWindow  = time.Hour
)

// maxWait bounds how long a key waits.
const maxWait = 15 * time.Minute

// Strike is a key's failed sign-ins, and when its wait ends.
type Strike struct {
	Failures int
	Until    time.Time
}

// Records are what a Brake keeps: Strikes by key ("addr:" and a
// ClientKey, "device:" or "code:" and a hash, "name:" and an editor name
// in lower case), and by name the times of the checked guesses from
// unknown browsers, oldest first.
type Records struct {
	Strikes map[string]Strike
	Guesses map[string][]time.Time
}

// LedgerUpdate names the records an UpdateBrake reads and keeps, and the
// ones it forgets.
type LedgerUpdate struct {
	// Keys are the strikes and Names the guesses read into the Records
	// and kept as the change leaves them: a key or name it deletes is
	// forgotten.
	Keys, Names []string
	// Every other strike whose wait ended before StrikesBefore is
	// forgotten, and every guess made at or before GuessesUpTo.
	StrikesBefore, GuessesUpTo time.Time
}

// Ledger keeps a Brake's records where every server braking the same
// names reads them.
type Ledger interface {
	// UpdateBrake reads the records u names into fresh Records, runs
	// change on them and keeps what it leaves, in one transaction that no
	// other UpdateBrake interleaves with (on any server).
	UpdateBrake(ctx context.Context, u LedgerUpdate, change func(*Records)) error
	// ReadBrake reads the strikes of keys, changing nothing: a client
	// told to wait costs a read, not a write.
	ReadBrake(ctx context.Context, keys []string) (Records, error)
}

// Attempt is one sign-in let through the brake, already counted as a
// failure; Succeed or Cancel changes that.
type Attempt struct {
	b                  *Brake
	name, addr         string
	prevName, prevAddr *Strike
	// guessOf is the name whose budget the attempt used ("" for a known
	// browser), at guessAt.
	guessOf string
	guessAt time.Time
}

// Refusal is why a sign-in was not let through: Wait says for how long;
// KnownBrowserOnly, that the name's budget for unknown browsers is spent.
type Refusal struct {
	Wait             time.Duration
	KnownBrowserOnly bool
}

func (r *Refusal) Error() string {
	if r.KnownBrowserOnly {
		return fmt.Sprintf("too many wrong passwords for this name from unknown browsers: sign in from a browser that has signed in as it before, or with a one-time code (syriamap users code NAME), or wait %s", r.Wait.Round(time.Second))
	}
	return fmt.Sprintf("too many wrong passwords: try again in %s", r.Wait.Round(time.Second))
}

// Try begins a sign-in for name from client (ClientKey's key); device is
// the key of a browser that has signed in as name before, which then
// stands for the client, or "". It returns the attempt, recorded as a
// failure, or a *Refusal, or the Ledger's error.
func (b *Brake) Try(ctx context.Context, name, client, device string) (*Attempt, error) {
	now := b.now()
	key := "addr:" + client
	if device != "" {
		key = "device:" + device
	}
	at := &Attempt{b: b, name: "name:" + name, addr: key}
	// A client that must wait is told so from a read; the update reads
	// again, in its transaction.
	if wait, err := b.wait(ctx, now, at.addr, at.name); err != nil || wait > 0 {
		if err == nil {
			err = &Refusal{Wait: wait}
		}
		return nil, err
	}
	var refusal *Refusal
	err := b.update(ctx, now, []string{at.addr, at.name}, []string{name}, func(r *Records) {
		refusal = at.begin(r, now, name, device == "")
	})
	switch {
	case err != nil:
		return nil, err
	case refusal != nil:
		return nil, refusal
	}
	return at, nil
}

// begin is Try on the records: the attempt recorded as a failure, or a
// refusal.
func (at *Attempt) begin(r *Records, now time.Time, name string, unknownBrowser bool) *Refusal {
	if wait := waitIn(r, now, at.addr, at.name); wait > 0 {
		return &Refusal{Wait: wait}
	}
	at.prevName, at.prevAddr = strikeOf(r, at.name), strikeOf(r, at.addr)
	forget(r, now)
	if unknownBrowser {
		recent := r.Guesses[name]
		if len(recent) >= NameGuesses {
			return &Refusal{Wait: recent[0].Add(NameWindow).Sub(now), KnownBrowserOnly: true}
		}
		r.Guesses[name] = append(recent, now)
		at.guessOf, at.guessAt = name, now
	}
	fail(r, now, at.name)
	fail(r, now, at.addr)
	return nil
}

// Succeed clears the name's failures and takes back the attempt's on the
// client and the name's budget (its earlier ones stay).
func (a *Attempt) Succeed(ctx context.Context) error {
	return a.b.update(ctx, a.b.now(), []string{a.name, a.addr}, a.names(), func(r *Records) {
		delete(r.Strikes, a.name)
		restore(r, a.addr, a.prevAddr)
		a.giveBack(r)
	})
}

// Cancel takes the attempt back whole: its password was never checked.
func (a *Attempt) Cancel(ctx context.Context) error {
	return a.b.update(ctx, a.b.now(), []string{a.name, a.addr}, a.names(), func(r *Records) {
		restore(r, a.name, a.prevName)
		restore(r, a.addr, a.prevAddr)
		a.giveBack(r)
	})
}

// names are the names whose guesses the attempt took from.
func (a *Attempt) names() []string {
	if a.guessOf == "" {
		return nil
	}
	return []string{a.guessOf}
}

// giveBack returns the attempt's guess to its name's budget.
func (a *Attempt) giveBack(r *Records) {
	if a.guessOf == "" {
		return
	}
	g := r.Guesses[a.guessOf]
	if i := slices.IndexFunc(g, a.guessAt.Equal); i >= 0 {
		r.Guesses[a.guessOf] = slices.Delete(g, i, i+1)
	}
}

// Wait returns how long a sign-in for name from client must still wait, or
// 0 (see Brake; a spent budget for unknown browsers is not counted).
func (b *Brake) Wait(ctx context.Context, name, client string) (time.Duration, error) {
	return b.wait(ctx, b.now(), "addr:"+client, "name:"+name)
}

// wait is how long the client of key addr must wait at now before it
// tries the name of key name again, from a read of their strikes.
func (b *Brake) wait(ctx context.Context, now time.Time, addr, name string) (time.Duration, error) {
	if b.Ledger != nil {
		r, err := b.Ledger.ReadBrake(ctx, []string{addr, name})
		if err != nil {
			return 0, err
		}
		return waitIn(&r, now, addr, name), nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return waitIn(&b.mem, now, addr, name), nil
}

// waitIn is how long the client of key addr must wait at now before it
// tries the name of key name again: its own wait, and the name's once it
// has failed itself (see Brake); 0 when none.
func waitIn(r *Records, now time.Time, addr, name string) time.Duration {
	a, failed := r.Strikes[addr]
	if !failed {
		return 0
	}
	wait := a.Until.Sub(now)
	if n, ok := r.Strikes[name]; ok {
		wait = max(wait, n.Until.Sub(now)) // this client has failed: the name's brake holds
	}
	return max(wait, 0)
}

// update runs change on the records of keys and names, in the Ledger or
// the brake's memory.
func (b *Brake) update(ctx context.Context, now time.Time, keys, names []string, change func(*Records)) error {
	if b.Ledger != nil {
		return b.Ledger.UpdateBrake(ctx, LedgerUpdate{Keys: keys, Names: names,
			StrikesBefore: now.Add(-maxWait), GuessesUpTo: now.Add(-NameWindow)}, change)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mem.Strikes == nil {
		b.mem = Records{Strikes: map[string]Strike{}, Guesses: map[string][]time.Time{}}
	}
	change(&b.mem)
	return nil
}

func fail(r *Records, now time.Time, k string) {
	s := r.Strikes[k]
	s.Failures++
	wait := time.Second << min(s.Failures-1, 10)
	s.Until = now.Add(min(wait, maxWait))
	r.Strikes[k] = s
}

// forget drops the keys that have waited long enough to start over, and
// the guesses older than the window (of the records read: a Ledger
// forgets the others).
func forget(r *Records, now time.Time) {
	for k, s := range r.Strikes {
		if now.Sub(s.Until) > maxWait {
			delete(r.Strikes, k)
		}
	}
	for name, g := range r.Guesses {
		i := 0
		for i < len(g) && now.Sub(g[i]) >= NameWindow {
			i++
		}
		if i == len(g) {
			delete(r.Guesses, name)
		} else if i > 0 {
			r.Guesses[name] = slices.Clone(g[i:])
		}
	}
}

func restore(r *Records, k string, prev *Strike) {
	if prev == nil {
		delete(r.Strikes, k)
		return
	}
	r.Strikes[k] = *prev
}

// strikeOf returns a copy of k's strike, or nil.
func strikeOf(r *Records, k string) *Strike {
	s, ok := r.Strikes[k]
	if !ok {
		return nil
	}
	return &s
}

func (b *Brake) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}
