package secondlooks

import (
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// agreementWindow reads the agreement page's window: from and to, days,
// months or years ("2026-11", "2026-12-03"), each optional, as the bounds
// of the second looks' answers (to is the day after its last).
func agreementWindow(q url.Values) (from, to string, err error) {
	bound := func(name string) (string, error) {
		v := strings.TrimSpace(q.Get(name))
		if v == "" {
			return "", nil
		}
		d, err := photo.ParseDate(v)
		if err != nil || d.IsZero() {
			return "", web.BadParam(name, web.FilterMessages["date"], v)
		}
		first, last := d.Span()
		day := first
		if name == "to" {
			day = last
		}
		t := time.Date(day/10000, time.Month(day/100%100), day%100, 0, 0, 0, 0, time.UTC)
		if name == "to" {
			t = t.AddDate(0, 0, 1)
		}
		return t.Format(time.DateOnly), nil
	}
	if from, err = bound("from"); err == nil {
		to, err = bound("to")
	}
	return from, to, err
}

// agreementOf measures the window the request asks for, for editors.
func (s *API) agreementOf(r *http.Request) (archive.Agreement, error) {
	if _, err := editorOf(r, "see how often editors agree"); err != nil {
		return archive.Agreement{}, err
	}
	from, to, err := agreementWindow(r.URL.Query())
	if err != nil {
		return archive.Agreement{}, err
	}
	return s.Store.AgreementBetween(r.Context(), from, to)
}

// agreementPage shows how often editors agree, per pair and for the team.
func (s *API) agreementPage(w http.ResponseWriter, r *http.Request) {
	a, err := s.agreementOf(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	l := i18n.From(r.Context())
	q := r.URL.Query()
	m := views.AgreementPage{Page: s.Kit.Page(r, l.T("agreement.title"), "review"), From: q.Get("from"), To: q.Get("to"),
		Action: s.Kit.URL("agreement"), CSVURL: s.Kit.URL("agreement.csv") + "?" + q.Encode(), Raters: a.Raters}
	m.Team = agreementRowView(l, a.Team)
	m.Team.Editors = l.T("agreement.team")
	for _, p := range a.Pairs {
		m.Pairs = append(m.Pairs, agreementRowView(l, p))
	}
	switch {
	case a.AlphaWhy != "":
		m.AlphaWhy = unreadable(l, "alpha", a.AlphaWhy, a.Team.Looks)
	case a.AlphaOK:
		m.Alpha = l.Decimal(a.Alpha, 2)
	}
	for _, d := range a.ByKind {
		m.ByKind = append(m.ByKind, disagreementView(l, l.Named("kind.", d.Name), d))
	}
	for _, d := range a.ByGovernorate {
		m.ByGov = append(m.ByGov, disagreementView(l, pagemodel.NameOf(l, s.Store.Gazetteer(), d.ID, d.Name), d))
	}
	w.Header().Set("Cache-Control", "private, no-store")
	s.Kit.Render(w, r, http.StatusOK, views.AgreementPageView(m))
}

func agreementRowView(l i18n.Locale, r archive.AgreementRow) views.AgreementRowView {
	v := views.AgreementRowView{Editors: r.A + " · " + r.B, Looks: r.Looks, SamePlace: share(l, r.SamePlace, r.Looks),
		Nested: share(l, r.Nested, r.Looks), WithinSize: share(l, r.WithinSize, r.Looks), Agreed: share(l, r.Agreed, r.Looks),
		Kappa: l.T("agreement.unmeasured")}
	switch {
	case r.KappaWhy != "":
		v.Kappa = unreadable(l, "kappa", r.KappaWhy, r.Looks)
	case r.KappaOK:
		v.Kappa = l.Decimal(r.Kappa, 2)
	}
	return v
}

// unreadable says why κ or α (measure) cannot be read from looks second
// looks: "cannot be read: …".
func unreadable(l i18n.Locale, measure, why string, looks int) string {
	reason := l.T("agreement.why-one-decision-alpha")
	if measure == "kappa" {
		reason = l.T("agreement.why-one-decision-kappa")
	}
	if why == agreement.TooFewLooks {
		reason = l.T("agreement.why-too-few", "n", looks, "min", agreement.MinLooks)
	}
	return l.T("agreement.unreadable", "why", reason)
}

func disagreementView(l i18n.Locale, name string, d archive.Disagreements) views.DisagreementView {
	return views.DisagreementView{Name: name, Looks: d.Looks, Disagreed: d.Disagreed, Share: share(l, d.Disagreed, d.Looks)}
}

// share is n of all in the reader's words, with its percentage.
func share(l i18n.Locale, n, all int) string {
	if all == 0 {
		return l.Int(0)
	}
	return l.T("agreement.share", "n", l.Int(n), "pct", l.Int(int(math.Round(100*float64(n)/float64(all)))))
}

// agreementCSV is the agreement page's table as CSV (per pair and the
// team), or with of=looks every second look of the window, one a row.
func (s *API) agreementCSV(w http.ResponseWriter, r *http.Request) {
	a, err := s.agreementOf(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var b []byte
	switch of := r.URL.Query().Get("of"); of {
	case "", "pairs":
		b = web.AppendCSVRow(b, []string{"editor_a", "editor_b", "looks", "same_place", "nested", "within_size", "agreed", "cohen_kappa", "krippendorff_alpha"})
		alpha := ""
		if a.AlphaOK {
			alpha = strconv.FormatFloat(a.Alpha, 'f', 4, 64)
		}
		row := func(r archive.AgreementRow, alpha string) {
			kappa := ""
			if r.KappaOK {
				kappa = strconv.FormatFloat(r.Kappa, 'f', 4, 64)
			}
			b = web.AppendCSVRow(b, []string{web.Inert(r.A), web.Inert(r.B), strconv.Itoa(r.Looks), strconv.Itoa(r.SamePlace), strconv.Itoa(r.Nested),
				strconv.Itoa(r.WithinSize), strconv.Itoa(r.Agreed), kappa, alpha})
		}
		team := a.Team
		team.A = "(team)"
		row(team, alpha)
		for _, p := range a.Pairs {
			row(p, "")
		}
	case "looks":
		b = web.AppendCSVRow(b, []string{"look", "photo_id", "state", "first_by", "first_decision", "first_place_id", "first_lon", "first_lat",
			"second_by", "second_decision", "second_place_id", "second_lon", "second_lat", "answered_at",
			"same_place", "nested", "same_governorate", "distance_km", "size_km", "within_size", "agreed", "third_by", "third_choice"})
		coord := func(located bool, v float64) string {
			if !located {
				return ""
			}
			return strconv.FormatFloat(v, 'f', 6, 64)
		}
		for _, l := range a.Looks {
			j := l.Judgement
			dist := ""
			if !math.IsNaN(j.DistanceKm) {
				dist = strconv.FormatFloat(j.DistanceKm, 'f', 3, 64)
			}
			b = web.AppendCSVRow(b, []string{strconv.FormatInt(l.ID, 10), l.PhotoID, l.State, web.Inert(l.First.By), l.First.Decision, l.First.PlaceID,
				coord(l.First.Located, l.First.Lon), coord(l.First.Located, l.First.Lat), web.Inert(l.Second.By), l.Second.Decision, l.Second.PlaceID,
				coord(l.Second.Located, l.Second.Lon), coord(l.Second.Located, l.Second.Lat), l.Second.At.UTC().Format(time.RFC3339),
				strconv.FormatBool(j.SamePlace), strconv.FormatBool(j.Nested), strconv.FormatBool(j.SameGovernorate), dist,
				strconv.FormatFloat(j.SizeKm, 'f', -1, 64), strconv.FormatBool(j.WithinSize), strconv.FormatBool(j.Agreed), web.Inert(l.Third.By), l.Third.Choice})
		}
	default:
		s.Error(w, r, web.BadParam("of", "%q: want pairs or looks", of))
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="agreement.csv"`)
	w.Header().Set("Cache-Control", "private, no-store")
	w.Write(b)
}
