package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/secondlook"
)

// Two-person confirmation: the rules (who may answer, decide, confirm;
// what a blind look shows; what agreeing makes of a round) are package
// secondlook's; the store loads and saves rounds. The rounds live in
// second_looks (see migration 0029); every step is a custody record of
// the photo (action "second-look", or "adjudicate" for the third
// editor's decision, which may move the photo).

// The states of a round (secondlook's).
const (
	LookWaiting     = secondlook.Waiting
	LookAgreed      = secondlook.Agreed
	LookDisagreed   = secondlook.Disagreed
	LookAdjudicated = secondlook.Adjudicated
	LookSuperseded  = secondlook.Superseded
	LookRequested   = secondlook.Requested
)

// Third editors' choices (secondlook's).
const (
	ThirdFirst  = secondlook.ThirdFirst
	ThirdSecond = secondlook.ThirdSecond
	ThirdOther  = secondlook.ThirdOther
)

// openState is the condition of a round that waits for an editor
// (secondlook.Round.Open), the one spelling of it in the store's SQL.
const openState = "state IN ('" + LookWaiting + "', '" + LookDisagreed + "')"

// LookAnswer is one editor's answer in a round (secondlook.Answer).
type LookAnswer = secondlook.Answer

// LookRound is one round of a second look at a photo (secondlook.Round).
type LookRound = secondlook.Round

// SettingTwoPerson names the archive setting that makes every editor's
// placement wait for a second look.
const SettingTwoPerson = "two_person"

// TwoPerson reports whether the archive asks a second look of every
// placement.
func (s *DB) TwoPerson(ctx context.Context) (bool, error) {
	var v string
	err := s.read.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = ?`, SettingTwoPerson).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return v == "on", err
}

// SetTwoPerson turns two-person confirmation on or off, a custody record
// of the archive. Placements made before it was turned on stay as they
// are: a second look at them is asked photo by photo.
func (s *DB) SetTwoPerson(ctx context.Context, on bool, by string) error {
	value := "off"
	if on {
		value = "on"
	}
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := s.Now()
	if _, err := tx.ExecContext(ctx, `INSERT INTO settings (name, value, by, at) VALUES (?,?,?,?)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value, by = excluded.by, at = excluded.at`,
		SettingTwoPerson, value, by, now.UTC().Format(time.RFC3339)); err != nil {
		return fmt.Errorf("store: setting %s: %w", SettingTwoPerson, err)
	}
	c, err := openChain(ctx, tx)
	if err != nil {
		return err
	}
	if err := c.add(ctx, "", now, by, "setting", map[string]any{"name": SettingTwoPerson, "value": value}); err != nil {
		c.stmt.Close()
		return err
	}
	return s.commit(ctx, tx, c, false)
}

// openRoundOf reads photo id's round that waits for an editor (waiting or
// disagreed): its id, state and editors; the zero Round when none.
func openRoundOf(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id string) (LookRound, error) {
	r := LookRound{PhotoID: id}
	err := q.QueryRowContext(ctx, `SELECT id, state, first_by, second_by FROM second_looks WHERE photo = ? AND `+openState+`
		ORDER BY id DESC LIMIT 1`, id).Scan(&r.ID, &r.State, &r.First.By, &r.Second.By)
	if errors.Is(err, sql.ErrNoRows) {
		return LookRound{PhotoID: id}, nil
	}
	return r, err
}

// checkConfirm refuses a confirmation that would check nothing
// (secondlook.MayConfirm).
func checkConfirm(ctx context.Context, tx *sql.Tx, p *photo.Photo, author string) error {
	open, err := openRoundOf(ctx, tx, p.ID)
	if err != nil {
		return err
	}
	return secondlook.MayConfirm(open, p, author)
}

// afterPlacement follows a person's placement of photo p (now placed as
// after, by author): an earlier round is superseded and the photo is no
// longer verified; when the archive asks two-person confirmation, or a
// second look was asked of this photo, a round opens with this placement
// as its first answer.
func (s *DB) afterPlacement(ctx context.Context, tx *sql.Tx, custody *chain, p *photo.Photo, after photo.Place, decision, author, note string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE second_looks SET state = 'superseded' WHERE photo = ? AND `+openState, p.ID); err != nil {
		return err
	}
	var on string
	if err := tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = ?`, SettingTwoPerson).Scan(&on); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if !secondlook.Wanted(on == "on", p.SecondLook) {
		_, err := tx.ExecContext(ctx, `UPDATE photos SET verified = 0 WHERE id = ?`, p.ID)
		return err
	}
	return s.openRound(ctx, tx, custody, p.ID, secondlook.AutoPlace(p), LookAnswer{By: author, Decision: decision, PlaceID: after.ID, Lon: after.Lon, Lat: after.Lat,
		Located: after.Located, Note: note, At: now}, now)
}

// openRound opens a round with first as its first answer.
func (s *DB) openRound(ctx context.Context, tx *sql.Tx, custody *chain, id, auto string, first LookAnswer, now time.Time) error {
	stamp := now.UTC().Format(time.RFC3339)
	var round int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO second_looks (photo, state, opened_at, auto_place_id, first_by, first_decision, first_place_id,
		first_lon, first_lat, first_note, first_at) VALUES (?,'waiting',?,?,?,?,?,?,?,?,?) RETURNING id`, id, stamp, auto, first.By, first.Decision,
		first.PlaceID, nullPoint(first.Located, first.Lon), nullPoint(first.Located, first.Lat), first.Note, first.At.UTC().Format(time.RFC3339)).Scan(&round); err != nil {
		return fmt.Errorf("store: opening a second look at %s: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE photos SET second_look = 'waiting', verified = 0 WHERE id = ?`, id); err != nil {
		return err
	}
	// The record names the first editor, not their answer: that is in
	// the placement's own record.
	return custody.add(ctx, id, now, first.By, "second-look", map[string]any{"round": round, "step": "wanted", "first_by": first.By,
		"after": map[string]any{"verified": false}})
}

