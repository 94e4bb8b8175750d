package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// TaskBeginCustody asks for a first custody record of each photo an
// archive held before it kept custody.
const TaskBeginCustody = "begin-custody"

// CustodyHash is a record's hash: SHA-256 over the hash before it and
// each field, each prefixed by its length, so that no two records hash
// alike by moving text from one field to the next. Anyone can recompute
// it from an export (the bag's custody files say how).
func CustodyHash(prev string, seq int64, photoID, at, actor, action, detail string) string {
	h := sha256.New()
	var n [8]byte
	for _, f := range []string{prev, fmt.Sprint(seq), photoID, at, actor, action, detail} {
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// chain appends records to the custody chain inside a write transaction.
type chain struct {
	tx   *sql.Tx
	stmt *sql.Stmt
	seq  int64
	prev string
	// photos are the photos the records are of ("" for the archive);
	// public says the change shows to readers whatever they are (a
	// photo withheld or shown again).
	photos map[string]bool
	public bool
}

func openChain(ctx context.Context, tx *sql.Tx) (*chain, error) {
	c := &chain{tx: tx, photos: map[string]bool{}}
	err := tx.QueryRowContext(ctx, `SELECT seq, hash FROM custody ORDER BY seq DESC LIMIT 1`).Scan(&c.seq, &c.prev)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: reading the custody chain: %w", err)
	}
	if c.stmt, err = tx.PrepareContext(ctx, `INSERT INTO custody (seq, photo_id, at, actor, action, detail, prev, hash) VALUES (?,?,?,?,?,?,?,?)`); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return c, nil
}

// add appends one record; detail is marshalled as JSON.
func (c *chain) add(ctx context.Context, photoID string, at time.Time, actor, action string, detail any) error {
	d, err := json.Marshal(detail)
	if err != nil {
		return err
	}
	seq, stamp := c.seq+1, at.UTC().Format(time.RFC3339Nano)
	hash := CustodyHash(c.prev, seq, photoID, stamp, actor, action, string(d))
	if _, err := c.stmt.ExecContext(ctx, seq, photoID, stamp, actor, action, string(d), c.prev, hash); err != nil {
		return fmt.Errorf("store: recording custody of %q: %w", photoID, err)
	}
	c.seq, c.prev = seq, hash
	c.photos[photoID] = true
	return nil
}

// hidden reports whether every record the chain took is of a photo
// withheld from the public (as the transaction leaves it), and the
// change is not one readers see.
func (c *chain) hidden(ctx context.Context) (bool, error) {
	if c.public || len(c.photos) == 0 || c.photos[""] {
		return false, nil
	}
	ids := slices.Collect(maps.Keys(c.photos))
	list, _ := json.Marshal(ids)
	var shown int
	err := c.tx.QueryRowContext(ctx, `SELECT count(*) FROM photos WHERE id IN (SELECT value FROM json_each(?)) AND NOT `+withheld, string(list)).Scan(&shown)
	return shown == 0, err
}

// close writes the chain's head and frees the statement.
func (c *chain) close(ctx context.Context) error {
	defer c.stmt.Close()
	if c.seq == 0 {
		return nil
	}
	_, err := c.tx.ExecContext(ctx, `INSERT INTO custody_head (id, seq, hash) VALUES (1, ?, ?)
		ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash`, c.seq, c.prev)
	return err
}

// commit ends a write transaction whose custody records c holds: the
// chain's head written, the archive's version raised when changed (its
// caches then start over) and its count of changes in any case, and the
// transaction committed.
func (s *DB) commit(ctx context.Context, tx *sql.Tx, c *chain, changed bool) error {
	ch := changedAnswers // a custody record is on the photo's page
	if changed {
		ch = changedPhotos
	}
	if hidden, err := c.hidden(ctx); err != nil {
		return err
	} else if hidden {
		ch = changedHidden
	}
	if err := c.close(ctx); err != nil {
		return err
	}
	if err := s.end(ctx, tx, ch); err != nil {
		return s.writeErr(err)
	}
	return nil
}

// recordsOnly are the custody actions AddCustody writes: records of what
// was done with photos (exported, checked, custody begun) that change
// none of them, and so are never "the last change" a refused write names.
var recordsOnly = []string{"export", "fixity", "custody-begun"}

// AddCustody appends records for the archive or its photos in one
// transaction (a publication, a fixity check, an export).
func (s *DB) AddCustody(ctx context.Context, actor, action string, entries map[string]any) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	c, err := openChain(ctx, tx)
	if err != nil {
		return err
	}
	now := s.Now()
	for _, id := range sortedKeys(entries) {
		if err := c.add(ctx, id, now, actor, action, entries[id]); err != nil {
			c.stmt.Close()
			return err
		}
	}
	return s.commit(ctx, tx, c, false)
}

