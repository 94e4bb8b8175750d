package photo

import "context"

// Checkpoint is the custody chain's head as it was at a moment: its last
// record's sequence number and hash. Written to a file the team keeps
// away from the archive (each export and publish writes one, and
// `syriamap verify --checkpoint`), it lets verify prove later that the
// chain still holds that record and has only grown from it: whoever
// deletes the newest records and moves the head inside the database
// cannot change a copy kept elsewhere.
type Checkpoint struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
	At   string `json:"at"` // RFC 3339: when the record was written
}

// CustodyLink is one record of the chain as a bag carries it to prove that its
// photos' records lead to the head: its sequence number, the hash before
// it and its own.
type CustodyLink struct {
	Seq        int64
	Prev, Hash string
}

// Reuse is how a photo's frame stands: photo.ReuseCopy or
// photo.ReuseConflict, of the photo the frame is known from first.
type Reuse struct {
	Kind, Of string
	// Why says what disagrees (place, date, photographer), for the
	// custody record.
	Why []string
}

// ImportSummary counts what an import did.
type ImportSummary struct {
	Added     int // photos new to the archive
	Updated   int // photos whose fields or sources changed
	Unchanged int // photos already there as they are
	Unplaced  int // photos among the added and updated that have no point
	// Conflicts and Copies count the photos added whose frame the
	// archive already held, under a caption that disagrees or agrees.
	Conflicts, Copies int
}

// Add adds o's counts to s.
func (s *ImportSummary) Add(o ImportSummary) {
	s.Added += o.Added
	s.Updated += o.Updated
	s.Unchanged += o.Unchanged
	s.Unplaced += o.Unplaced
	s.Conflicts += o.Conflicts
	s.Copies += o.Copies
}

type actorKey struct{}

// WithActor names who the custody records of an import under ctx are by
// ("editor rana", for a file an editor uploaded), over the store's own
// actor.
func WithActor(ctx context.Context, actor string) context.Context {
	return context.WithValue(ctx, actorKey{}, actor)
}

// ActorOf is the actor WithActor put in ctx; "" when none.
func ActorOf(ctx context.Context) string {
	a, _ := ctx.Value(actorKey{}).(string)
	return a
}