func nullPoint(located bool, v float64) sql.NullFloat64 {
	return sql.NullFloat64{Float64: v, Valid: located}
}

// RequestSecondLook asks a second look at photo id ("needs a second
// look"), a custody record by by. A photo a person has placed gets a round
// at once, with that placement as its first answer; one nobody has placed
// gets it with its first placement. A photo whose round is open, or that
// was asked already, is left as it is; reports whether anything changed.
func (s *DB) RequestSecondLook(ctx context.Context, id, by string) (bool, error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if err := checkPhotoVersion(ctx, tx, id); err != nil {
		return false, err
	}
	var p photo.Photo
	if _, err := photoIn(ctx, tx, id, &p); err != nil {
		return false, notFound(err, "photo "+id)
	}
	open, err := openRoundOf(ctx, tx, id)
	if err != nil || open.Open() || p.SecondLook == LookRequested {
		return false, err
	}
	now := s.Now()
	custody, err := openChain(ctx, tx)
	if err != nil {
		return false, err
	}
	defer custody.stmt.Close()
	if p.Review == photo.ReviewAutomatic || p.Review == "" {
		if _, err := tx.ExecContext(ctx, `UPDATE photos SET second_look = 'requested' WHERE id = ?`, id); err != nil {
			return false, err
		}
		if err := custody.add(ctx, id, now, by, "second-look", map[string]any{"step": "requested"}); err != nil {
			return false, err
		}
	} else {
		if err := s.openRound(ctx, tx, custody, id, secondlook.AutoPlace(&p), secondlook.FirstOf(&p), now); err != nil {
			return false, err
		}
	}
	return true, s.commit(ctx, tx, custody, true)
}

// resetLooks follows a placement taken back (undone, returned to the
// geocoder): its round is superseded and the photo is not verified; a
// photo that was asked a second look is asked again.
func resetLooks(ctx context.Context, tx *sql.Tx, id string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE second_looks SET state = 'superseded' WHERE photo = ? AND `+openState, id); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE photos SET verified = 0, second_look = CASE WHEN second_look = '' THEN '' ELSE 'requested' END WHERE id = ?`, id)
	return err
}

// roundColumns are a round's columns as scanRound reads them.
const roundColumns = `l.id, l.photo, l.state, l.opened_at, l.auto_place_id,
	l.first_by, l.first_decision, l.first_place_id, l.first_lon, l.first_lat, l.first_note, l.first_at,
	l.second_by, l.second_decision, l.second_place_id, l.second_lon, l.second_lat, l.second_note, l.second_at,
	l.same_place, l.nested, l.same_governorate, l.distance_km, l.size_km, l.within_size, l.agreed,
	l.third_by, l.third_choice, l.third_place_id, l.third_lon, l.third_lat, l.third_note, l.third_at, p.caption`

