package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// Record is one photo read from a file, at a line, ready to store: the
// caller has parsed and geocoded it (Photo.Geocoded set; Photo.Place is
// ignored, as the store decides it from any correction).
type Record struct {
	Photo *photo.Photo
	Line  int
	// Ref and Label are the id and source the file gave the photo.
	Ref, Label string
	// Source names the record's own file when it is not the import's
	// (each image of a folder is a file of its own).
	Source string
	// Frame is the perceptual hash of its image, hashed as it arrived
	// (nil when it was not); Reuses are the changes of reuse its frame
	// brings, judged against the frames the archive knew (its own, and
	// the photo the frame is known from first's), each written with its
	// custody record in the import's transaction.
	Frame  *Frame
	Reuses map[string]Reuse
	// Arrived is how the photo arrived, for the import's summary: as a
	// frame the archive holds under a caption that agrees (a copy) or
	// disagrees (a conflict); "" for neither. A photo dated before the
	// one its frame was known from becomes the frame's first, whose own
	// reuse names the next copy, yet it arrived disagreeing when the
	// photos held become its conflicts.
	Arrived string
}

// importDetail is what an import's custody record says of a photo: the
// file (and line) it came from, the image file's size and SHA-256, the
// caption's SHA-256, the date as stored, and where the geocoder put it.
// verify checks the photo's row against the caption's hash and the date.
func importDetail(src string, r Record, kept written, date photo.Date, paths bool) map[string]any {
	p := r.Photo
	name := func(path string) string {
		if paths {
			return path
		}
		return filepath.Base(filepath.FromSlash(path))
	}
	// The placement and credit as the row keeps them (a reimport merges
	// what other files gave; a person's fix of the credit stands), for
	// verify to check the row against.
	d := map[string]any{"source": name(src), "caption_sha256": sha256Hex(p.Caption), "date": date.String(),
		"placement": geocoderState(kept.photo.Geocoded, kept.geoDigest), "photographer": kept.photo.Photographer, "agency": kept.photo.Agency}
	if r.Line > 0 {
		d["line"] = r.Line
	}
	if p.File != nil {
		d["file"] = map[string]any{"path": name(p.File.Path), "size": p.File.Size, "sha256": p.File.SHA256}
	}
	return d
}

// geocoderState is the geocoder's placement as a custody record keeps
// it: its place, point (null for none) and digest, the digest of the
// whole answer (geocodedJSON's, the row's geo_digest).
func geocoderState(g photo.Place, digest string) map[string]any {
	m := map[string]any{"place_id": g.ID, "name": g.Name, "precision": g.Precision, "confidence": g.Confidence,
		"lon": nil, "lat": nil, "geo_digest": digest}
	if g.Located {
		m["lon"], m["lat"] = g.Lon, g.Lat
	}
	return m
}

