package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
	"github.com/syriamap/syriamap/internal/photo"
)

// where turns a filter into a WHERE clause (without the keyword, "TRUE" when
// the filter selects all) and its arguments, as ctx's viewer may see it:
// unless that is an editor (photo.ViewerOf), the withheld photos are left
// out. Every read of photos is built here or takes visible's rule, so no
// read skips it.
func (s *DB) where(ctx context.Context, f photo.Filter) (string, []any, error) {
	var conds []string
	var args []any
	add := func(cond string, a ...any) {
		conds = append(conds, cond)
		args = append(args, a...)
	}
	if cond, a, err := windowSQL(f); err != nil {
		return "", nil, err
	} else if cond != "" {
		add(cond, a...)
	}
	if b := f.BBox; b != nil {
		add("lon BETWEEN ? AND ? AND lat BETWEEN ? AND ?", b.Min.Lon(), b.Max.Lon(), b.Min.Lat(), b.Max.Lat())
	}
	if cond, a, err := s.queryCond(f.Query); err != nil {
		return "", nil, err
	} else if cond != "" {
		add(cond, a...)
	}
	in := func(col string, vals []string) string {
		for _, v := range vals {
			args = append(args, v)
		}
		return col + " IN (" + strings.TrimSuffix(strings.Repeat("?,", len(vals)), ",") + ")"
	}
	if len(f.Agencies) > 0 {
		conds = append(conds, in("agency", agencyIDsOf(f.Agencies)))
	}
	if len(f.Photographers) > 0 {
		conds = append(conds, in("photographer", f.Photographers))
	}
	if len(f.PlaceIDs) > 0 {
		conds = append(conds, in("place_id", f.PlaceIDs))
	}
	if len(f.Governorates) > 0 {
		conds = append(conds, "("+in("gov_pcode", f.Governorates)+" OR "+in("governorate", f.Governorates)+")")
	}
	if len(f.Agreements) > 0 {
		conds = append(conds, in("agreement", f.Agreements))
	}
	if f.MinConfidence > 0 {
		add("confidence >= ?", f.MinConfidence)
	}
	if f.Reuse != "" {
		add("reuse = ?", f.Reuse)
	}
	if f.Verified {
		add("verified = 1")
	}
	if f.Event != "" {
		cond, a := eventCond(ctx, f.Event)
		add(cond, a...)
	}
	if len(f.IDs) > 0 {
		conds = append(conds, in("id", f.IDs))
	}
	if f.Unplaced {
		if b := blind(ctx); b != "FALSE" {
			add("(lon IS NULL OR rowid IN (SELECT rowid FROM photos WHERE " + b + "))")
		} else {
			add("lon IS NULL")
		}
	}
	if f.Unreviewed {
		add("review = ''")
	}
	if f.MentionKey != nil {
		add("mention_key = ?", *f.MentionKey)
	}
	if f.After != 0 {
		cond, n := afterSQL(f)
		a := make([]any, n)
		for i := range a {
			a[i] = f.After
		}
		add(cond, a...)
	}
	for _, c := range f.Conds {
		cond, arg, err := condSQL(c)
		if err != nil {
			return "", nil, err
		}
		add(cond, arg)
	}
	if v := visible(ctx); v != "TRUE" {
		add(v)
	}
	if b := blind(ctx); b != "FALSE" && byPlacement(f) {
		// A placement ctx's viewer may not see selects nothing by where
		// it is (Viewer.Shown shows the photo unplaced).
		add("rowid NOT IN (SELECT rowid FROM photos WHERE " + b + ")")
	}
	if len(conds) == 0 {
		return "TRUE", nil, nil
	}
	return strings.Join(conds, " AND "), args, nil
}

