package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// copyTable is one table of the archive as Copy moves it.
type copyTable struct {
	name string
	// key is the columns its rows are read in order of (its primary key).
	key string
	// generated are columns the engine computes, never written.
	generated []string
}

// copyTables are every table of the archive's schema, on both engines,
// parents before the tables whose foreign keys name them. Not here: the
// search indexes (photos_fts, photos_fts_ar; rebuilt from the captions
// after the rows) and each engine's own bookkeeping (schema_migrations,
// sqlite_*). TestCopyTablesAreTheSchema fails when a table of either
// schema is neither here nor in copyLeftOut.
var copyTables = []copyTable{
	{name: "photos", key: "rowid", generated: []string{"need"}},
	{name: "sources", key: "photo, file, line"},
	{name: "corrections", key: "photo"},
	{name: "archive_version", key: "id"},
	{name: "images", key: "photo, url, path"},
	{name: "fixes", key: "photo"},
	{name: "users", key: "name"},
	{name: "tokens", key: "hash"},
	{name: "sessions", key: "hash"},
	{name: "events", key: "id"},
	{name: "files", key: "path"},
	{name: "media_roots", key: "path"},
	{name: "stories", key: "id"},
	{name: "story_steps", key: "story, position"},
	{name: "story_events", key: "id"},
	{name: "archive_tasks", key: "name"},
	{name: "devices", key: "hash"},
	{name: "added_places", key: "id"},
	{name: "taught_names", key: "event, name"},
	{name: "confidence_models", key: "id"},
	{name: "custody", key: "seq"},
	{name: "custody_head", key: "id"},
	{name: "frames", key: "sha256"},
	{name: "signin_codes", key: "hash"},
	{name: "conflict_events", key: "dataset, id"},
	{name: "conflict_event_changes", key: "seq"},
	{name: "photo_event_links", key: "photo, dataset, event"},
	{name: "settings", key: "name"},
	{name: "second_looks", key: "id"},
	// After photos: its rows replace those the photos' insert trigger wrote.
	{name: "review_touched", key: "mention_key"},
}

// copyLeftOut are the tables of either schema Copy does not move, and why.
var copyLeftOut = map[string]string{
	"photos_fts":        "the search index, rebuilt from the captions",
	"photos_fts_ar":     "the Arabic search index, rebuilt from the captions",
	"schema_migrations": "each engine's own migration history",
	"signin_strikes":    "the sign-in brake's passing records of failed guesses, which expire within the hour",
	"signin_guesses":    "the sign-in brake's passing records of guesses being checked",
	"jobs":              "the servers' upload jobs, whose files are in their uploads folder, not in the archive",
}

// archiveTables are the tables whose rows make an archive: a database
// holding any is refused as a copy's destination.
var archiveTables = []string{"photos", "custody", "users", "stories", "added_places", "events", "conflict_events"}

// maxCopyParams bounds the parameters of one insert: PostgreSQL takes at
// most 65535, SQLite 32766.
const maxCopyParams = 32000

// CopySummary is what Copy moved: the rows of each table, in the order
// they were copied.
type CopySummary struct {
	Tables []TableCount
	// Indexed is how long building the search indexes took.
	Indexed time.Duration
}

// TableCount is how many rows of a table were copied, and how long that
// took.
type TableCount struct {
	Table string
	Rows  int64
	Took  time.Duration
}

// Copy copies the whole archive src into dst, which must hold none (no
// photo, custody record, editor, story, added place or event; only the
// empty schema Open makes): every row of every table, each key (rowid, id,
// seq) as it is, so the custody chain and its head are the same bytes.
// Rows are read from one snapshot of src and written in one transaction
// of dst's writer, in batches: a table need not fit in memory, and on any
// error dst keeps nothing. The search indexes are built on dst from the
// captions, as an import builds them. progress, if not nil, is called
// after each batch with the table and its rows copied so far. src and dst
// may be on either engine. A dst that holds an archive is refused
// (photo.EInvalid) before anything is written to it.
func Copy(ctx context.Context, src, dst *DB, progress func(table string, rows int64)) (CopySummary, error) {
	var sum CopySummary
	if src == dst {
		return sum, photo.Errorf(photo.EInvalid, "store: copying the archive %s onto itself", src.path)
	}
	tx, err := dst.beginBulk(ctx)
	if err != nil {
		return sum, err
	}
	defer tx.Rollback()
	if err := dst.refuseArchive(ctx, tx.Tx); err != nil {
		return sum, err
	}
	// One snapshot of src: a write to it meanwhile is wholly in the copy
	// or wholly not.
	rtx, err := src.bulk.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return sum, fmt.Errorf("store: reading %s: %w", src.path, err)
	}
	defer rtx.Rollback()
	for _, t := range copyTables {
		start := time.Now()
		n, err := copyRows(ctx, rtx, tx.Tx, t, func(n int64) {
			if progress != nil {
				progress(t.name, n)
			}
		})
		if err != nil {
			return CopySummary{}, fmt.Errorf("store: copying %s of %s to %s: %w", t.name, src.path, dst.path, err)
		}
		sum.Tables = append(sum.Tables, TableCount{Table: t.name, Rows: n, Took: time.Since(start)})
	}
	start := time.Now()
	if err := indexCaptions(ctx, tx.Tx, dst.sql(), 0); err != nil {
		return CopySummary{}, fmt.Errorf("store: indexing the captions copied to %s: %w", dst.path, err)
	}
	sum.Indexed = time.Since(start)
	if q := dst.sql().keysCopied; q != "" {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return CopySummary{}, fmt.Errorf("store: moving the key sequences of %s past the copied keys: %w", dst.path, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return CopySummary{}, dst.writeErr(err)
	}
	dst.writes.Add(1)
	return sum, nil
}