// storedDate reads a photo's date as its row holds it.
func storedDate(ctx context.Context, tx *sql.Tx, id string) (photo.Date, error) {
	var from, to sql.NullInt64
	var prec sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT date_from, date_to, date_precision FROM photos WHERE id = ?`, id).Scan(&from, &to, &prec); err != nil {
		return photo.Date{}, fmt.Errorf("store: reading the date of %s: %w", id, err)
	}
	if !prec.Valid {
		return photo.Date{}, nil
	}
	return photo.DateFromSpan(int(from.Int64), int(to.Int64), prec.String), nil
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// ImportFile writes the records read from one file in one transaction: the
// whole file or, on any error (from recs too), nothing. Records are written
// as recs yields them, so a file need not fit in memory. A record whose
// photo is already in the archive with the same fields and this source is
// unchanged; a correction always keeps its place. progress, if not nil, is
// called now and then with the number of records written.
func (s *DB) ImportFile(ctx context.Context, file string, recs iter.Seq2[Record, error], progress func(done int)) (Summary, error) {
	var sum Summary
	w, err := s.writer()
	if err != nil {
		return sum, err
	}
	conn, err := w.Conn(ctx)
	if err != nil {
		return sum, fmt.Errorf("store: %w", err)
	}
	defer conn.Close()
	if t := s.sql().importTuning; t != "" {
		if _, err := conn.ExecContext(ctx, t); err != nil {
			return sum, fmt.Errorf("store: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), s.sql().importUntuning)
	}
	tx, err := conn.BeginTx(ctx, nil) // IMMEDIATE: waits here for another writer
	if err != nil {
		return sum, s.writeErr(err)
	}
	defer tx.Rollback()
	// Full-text rows for the new photos are written at the end, in one
	// statement: FTS5 flushes its pending rows at every statement's
	// savepoint, which row by row would cost more than the rest of the
	// import.
	var before int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(rowid), 0) FROM photos`).Scan(&before); err != nil {
		return sum, fmt.Errorf("store: %w", err)
	}
	st, err := prepareImport(ctx, tx, s.mentionKey)
	if err != nil {
		return sum, err
	}
	defer st.close()
	custody, err := openChain(ctx, tx)
	if err != nil {
		return sum, err
	}
	defer custody.stmt.Close()
	at := s.Now()
	i := 0
	for r, err := range recs {
		if err != nil {
			return Summary{}, err
		}
		if err := ctx.Err(); err != nil {
			return Summary{}, err
		}
		if err := s.importRecord(ctx, tx, st, custody, file, r, at, &sum); err != nil {
			return Summary{}, err
		}
		i++
		if progress != nil && i%2048 == 0 {
			progress(i)
		}
	}
	if err := indexCaptions(ctx, tx, s.sql(), before); err != nil {
		return Summary{}, fmt.Errorf("store: indexing captions of %s: %w", file, err)
	}
	if err := custody.close(ctx); err != nil {
		return Summary{}, err
	}
	ch := changedNothing
	if sum.Added+sum.Updated > 0 {
		ch = changedPhotos
	}
	if err := s.end(ctx, tx, ch); err != nil {
		if isBusy(err) {
			return Summary{}, ErrBusy
		}
		return Summary{}, fmt.Errorf("store: committing %s: %w", file, err)
	}
	if progress != nil {
		progress(i)
	}
	return sum, nil
}

// importRecord writes one record of file within ImportFile's transaction,
// with its custody record, and counts it in sum.
func (s *DB) importRecord(ctx context.Context, tx *sql.Tx, st *importStmts, custody *chain, file string, r Record, at time.Time, sum *Summary) error {
	src := file
	if r.Source != "" {
		src = r.Source
	}
	res, kept, err := st.write(ctx, src, r, at.UTC().Format(time.RFC3339))
	if err != nil {
		if isBusy(err) {
			return ErrBusy
		}
		return fmt.Errorf("store: %s:%d: %w", file, r.Line, err)
	}
	switch res {
	case added:
		sum.Added++
	case updated:
		sum.Updated++
	default:
		sum.Unchanged++
		return nil
	}
	action, date := map[outcome]string{added: "import", updated: "reimport"}[res], r.Photo.Date
	if res == updated { // the date as stored: another file's, or an editor's fix, may stand
		if date, err = storedDate(ctx, tx, r.Photo.ID); err != nil {
			return err
		}
	}
	if err := custody.add(ctx, r.Photo.ID, at, s.actor(ctx), action, importDetail(src, r, kept, date, s.RecordPaths)); err != nil {
		return err
	}
	if !r.Photo.Geocoded.Located {
		sum.Unplaced++
	}
	return s.importFrame(ctx, tx, custody, r, at, sum)
}

