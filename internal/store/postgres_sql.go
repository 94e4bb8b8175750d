package store

import (
	"fmt"
	"strconv"
	"strings"
)

// The store's SQL is written once, in the dialect SQLite and PostgreSQL
// share; toPostgres turns the few forms where SQLite's spelling differs into
// PostgreSQL's as each statement reaches the PostgreSQL driver. It is the
// one place that knows those differences (with migrations_postgres, the
// schema); the queries themselves never ask which engine runs them. What
// no rewriting can express (full-text search, JSON paths, integrity checks)
// is a field of the dialect (dialect.go).
//
// The rewrite works on tokens, never inside string literals or quoted
// names:
//   - ? placeholders become $1, $2, … (?NNN $NNN);
//   - INSERT OR IGNORE becomes INSERT … ON CONFLICT DO NOTHING;
//   - INSERT OR REPLACE becomes an upsert on the table's key (replaceKeys);
//   - ifnull( becomes coalesce(; group_concat( string_agg(;
//     two-argument min( and max( LEAST( and GREATEST(;
//   - json_extract(x, '$.a.b') reads the text at a.b in x;
//     json_each(?) the text values of an array; json_group_array(…)
//     json_agg(…) as text (the JSON is the same);
//   - lower(x) folds ASCII letters alone, as SQLite's does;
//   - COLLATE NOCASE is dropped (its queries also compare lower());
//     COLLATE BINARY, SQLite's order of bytes, becomes COLLATE "C", which
//     a query names where the order of text must be the same on both;
//   - INDEXED BY name is dropped (PostgreSQL's planner takes no hints),
//     and so is the unary + that keeps SQLite from a column's index;
//   - one-argument round(x) rounds halves away from zero, as SQLite's
//     does (PostgreSQL rounds a double's halves to even);
//   - the column name user, a reserved word in PostgreSQL, is quoted.
//
// A statement it cannot read (unbalanced brackets, a table INSERT OR
// REPLACE has no key for) is an error, never a panic.
func toPostgres(query string) (string, error) {
	n := 0
	return rewrite(tokenize(query), &n)
}

// rewrite is toPostgres of toks, whose ? placeholders are numbered on
// from *n (a call's arguments are rewritten inside the statement's count).
func rewrite(toks []string, n *int) (string, error) {
	r := &rewriter{toks: toks, n: n}
	for i := 0; i < len(toks); i++ {
		last, err := r.token(i)
		if err != nil {
			return "", err
		}
		i = last
	}
	out := r.b.String()
	if r.conflict != "" {
		out = insertBeforeReturning(out, r.conflict)
	}
	return out, nil
}

// rewriter is one rewrite under way.
type rewriter struct {
	toks     []string
	n        *int
	b        strings.Builder
	conflict string // the clause an INSERT OR … gets at its end
}

// token writes toks[i] as PostgreSQL reads it, with the tokens after it
// that its rule takes; it returns the index of the last token taken.
func (r *rewriter) token(i int) (int, error) {
	toks, t := r.toks, r.toks[i]
	if call := calls[strings.ToLower(t)]; call != nil && followedByParen(toks, i) {
		return call(r, i)
	}
	switch {
	case t == "?":
		return r.placeholder(i)
	case strings.EqualFold(t, "OR") && i >= 2 && strings.EqualFold(toks[i-2], "INSERT"):
		return r.insertOr(i)
	case strings.EqualFold(t, "COLLATE"):
		j := nextWord(toks, i+1)
		if j >= 0 && strings.EqualFold(toks[j], "NOCASE") {
			return j, nil
		} else if j >= 0 && strings.EqualFold(toks[j], "BINARY") {
			r.b.WriteString(`COLLATE "C"`)
			return j, nil
		}
	case strings.EqualFold(t, "INDEXED"):
		// INDEXED BY name: PostgreSQL's planner takes no hints.
		if j := nextWord(toks, i+1); j >= 0 && strings.EqualFold(toks[j], "BY") {
			if k := nextWord(toks, j+1); k >= 0 {
				return k, nil
			}
		}
	case t == "+" && unaryAt(toks, i):
		// SQLite's unary + keeps a column from its index; PostgreSQL has
		// no + of text, nor the need.
		return i, nil
	case strings.EqualFold(t, "user") && (i == 0 || toks[i-1] != "."):
		r.b.WriteString(`"user"`)
		return i, nil
	}
	r.b.WriteString(t)
	return i, nil
}

