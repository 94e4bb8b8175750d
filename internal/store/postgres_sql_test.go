package store

import (
	"strings"
	"testing"
)

// TestToPostgres: each rule of toPostgres, and what it leaves alone.
func TestToPostgres(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"placeholders", `SELECT a FROM t WHERE b = ? AND c = ?`, `SELECT a FROM t WHERE b = $1 AND c = $2`},
		{"numbered placeholders", `SELECT ?2, ?1, ?2`, `SELECT $2, $1, $2`},
		{"numbered then plain", `SELECT ?1, ?`, `SELECT $1, $2`},
		{"a ? in a string literal", `SELECT '?' || ? FROM t WHERE x = 'it''s ?'`, `SELECT '?' || $1 FROM t WHERE x = 'it''s ?'`},
		{"a ? in a quoted name", `SELECT "a?" FROM t WHERE b = ?`, `SELECT "a?" FROM t WHERE b = $1`},
		{"a ? in a comment", "SELECT a -- why?\nFROM t WHERE b = ?", "SELECT a -- why?\nFROM t WHERE b = $1"},
		{"insert or ignore", `INSERT OR IGNORE INTO t (a) VALUES (?)`, `INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING`},
		{"insert or ignore returning", `INSERT OR IGNORE INTO t (a) VALUES (?) RETURNING rowid`,
			`INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING RETURNING rowid`},
		{"insert or replace", `INSERT OR REPLACE INTO corrections (photo, place_id) VALUES (?, ?)`,
			`INSERT INTO corrections (photo, place_id) VALUES ($1, $2) ON CONFLICT (photo) DO UPDATE SET place_id = excluded.place_id`},
		{"insert or replace of the key alone", `INSERT OR REPLACE INTO frames (sha256) VALUES (?)`,
			`INSERT INTO frames (sha256) VALUES ($1) ON CONFLICT (sha256) DO NOTHING`},
		{"a trigger's insert or update", `AFTER INSERT OR UPDATE OR DELETE ON photos`, `AFTER INSERT OR UPDATE OR DELETE ON photos`},
		{"json_extract", `SELECT json_extract(detail, '$.a.b') FROM t`, `SELECT (CAST(detail AS jsonb) #>> '{a,b}') FROM t`},
		{"json_extract of a placeholder, numbered on", `SELECT ?, json_extract(?, '$.id'), ?`,
			`SELECT $1, (CAST($2 AS jsonb) #>> '{id}'), $3`},
		{"json_each", `SELECT value FROM json_each(?) WHERE x = ?`,
			`SELECT value FROM json_array_elements_text(CAST($1 AS json)) AS value WHERE x = $2`},
		{"json_group_array", `SELECT json_group_array(DISTINCT ifnull(m, ?)) FROM t`,
			`SELECT CAST(json_agg(DISTINCT coalesce(m, $1)) AS text) FROM t`},
		{"ifnull, group_concat", `SELECT ifnull(group_concat(a, ' '), '')`, `SELECT coalesce(string_agg(a, ' '), '')`},
		{"two-argument min and max", `SELECT min(a, b), max(a, ?)`, `SELECT LEAST(a, b), GREATEST(a, $1)`},
		{"aggregate min and max", `SELECT min(a), max(f(a, b))`, `SELECT min(a), max(f(a, b))`},
		{"user quoted", `SELECT user FROM tokens`, `SELECT "user" FROM tokens`},
		{"t.user kept", `SELECT t.user FROM tokens t`, `SELECT t.user FROM tokens t`},
		{"'user' kept", `SELECT 'user'`, `SELECT 'user'`},
		{"COLLATE NOCASE dropped", `WHERE name = ? COLLATE NOCASE OR lower(name) = lower(?)`,
			`WHERE name = $1  OR translate(name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = translate($2, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`},
		{"COLLATE BINARY is C", `ORDER BY k COLLATE BINARY, n`, `ORDER BY k COLLATE "C", n`},
		{"INDEXED BY dropped", `SELECT id FROM photos INDEXED BY photos_review WHERE a = ?`, `SELECT id FROM photos  WHERE a = $1`},
		{"unary + dropped", `WHERE a = 1 AND +dataset IN ('x') AND b = (+c)`, `WHERE a = 1 AND dataset IN ('x') AND b = (c)`},
		{"binary + kept", `SELECT a + 1, (b) + ?, 'x' + 2`, `SELECT a + 1, (b) + $1, 'x' + 2`},
		{"round halves away from zero", `SELECT round(x * ?)`, `SELECT trunc((x * $1) + sign((x * $1)) * 0.5)`},
		{"round of one placeholder, numbered on", `SELECT round(x * ?), ?`, `SELECT trunc((x * $1) + sign((x * $1)) * 0.5), $2`},
		{"round to places kept", `SELECT round(x, 2)`, `SELECT round(x, 2)`},
		{"words in literals kept", `SELECT 'INSERT OR IGNORE', 'round(x)', 'INDEXED BY'`, `SELECT 'INSERT OR IGNORE', 'round(x)', 'INDEXED BY'`},
	} {
		got, err := toPostgres(c.in)
		if err != nil || got != c.want {
			t.Errorf("%s: toPostgres(%q)\n = %q, %v\nwant %q", c.name, c.in, got, err, c.want)
		}
	}
}

// TestToPostgresRefuses: what it cannot rewrite is an error, not a panic.
func TestToPostgresRefuses(t *testing.T) {
	for _, q := range []string{
		`INSERT OR REPLACE INTO nowhere (a) VALUES (?)`,
		`SELECT json_extract(a FROM t`,
		`SELECT json_extract(a) FROM t`,
		`SELECT ?0`,
		`SELECT ?99999999999999999999`,
		`SELECT round(round(x))`, // written twice over, each round would double the statement
	} {
		if got, err := toPostgres(q); err == nil {
			t.Errorf("toPostgres(%q) = %q; want an error", q, got)
		}
	}
}

// FuzzToPostgres: no statement makes toPostgres panic, and one without
// anything to rewrite comes back as it went.
func FuzzToPostgres(f *testing.F) {
	for _, s := range []string{`SELECT ? FROM t`, `INSERT OR REPLACE INTO frames (sha256, hash) VALUES (?1, ?2)`,
		`SELECT json_extract(x, '$.a'), round(min(a, b)), lower(+c) FROM t INDEXED BY i`, `'unterminated`, `round(`, `json_each(`, "-- x\n?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got, err := toPostgres(q)
		if err != nil {
			return
		}
		if !strings.ContainsAny(q, "?+") && !strings.ContainsAny(strings.ToLower(q), "ijlmnorsuv") && got != q {
			t.Errorf("toPostgres(%q) = %q; nothing was to change", q, got)
		}
	})
}