// importFrame writes a record's frame hash and the reuses it brings, each
// a custody record ("reuse", as `syriamap frames` writes them).
func (s *DB) importFrame(ctx context.Context, tx *sql.Tx, custody *chain, r Record, at time.Time, sum *Summary) error {
	if r.Frame == nil || r.Photo.File == nil {
		return nil
	}
	if err := insertFrame(ctx, tx, r.Photo.File.SHA256, *r.Frame); err != nil {
		return fmt.Errorf("store: the frame of %s: %w", r.Photo.ID, err)
	}
	for _, id := range slices.Sorted(maps.Keys(r.Reuses)) {
		u := r.Reuses[id]
		if _, err := tx.ExecContext(ctx, `UPDATE photos SET reuse = ?, reuse_of = ? WHERE id = ?`, u.Kind, u.Of, id); err != nil {
			return fmt.Errorf("store: the reuse of %s: %w", id, err)
		}
		if err := custody.add(ctx, id, at, s.actor(ctx), "reuse", map[string]any{"reuse": u.Kind, "of": u.Of, "disagrees": u.Why, "on": "import"}); err != nil {
			return err
		}
	}
	switch r.Arrived {
	case photo.ReuseConflict:
		sum.Conflicts++
	case photo.ReuseCopy:
		sum.Copies++
	}
	return nil
}

// Records yields recs, for callers that hold a file's records in memory.
func Records(recs []Record) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		for _, r := range recs {
			if !yield(r, nil) {
				return
			}
		}
	}
}

type outcome int

const (
	unchanged outcome = iota
	added
	updated
)

type importStmts struct {
	insert, source, image, lookup, update, updateKeepPlace *sql.Stmt
	fileLookup, fileUpsert, fileCheck, fileLeave           *sql.Stmt
	mentionKey                                             func(string) string
}

func prepareImport(ctx context.Context, tx *sql.Tx, mentionKey func(string) string) (*importStmts, error) {
	st := importStmts{mentionKey: mentionKey}
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&st.insert, `INSERT INTO photos (id, caption, date_from, date_to, date_precision, date_source, month, photographer, agency,
			` + placeColumns + `, geocoded, geo_digest, image_url, image_path, given, digest, created, updated)
			VALUES (?,?,?,?,?,?,?,?,?, ?,?,?,?,?,?,?,?,?,?,?, ?,?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT (id) DO NOTHING RETURNING rowid`},
		{&st.source, `INSERT OR IGNORE INTO sources (photo, file, line, ref, label) VALUES (?, ?, ?, ?, ?)`},
		{&st.image, `INSERT OR IGNORE INTO images (photo, url, path, seq)
			VALUES (?1, ?2, ?3, (SELECT coalesce(max(seq), 0) + 1 FROM images WHERE photo = ?1))`},
		{&st.lookup, `SELECT p.rowid, p.digest, p.geocoded, p.geo_digest, c.photo IS NOT NULL, p.given, p.date_from, p.date_to,
			p.date_precision, p.date_source, p.photographer, p.agency, p.image_url, p.image_path,
			f.date_from, f.date_to, f.date_precision, f.photographer, f.agency
			FROM photos p LEFT JOIN corrections c ON c.photo = p.rowid LEFT JOIN fixes f ON f.photo = p.rowid WHERE p.id = ?`},
		{&st.update, `UPDATE photos SET date_from=?, date_to=?, date_precision=?, date_source=?, month=?, photographer=?, agency=?,
			` + placeSet + `, geocoded=?, geo_digest=?, image_url=?, image_path=?, given=?,
			digest=?, updated=? WHERE rowid=?`},
		{&st.updateKeepPlace, `UPDATE photos SET date_from=?, date_to=?, date_precision=?, date_source=?, month=?, photographer=?,
			agency=?, geocoded=?, geo_digest=?, image_url=?, image_path=?, given=?, digest=?, updated=? WHERE rowid=?`},
		{&st.fileLookup, `SELECT photo, sha256, mtime FROM files WHERE path = ?`},
		{&st.fileUpsert, `INSERT INTO files (path, photo, sha256, size, mtime, meta, imported) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (path) DO UPDATE SET photo = excluded.photo, sha256 = excluded.sha256, size = excluded.size,
			mtime = excluded.mtime, meta = excluded.meta, imported = excluded.imported`},
		// The check is of the photo's first image file: a second file
		// with the same caption is attached beside it.
		{&st.fileCheck, `UPDATE photos SET iptc_city = ?, iptc_country = ?, gps_lon = ?, gps_lat = ?, exif_time = ?,
			agreement = ?, agreement_note = ?, agreement_parts = ?, image_file = ? WHERE rowid = ? AND image_file IN ('', ?)`},
		// A file that now holds another caption leaves its old photo.
		{&st.fileLeave, `UPDATE photos SET image_file = '', iptc_city = '', iptc_country = '', gps_lon = NULL, gps_lat = NULL,
			exif_time = '', agreement = '', agreement_note = '', agreement_parts = '' WHERE rowid = ? AND image_file = ?`},
	} {
		stmt, err := tx.PrepareContext(ctx, p.sql)
		if err != nil {
			st.close()
			return nil, fmt.Errorf("store: preparing: %w", err)
		}
		*p.dst = stmt
	}
	return &st, nil
}