// queryCond is the condition of the caption search query ("" for none)
// and its arguments: the captions that match it (searchCond), and, when
// it names a source in either script, that source's photos, whatever
// script their captions are in (lexicon.Agencies). A search FTS5 would
// refuse is refused as invalid, on either engine.
func (s *DB) queryCond(query string) (string, []any, error) {
	q := ftsQuery(query)
	if q == "" {
		return "", nil, nil
	}
	cond, a, err := s.searchCond(q)
	if err != nil {
		return "", nil, photo.ParamErrorf("q", searchSyntaxMessage, query)
	}
	if ag, ok := lexicon.AgencyOf(strings.Trim(query, `" `)); ok {
		cond, a = "("+cond+" OR agency = ?)", append(a, ag.ID)
	}
	return cond, a, nil
}

// searchCond is the condition that a caption matches the full-text
// search q (ftsQuery's): q itself (searchSQL), or, when WidenSearch reads
// a place's name in it, each of its parts, one of whose search keys the
// caption holds.
func (s *DB) searchCond(q string) (string, []any, error) {
	var parts [][]string
	if s.WidenSearch != nil {
		parts = s.WidenSearch(q)
	}
	if parts == nil {
		return searchSQL(s.sql(), q)
	}
	var and []string
	var args []any
	for _, part := range parts {
		var or []string
		for _, key := range part {
			cond, a, err := searchSQL(s.sql(), key)
			if err != nil {
				return "", nil, err
			}
			or, args = append(or, cond), append(args, a...)
		}
		and = append(and, "("+strings.Join(or, " OR ")+")")
	}
	return "(" + strings.Join(and, " AND ") + ")", args, nil
}

// windowSQL is the condition of f's time window, "" for none. The
// window's rule and its numbers are photo.Window's (the memory index
// applies the same); the photos to look at start in the window or on one
// of two days before it, short ranges of the window index.
func windowSQL(f photo.Filter) (string, []any, error) {
	win := photo.WindowOf(f)
	if win.From && win.To && win.First > win.Last {
		return "", nil, photo.Errorf(photo.EInvalid, "the time window ends (%s) before it starts (%s)", f.To, f.From)
	}
	switch {
	case win.From && win.To && win.Month >= win.First && win.Year >= win.First:
		// A window from a month's (or year's) first day: the photos dated
		// to that month or year start inside it, so one range of the
		// date index holds them all, and a list newest first reads it in
		// order rather than sorting the window.
		return "date_to >= ? AND date_from BETWEEN ? AND ?", []any{win.First, win.First, win.Last}, nil
	case win.From && win.To:
		return "date_to >= ? AND date_from <= ? AND (date_from BETWEEN ? AND ? OR date_from IN (?, ?))",
			[]any{win.First, win.Last, win.First, win.Last, win.Month, win.Year}, nil
	case win.From:
		return "date_to >= ? AND (date_from >= ? OR date_from IN (?, ?))", []any{win.First, win.First, win.Month, win.Year}, nil
	case win.To:
		return "date_from <= ?", []any{win.Last}, nil
	}
	return "", nil, nil
}

// public is the condition of the photos the public may see: all but the
// withheld, left out by rowid through their partial index (one small
// lookup a row), so that an index a read covers stays covering.
const public = "rowid NOT IN (SELECT rowid FROM photos WHERE " + withheld + ")"

// visible is the condition of the photos ctx's viewer may see
// (photo.ViewerOf): all for an editor ("TRUE"), public for anyone else.
func visible(ctx context.Context) string {
	if photo.ViewerOf(ctx).SeesWithheld() {
		return "TRUE"
	}
	return public
}

// licensed is the condition, on the dataset column col, of the conflict
// events (and links to them) viewer v may read (photo.Viewer.SeesDataset):
// "TRUE" for an editor, else the public datasets' (photo.PublicDatasets).
// It is the one spelling of the datasets' licences in the store's SQL.
func licensed(v photo.Viewer, col string) string {
	if v.SeesEveryDataset() {
		return "TRUE"
	}
	var names []string
	for _, d := range photo.PublicDatasets() {
		names = append(names, sqlString(d))
	}
	if len(names) == 0 {
		return "FALSE"
	}
	return col + " IN (" + strings.Join(names, ", ") + ")"
}

// awaiting is the condition of a photo whose placement waits for its
// second look or a third editor's decision (photo.Photo.AwaitsLook), the
// one spelling of it in the store's SQL; the partial index
// photos_awaiting (migration 0031) holds these few photos.
const awaiting = "second_look IN ('" + photo.LookWaiting + "', '" + photo.LookDisagreed + "')"

