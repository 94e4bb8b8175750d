package store

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// fts5Vocabulary indexes texts in a new FTS5 table (unicode61, as
// photos_fts) and returns the words FTS5 read in each, in order.
func fts5Vocabulary(t *testing.T, texts []string) [][]string {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{`CREATE VIRTUAL TABLE t USING fts5 (c)`, `CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		if _, err := tx.Exec(`INSERT INTO t (rowid, c) VALUES (?, ?)`, i, text); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT doc, term FROM v ORDER BY doc, "offset"`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := make([][]string, len(texts))
	for rows.Next() {
		var doc int
		var term string
		if err := rows.Scan(&doc, &term); err != nil {
			t.Fatal(err)
		}
		out[doc] = append(out[doc], term)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFTS5TokensEveryRune: fts5Tokens reads every rune as FTS5 does, a
// separator between words or a word's, folded alike (each rune between
// two letters, a thousand to a text).
func TestFTS5TokensEveryRune(t *testing.T) {
	var texts []string
	var b strings.Builder
	for r := rune(1); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		b.WriteString("a")
		b.WriteRune(r)
		b.WriteString("b ")
		if r%1024 == 0 || r == utf8.MaxRune {
			texts = append(texts, b.String())
			b.Reset()
		}
	}
	for i, want := range fts5Vocabulary(t, texts) {
		if got := fts5Tokens(texts[i]); !slices.Equal(got, want) {
			for j := range min(len(got), len(want)) {
				if got[j] != want[j] {
					t.Errorf("text %d: token %d is %q, FTS5's %q", i, j, got[j], want[j])
					break
				}
			}
			t.Errorf("text %d: %d tokens, FTS5 %d", i, len(got), len(want))
		}
	}
}

// evalCaptions are the real captions of ../shared/eval, English and
// Arabic; the test is skipped without them.
func evalCaptions(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../../../shared/eval/*dev-captions*.jsonl")
	if len(files) == 0 {
		t.Skip("no captions in ../shared/eval")
	}
	var out []string
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var c struct{ Text string }
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, c.Text)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestFTS5TokensOfCaptions: fts5Tokens reads the real captions, and the
// Arabic words photos_fts_ar indexes for them, word for word as FTS5.
func TestFTS5TokensOfCaptions(t *testing.T) {
	captions := evalCaptions(t)
	var texts []string
	for _, c := range captions {
		texts = append(texts, c, arabicWords(c))
	}
	words := 0
	for i, want := range fts5Vocabulary(t, texts) {
		words += len(want)
		if got := fts5Tokens(texts[i]); !slices.Equal(got, want) {
			t.Errorf("%q:\n got %q\nFTS5 %q", texts[i], got, want)
		}
	}
	if len(captions) < 800 || words < 20000 {
		t.Errorf("%d captions, %d words: fewer than the eval's", len(captions), words)
	}
	t.Logf("%d captions, %d words", len(captions), words)
}