// placeholder numbers the ? at toks[i]: $n, or $NNN for SQLite's ?NNN.
func (r *rewriter) placeholder(i int) (int, error) {
	if i+1 < len(r.toks) && isDigits(r.toks[i+1]) {
		k, err := strconv.Atoi(r.toks[i+1])
		if err != nil || k < 1 || k > 65535 {
			return 0, fmt.Errorf("store: placeholder ?%s out of range", r.toks[i+1])
		}
		*r.n = max(*r.n, k)
		r.b.WriteString("$" + r.toks[i+1])
		return i + 1, nil
	}
	*r.n++
	r.b.WriteString("$" + strconv.Itoa(*r.n))
	return i, nil
}

// insertOr drops the OR IGNORE / OR REPLACE of an INSERT (the OR at
// toks[i]) and remembers the clause the statement ends with.
func (r *rewriter) insertOr(i int) (int, error) {
	j := nextWord(r.toks, i+1)
	if j < 0 {
		r.b.WriteString(r.toks[i])
		return i, nil
	}
	switch strings.ToUpper(r.toks[j]) {
	case "IGNORE":
		r.conflict = " ON CONFLICT DO NOTHING"
	case "REPLACE":
		c, err := replaceClause(r.toks[j+1:])
		if err != nil {
			return 0, err
		}
		r.conflict = c
	default: // INSERT OR UPDATE of a trigger: no clause
		r.b.WriteString(r.toks[i])
		return i, nil
	}
	if j+1 < len(r.toks) && isSpace(r.toks[j+1]) { // the blank after the word
		j++
	}
	return j, nil
}

// args is the rewrite of the arguments of the call whose "(" is
// toks[open], and the index of its ")".
func (r *rewriter) args(open int) (string, int, error) {
	end, err := callEnd(r.toks, open)
	if err != nil {
		return "", 0, err
	}
	x, err := rewrite(r.toks[open+1:end], r.n)
	return x, end, err
}

// calls are the rules for a function name followed by "(", by the name
// in lower case: each writes the call at toks[i] and returns the index of
// the last token it took.
var calls map[string]func(r *rewriter, i int) (int, error)

func init() {
	renamed := func(to string) func(r *rewriter, i int) (int, error) {
		return func(r *rewriter, i int) (int, error) { r.b.WriteString(to); return i, nil }
	}
	least, greatest := renamed("LEAST"), renamed("GREATEST")
	calls = map[string]func(r *rewriter, i int) (int, error){
		"ifnull":           renamed("coalesce"),
		"group_concat":     renamed("string_agg"),
		"min":              func(r *rewriter, i int) (int, error) { return r.twoArgs(i, least) },
		"max":              func(r *rewriter, i int) (int, error) { return r.twoArgs(i, greatest) },
		"round":            (*rewriter).round,
		"lower":            (*rewriter).lower,
		"json_extract":     (*rewriter).jsonExtract,
		"json_each":        (*rewriter).jsonEach,
		"json_group_array": (*rewriter).jsonGroupArray,
	}
}

// twoArgs is min( or max( of two or more arguments, SQLite's scalar:
// PostgreSQL's LEAST( or GREATEST(; of one, the aggregate, kept.
func (r *rewriter) twoArgs(i int, scalar func(r *rewriter, i int) (int, error)) (int, error) {
	if argCount(r.toks, i+1) > 1 {
		return scalar(r, i)
	}
	r.b.WriteString(r.toks[i])
	return i, nil
}