// CustodyOf lists a photo's custody records, oldest first. While a
// placement of the photo waits for its second look, the records its
// first editor made from their answer on are theirs alone
// (photo.Viewer.SeesAnswer), as History's events are.
func (s *DB) CustodyOf(ctx context.Context, photoID string) ([]photo.Custody, error) {
	until, firstBy, err := s.blindFrom(ctx, photoID)
	if err != nil {
		return nil, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT seq, photo_id, at, actor, action, detail, prev, hash FROM custody WHERE photo_id = ? ORDER BY seq`, photoID)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []photo.Custody
	for rows.Next() {
		var c photo.Custody
		var d string
		if err := rows.Scan(&c.Seq, &c.PhotoID, &c.At, &c.Actor, &c.Action, &d, &c.Prev, &c.Hash); err != nil {
			return nil, err
		}
		if at, err := time.Parse(time.RFC3339Nano, c.At); !until.IsZero() && (err != nil || !at.Before(until)) && strings.EqualFold(c.Actor, firstBy) {
			continue // the answer's, or its editor's since
		}
		c.Detail = json.RawMessage(d)
		out = append(out, c)
	}
	return out, rows.Err()
}

// blindFrom is when the first answer of photo id's open round was given,
// and by whom, if ctx's viewer may not see it (photo.Viewer.SeesAnswer);
// a zero time if there is none, or the viewer may.
func (s *DB) blindFrom(ctx context.Context, id string) (time.Time, string, error) {
	v := photo.ViewerOf(ctx)
	if v.Archive {
		return time.Time{}, "", nil
	}
	var firstBy, firstAt string
	err := s.read.QueryRowContext(ctx, `SELECT first_by, first_at FROM second_looks WHERE photo = ? AND state IN (?, ?) ORDER BY id DESC LIMIT 1`,
		id, photo.LookWaiting, photo.LookDisagreed).Scan(&firstBy, &firstAt)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return time.Time{}, "", nil
	case err != nil:
		return time.Time{}, "", fmt.Errorf("store: %w", err)
	case v.SeesAnswer(firstBy):
		return time.Time{}, "", nil
	}
	at, err := time.Parse(time.RFC3339, firstAt)
	if err != nil {
		return time.Time{}, "", fmt.Errorf("store: the second look at %s: its first answer's time %q: %w", id, firstAt, err)
	}
	return at, firstBy, nil
}

// ChainProblem is a place where the custody chain does not hold.
type ChainProblem struct {
	Seq     int64
	PhotoID string
	What    string
}

// VerifyCustody walks the whole chain in order and recomputes every
// hash: a record changed by hand no longer hashes to its Hash, a deleted
// one leaves a gap in seq and a Prev that names no record, and the head
// names the last record. progress, when not nil, is told how far it is.
func (s *DB) VerifyCustody(ctx context.Context, progress func(done, total int64)) (checked int64, problems []ChainProblem, err error) {
	var total int64
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM custody`).Scan(&total); err != nil {
		return 0, nil, fmt.Errorf("store: %w", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT seq, photo_id, at, actor, action, detail, prev, hash FROM custody ORDER BY seq`)
	if err != nil {
		return 0, nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var lastSeq int64
	lastHash := ""
	for rows.Next() {
		var c photo.Custody
		var d string
		if err := rows.Scan(&c.Seq, &c.PhotoID, &c.At, &c.Actor, &c.Action, &d, &c.Prev, &c.Hash); err != nil {
			return checked, problems, err
		}
		if c.Seq != lastSeq+1 {
			problems = append(problems, ChainProblem{c.Seq, c.PhotoID, fmt.Sprintf("records %d to %d are missing", lastSeq+1, c.Seq-1)})
		}
		if c.Prev != lastHash {
			problems = append(problems, ChainProblem{c.Seq, c.PhotoID, "it does not follow the record before it (its prev is not that record's hash)"})
		}
		if got := CustodyHash(c.Prev, c.Seq, c.PhotoID, c.At, c.Actor, c.Action, d); got != c.Hash {
			problems = append(problems, ChainProblem{c.Seq, c.PhotoID, "it was changed after it was written (its fields no longer hash to its hash)"})
		}
		lastSeq, lastHash = c.Seq, c.Hash
		checked++
		if progress != nil && checked%4096 == 0 {
			progress(checked, total)
		}
	}
	if err := rows.Err(); err != nil {
		return checked, problems, err
	}
	var seqV, hashV any
	err = s.read.QueryRowContext(ctx, `SELECT seq, hash FROM custody_head WHERE id = 1`).Scan(&seqV, &hashV)
	var r rowReader // the head as stored, whatever it is
	headSeq, headHash := r.integer("seq", seqV).Int64, r.text("hash", hashV)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if checked > 0 {
			problems = append(problems, ChainProblem{lastSeq, "", "the chain's head is missing"})
		}
	case err != nil:
		return checked, problems, fmt.Errorf("store: %w", err)
	case len(r.problems) > 0:
		problems = append(problems, ChainProblem{lastSeq, "", "the chain's head is malformed (" + strings.Join(r.problems, "; ") + ")"})
	case headSeq != lastSeq || headHash != lastHash:
		problems = append(problems, ChainProblem{headSeq, "", fmt.Sprintf("the chain ends at record %d, but its head names record %d: records were deleted from its end", lastSeq, headSeq)})
	}
	if progress != nil {
		progress(checked, total)
	}
	return checked, problems, nil
}

func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}

func (s *DB) actor(ctx context.Context) string {
	if a := photo.ActorOf(ctx); a != "" {
		return a
	}
	if s.Actor == "" {
		return "syriamap"
	}
	return s.Actor
}

// WithActor names who the custody records of an import under ctx are by
// ("editor rana", for a file an editor uploaded), over DB.Actor.
func WithActor(ctx context.Context, actor string) context.Context {
	return photo.WithActor(ctx, actor)
}

// FileRef is an image file the archive holds: its photo, SHA-256 and size.
type FileRef struct {
	PhotoID, SHA256 string
	Size            int64
	// Problem says what is wrong with the file's row as stored (a size
	// that is not a number), "" when nothing is.
	Problem string
}

// Files lists every image file of the archive's photos, in import order.
func (s *DB) Files(ctx context.Context) ([]FileRef, error) {
	return s.fileRefs(ctx, "listing the image files", `SELECT p.id, f.sha256, f.size FROM files f JOIN photos p ON p.rowid = f.photo ORDER BY f.photo, f.path COLLATE BINARY`)
}

// fileRefs reads rows of photo id, SHA-256 and size.
func (s *DB) fileRefs(ctx context.Context, what, query string) ([]FileRef, error) {
	rows, err := s.read.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	var out []FileRef
	for rows.Next() {
		var f FileRef
		var id, sum, size any
		if err := rows.Scan(&id, &sum, &size); err != nil {
			return nil, err
		}
		// Read as stored, whatever it is: a malformed row is its photo's
		// problem, not an error that stops the reading of the others.
		var r rowReader
		f.PhotoID, f.SHA256, f.Size = r.text("photo", id), r.text("sha256", sum), r.integer("size", size).Int64
		if len(r.problems) > 0 {
			f.Problem = "its file's " + strings.TrimPrefix(strings.Join(r.problems, "; "), "its ")
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// PhotosWithoutCustody lists the photos no custody record names (those
// imported before the archive kept custody), with their sources.
func (s *DB) PhotosWithoutCustody(ctx context.Context) ([]string, error) {
	return s.column(ctx, "", "listing photos without custody", `SELECT id FROM photos WHERE id NOT IN (SELECT photo_id FROM custody) ORDER BY rowid`)
}

// FramesMissing lists the image files (by SHA-256, one each) that have no
// perceptual hash yet, or no PDQ hash (hashed before PDQ was).
func (s *DB) FramesMissing(ctx context.Context) ([]FileRef, error) {
	return s.fileRefs(ctx, "listing the images without a frame hash", `SELECT min(p.id), f.sha256, min(f.size) FROM files f JOIN photos p ON p.rowid = f.photo
		WHERE f.sha256 NOT IN (SELECT sha256 FROM frames WHERE pdq IS NOT NULL) GROUP BY f.sha256 ORDER BY min(f.photo)`)
}

// Frame is an image's perceptual hash and its mirrored picture's, and its
// PDQ hash (64 hex digits, as ThreatExchange writes it) and quality
// (0–100); PDQ is "" (and PDQQuality 0) for a frame hashed before PDQ was.
type Frame struct {
	Hash, Mirrored uint64
	PDQ            string
	PDQQuality     int
}

// insertFrame stores image sum's frame in tx, replacing the one it had.
func insertFrame(ctx context.Context, tx *sql.Tx, sum string, f Frame) error {
	var pdq sql.NullString
	var quality sql.NullInt64
	if f.PDQ != "" {
		pdq, quality = sql.NullString{String: f.PDQ, Valid: true}, sql.NullInt64{Int64: int64(f.PDQQuality), Valid: true}
	}
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO frames (sha256, hash, mirrored, pdq, pdq_quality) VALUES (?, ?, ?, ?, ?)`,
		sum, int64(f.Hash), int64(f.Mirrored), pdq, quality)
	return err
}

// AddFrames stores perceptual hashes by image SHA-256.
func (s *DB) AddFrames(ctx context.Context, frames map[string]Frame) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for sum, f := range frames {
		if err := insertFrame(ctx, tx, sum, f); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return s.writeErr(err)
	}
	return nil
}