func scanRound(sc scanner) (LookRound, error) {
	var r LookRound
	var opened, firstAt, secondAt, thirdAt string
	var fLon, fLat, sLon, sLat, tLon, tLat, dist, size sql.NullFloat64
	var same, nested, gov, within, agreed sql.NullBool
	err := sc.Scan(&r.ID, &r.PhotoID, &r.State, &opened, &r.AutoPlaceID,
		&r.First.By, &r.First.Decision, &r.First.PlaceID, &fLon, &fLat, &r.First.Note, &firstAt,
		&r.Second.By, &r.Second.Decision, &r.Second.PlaceID, &sLon, &sLat, &r.Second.Note, &secondAt,
		&same, &nested, &gov, &dist, &size, &within, &agreed,
		&r.Third.By, &r.Third.Choice, &r.Third.PlaceID, &tLon, &tLat, &r.Third.Note, &thirdAt, &r.Caption)
	if err != nil {
		return r, err
	}
	r.OpenedAt, _ = time.Parse(time.RFC3339, opened)
	r.First.At, _ = time.Parse(time.RFC3339, firstAt)
	r.Second.At, _ = time.Parse(time.RFC3339, secondAt)
	r.Third.At, _ = time.Parse(time.RFC3339, thirdAt)
	r.First.Lon, r.First.Lat, r.First.Located = fLon.Float64, fLat.Float64, fLon.Valid
	r.Second.Lon, r.Second.Lat, r.Second.Located = sLon.Float64, sLat.Float64, sLon.Valid
	r.Third.Lon, r.Third.Lat, r.Third.Located = tLon.Float64, tLat.Float64, tLon.Valid
	r.Judgement = agreement.Judgement{SamePlace: same.Bool, Nested: nested.Bool, SameGovernorate: gov.Bool, DistanceKm: math.NaN(),
		SizeKm: size.Float64, WithinSize: within.Bool, Agreed: agreed.Bool}
	if dist.Valid {
		r.Judgement.DistanceKm = dist.Float64
	}
	return r, nil
}

// LookRound returns round id. It holds the first editor's answer: the
// HTTP layer shows a second editor none of it.
func (s *DB) LookRound(ctx context.Context, id int64) (LookRound, error) {
	r, err := scanRound(s.read.QueryRowContext(ctx, `SELECT `+roundColumns+` FROM second_looks l JOIN photos p ON p.id = l.photo WHERE l.id = ?`, id))
	return r, notFound(err, fmt.Sprintf("second look %d", id))
}

