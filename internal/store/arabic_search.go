package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// isArabicLetter reports whether r is a letter, mark or digit of Arabic
// script (its punctuation, ، and ؟, separates words).
func isArabicLetter(r rune) bool {
	return lexicon.IsArabic(r) && (unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r))
}

// arabicWords returns the words photos_fts_ar indexes for a caption, ""
// when it has no Arabic: each Arabic word folded, in each of its search
// forms (lexicon.ArabicSearchForms): "وبالرقة" is indexed as وبالرقه,
// بالرقه, الرقه and رقه.
func arabicWords(caption string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(caption, func(r rune) bool { return !isArabicLetter(r) }) {
		for _, s := range lexicon.ArabicSearchForms(lexicon.FoldArabic(w)) {
			b.WriteString(s)
			b.WriteByte(' ')
		}
	}
	return strings.TrimSpace(b.String())
}

// arabicQuery folds the Arabic words of a full-text search as the index
// folds them, leaving its Latin words and operators (OR, NOT) as they are;
// ok is false when it has no Arabic.
func arabicQuery(q string) (folded string, ok bool) {
	var b strings.Builder
	word := strings.Builder{}
	flush := func() {
		if word.Len() > 0 {
			b.WriteString(lexicon.FoldArabic(word.String()))
			word.Reset()
			ok = true
		}
	}
	for _, r := range q {
		if isArabicLetter(r) {
			word.WriteRune(r)
			continue
		}
		flush()
		b.WriteRune(r)
	}
	flush()
	return b.String(), ok
}

// indexCaptions indexes for search the captions of the photos after
// rowid after: each caption in photos_fts (at once, when the engine reads
// captions itself: dialect.indexCaptions), its Arabic words
// (arabicWords) in photos_fts_ar, as the engine takes them
// (dialect.words). Captions are written once, by the import that adds
// their photo.
func indexCaptions(ctx context.Context, tx *sql.Tx, sq *dialect, after int64) error {
	if sq.indexCaptions != "" {
		if _, err := tx.ExecContext(ctx, sq.indexCaptions, after); err != nil {
			return err
		}
	}
	return indexSearch(ctx, tx, sq, after, sq.indexCaptions == "")
}

// indexArabic indexes in photos_fts_ar the Arabic words of the captions of
// the photos after rowid after.
func indexArabic(ctx context.Context, tx *sql.Tx, sq *dialect, after int64) error {
	return indexSearch(ctx, tx, sq, after, false)
}

// indexBatch is how many captions indexSearch reads at a time.
const indexBatch = 2048

func indexSearch(ctx context.Context, tx *sql.Tx, sq *dialect, after int64, captions bool) error {
	type doc struct {
		rowid   int64
		caption string
	}
	for {
		rows, err := tx.QueryContext(ctx, `SELECT rowid, caption FROM photos WHERE rowid > ? ORDER BY rowid LIMIT ?`, after, indexBatch)
		if err != nil {
			return err
		}
		var docs []doc
		for rows.Next() {
			var d doc
			if err := rows.Scan(&d.rowid, &d.caption); err != nil {
				rows.Close()
				return err
			}
			docs = append(docs, d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(docs) == 0 {
			return nil
		}
		for _, d := range docs {
			if captions {
				if _, err := tx.ExecContext(ctx, sq.indexCaption, d.rowid, sq.words(d.caption)); err != nil {
					return fmt.Errorf("indexing the caption of photo %d: %w", d.rowid, err)
				}
			}
			if words := arabicWords(d.caption); words != "" {
				if _, err := tx.ExecContext(ctx, sq.indexArabic, d.rowid, sq.words(words)); err != nil {
					return fmt.Errorf("indexing the Arabic words of photo %d: %w", d.rowid, err)
				}
			}
		}
		after = docs[len(docs)-1].rowid
	}
}

// searchSQL is the condition that a caption matches the full-text search
// q (ftsQuery's), and its arguments: q in the index of the captions as
// written; with its Arabic-Indic digits as 0–9 there too (a number is the
// same search in either script); and, when it holds Arabic words or
// digits, folded (arabicQuery) in the index of the Arabic words, which
// holds them folded and without particles, their digits as 0–9. Each is
// read in Go as FTS5 reads it (parseSearch): a search FTS5 would refuse
// is refused on either engine (errSearchSyntax).
func searchSQL(sq *dialect, q string) (string, []any, error) {
	var conds []string
	var args []any
	match := func(index, q string) error {
		e, err := parseSearch(q)
		if err != nil {
			return err
		}
		cond, a := sq.match(index, q, e)
		conds, args = append(conds, cond), append(args, a...)
		return nil
	}
	if err := match("photos_fts", q); err != nil {
		return "", nil, err
	}
	if latin := latinDigits(q); latin != q {
		if err := match("photos_fts", latin); err != nil {
			return "", nil, err
		}
	}
	if folded, ok := arabicQuery(q); ok || strings.ContainsFunc(q, unicode.IsDigit) {
		if err := match("photos_fts_ar", folded); err != nil {
			return "", nil, err
		}
	}
	if len(conds) == 1 {
		return conds[0], args, nil
	}
	return "(" + strings.Join(conds, " OR ") + ")", args, nil
}

// latinDigits writes q's Arabic-Indic and Persian digits as 0–9 (as
// lexicon.FoldArabic does), leaving the rest as it is.
func latinDigits(q string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '٠' && r <= '٩':
			return '0' + r - '٠'
		case r >= '۰' && r <= '۹':
			return '0' + r - '۰'
		}
		return r
	}, q)
}
