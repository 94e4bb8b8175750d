package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// rowState is what a photo's custody records say its row must hold: the
// caption's SHA-256 and the date of its last import, the placement of
// its last person's decision, the last harm mark, the geocoder's last
// answer, the credit, the re-use flag and the event links. A field no
// record sets is not checked (records written before the field was
// kept: an import's credit and the geocoder's point since issue 65).
type rowState struct {
	records            int    // the records that name the photo
	last               string // the last one's action
	captionSHA, date   string
	hasDate            bool
	review             string // "" when no decision was recorded
	placeID            string
	lon, lat           *float64
	harm               string
	hasHarm, hasReview bool
	// verified is what the last record that set it says (a placement
	// clears it; a second look or an adjudication sets it).
	verified, hasVerified bool
	geo                   geoState
	credit                [2]*string // photographer, agency
	reuse, reuseOf        string
	links                 map[string]string // dataset event → decision
}

// geoState is the geocoder's answer as the last import, reimport or
// regeocode recorded it.
type geoState struct {
	set, hasPoint bool
	placeID       string
	lon, lat      *float64
	digest        string
}

// placementActions are the custody actions that set a photo's placement
// by a person's word (or take it back).
var placementActions = map[string]bool{"correct": true, "confirm": true, "undo": true, "unplace": true, "move": true, "adjudicate": true}

// recordDetail is a custody record's detail, field by field: a field
// of another type than CheckRows reads is as if absent, never a reason
// to drop the record's other fields.
type recordDetail map[string]json.RawMessage

// str is the detail's field as a string; nil when absent or not one.
func (d recordDetail) str(key string) *string {
	var v string
	if json.Unmarshal(d[key], &v) != nil {
		return nil
	}
	return &v
}

// apply folds one custody record into the state.
func (st *rowState) apply(action, detail string) {
	st.records++
	st.last = action
	var d recordDetail
	if json.Unmarshal([]byte(detail), &d) != nil {
		return
	}
	switch {
	case action == "import" || action == "reimport":
		if v := d.str("caption_sha256"); v != nil {
			st.captionSHA = *v
		}
		if v := d.str("date"); v != nil {
			st.date, st.hasDate = *v, true
		}
		for i, key := range []string{"photographer", "agency"} {
			if v := d.str(key); v != nil {
				st.credit[i] = v
			}
		}
		st.geo.apply(d["placement"])
	case action == "regeocode":
		st.geo.apply(d["placement"])
	case action == "fix":
		st.applyFix(d["after"])
	case action == "harm":
		if v := d.str("after"); v != nil {
			st.harm, st.hasHarm = *v, true
		}
	case action == "reuse":
		if v := d.str("reuse"); v != nil {
			st.reuse, st.reuseOf = *v, orEmpty(d.str("of"))
		}
	case action == "event-link":
		dataset, event, after := d.str("dataset"), d.str("event"), d.str("after")
		if dataset != nil && event != nil && after != nil {
			if st.links == nil {
				st.links = map[string]string{}
			}
			st.links[*dataset+" "+*event] = *after
		}
	case action == "second-look":
		var a struct {
			Verified *bool `json:"verified"`
		}
		if json.Unmarshal(d["after"], &a) == nil && a.Verified != nil {
			st.verified, st.hasVerified = *a.Verified, true
		}
	case placementActions[action]:
		st.applyPlacement(action, d["after"])
	}
}

// applyFix folds a person's fix of the date and credit.
func (st *rowState) applyFix(after json.RawMessage) {
	var a struct {
		Date         *string `json:"date"`
		Photographer *string `json:"photographer"`
		Agency       *string `json:"agency"`
	}
	if json.Unmarshal(after, &a) != nil {
		return
	}
	st.date, st.hasDate = "", true
	if a.Date != nil {
		st.date = *a.Date
	}
	// A fix records the credit after it whole; null is none.
	st.credit = [2]*string{ptr(orEmpty(a.Photographer)), ptr(orEmpty(a.Agency))}
}

// applyPlacement folds a person's decision on the placement.
func (st *rowState) applyPlacement(action string, after json.RawMessage) {
	var a struct {
		Verified *bool    `json:"verified"`
		PlaceID  string   `json:"place_id"`
		Review   string   `json:"review"`
		Lon      *float64 `json:"lon"`
		Lat      *float64 `json:"lat"`
	}
	if json.Unmarshal(after, &a) != nil {
		return
	}
	st.review, st.placeID, st.lon, st.lat, st.hasReview = a.Review, a.PlaceID, a.Lon, a.Lat, true
	// A placement moved with its place keeps its standing; any other
	// clears it, but an adjudication's.
	if action != "move" {
		st.verified, st.hasVerified = a.Verified != nil && *a.Verified, true
	}
	// A place that moved moves the photos the geocoder put there.
	if action == "move" && orAutomatic(photo.Review(a.Review)) == photo.ReviewAutomatic && st.geo.hasPoint {
		st.geo.lon, st.geo.lat = a.Lon, a.Lat
	}
}