// LookRounds returns the rounds in state (waiting, disagreed, …), oldest
// first, up to limit; with state "" the rounds answered between from and
// to (RFC 3339 days or times, "" for open), the agreement page's window.
func (s *DB) LookRounds(ctx context.Context, state, from, to string, limit int) ([]LookRound, error) {
	q := `SELECT ` + roundColumns + ` FROM second_looks l JOIN photos p ON p.id = l.photo WHERE `
	var args []any
	if state != "" {
		q += `l.state = ? ORDER BY l.id`
		args = append(args, state)
	} else {
		q += `l.second_at != '' AND (? = '' OR l.second_at >= ?) AND (? = '' OR l.second_at < ?) ORDER BY l.second_at, l.id`
		args = append(args, from, from, to, to)
	}
	q += ` LIMIT ?`
	args = append(args, limit)
	var out []LookRound
	err := s.reading(ctx, "", "listing second looks", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanRound(rows)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

// AnswerLook records a second editor's blind answer to round id, judged
// against the first (j, by agreement.Judge): agreed, the photo is
// verified as the first editor placed it; not, the round waits for a third
// editor. The first editor's own answer is refused, as is an answer to a
// round that no longer waits (answered, or a later placement replaced
// it). A custody record of the photo holds the answer and the judgement.
func (s *DB) AnswerLook(ctx context.Context, id int64, a LookAnswer, j agreement.Judgement) (LookRound, error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return LookRound{}, err
	}
	defer tx.Rollback()
	r, err := scanRound(tx.QueryRowContext(ctx, `SELECT `+roundColumns+` FROM second_looks l JOIN photos p ON p.id = l.photo WHERE l.id = ?`, id))
	if err != nil {
		return r, notFound(err, fmt.Sprintf("second look %d", id))
	}
	if err := r.MayAnswer(a.By); err != nil {
		return r, err
	}
	now := s.Now()
	state, verified := secondlook.Outcome(j)
	var dist sql.NullFloat64
	if !math.IsNaN(j.DistanceKm) {
		dist = sql.NullFloat64{Float64: j.DistanceKm, Valid: true}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE second_looks SET state=?, second_by=?, second_decision=?, second_place_id=?, second_lon=?, second_lat=?,
		second_note=?, second_at=?, same_place=?, nested=?, same_governorate=?, distance_km=?, size_km=?, within_size=?, agreed=? WHERE id=?`,
		state, a.By, a.Decision, a.PlaceID, nullPoint(a.Located, a.Lon), nullPoint(a.Located, a.Lat), a.Note, now.UTC().Format(time.RFC3339),
		j.SamePlace, j.Nested, j.SameGovernorate, dist, j.SizeKm, j.WithinSize, j.Agreed, id); err != nil {
		return r, fmt.Errorf("store: recording the second look at %s: %w", r.PhotoID, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE photos SET second_look = ?, verified = ? WHERE id = ?`, state, verified, r.PhotoID); err != nil {
		return r, err
	}
	custody, err := openChain(ctx, tx)
	if err != nil {
		return r, err
	}
	defer custody.stmt.Close()
	if err := custody.add(ctx, r.PhotoID, now, a.By, "second-look", map[string]any{"round": id, "step": "answered",
		"answer": lookState(a), "judgement": judgementState(j), "after": map[string]any{"verified": verified}}); err != nil {
		return r, err
	}
	if err := s.commit(ctx, tx, custody, true); err != nil {
		return r, err
	}
	return s.LookRound(ctx, id)
}

// Adjudicate records a third editor's decision on a round whose two
// answers disagreed: the first's answer, the second's, or the third's own
// place (to, which the photo is moved to when it is not where it is
// shown). The photo is then verified. Either of the two editors is
// refused, as is a round that does not wait for a third.
func (s *DB) Adjudicate(ctx context.Context, id int64, a LookAnswer, to photo.Place) (LookRound, error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return LookRound{}, err
	}
	defer tx.Rollback()
	r, err := scanRound(tx.QueryRowContext(ctx, `SELECT `+roundColumns+` FROM second_looks l JOIN photos p ON p.id = l.photo WHERE l.id = ?`, id))
	if err != nil {
		return r, notFound(err, fmt.Sprintf("second look %d", id))
	}
	if err := r.MayDecide(a, to.Located); err != nil {
		return r, err
	}
	now := s.Now()
	stamp := now.UTC().Format(time.RFC3339)
	var p photo.Photo
	rowid, err := photoIn(ctx, tx, r.PhotoID, &p)
	if err != nil {
		return r, notFound(err, "photo "+r.PhotoID)
	}
	before := placeState(&p)
	if p.Place.ID != to.ID || p.Place.Lon != to.Lon || p.Place.Lat != to.Lat || !p.Place.Located {
		if err := s.correct(ctx, tx, rowid, &p, to, a.By, a.Note, stamp); err != nil {
			return r, err
		}
		p.Place, p.Review = to, photo.ReviewCorrected
	}
	after := placeState(&p)
	if _, err := tx.ExecContext(ctx, `INSERT INTO events (at, author, action, photo, before, after, note) VALUES (?,?,'correct',?,?,?,?)`,
		stamp, a.By, r.PhotoID, mustJSON(before), mustJSON(after), "adjudicated: "+a.Note); err != nil {
		return r, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE second_looks SET state='adjudicated', third_by=?, third_choice=?, third_place_id=?, third_lon=?, third_lat=?,
		third_note=?, third_at=? WHERE id=?`, a.By, a.Choice, to.ID, to.Lon, to.Lat, a.Note, stamp, id); err != nil {
		return r, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE photos SET second_look = 'adjudicated', verified = 1, updated = ? WHERE id = ?`, stamp, r.PhotoID); err != nil {
		return r, err
	}
	custody, err := openChain(ctx, tx)
	if err != nil {
		return r, err
	}
	defer custody.stmt.Close()
	after["verified"] = true
	if err := custody.add(ctx, r.PhotoID, now, a.By, "adjudicate", map[string]any{"round": id, "choice": a.Choice,
		"first_by": r.First.By, "second_by": r.Second.By, "before": before, "after": after, "note": a.Note}); err != nil {
		return r, err
	}
	if err := s.commit(ctx, tx, custody, true); err != nil {
		return r, err
	}
	return s.LookRound(ctx, id)
}

// LastLook returns the photo's latest round that verified it (agreed or
// adjudicated), for its page and its bag; ok is false when none did.
func (s *DB) LastLook(ctx context.Context, photoID string) (r LookRound, ok bool, err error) {
	r, err = scanRound(s.read.QueryRowContext(ctx, `SELECT `+roundColumns+` FROM second_looks l JOIN photos p ON p.id = l.photo
		WHERE l.photo = ? AND l.state IN ('agreed', 'adjudicated') ORDER BY l.id DESC LIMIT 1`, photoID))
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	return r, err == nil, err
}

func lookState(a LookAnswer) map[string]any {
	m := map[string]any{"decision": a.Decision, "place_id": a.PlaceID, "note": a.Note}
	if a.Located {
		m["lon"], m["lat"] = a.Lon, a.Lat
	}
	return m
}

func judgementState(j agreement.Judgement) map[string]any {
	m := map[string]any{"same_place": j.SamePlace, "nested": j.Nested, "same_governorate": j.SameGovernorate,
		"size_km": j.SizeKm, "within_size": j.WithinSize, "agreed": j.Agreed}
	if !math.IsNaN(j.DistanceKm) {
		m["distance_km"] = math.Round(j.DistanceKm*1000) / 1000
	}
	return m
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps of strings and numbers always marshal
	}
	return string(b)
}