// PhotoFrame is a photo's image's frame hash.
type PhotoFrame struct {
	PhotoID string
	Frame
}

// PhotoFrames lists each photo's images' frame hashes, of the photos
// ctx's viewer may see: for the public, a withheld photo's frame names no
// other photo's, so that its caption is never said on a public page.
func (s *DB) PhotoFrames(ctx context.Context) ([]PhotoFrame, error) {
	shown := visible(ctx)
	if shown != "TRUE" {
		shown = "p." + shown
	}
	rows, err := s.read.QueryContext(ctx, `SELECT p.id, fr.hash, fr.mirrored, fr.pdq, fr.pdq_quality FROM files f JOIN photos p ON p.rowid = f.photo
		JOIN frames fr ON fr.sha256 = f.sha256 WHERE `+shown+` ORDER BY f.photo`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []PhotoFrame
	for rows.Next() {
		var pf PhotoFrame
		var h, m int64
		var pdq sql.NullString
		var quality sql.NullInt64
		if err := rows.Scan(&pf.PhotoID, &h, &m, &pdq, &quality); err != nil {
			return nil, err
		}
		pf.Hash, pf.Mirrored, pf.PDQ, pf.PDQQuality = uint64(h), uint64(m), pdq.String, int(quality.Int64)
		out = append(out, pf)
	}
	return out, rows.Err()
}

// SetReuse records photos' reuse (a photo absent from reuses has none),
// and each change as a custody record by actor, in one transaction.
func (s *DB) SetReuse(ctx context.Context, actor string, reuses map[string]Reuse) (changed int, err error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	custody, err := openChain(ctx, tx)
	if err != nil {
		return 0, err
	}
	defer custody.stmt.Close()
	rows, err := tx.QueryContext(ctx, `SELECT id, reuse, reuse_of FROM photos WHERE reuse != ''`)
	if err != nil {
		return 0, err
	}
	had := map[string]Reuse{}
	for rows.Next() {
		var id string
		var r Reuse
		if err := rows.Scan(&id, &r.Kind, &r.Of); err != nil {
			rows.Close()
			return 0, err
		}
		had[id] = r
	}
	rows.Close()
	now := s.Now()
	set := func(id string, r Reuse) error {
		if _, err := tx.ExecContext(ctx, `UPDATE photos SET reuse = ?, reuse_of = ? WHERE id = ?`, r.Kind, r.Of, id); err != nil {
			return err
		}
		changed++
		return custody.add(ctx, id, now, actor, "reuse", map[string]any{"reuse": r.Kind, "of": r.Of, "disagrees": r.Why})
	}
	for _, id := range slices.Sorted(maps.Keys(reuses)) {
		if r, old := reuses[id], had[id]; r.Kind != old.Kind || r.Of != old.Of {
			if err := set(id, r); err != nil {
				return 0, err
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(had)) {
		if _, ok := reuses[id]; !ok {
			if err := set(id, Reuse{}); err != nil {
				return 0, err
			}
		}
	}
	if err := s.commit(ctx, tx, custody, changed > 0); err != nil {
		return 0, err
	}
	return changed, nil
}