// apply folds a record's placement (geocoderState's fields). A record
// written before the placement's digest was kept (issue 65) leaves the
// geocoder's answer unknown: `regeocode` then wrote no record, so the
// place such a record names may since have been replaced by syriamap
// itself, and only a newer import or regeocode record is checked.
func (g *geoState) apply(raw json.RawMessage) {
	*g = geoState{}
	var p map[string]json.RawMessage
	if json.Unmarshal(raw, &p) != nil {
		return
	}
	var id, digest string
	if json.Unmarshal(p["place_id"], &id) != nil || json.Unmarshal(p["geo_digest"], &digest) != nil || digest == "" {
		return
	}
	g.set, g.placeID, g.digest = true, id, digest
	lon, okLon := p["lon"]
	lat, okLat := p["lat"]
	if g.hasPoint = okLon && okLat; g.hasPoint {
		json.Unmarshal(lon, &g.lon)
		json.Unmarshal(lat, &g.lat)
	}
}

func ptr(s string) *string { return &s }

func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// storedRow is a photo's row as CheckRows reads it.
type storedRow struct {
	id, caption, review, placeID, harm string
	verified                           bool
	from, to                           sql.NullInt64
	prec                               sql.NullString
	lon, lat                           sql.NullFloat64
	photographer, agency               string
	geocoded, geoDigest                string
	reuse, reuseOf, events             string
	links                              map[string]string // dataset event → decision
}

// differences says how row differs from what its custody records say.
func (st rowState) differences(row storedRow) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if st.captionSHA != "" && sha256Hex(row.caption) != st.captionSHA {
		bad("its caption is not the one its custody records (SHA-256 %s)", st.captionSHA)
	}
	if date := dateOf(row.from, row.to, row.prec); st.hasDate && date != st.date {
		bad("its date is %q, but its custody records %q", date, st.date)
	}
	if st.hasHarm && row.harm != st.harm {
		bad("its harm mark is %q, but its custody records %q", row.harm, st.harm)
	}
	if !st.hasHarm && row.harm != "" {
		bad("it is marked %q, but no custody record marks it", row.harm)
	}
	if row.verified && !st.verified {
		bad("it is marked verified, but its custody records no second editor's agreement since its last placement")
	}
	for i, c := range []struct{ what, got string }{{"photographer", row.photographer}, {"agency", row.agency}} {
		if want := st.credit[i]; want != nil && c.got != *want {
			bad("its %s is %q, but its custody records %q", c.what, c.got, *want)
		}
	}
	if row.reuse != st.reuse || row.reuseOf != st.reuseOf {
		bad("its re-use flag is %q (of %q), but its custody records %q (of %q)", row.reuse, row.reuseOf, st.reuse, st.reuseOf)
	}
	out = append(out, st.linkDifferences(row)...)
	out = append(out, st.geoDifferences(row)...)
	if !st.hasReview {
		return out
	}
	if got, want := orAutomatic(photo.Review(row.review)), orAutomatic(photo.Review(st.review)); got != want {
		bad("its review is %q, but its custody records %q", got, want)
	} else if want != photo.ReviewAutomatic && (row.placeID != st.placeID || !sameCoord(row.lon, st.lon) || !sameCoord(row.lat, st.lat)) {
		bad("it is placed at %s (%v, %v), but its custody records %s (%v, %v)",
			row.placeID, row.lon.Float64, row.lat.Float64, st.placeID, orNil(st.lon), orNil(st.lat))
	}
	return out
}

// geoDifferences says how the geocoder's answer the row keeps differs
// from its last import or regeocode record: the geocoded column when
// the place shown is not the geocoder's (a person's, or a point a file
// gave), else the placement columns.
func (st rowState) geoDifferences(row storedRow) []string {
	g := st.geo
	if !g.set {
		return nil
	}
	id, lon, lat := row.placeID, row.lon, row.lat
	switch {
	case row.geocoded != "":
		var p photo.Place
		if json.Unmarshal([]byte(row.geocoded), &p) != nil {
			return []string{"the geocoder's answer it keeps is not JSON"}
		}
		id, lon, lat = p.ID, sql.NullFloat64{Float64: p.Lon, Valid: p.Located}, sql.NullFloat64{Float64: p.Lat, Valid: p.Located}
	case !st.automatic(row):
		return nil // shown where a person put it; the geocoder's answer is not kept apart
	}
	var out []string
	if id != g.placeID {
		out = append(out, fmt.Sprintf("the geocoder placed it at %q, but its custody records %q", id, g.placeID))
	} else if g.hasPoint && (!sameCoord(lon, g.lon) || !sameCoord(lat, g.lat)) {
		out = append(out, fmt.Sprintf("the geocoder's point is (%v, %v), but its custody records (%v, %v)", nullable(lon), nullable(lat), orNil(g.lon), orNil(g.lat)))
	}
	if row.geoDigest != g.digest {
		out = append(out, fmt.Sprintf("the geocoder's answer it keeps has digest %s, but its custody records %s", row.geoDigest, g.digest))
	}
	return out
}