func (st *importStmts) close() {
	for _, s := range []*sql.Stmt{st.insert, st.source, st.image, st.lookup, st.update, st.updateKeepPlace,
		st.fileLookup, st.fileUpsert, st.fileCheck, st.fileLeave} {
		if s != nil {
			s.Close()
		}
	}
}

// written is a photo as an import wrote it: merged with what the archive
// held of it, and the digest of its geocoder's answer.
type written struct {
	photo     *photo.Photo
	geoDigest string
}

// write writes one record's photo, merged with what the archive holds
// of it, and returns it as written.
func (st *importStmts) write(ctx context.Context, file string, r Record, now string) (outcome, written, error) {
	p := r.Photo
	if id := agencyID(p.Agency); id != p.Agency { // one agency under its names
		cp := *p
		cp.Agency = id
		p = &cp
	}
	row, err := newRow(p, st.mentionKey)
	if err != nil {
		return 0, written{}, err
	}
	args := append([]any{p.ID, p.Caption, row.from, row.to, row.prec, dateSource(p), row.month, p.Photographer, p.Agency}, row.place...)
	var rowid int64
	err = st.insert.QueryRowContext(ctx, append(args, row.kept(false), row.geoDigest, p.ImageURL, p.ImagePath, p.Given, row.digest, now, now)...).Scan(&rowid)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, written{}, err
	}
	if err == nil { // inserted: no row of that id before
		if _, err := st.source.ExecContext(ctx, rowid, file, r.Line, r.Ref, r.Label); err != nil {
			return 0, written{}, err
		}
		if _, err := st.addImage(ctx, rowid, p); err != nil {
			return 0, written{}, err
		}
		if _, err := st.addFile(ctx, rowid, p, now); err != nil {
			return 0, written{}, err
		}
		return added, written{p, row.geoDigest}, nil
	}
	// Already in the archive: merge, then write only what changed.
	var old stored
	if err := st.lookup.QueryRowContext(ctx, p.ID).Scan(&rowid, &old.digest, &old.geocoded, &old.geoDigest, &old.corrected, &old.given,
		&old.from, &old.to, &old.prec, &old.dateSource, &old.photographer, &old.agency, &old.imageURL, &old.imagePath,
		&old.fixFrom, &old.fixTo, &old.fixPrec, &old.fixPh, &old.fixAg); err != nil {
		return 0, written{}, err
	}
	m, err := old.merge(p)
	if err != nil {
		return 0, written{}, err
	}
	if row, err = newRow(m, st.mentionKey); err != nil {
		return 0, written{}, err
	}
	res := unchanged
	if old.digest != row.digest || old.geoDigest != row.geoDigest {
		res = updated
		if old.corrected {
			_, err = st.updateKeepPlace.ExecContext(ctx, row.from, row.to, row.prec, dateSource(m), row.month, m.Photographer, m.Agency,
				row.kept(true), row.geoDigest, m.ImageURL, m.ImagePath, m.Given, row.digest, now, rowid)
		} else {
			args := append([]any{row.from, row.to, row.prec, dateSource(m), row.month, m.Photographer, m.Agency}, row.place...)
			_, err = st.update.ExecContext(ctx, append(args, row.kept(false), row.geoDigest, m.ImageURL, m.ImagePath, m.Given,
				row.digest, now, rowid)...)
		}
		if err != nil {
			return 0, written{}, err
		}
	}
	sr, err := st.source.ExecContext(ctx, rowid, file, r.Line, r.Ref, r.Label)
	if err != nil {
		return 0, written{}, err
	}
	if n, _ := sr.RowsAffected(); n > 0 && res == unchanged {
		res = updated // a new source for a photo already known
	}
	if newImage, err := st.addImage(ctx, rowid, p); err != nil {
		return 0, written{}, err
	} else if newImage && res == unchanged {
		res = updated // another picture with the same caption
	}
	if changed, err := st.addFile(ctx, rowid, p, now); err != nil {
		return 0, written{}, err
	} else if changed && res == unchanged {
		res = updated // a new or changed image file
	}
	return res, written{m, row.geoDigest}, nil
}