// blind is the condition of the photos whose placement ctx's viewer may
// not see (photo.Viewer.SeesAnswer): awaiting a look, placed by another
// editor than the viewer; "FALSE" for the archive's own reads, which see
// every placement.
func blind(ctx context.Context) string {
	v := photo.ViewerOf(ctx)
	switch {
	case v.Archive:
		return "FALSE"
	case v.Editor == "":
		return awaiting
	}
	return awaiting + " AND lower(reviewed_by) != lower(" + sqlString(v.Editor) + ")"
}

// sqlString is s as an SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// placed is the condition of the photos whose placement ctx's viewer may
// see: "TRUE", or all but the blind ones.
func placed(ctx context.Context) string {
	if b := blind(ctx); b != "FALSE" {
		return "rowid NOT IN (SELECT rowid FROM photos WHERE " + b + ")"
	}
	return "TRUE"
}

// byPlacement reports whether f selects photos by anything their
// placement decides: their point, place, governorate, the file's
// agreement with the place, the geocoder's confidence or a property of
// the place.
func byPlacement(f photo.Filter) bool {
	if f.BBox != nil || len(f.PlaceIDs) > 0 || len(f.Governorates) > 0 || len(f.Agreements) > 0 || f.MinConfidence > 0 {
		return true
	}
	for _, c := range f.Conds {
		if !ofTheCaption[c.Property] {
			return true
		}
	}
	return false
}

// ofTheCaption are the queryable properties a placement does not change.
var ofTheCaption = map[string]bool{"agency": true, "photographer": true, "date": true, "id": true, "iptc_city": true}

// withheld is the condition of a photo editors withheld from the public,
// the one spelling of it in the store's SQL.
const withheld = "harm = '" + photo.HarmWithheld + "'"

// afterSQL is the condition of the photos after the one whose rowid is
// f.After in f's order (see orderOf), with how many times it names that
// rowid. The other photo's key is read by uncorrelated subqueries, which
// SQLite runs once.
func afterSQL(f photo.Filter) (string, int) {
	if !f.Newest && !f.Oldest {
		return "rowid > ?", 1
	}
	d, id := "(SELECT date_from FROM photos WHERE rowid = ?)", "(SELECT id FROM photos WHERE rowid = ?)"
	beyond := ">" // date_from ASC
	if f.Newest {
		beyond = "<"
	}
	// Undated photos come last in either order, by id.
	return "CASE WHEN " + d + " IS NULL THEN date_from IS NULL AND id > " + id +
		" ELSE date_from IS NULL OR date_from " + beyond + " " + d + " OR (date_from = " + d + " AND id > " + id + ") END", 5
}

// condColumns are the queryable properties' columns; date compares the
// first day of a photo's period, as the GeoJSON date property gives it.
var condColumns = map[string]string{"agency": "agency", "photographer": "photographer", "place_id": "place_id",
	"place_name": "place_name", "place_kind": "place_kind", "governorate": "governorate", "country": "country",
	"precision": "precision", "mention": "mention", "confidence": "confidence", "date": "date_from", "id": "id",
	"agreement": "agreement", "iptc_city": "iptc_city"}

// condSQL is one condition in SQL, with its argument.
func condSQL(c photo.Cond) (string, any, error) {
	col, ok := condColumns[c.Property]
	if !ok {
		return "", nil, photo.ParamErrorf("filter", "%q is not a queryable property", c.Property)
	}
	switch c.Op {
	case "=", "<>", "<", "<=", ">", ">=":
	default:
		return "", nil, photo.ParamErrorf("filter", "%q is not a comparison (= <> < <= > >=)", c.Op)
	}
	v := c.Value
	switch c.Property {
	case "date":
		d, ok := v.(photo.Date)
		if !ok {
			return "", nil, photo.ParamErrorf("filter", "date compares with a date: DATE('2016-03-01')")
		}
		first, _ := d.Span()
		v = first
	case "confidence":
		if _, ok := v.(float64); !ok {
			return "", nil, photo.ParamErrorf("filter", "confidence compares with a number")
		}
	default:
		str, ok := v.(string)
		if !ok {
			return "", nil, photo.ParamErrorf("filter", "%s compares with a 'string'", c.Property)
		}
		if c.Property == "agency" { // any name of a source known in both scripts
			v = agencyID(str)
		}
	}
	return col + " " + c.Op + " ?", v, nil
}

