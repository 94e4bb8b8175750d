package store

import (
	"database/sql"
	"testing"
)

// trickySearches are searches whose syntax is easy to misread: operators
// at the ends, brackets beside words, empty phrases, stars, NEAR, quotes,
// both scripts, and what ftsQuery leaves of punctuation.
var trickySearches = []string{
	"Aleppo", "aleppo", "ALEPPO", "Aleppo Homs", `"old city"`, `"old city"*`, `"old" "city"`, `"old city`, `old"city"`, `old"city`,
	"a (b OR c)", "(b OR c) a", "(b OR c)", "(b OR c) AND a", "a AND (b OR c)", "((a))", "()", "(", ")", "a)", "(a",
	"a b OR c", "a OR b c", "a NOT b", "NOT a", "a NOT", "a OR", "OR", "AND", "NOT", "a AND AND b", "a OR OR b", "a NOT NOT b",
	"a OR b NOT a", "b NOT a OR c", "a NOT b NOT c", "a AND b NOT c", "a NOT b AND c", "or", "and", "not", "Or", "near", "NEAR",
	"*", "a*", "a *", "a**", "* a", `"a"*`, `"a" *`, `""`, `"" a`, `a ""`, `"" OR a`, `a OR ""`, `"" AND a`, `"" NOT a`, `a NOT ""`,
	`("")`, `"" OR ""`, "NEAR(a b)", "NEAR (a b)", "near(a b)", "NEAR()", "NEAR(a)", "NEAR(a OR b)", `NEAR("" a)`, "x NEAR(a b)",
	"NEAR(a b) x", "NEAR(a b) (c)", "(a) b", "(a) AND b", "a (b)", "a ( b )", "a_b", "_", "__*", "a_b*", "a+b", "a + b", "+a", "a+",
	`"a + b"`, `"a""b"`, `""""`, "حلب", "حلب OR دوما", "حلب NOT دوما", `"حلب الشهباء"`, "حل*", "ٌ", "x OR ٌ", "٢٠١٦", "٢٠١٦*",
	"2½", "½", "3²", "Ⅻ", "é", "Ḩumaymīm", "a:b", "caption:a", "^a", "a-b", "a,b", "{a}", "a.b", "a'b", "a\tb", "a\nb",
}

// TestSearchSyntaxAsFTS5: parseSearch refuses exactly the searches FTS5
// refuses, each as written and as ftsQuery cleans it, so that both
// engines refuse the same searches (the PostgreSQL archive has no FTS5
// to ask).
func TestSearchSyntaxAsFTS5(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE VIRTUAL TABLE t USING fts5 (caption)`); err != nil {
		t.Fatal(err)
	}
	checked, refused := 0, 0
	for _, raw := range trickySearches {
		for _, q := range []string{raw, ftsQuery(raw)} {
			if q == "" {
				continue
			}
			checked++
			var n int
			ftsErr := db.QueryRow(`SELECT count(*) FROM t WHERE t MATCH ?`, q).Scan(&n)
			_, err := parseSearch(q)
			if q == "caption:a" || q == "^a" {
				// FTS5's column filter and first-word anchor, which
				// ftsQuery leaves out of every search: refused in Go.
				if err == nil {
					t.Errorf("%q: parseSearch reads it", q)
				}
				continue
			}
			if (err != nil) != (ftsErr != nil) {
				t.Errorf("%q: parseSearch says %v, FTS5 %v", q, err, ftsErr)
			}
			if ftsErr != nil {
				refused++
			}
		}
	}
	t.Logf("%d searches (%d as written), %d refused by FTS5", checked, len(trickySearches), refused)
	if refused < 30 {
		t.Errorf("FTS5 refused only %d searches: the table tries too little", refused)
	}
}