// round(x): SQLite rounds halves away from zero, PostgreSQL a double's
// halves to even; x is written twice, so a round inside it is refused
// (each would double the statement). round(x, places) is kept.
func (r *rewriter) round(i int) (int, error) {
	if argCount(r.toks, i+1) != 1 {
		r.b.WriteString(r.toks[i])
		return i, nil
	}
	end, err := callEnd(r.toks, i+1)
	if err != nil {
		return 0, err
	}
	for k := i + 2; k < end; k++ {
		if strings.EqualFold(r.toks[k], "round") && followedByParen(r.toks, k) {
			return 0, fmt.Errorf("store: round() inside round() is not rewritten")
		}
	}
	x, end, err := r.args(i + 1)
	if err != nil {
		return 0, err
	}
	r.b.WriteString("trunc((" + x + ") + sign((" + x + ")) * 0.5)")
	return end, nil
}

// lower(x): SQLite's folds ASCII letters alone, PostgreSQL's every
// script's; names compared without case compare alike.
func (r *rewriter) lower(i int) (int, error) {
	x, end, err := r.args(i + 1)
	if err != nil {
		return 0, err
	}
	r.b.WriteString("translate(" + x + ", '" + asciiUpper + "', '" + strings.ToLower(asciiUpper) + "')")
	return end, nil
}

// jsonExtract: json_extract(expr, '$.a.b') → (CAST(expr AS jsonb) #>> '{a,b}').
func (r *rewriter) jsonExtract(i int) (int, error) {
	end, err := callEnd(r.toks, i+1)
	if err != nil {
		return 0, err
	}
	args := splitArgs(r.toks[i+2 : end])
	if len(args) != 2 {
		return 0, fmt.Errorf("store: json_extract takes one path here")
	}
	x, err := rewrite(args[0], r.n)
	if err != nil {
		return 0, err
	}
	path := strings.Trim(strings.TrimSpace(strings.Join(args[1], "")), "'")
	path = strings.ReplaceAll(strings.TrimPrefix(path, "$."), ".", ",")
	r.b.WriteString("(CAST(" + x + " AS jsonb) #>> '{" + path + "}')")
	return end, nil
}

// jsonEach: json_each(x) → the text values of the array x, as value.
func (r *rewriter) jsonEach(i int) (int, error) {
	x, end, err := r.args(i + 1)
	if err != nil {
		return 0, err
	}
	r.b.WriteString("json_array_elements_text(CAST(" + x + " AS json)) AS value")
	return end, nil
}

// jsonGroupArray: json_group_array(x) → json_agg(x) as text.
func (r *rewriter) jsonGroupArray(i int) (int, error) {
	x, end, err := r.args(i + 1)
	if err != nil {
		return 0, err
	}
	r.b.WriteString("CAST(json_agg(" + x + ") AS text)")
	return end, nil
}

// unaryAt reports whether the + at toks[i] is unary: after no value (an
// opening bracket, a comma, an operator or a keyword).
func unaryAt(toks []string, i int) bool {
	j := i - 1
	for j >= 0 && isSpace(toks[j]) {
		j--
	}
	if j < 0 {
		return true
	}
	switch p := strings.ToUpper(toks[j]); p {
	case "(", ",", "=", "<", ">", "!", "+", "-", "*", "/", "%", "|",
		"SELECT", "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "THEN", "ELSE", "BY", "IN", "IS", "BETWEEN", "SET", "RETURNING", "CASE":
		return true
	}
	return false
}

const asciiUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// replaceKeys is the key INSERT OR REPLACE replaces on, by table: the
// primary key, which is what SQLite's REPLACE conflicts on in these tables.
var replaceKeys = map[string]string{
	"corrections":    "photo",
	"frames":         "sha256",
	"review_touched": "mention_key",
	"archive_tasks":  "name",
}

