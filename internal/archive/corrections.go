package archive

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// CorrectionRecord is one photo's corrections as `syriamap corrections
// export` writes them, a JSON object a line: the photo (with its caption,
// for people), its place decision (a place or point, or a confirmation),
// its fixed date and credit, who decided, when and why.
type CorrectionRecord struct {
	PhotoID string `json:"photo_id"`
	Caption string `json:"caption,omitempty"`
	// Placement: "corrected" (PlaceID or Lon/Lat), "confirmed", or "".
	Placement string   `json:"placement,omitempty"`
	PlaceID   string   `json:"place_id,omitempty"`
	Lon       *float64 `json:"lon,omitempty"`
	Lat       *float64 `json:"lat,omitempty"`
	// Date ("" with DatePrecision "" for undated), Photographer, Agency:
	// the fixed values, nil when not fixed.
	Date          *string `json:"date,omitempty"`
	DatePrecision *string `json:"date_precision,omitempty"`
	Photographer  *string `json:"photographer,omitempty"`
	Agency        *string `json:"agency,omitempty"`
	By            string  `json:"by"`
	At            string  `json:"at"`
	Note          string  `json:"note,omitempty"`
}

// ExportCorrections writes every photo's corrections, confirmations and
// fixes to w, one JSON object a line.
func (a *Archive) ExportCorrections(ctx context.Context, w io.Writer) (int, error) {
	bw := bufio.NewWriter(w)
	n := 0
	err := a.db.EachCorrection(ctx, func(c store.CorrectionRow) error {
		r := CorrectionRecord{PhotoID: c.PhotoID, Caption: c.Caption, By: c.Author, At: c.At, Note: c.Note}
		switch {
		case c.Confirmed:
			r.Placement = "confirmed"
		case c.Corrected:
			r.Placement, r.PlaceID = "corrected", c.PlaceID
			if c.PlaceID == "" {
				r.Lon, r.Lat = &c.Lon, &c.Lat
			}
		}
		if c.Date != nil {
			d, prec := c.Date.String(), c.Date.Precision
			r.Date, r.DatePrecision = &d, &prec
		}
		r.Photographer, r.Agency = c.Photographer, c.Agency
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		n++
		_, err = bw.Write(append(b, '\n'))
		return err
	})
	if err != nil {
		return n, err
	}
	return n, bw.Flush()
}

// ImportReport says what ImportCorrections did with each line.
type ImportReport struct {
	Applied, Skipped, Conflicts int
	// Lines explains the lines skipped and in conflict: "line 3: …".
	Lines []string
}

// ImportCorrections applies the corrections another archive exported,
// matched by photo id. A line whose photo is not in this archive, or that
// this archive already has, is skipped; one whose photo a person here has
// decided otherwise is a conflict and is not applied. A malformed line
// stops the import, naming its line, before anything is applied.
func (a *Archive) ImportCorrections(ctx context.Context, r io.Reader, name string) (ImportReport, error) {
	var rep ImportReport
	var recs []CorrectionRecord
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var c CorrectionRecord
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return rep, photo.Errorf(photo.EInvalid, "%s:%d: %v", name, line, err)
		}
		if c.PhotoID == "" || c.By == "" {
			return rep, photo.Errorf(photo.EInvalid, "%s:%d: a correction needs photo_id and by", name, line)
		}
		if c.Placement == "corrected" && c.PlaceID == "" && (c.Lon == nil || c.Lat == nil) {
			return rep, photo.Errorf(photo.EInvalid, "%s:%d: a corrected placement needs place_id or lon and lat", name, line)
		}
		if c.Placement != "" && c.Placement != "corrected" && c.Placement != "confirmed" {
			return rep, photo.Errorf(photo.EInvalid, "%s:%d: placement %q: want corrected or confirmed", name, line, c.Placement)
		}
		recs = append(recs, c)
	}
	if err := sc.Err(); err != nil {
		return rep, fmt.Errorf("reading %s: %w", name, err)
	}
	for i, c := range recs {
		where := fmt.Sprintf("%s, correction %d (photo %s)", name, i+1, c.PhotoID)
		p, err := a.db.Photo(ownRead(ctx), c.PhotoID)
		if err != nil {
			if photo.ErrorCode(err) == photo.ENotFound {
				rep.Skipped++
				rep.Lines = append(rep.Lines, where+": skipped: this archive has no such photo")
				continue
			}
			return rep, err
		}
		note := c.Note
		if note == "" {
			note = "imported from " + name
		}
		author := c.By
		if c.Placement != "" {
			ch, same, conflict := a.placementChange(p, c)
			switch {
			case same:
				rep.Skipped++
				rep.Lines = append(rep.Lines, where+": skipped: already so")
			case conflict != "":
				rep.Conflicts++
				rep.Lines = append(rep.Lines, where+": conflict: "+conflict)
			default:
				ch.Author, ch.Note = author, note
				if _, err := a.db.Apply(ctx, []string{p.ID}, ch); err != nil {
					return rep, fmt.Errorf("%s: %w", where, err)
				}
				rep.Applied++
			}
		}
		if c.Date != nil || c.Photographer != nil || c.Agency != nil {
			ch := photo.Change{Author: author, Note: note, Photographer: c.Photographer, Agency: c.Agency}
			if c.Date != nil {
				d, err := photo.ParseDate(*c.Date)
				if *c.Date != "" && err != nil {
					return rep, photo.Errorf(photo.EInvalid, "%s: date %q: %v", where, *c.Date, err)
				}
				ch.Date = &d
			}
			if _, err := a.db.Apply(ctx, []string{p.ID}, ch); err != nil {
				return rep, fmt.Errorf("%s: %w", where, err)
			}
			rep.Applied++
		}
	}
	return rep, nil
}

// placementChange turns an exported placement into a change for photo p,
// or says it is already so, or how this archive's own decision differs.
func (a *Archive) placementChange(p *photo.Photo, c CorrectionRecord) (ch photo.Change, same bool, conflict string) {
	mine := p.Correction
	if c.Placement == "confirmed" {
		switch {
		case mine != nil && mine.Confirmed:
			return ch, true, ""
		case mine != nil:
			return ch, false, fmt.Sprintf("a person here placed it at %s on %s", p.Place.Name, mine.Created.Format(time.DateOnly))
		}
		ch.Confirm = true
		return ch, false, ""
	}
	var point *[2]float64
	if c.PlaceID == "" {
		point = &[2]float64{*c.Lon, *c.Lat}
	}
	pl, err := a.PlaceOf(c.PlaceID, point)
	if err != nil {
		return ch, false, err.Error()
	}
	if mine != nil {
		if !mine.Confirmed && mine.PlaceID == pl.ID && mine.Lon == pl.Lon && mine.Lat == pl.Lat {
			return ch, true, ""
		}
		what := "confirmed the geocoder's place"
		if !mine.Confirmed {
			what = fmt.Sprintf("placed it at %s (%.5f, %.5f)", orPoint(p.Place.Name), mine.Lon, mine.Lat)
		}
		return ch, false, fmt.Sprintf("a person here %s on %s", what, mine.Created.Format(time.DateOnly))
	}
	ch.Place = &pl
	return ch, false, ""
}

func orPoint(name string) string {
	if name == "" {
		return "a point"
	}
	return name
}