// filter turns a filter into SQL like where, first checking its full-text
// search against the limits (see CheckSearch).
func (s *DB) filter(ctx context.Context, f photo.Filter) (string, []any, error) {
	if q := ftsQuery(f.Query); q != "" {
		if err := CheckSearch(q); err != nil {
			return "", nil, err
		}
	}
	return s.where(ctx, f)
}

const photoColumns = `p.rowid, p.id, p.caption, p.date_from, p.date_to, p.date_precision, p.date_source, p.photographer, p.agency,
	p.place_id, p.place_name, p.place_kind, p.governorate, p.gov_pcode, p.country, p.lon, p.lat, p.precision,
	p.confidence, p.mention, p.note, p.alternatives, p.geocoded, p.image_url, p.image_path, p.created, p.updated,
	p.review, p.reviewed_by, p.reviewed_at, p.image_file, p.iptc_city, p.iptc_country, p.gps_lon, p.gps_lat, p.exif_time,
	p.agreement, p.agreement_note, p.agreement_parts, p.reuse, p.reuse_of, p.harm, p.events, p.second_look, p.verified, p.rev`

// Photos returns the photos the filter selects, newest first (undated
// last), then by id. Lists leave out each photo's alternatives and the
// geocoder's own choice; Photo gives them.
func (s *DB) Photos(ctx context.Context, f photo.Filter) ([]photo.Photo, error) {
	w, args, err := s.filter(ctx, f)
	if err != nil {
		return nil, err
	}
	q := `SELECT ` + photoColumns + ` FROM photos p WHERE ` + w + ` ORDER BY p.date_from DESC NULLS LAST, p.id`
	if f.Limit > 0 {
		q += ` LIMIT ` + strconv.Itoa(f.Limit) + ` OFFSET ` + strconv.Itoa(f.Offset)
	}
	var out []photo.Photo
	viewer := photo.ViewerOf(ctx)
	err = s.reading(ctx, f.Query, "listing photos", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		var alts, geocoded string
		for rows.Next() {
			var p photo.Photo
			if _, err := scanPhoto(rows, &p, &alts, &geocoded); err != nil {
				return err
			}
			out = append(out, *viewer.Shown(&p))
		}
		return rows.Err()
	})
	return out, err
}