// automatic reports whether the row shows the geocoder's placement (none
// by a person, or a person's confirmation of it).
func (st rowState) automatic(row storedRow) bool {
	r := orAutomatic(photo.Review(row.review))
	return r == photo.ReviewAutomatic || r == photo.ReviewConfirmed
}

// linkDifferences says how the photo's event links differ from their
// custody records.
func (st rowState) linkDifferences(row storedRow) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(row.links)) {
		if got, want := row.links[k], st.links[k]; got != want {
			out = append(out, fmt.Sprintf("its link to event %s is %q, but its custody records %q", k, got, orNone(want)))
		}
	}
	var confirmed []string
	for _, k := range slices.Sorted(maps.Keys(st.links)) {
		if _, ok := row.links[k]; !ok && st.links[k] != "" {
			out = append(out, fmt.Sprintf("its link to event %s is gone, but its custody records %q", k, st.links[k]))
		}
		if dataset, event, _ := strings.Cut(k, " "); photo.Public.SeesDataset(dataset) && st.links[k] == photo.LinkConfirmed {
			confirmed = append(confirmed, dataset+":"+event)
		}
	}
	if want := strings.Join(confirmed, " "); row.events != want {
		out = append(out, fmt.Sprintf("its events are %q, but its custody records %q", row.events, want))
	}
	return out
}

// custodyCursor reads the custody records of photos in id order, one
// photo's at a time.
type custodyCursor struct {
	rows               *sql.Rows
	ok                 bool
	id, action, detail string
	err                error
}

func (c *custodyCursor) next() {
	if c.ok = c.rows.Next(); c.ok {
		c.err = c.rows.Scan(&c.id, &c.action, &c.detail)
		c.ok = c.err == nil
	} else {
		c.err = c.rows.Err()
	}
}

// take folds the records of photo id into a state; records of photos
// before id (whose rows are gone) are told to gone.
func (c *custodyCursor) take(id string, gone func(string, rowState)) rowState {
	var st, lost rowState
	lostID := ""
	for c.ok && c.id <= id {
		switch {
		case c.id == id:
			st.apply(c.action, c.detail)
		default:
			if c.id != lostID {
				if lostID != "" {
					gone(lostID, lost)
				}
				lostID, lost = c.id, rowState{}
			}
			lost.apply(c.action, c.detail)
		}
		c.next()
	}
	if lostID != "" {
		gone(lostID, lost)
	}
	return st
}

// CheckRows checks every photo's row against its custody records: its
// caption against the SHA-256 its last import recorded, its date against
// the last import or fix, its placement against the last person's
// decision, the geocoder's answer against its last import or regeocode,
// its credit against the last import or fix, its harm mark against the
// last mark, its re-use flag against the last frames record, its event
// links against theirs. A row edited by hand (a caption or date changed,
// a withheld mark taken off) is named; so is a photo custody names whose
// row is gone, and a row whose values are not of their column's type (a
// date stored as text): a problem of the photo, not an error.
func (s *DB) CheckRows(ctx context.Context, progress func(done, total int64)) (checked int64, problems []ChainProblem, err error) {
	var total int64
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM photos`).Scan(&total); err != nil {
		return 0, nil, fmt.Errorf("store: %w", err)
	}
	links, err := s.allEventLinks(ctx)
	if err != nil {
		return 0, nil, err
	}
	// Both in id order (the custody index is by photo, then seq): a merge.
	recs, err := s.read.QueryContext(ctx, `SELECT photo_id, action, detail FROM custody WHERE photo_id != '' ORDER BY photo_id, seq`)
	if err != nil {
		return 0, nil, fmt.Errorf("store: %w", err)
	}
	defer recs.Close()
	rows, err := s.read.QueryContext(ctx, `SELECT `+checkedColumns+` FROM photos ORDER BY id`)
	if err != nil {
		return 0, nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	cur := &custodyCursor{rows: recs}
	cur.next()
	gone := func(id string, st rowState) {
		problems = append(problems, ChainProblem{PhotoID: id, What: fmt.Sprintf(
			"its row is gone (deleted outside syriamap), yet %d custody records name it (the last: %s)", st.records, st.last)})
	}
	for rows.Next() {
		row, malformed, err := scanCheckedRow(rows)
		if err != nil {
			return checked, problems, err
		}
		row.links = links[row.id]
		st := cur.take(row.id, gone)
		if cur.err != nil {
			return checked, problems, cur.err
		}
		whats := malformed
		if len(malformed) == 0 {
			whats = st.differences(row)
		}
		for _, what := range whats {
			problems = append(problems, ChainProblem{PhotoID: row.id, What: what + ": the row was changed outside syriamap"})
		}
		checked++
		if progress != nil && checked%4096 == 0 {
			progress(checked, total)
		}
	}
	if err := rows.Err(); err != nil {
		return checked, problems, err
	}
	cur.take("\U0010FFFF", gone) // the records after the last row
	if progress != nil {
		progress(checked, total)
	}
	return checked, problems, cur.err
}

// allEventLinks reads every photo's event links: by photo, dataset and
// event, the decision.
func (s *DB) allEventLinks(ctx context.Context) (map[string]map[string]string, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT photo, dataset, event, decision FROM photo_event_links`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	out := map[string]map[string]string{}
	for rows.Next() {
		var id, dataset, event, decision string
		if err := rows.Scan(&id, &dataset, &event, &decision); err != nil {
			return nil, fmt.Errorf("store: reading event links: %w", err)
		}
		if out[id] == nil {
			out[id] = map[string]string{}
		}
		out[id][dataset+" "+event] = decision
	}
	return out, rows.Err()
}