// addFile records the image file an import read photo rowid from, if
// any, with what its metadata says, and reports whether the file is new
// to the photo or its content changed. The photo's image is the first
// file it was given, or this one when it is that file changed.
func (st *importStmts) addFile(ctx context.Context, rowid int64, p *photo.Photo, now string) (bool, error) {
	f := p.File
	if f == nil {
		return false, nil
	}
	mtime := f.ModTime.UTC().Format(time.RFC3339Nano)
	var oldPhoto int64
	var oldSHA, oldMtime string
	err := st.fileLookup.QueryRowContext(ctx, f.Path).Scan(&oldPhoto, &oldSHA, &oldMtime)
	found := err == nil
	if err != nil && err != sql.ErrNoRows {
		return false, err
	}
	if found && oldPhoto == rowid && oldSHA == f.SHA256 && oldMtime == mtime {
		return false, nil
	}
	if _, err := st.fileUpsert.ExecContext(ctx, f.Path, rowid, f.SHA256, f.Size, mtime, f.Meta, now); err != nil {
		return false, err
	}
	if found && oldPhoto == rowid && oldSHA == f.SHA256 {
		return false, nil // touched, not changed
	}
	if found && oldPhoto != rowid {
		if _, err := st.fileLeave.ExecContext(ctx, oldPhoto, oldSHA); err != nil {
			return false, err
		}
	}
	c := p.Check
	var lon, lat sql.NullFloat64
	if c.HasGPS {
		lon, lat = sql.NullFloat64{Float64: c.GPSLon, Valid: true}, sql.NullFloat64{Float64: c.GPSLat, Valid: true}
	}
	if _, err := st.fileCheck.ExecContext(ctx, c.IPTCCity, c.IPTCCountry, lon, lat, c.EXIFTime, c.Agreement, c.Note, c.Parts,
		f.SHA256, rowid, oldSHA); err != nil {
		return false, err
	}
	return true, nil
}