// CountPhotos returns how many photos the filter selects, ignoring its
// Limit and Offset.
func (s *DB) CountPhotos(ctx context.Context, f photo.Filter) (int, error) {
	w, args, err := s.filter(ctx, f)
	if err != nil {
		return 0, err
	}
	var n int
	err = s.reading(ctx, f.Query, "counting photos", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT count(*) FROM photos WHERE `+w, args...).Scan(&n)
	})
	return n, err
}

// Extent returns the extent of the whole archive, as ctx's viewer sees it. Each bound reads one
// end of an index (the window index for dates; the points are read
// whole, a fraction of a second over a million photos).
func (s *DB) Extent(ctx context.Context) (photo.Extent, error) {
	var e photo.Extent
	shown := visible(ctx)
	err := s.reading(ctx, "", "measuring the archive's extent", func(ctx context.Context) error {
		var minLon, minLat, maxLon, maxLat sql.NullFloat64
		var first, last sql.NullInt64
		err := s.read.QueryRowContext(ctx, `SELECT min(lon), min(lat), max(lon), max(lat),
			(SELECT min(date_from) FROM photos WHERE `+shown+`), (SELECT max(date_to) FROM photos WHERE `+shown+`) FROM photos WHERE `+shown+` AND `+placed(ctx)).
			Scan(&minLon, &minLat, &maxLon, &maxLat, &first, &last)
		if err != nil {
			return err
		}
		if minLon.Valid {
			e.BBox = &orb.Bound{Min: orb.Point{minLon.Float64, minLat.Float64}, Max: orb.Point{maxLon.Float64, maxLat.Float64}}
		}
		if first.Valid {
			e.First = photo.DateFromSpan(int(first.Int64), int(first.Int64), "day")
			e.Last = photo.DateFromSpan(int(last.Int64), int(last.Int64), "day")
		}
		return nil
	})
	return e, err
}

type scanner interface{ Scan(dest ...any) error }

// reviewOf reads the photos.review column: ” is the geocoder's place.
func reviewOf(s string) photo.Review {
	if s == "" {
		return photo.ReviewAutomatic
	}
	return photo.Review(s)
}

// scanPhoto reads the columns of photoColumns into p; the alternatives and
// geocoded JSON go into alts and geocoded, undecoded.
func scanPhoto(sc scanner, p *photo.Photo, alts, geocoded *string) (rowid int64, err error) {
	var from, to sql.NullInt64
	var prec sql.NullString
	var lon, lat sql.NullFloat64
	var created, updated, review, reviewedAt string
	var gpsLon, gpsLat sql.NullFloat64
	pl, ck := &p.Place, &p.Check
	err = sc.Scan(&rowid, &p.ID, &p.Caption, &from, &to, &prec, &p.DateSource, &p.Photographer, &p.Agency,
		&pl.ID, &pl.Name, &pl.Kind, &pl.Governorate, &pl.GovPCode, &pl.Country, &lon, &lat, &pl.Precision,
		&pl.Confidence, &pl.Mention, &pl.Note, alts, geocoded, &p.ImageURL, &p.ImagePath, &created, &updated,
		&review, &p.ReviewedBy, &reviewedAt, &p.ImageFile, &ck.IPTCCity, &ck.IPTCCountry, &gpsLon, &gpsLat, &ck.EXIFTime,
		&ck.Agreement, &ck.Note, &ck.Parts, &p.Reuse, &p.ReuseOf, &p.Harm, &p.Events, &p.SecondLook, &p.Verified, &p.Rev)
	if err != nil {
		return 0, err
	}
	ck.GPSLon, ck.GPSLat, ck.HasGPS = gpsLon.Float64, gpsLat.Float64, gpsLon.Valid
	p.Review = reviewOf(review)
	p.ReviewedAt, _ = time.Parse(time.RFC3339, reviewedAt)
	p.Date = photo.DateFromSpan(int(from.Int64), int(to.Int64), prec.String)
	pl.Lon, pl.Lat, pl.Located = lon.Float64, lat.Float64, lon.Valid
	p.Created, _ = time.Parse(time.RFC3339, created)
	p.Updated, _ = time.Parse(time.RFC3339, updated)
	return rowid, nil
}

// scanDetail reads a photo with what lists leave out: the alternatives and
// the geocoder's own choice, kept as JSON.
func scanDetail(sc scanner, p *photo.Photo) (rowid int64, err error) {
	var alts, geocoded string
	rowid, err = scanPhoto(sc, p, &alts, &geocoded)
	if err != nil {
		return 0, err
	}
	if err := json.Unmarshal([]byte(alts), &p.Place.Alternatives); err != nil {
		return 0, fmt.Errorf("store: photo %s: alternatives: %w", p.ID, err)
	}
	if geocoded == "" {
		p.Geocoded = p.Place // the place shown is the geocoder's
		return rowid, nil
	}
	if err := json.Unmarshal([]byte(geocoded), &p.Geocoded); err != nil {
		return 0, fmt.Errorf("store: photo %s: geocoded: %w", p.ID, err)
	}
	return rowid, nil
}

// photoIn reads photo id into p within tx and returns its rowid.
func photoIn(ctx context.Context, tx *sql.Tx, id string, p *photo.Photo) (int64, error) {
	return scanDetail(tx.QueryRowContext(ctx, `SELECT `+photoColumns+` FROM photos p WHERE p.id = ?`, id), p)
}

// Photo returns one photo with its sources and correction. A withheld
// photo is found only by an editor's read (photo.ViewerOf): to anyone
// else it is not found, as if it were not in the archive.
func (s *DB) Photo(ctx context.Context, id string) (*photo.Photo, error) {
	var p photo.Photo
	err := s.reading(ctx, "", "reading photo "+id, func(ctx context.Context) error {
		// One read transaction, so that the photo, its sources and its
		// correction are of one moment.
		tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		rowid, err := photoIn(ctx, tx, id, &p)
		if err != nil {
			return err
		}
		if p.Sources, err = sourcesOf(ctx, tx, rowid); err != nil {
			return err
		}
		if p.Images, err = imagesOf(ctx, tx, rowid); err != nil {
			return err
		}
		if p.File, err = fileOf(ctx, tx, rowid, p.ImageFile); err != nil {
			return err
		}
		var c photo.Correction
		var created string
		var kind string
		err = tx.QueryRowContext(ctx, `SELECT place_id, lon, lat, kind, author, note, created FROM corrections WHERE photo = ?`, rowid).
			Scan(&c.PlaceID, &c.Lon, &c.Lat, &kind, &c.Author, &c.Note, &created)
		switch {
		case err == nil:
			c.Created, _ = time.Parse(time.RFC3339, created)
			c.Confirmed = kind == "confirm"
			p.Correction = &c
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		return nil
	})
	if err == nil && p.Harm == photo.HarmWithheld && !photo.ViewerOf(ctx).SeesWithheld() {
		err = sql.ErrNoRows // the same answer as for no such photo
	}
	if err != nil {
		return nil, notFound(err, "photo "+id)
	}
	return photo.ViewerOf(ctx).Shown(&p), nil
}

func sourcesOf(ctx context.Context, tx *sql.Tx, rowid int64) ([]photo.Source, error) {
	rows, err := tx.QueryContext(ctx, `SELECT file, line, ref, label FROM sources WHERE photo = ? ORDER BY file COLLATE BINARY, line`, rowid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []photo.Source
	for rows.Next() {
		var src photo.Source
		if err := rows.Scan(&src.File, &src.Line, &src.Ref, &src.Label); err != nil {
			return nil, err
		}
		out = append(out, src)
	}
	return out, rows.Err()
}

func imagesOf(ctx context.Context, tx *sql.Tx, rowid int64) ([]photo.Image, error) {
	rows, err := tx.QueryContext(ctx, `SELECT url, path FROM images WHERE photo = ? ORDER BY seq`, rowid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []photo.Image
	for rows.Next() {
		var im photo.Image
		if err := rows.Scan(&im.URL, &im.Path); err != nil {
			return nil, err
		}
		out = append(out, im)
	}
	return out, rows.Err()
}

// fileOf returns the image file of photo rowid whose hash is sha (its
// first), with its picture's PDQ hash when it has one, or nil.
func fileOf(ctx context.Context, tx *sql.Tx, rowid int64, sha string) (*photo.File, error) {
	if sha == "" {
		return nil, nil
	}
	var f photo.File
	var mtime string
	var pdq sql.NullString
	var quality sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT f.path, f.sha256, f.size, f.mtime, f.meta, fr.pdq, fr.pdq_quality FROM files f
		LEFT JOIN frames fr ON fr.sha256 = f.sha256 WHERE f.photo = ? AND f.sha256 = ? ORDER BY f.path COLLATE BINARY LIMIT 1`, rowid, sha).
		Scan(&f.Path, &f.SHA256, &f.Size, &mtime, &f.Meta, &pdq, &quality)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	f.ModTime, _ = time.Parse(time.RFC3339Nano, mtime)
	f.PDQ, f.PDQQuality = pdq.String, int(quality.Int64)
	return &f, nil
}

