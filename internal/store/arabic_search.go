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
func indexArabic(ctx context.Context, tx *sql.Tx, sq *dialect, after int64) error {
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
		if _, err := tx.ExecContext(ctx, sq.indexArabic, d.rowid, d.words); err != nil {
			return fmt.Errorf("indexing the Arabic words of photo %d: %w", d.rowid, err)
		}
	}
	return nil
}

const matchFTS = "rowid IN (SELECT rowid FROM photos_fts WHERE photos_fts MATCH ?)"

// searchSQL is the condition that a caption matches the full-text search
// q (ftsQuery's), and its arguments: q in the index of the captions as
// written; with its Arabic-Indic digits as 0–9 there too (a number is the
// same search in either script); and, when it holds Arabic words or
// digits, folded (arabicQuery) in the index of the Arabic words, which
// holds them folded and without particles, their digits as 0–9.
func searchSQL(q string) (string, []any) {
	conds, args := []string{matchFTS}, []any{q}
	if latin := latinDigits(q); latin != q {
		conds, args = append(conds, matchFTS), append(args, latin)
	}
	if folded, ok := arabicQuery(q); ok || strings.ContainsFunc(q, unicode.IsDigit) {
		conds = append(conds, "rowid IN (SELECT rowid FROM photos_fts_ar WHERE photos_fts_ar MATCH ?)")
		args = append(args, folded)
	}
	if len(conds) == 1 {
		return conds[0], args
	}
	return "(" + strings.Join(conds, " OR ") + ")", args
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