// replaceClause is the ON CONFLICT clause of INSERT OR REPLACE INTO t (cols):
// every column set to the new row's value.
func replaceClause(rest []string) (string, error) {
	j := nextWord(rest, 0) // INTO
	if j < 0 {
		return "", nil
	}
	k := nextWord(rest, j+1) // the table
	if k < 0 {
		return "", nil
	}
	table := rest[k]
	key := replaceKeys[table]
	if key == "" {
		return "", fmt.Errorf("store: INSERT OR REPLACE INTO %s has no key in replaceKeys", table)
	}
	var cols []string
	depth := 0
	for _, t := range rest[k+1:] {
		if t == "(" {
			depth++
			continue
		}
		if t == ")" {
			break
		}
		if depth == 1 && t != "," && !isSpace(t) {
			cols = append(cols, t)
		}
	}
	var set []string
	for _, c := range cols {
		if c != key {
			set = append(set, c+" = excluded."+c)
		}
	}
	if len(set) == 0 {
		return " ON CONFLICT (" + key + ") DO NOTHING", nil
	}
	return " ON CONFLICT (" + key + ") DO UPDATE SET " + strings.Join(set, ", "), nil
}

// insertBeforeReturning adds clause at the end of the statement, before a
// RETURNING if it has one.
func insertBeforeReturning(q, clause string) string {
	q = strings.TrimRight(q, " \t\n;")
	if i := strings.LastIndex(strings.ToUpper(q), " RETURNING "); i >= 0 {
		return q[:i] + clause + q[i:]
	}
	return q + clause
}

// tokenize splits SQL into words, single punctuation, runs of blanks,
// string literals and quoted names, each whole, so that joining the tokens
// gives the query back.
func tokenize(q string) []string {
	var toks []string
	for i := 0; i < len(q); {
		c := q[i]
		j := i + 1
		switch {
		case c == '\'' || c == '"' || c == '`':
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c { // doubled quote
						j += 2
						continue
					}
					j++
					break
				}
				j++
			}
		case c == '-' && j < len(q) && q[j] == '-':
			for j < len(q) && q[j] != '\n' {
				j++
			}
		case isSpaceByte(c):
			for j < len(q) && isSpaceByte(q[j]) {
				j++
			}
		case isWordByte(c):
			for j < len(q) && isWordByte(q[j]) {
				j++
			}
		}
		toks = append(toks, q[i:j])
		i = j
	}
	return toks
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
func isSpace(t string) bool { return t != "" && isSpaceByte(t[0]) || strings.HasPrefix(t, "--") }

// nextWord is the index of the first token from i that is not blank, or -1.
func nextWord(toks []string, i int) int {
	for ; i < len(toks); i++ {
		if !isSpace(toks[i]) {
			return i
		}
	}
	return -1
}

func followedByParen(toks []string, i int) bool {
	return i+1 < len(toks) && toks[i+1] == "("
}

// argCount counts the arguments of the call whose "(" is toks[open].
func argCount(toks []string, open int) int {
	depth, n := 0, 1
	for _, t := range toks[open:] {
		switch t {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return n
			}
		case ",":
			if depth == 1 {
				n++
			}
		}
	}
	return n
}

func isDigits(t string) bool {
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return t != ""
}

// callEnd is the index of the ")" that closes the "(" at toks[open].
func callEnd(toks []string, open int) (int, error) {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i] {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("store: unbalanced brackets in a statement")
}

// splitArgs splits a call's argument tokens into its arguments.
func splitArgs(toks []string) [][]string {
	var args [][]string
	depth, start := 0, 0
	for i, t := range toks {
		switch t {
		case "(":
			depth++
		case ")":
			depth--
		case ",":
			if depth == 0 {
				args = append(args, toks[start:i])
				start = i + 1
			}
		}
	}
	return append(args, toks[start:])
}