// addImage records the image a file gave photo rowid, if any, and reports
// whether the photo did not have it yet.
func (st *importStmts) addImage(ctx context.Context, rowid int64, p *photo.Photo) (bool, error) {
	if p.ImageURL == "" && p.ImagePath == "" {
		return false, nil
	}
	res, err := st.image.ExecContext(ctx, rowid, p.ImageURL, p.ImagePath)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// stored is what the archive holds of a photo that an import meets again.
type stored struct {
	digest, geocoded, geoDigest string
	corrected                   bool
	given                       photo.Given
	from, to                    sql.NullInt64
	prec                        sql.NullString
	dateSource                  string
	photographer, agency        string
	imageURL, imagePath         string
	// A person's fixes of the date and credit (fixes), which win over
	// any file's.
	fixFrom, fixTo        sql.NullInt64
	fixPrec, fixPh, fixAg sql.NullString
}

// merge returns p with the values another file gave and p's file does not
// (a date, a credit, a point, an image), so that importing a second file
// with the same caption adds to the photo rather than erasing.
func (o stored) merge(p *photo.Photo) (*photo.Photo, error) {
	m := *p
	if o.given&photo.GivenDate != 0 && p.Given&photo.GivenDate == 0 {
		m.Date, m.Given = photo.DateFromSpan(int(o.from.Int64), int(o.to.Int64), o.prec.String), m.Given|photo.GivenDate
		m.DateSource = o.dateSource
	}
	if o.given&photo.GivenPhotographer != 0 && p.Given&photo.GivenPhotographer == 0 {
		m.Photographer, m.Given = o.photographer, m.Given|photo.GivenPhotographer
	}
	if o.given&photo.GivenAgency != 0 && p.Given&photo.GivenAgency == 0 {
		m.Agency, m.Given = o.agency, m.Given|photo.GivenAgency
	}
	if o.given&photo.GivenPoint != 0 && p.Given&photo.GivenPoint == 0 && o.geocoded != "" {
		if err := json.Unmarshal([]byte(o.geocoded), &m.Geocoded); err != nil {
			return nil, err
		}
		m.Given |= photo.GivenPoint
	}
	// A person's reading wins over every file's.
	if o.fixPrec.Valid {
		m.Date, m.DateSource = photo.DateFromSpan(int(o.fixFrom.Int64), int(o.fixTo.Int64), o.fixPrec.String), photo.DateEditor
	}
	if o.fixPh.Valid {
		m.Photographer = o.fixPh.String
	}
	if o.fixAg.Valid {
		m.Agency = o.fixAg.String
	}
	// The photo's image stays the first one it was given; others are
	// kept beside it (see addImage).
	if o.imageURL != "" || o.imagePath != "" {
		m.ImageURL, m.ImagePath = o.imageURL, o.imagePath
	}
	return &m, nil
}

// dateSource is where p's date came from as the photos table stores it:
// "" for an undated photo, the caption's when no one said.
func dateSource(p *photo.Photo) string {
	switch {
	case p.Date.IsZero():
		return ""
	case p.DateSource == "":
		return photo.DateCaption
	}
	return p.DateSource
}

// row holds a photo's values as the photos table stores them.
type row struct {
	from, to, month sql.NullInt64
	prec            sql.NullString
	place           []any  // placeColumns' values (placeArgs)
	geocoded        string // JSON
	geoDigest       string // fingerprint of geocoded
	given           bool   // the file gave the point
	digest          string
}

// kept is what the geocoded column holds: the geocoder's choice when it is
// not the place shown (corrected, or a point the file gave), else nothing.
func (r row) kept(corrected bool) string {
	if corrected || r.given {
		return r.geocoded
	}
	return ""
}

func newRow(p *photo.Photo, mentionKey func(string) string) (row, error) {
	var r row
	if !p.Date.IsZero() {
		first, last := p.Date.Span()
		r.from = sql.NullInt64{Int64: int64(first), Valid: true}
		r.to = sql.NullInt64{Int64: int64(last), Valid: true}
		r.prec = sql.NullString{String: p.Date.Precision, Valid: true}
		m := first / 100
		if p.Date.Precision == "year" {
			m = first / 10000 * 100
		}
		r.month = sql.NullInt64{Int64: int64(m), Valid: true}
	}
	var err error
	if r.place, err = placeArgs(p.Geocoded, mentionKey); err != nil {
		return r, err
	}
	if r.geocoded, r.geoDigest, err = geocodedJSON(p.Geocoded); err != nil {
		return r, err
	}
	r.given = p.Given&photo.GivenPoint != 0
	// The digest covers what the file gave; the geocoder's part is
	// compared as its JSON, which Regeocode rewrites.
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%d", p.Caption, p.Date, p.Photographer, p.Agency, p.ImageURL, p.ImagePath, p.Given)
	r.digest = hex.EncodeToString(h.Sum(nil)[:12])
	return r, nil
}

// KnownFile returns the state of the image file at path (absolute) as
// its last import saw it, and whether it was imported.
func (s *DB) KnownFile(ctx context.Context, path string) (photo.FileState, bool, error) {
	var st photo.FileState
	var mtime string
	err := s.reading(ctx, "", "reading the archive's files", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT size, mtime, sha256 FROM files WHERE path = ?`, path).Scan(&st.Size, &mtime, &st.SHA256)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return st, false, nil
	}
	if err != nil {
		return st, false, err
	}
	st.ModTime, _ = time.Parse(time.RFC3339Nano, mtime)
	return st, true, nil
}

// FileOf returns the path of the image file whose content has the hash
// sha (hex), with its state when imported, for serving it; ENotFound when
// no imported file has it.
func (s *DB) FileOf(ctx context.Context, sha string) (string, photo.FileState, error) {
	var path, mtime string
	st := photo.FileState{SHA256: sha}
	err := s.reading(ctx, "", "finding an image file", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT path, size, mtime, COALESCE(json_extract(meta, '$.EXIF.Orientation'), '0')
			FROM files WHERE sha256 = ? ORDER BY imported DESC, path COLLATE BINARY LIMIT 1`, sha).Scan(&path, &st.Size, &mtime, &st.Orientation)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return "", st, photo.Errorf(photo.ENotFound, "no image file %s in the archive", sha)
	}
	st.ModTime, _ = time.Parse(time.RFC3339Nano, mtime)
	return path, st, err
}