// DayHistogram counts the day-dated photos the filter selects by day
// ("2016-03-05"), in time order: the timeline's detail of a short window.
func (s *DB) DayHistogram(ctx context.Context, f photo.Filter) ([]photo.MonthCount, error) {
	w, args, err := s.filter(ctx, f)
	if err != nil {
		return nil, err
	}
	var out []photo.MonthCount
	err = s.reading(ctx, f.Query, "counting photos by day", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT date_from, count(*) FROM photos WHERE date_precision = 'day' AND `+w+
			` GROUP BY date_from ORDER BY date_from`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var d, n int
			if err := rows.Scan(&d, &n); err != nil {
				return err
			}
			out = append(out, photo.MonthCount{Month: fmt.Sprintf("%04d-%02d-%02d", d/10000, d/100%100, d%100), Count: n})
		}
		return rows.Err()
	})
	return out, err
}

// Histogram counts the photos the filter selects by month of their date
// ("2016-03"); photos dated only to a year count in a bin of their own
// ("2016"). Undated photos are not counted. Bins come in time order.
func (s *DB) Histogram(ctx context.Context, f photo.Filter) ([]photo.MonthCount, error) {
	w, args, err := s.filter(ctx, f)
	if err != nil {
		return nil, err
	}
	var out []photo.MonthCount
	err = s.reading(ctx, f.Query, "counting photos by month", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT month, count(*) FROM photos WHERE month IS NOT NULL AND `+w+` GROUP BY month ORDER BY month`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var m, n int
			if err := rows.Scan(&m, &n); err != nil {
				return err
			}
			label := fmt.Sprintf("%04d-%02d", m/100, m%100)
			if m%100 == 0 {
				label = fmt.Sprintf("%04d", m/100)
			}
			out = append(out, photo.MonthCount{Month: label, Count: n})
		}
		return rows.Err()
	})
	return out, err
}