// checkedColumns are the columns CheckRows reads, in scanCheckedRow's
// order.
const checkedColumns = `id, caption, date_from, date_to, date_precision, review, place_id, lon, lat, harm, verified,
	photographer, agency, geocoded, geo_digest, reuse, reuse_of, events`

// scanCheckedRow reads a row of checkedColumns as the database holds it,
// whatever is stored: a value not of its column's type (a date stored as
// text) is said in malformed rather than failing the scan.
func scanCheckedRow(rows *sql.Rows) (row storedRow, malformed []string, err error) {
	var v [18]any
	ptrs := make([]any, len(v))
	for i := range v {
		ptrs[i] = &v[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return row, nil, fmt.Errorf("store: reading a photo's row: %w", err)
	}
	r := rowReader{}
	row.id = r.text("id", v[0])
	for i, dst := range []*string{&row.caption, nil, nil, nil, &row.review, &row.placeID, nil, nil, &row.harm, nil,
		&row.photographer, &row.agency, &row.geocoded, &row.geoDigest, &row.reuse, &row.reuseOf, &row.events} {
		if dst != nil {
			*dst = r.text(checkedNames[i+1], v[i+1])
		}
	}
	row.from, row.to = r.integer("date_from", v[2]), r.integer("date_to", v[3])
	if v[4] != nil {
		row.prec = sql.NullString{String: r.text("date_precision", v[4]), Valid: true}
	}
	row.lon, row.lat = r.real("lon", v[7]), r.real("lat", v[8])
	row.verified = r.integer("verified", v[10]).Int64 != 0
	return row, r.problems, nil
}

// checkedNames are checkedColumns' names, by index.
var checkedNames = func() []string {
	names := strings.Split(checkedColumns, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
	}
	return names
}()

// rowReader converts a row's values as the driver gives them, noting
// those not of their column's type.
type rowReader struct{ problems []string }

func (r *rowReader) wrong(col string, v any, want string) {
	r.problems = append(r.problems, fmt.Sprintf("its %s is stored as %v (%T), not %s", col, v, v, want))
}

func (r *rowReader) text(col string, v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	}
	r.wrong(col, v, "text")
	return fmt.Sprint(v)
}

func (r *rowReader) integer(col string, v any) sql.NullInt64 {
	switch x := v.(type) {
	case nil:
		return sql.NullInt64{}
	case int64:
		return sql.NullInt64{Int64: x, Valid: true}
	case bool:
		return sql.NullInt64{Int64: map[bool]int64{true: 1}[x], Valid: true}
	}
	r.wrong(col, v, "a whole number")
	return sql.NullInt64{}
}

func (r *rowReader) real(col string, v any) sql.NullFloat64 {
	switch x := v.(type) {
	case nil:
		return sql.NullFloat64{}
	case float64:
		return sql.NullFloat64{Float64: x, Valid: true}
	case int64:
		return sql.NullFloat64{Float64: float64(x), Valid: true}
	}
	r.wrong(col, v, "a number")
	return sql.NullFloat64{}
}

func nullable(f sql.NullFloat64) any {
	if !f.Valid {
		return nil
	}
	return f.Float64
}

func dateOf(from, to sql.NullInt64, prec sql.NullString) string {
	if !prec.Valid {
		return ""
	}
	return photo.DateFromSpan(int(from.Int64), int(to.Int64), prec.String).String()
}

func sameCoord(got sql.NullFloat64, want *float64) bool {
	if want == nil {
		return !got.Valid
	}
	return got.Valid && math.Abs(got.Float64-*want) < 1e-9
}

func orNil(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}