// AddMediaRoots records folders images were imported from: the server
// serves image files under them.
func (s *DB) AddMediaRoots(ctx context.Context, roots []string) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, r := range roots {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO media_roots (path) VALUES (?)`, r); err != nil {
			return fmt.Errorf("store: recording media folder %s: %w", r, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return s.writeErr(err)
	}
	return nil
}

// MediaRoots returns the folders images were imported from.
func (s *DB) MediaRoots(ctx context.Context) ([]string, error) {
	return s.column(ctx, "", "reading the media folders", `SELECT path FROM media_roots ORDER BY path COLLATE BINARY`)
}

// PhotosWithFiles returns the ids of the photos that have an image file,
// whose check (see photo.Check) depends on their geocoded place.
func (s *DB) PhotosWithFiles(ctx context.Context) ([]string, error) {
	return s.column(ctx, "", "listing photos with image files", `SELECT id FROM photos WHERE image_file != '' ORDER BY rowid`)
}

// SetChecks stores the agreement of photos with their image files, by
// photo id, in one transaction; it reports how many changed.
func (s *DB) SetChecks(ctx context.Context, checks map[string]photo.Check) (int, error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	n := 0
	for id, c := range checks {
		res, err := tx.ExecContext(ctx, `UPDATE photos SET agreement = ?, agreement_note = ?, agreement_parts = ?
			WHERE id = ? AND (agreement != ? OR agreement_note != ? OR agreement_parts != ?)`,
			c.Agreement, c.Note, c.Parts, id, c.Agreement, c.Note, c.Parts)
		if err != nil {
			return 0, fmt.Errorf("store: checking photo %s: %w", id, err)
		}
		k, _ := res.RowsAffected()
		n += int(k)
	}
	ch := changedNothing
	if n > 0 {
		ch = changedPhotos
	}
	if err := s.end(ctx, tx, ch); err != nil {
		return 0, s.writeErr(err)
	}
	return n, nil
}

// PhotosOfFiles lists the photos the files (their paths as imported)
// gave, in import order, at most limit: id and caption.
func (s *DB) PhotosOfFiles(ctx context.Context, files []string, limit int) ([]photo.Photo, error) {
	list, err := json.Marshal(files)
	if err != nil {
		return nil, err
	}
	var out []photo.Photo
	err = s.reading(ctx, "", "listing an import's photos", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT p.id, p.caption FROM photos p WHERE p.rowid IN
			(SELECT photo FROM sources WHERE file IN (SELECT value FROM json_each(?))) AND `+visible(ctx)+` ORDER BY p.rowid LIMIT ?`, string(list), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p photo.Photo
			if err := rows.Scan(&p.ID, &p.Caption); err != nil {
				return err
			}
			out = append(out, p)
		}
		return rows.Err()
	})
	return out, err
}