// bulkTx is a write transaction on the writer's connection, tuned for a
// bulk write as an import's is (dialect.importTuning) until it ends.
type bulkTx struct {
	*sql.Tx
	conn   *sql.Conn
	untune string
}

// Rollback ends the transaction, if Commit did not, and gives the
// connection back untuned.
func (b *bulkTx) Rollback() {
	if b.Tx != nil {
		b.Tx.Rollback()
	}
	if b.untune != "" {
		b.conn.ExecContext(context.Background(), b.untune)
	}
	b.conn.Close()
}

// beginBulk starts a write transaction for a bulk write (see bulkTx).
func (s *DB) beginBulk(ctx context.Context) (*bulkTx, error) {
	w, err := s.writer()
	if err != nil {
		return nil, err
	}
	conn, err := w.Conn(ctx)
	if err != nil {
		return nil, s.writeErr(err)
	}
	b := &bulkTx{conn: conn}
	if t := s.sql().importTuning; t != "" {
		if _, err := conn.ExecContext(ctx, t); err != nil {
			conn.Close()
			return nil, fmt.Errorf("store: %w", err)
		}
		b.untune = s.sql().importUntuning
	}
	if b.Tx, err = conn.BeginTx(ctx, nil); err != nil {
		b.Rollback()
		return nil, s.writeErr(err)
	}
	return b, nil
}

// refuseArchive refuses a destination that holds an archive already.
func (s *DB) refuseArchive(ctx context.Context, tx *sql.Tx) error {
	for _, t := range archiveTables {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM `+t+` LIMIT 1) AS any_row`).Scan(&n); err != nil {
			return fmt.Errorf("store: reading %s: %w", s.path, err)
		}
		if n > 0 {
			return photo.Errorf(photo.EInvalid, "the archive %s already holds an archive (its table %s has rows): a copy goes only into an empty one", s.path, t)
		}
	}
	return nil
}

// copyRows copies table t's rows from r to w, in batched inserts, and
// returns how many. What dst's schema put there itself (the version row,
// pending tasks, rows its triggers wrote) gives way to src's rows.
func copyRows(ctx context.Context, r, w *sql.Tx, t copyTable, progress func(int64)) (int64, error) {
	rows, err := r.QueryContext(ctx, `SELECT * FROM `+t.name+` ORDER BY `+t.key)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	all, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	var cols []int // the columns written, by position in all
	for i, c := range all {
		if !slices.Contains(t.generated, c) {
			cols = append(cols, i)
		}
	}
	if _, err := w.ExecContext(ctx, `DELETE FROM `+t.name); err != nil {
		return 0, err
	}
	per := max(1, min(1000, maxCopyParams/len(cols)))
	b := newCopyBatch(t.name, all, cols, per)
	var n int64
	vals := make([]any, len(all))
	ptrs := make([]any, len(all))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		b.add(vals)
		if b.rows == per {
			if err := b.flush(ctx, w); err != nil {
				return n, err
			}
			n += int64(per)
			progress(n)
		}
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	left := int64(b.rows)
	if err := b.flush(ctx, w); err != nil {
		return n, err
	}
	if left > 0 {
		n += left
		progress(n)
	}
	return n, nil
}

// copyBatch gathers rows for one multi-row insert.
type copyBatch struct {
	table   string
	names   []string // the columns written, quoted
	cols    []int
	args    []any
	rows    int
	full    string // the insert of a full batch, made once
	fullLen int
}

func newCopyBatch(table string, all []string, cols []int, per int) *copyBatch {
	b := &copyBatch{table: table, cols: cols, args: make([]any, 0, per*len(cols)), fullLen: per}
	for _, i := range cols {
		b.names = append(b.names, `"`+all[i]+`"`)
	}
	b.full = b.insert(per)
	return b
}

func (b *copyBatch) add(vals []any) {
	for _, i := range b.cols {
		b.args = append(b.args, vals[i]) // Scan gave each []byte its own copy
	}
	b.rows++
}

// insert is the statement that writes n rows.
func (b *copyBatch) insert(n int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(b.cols)), ", ") + ")"
	var q strings.Builder
	q.WriteString(`INSERT INTO ` + b.table + ` (` + strings.Join(b.names, ", ") + `) VALUES `)
	for i := range n {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString(row)
	}
	return q.String()
}

func (b *copyBatch) flush(ctx context.Context, w *sql.Tx) error {
	if b.rows == 0 {
		return nil
	}
	q := b.full
	if b.rows != b.fullLen {
		q = b.insert(b.rows)
	}
	if _, err := w.ExecContext(ctx, q, b.args...); err != nil {
		return err
	}
	b.args, b.rows = b.args[:0], 0
	return nil
}