// Facets counts the photos the filter selects by agency, photographer,
// governorate and place, the largest first, at most limit values each.
//
// Each facet is counted under the filter without its own selection (see
// photo.Filter.Without), so that its values say what choosing one more
// would add. facets names the ones to count; none counts them all.
func (s *DB) Facets(ctx context.Context, f photo.Filter, limit int, facets ...photo.Facet) (photo.Facets, error) {
	var out photo.Facets
	if f.Query != "" {
		if err := CheckSearch(f.Query); err != nil {
			return out, err
		}
	}
	if len(facets) == 0 {
		facets = photo.AllFacets
	}
	err := s.reading(ctx, f.Query, "counting facets", func(ctx context.Context) error {
		for _, facet := range facets {
			if err := s.facet(ctx, f.Without(facet), facet, limit, out.Of(facet)); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// facetColumns are each facet's value and label in SQL.
var facetColumns = map[photo.Facet][2]string{
	photo.FacetAgency:       {"agency", "agency"},
	photo.FacetPhotographer: {"photographer", "photographer"},
	photo.FacetGovernorate:  {"gov_pcode", "max(governorate COLLATE BINARY)"},
	photo.FacetPlace:        {"place_id", "max(place_name COLLATE BINARY)"},
}

func (s *DB) facet(ctx context.Context, f photo.Filter, facet photo.Facet, limit int, dst *[]photo.Count) error {
	w, args, err := s.where(ctx, f)
	if err != nil {
		return err
	}
	col, ok := facetColumns[facet]
	if !ok {
		return photo.Errorf(photo.EInvalid, "no such facet: %q", facet)
	}
	if facet == photo.FacetPlace || facet == photo.FacetGovernorate {
		w += " AND " + placed(ctx)
	}
	q := `SELECT ` + col[0] + `, ` + col[1] + `, count(*) AS n FROM photos WHERE ` + col[0] + ` != '' AND ` + w +
		` GROUP BY ` + col[0] + ` ORDER BY n DESC, ` + col[0] + ` COLLATE BINARY LIMIT ?`
	rows, err := s.read.QueryContext(ctx, q, append(args, limit)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	*dst = []photo.Count{}
	for rows.Next() {
		var c photo.Count
		if err := rows.Scan(&c.Value, &c.Label, &c.Count); err != nil {
			return err
		}
		if facet == photo.FacetAgency { // a source's English name (lexicon.Agencies)
			c.Label = lexicon.AgencyName(c.Value, "en")
		}
		*dst = append(*dst, c)
	}
	return rows.Err()
}
