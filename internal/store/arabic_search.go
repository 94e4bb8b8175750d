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

// indexArabic indexes in photos_fts_ar the Arabic words of the captions of
// the photos after rowid after.
func indexArabic(ctx context.Context, tx *sql.Tx, after int64) error {
	rows, err := tx.QueryContext(ctx, `SELECT rowid, caption FROM photos WHERE rowid > ?`, after)
	if err != nil {
		return err
	}
	type doc struct {
		rowid int64
		words string
	}
	var docs []doc
	for rows.Next() {
		var d doc
		var caption string
		if err := rows.Scan(&d.rowid, &caption); err != nil {
			rows.Close()
			return err
		}
		if d.words = arabicWords(caption); d.words != "" {
			docs = append(docs, d)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, d := range docs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO photos_fts_ar (rowid, words) VALUES (?, ?)`, d.rowid, d.words); err != nil {
			return fmt.Errorf("indexing the Arabic words of photo %d: %w", d.rowid, err)
		}
	}
	return nil
}
