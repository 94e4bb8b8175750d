package archive

import (
	"cmp"
	"context"
	"slices"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/store"
)

// Agreement is how often editors agreed on the second looks answered in
// a window of time: per pair of editors and for the team.
type Agreement struct {
	From, To string // the window (days, "" for open)
	// Team counts every second look; Pairs each pair of editors, the
	// most looks first.
	Team  AgreementRow
	Pairs []AgreementRow
	// Alpha is Krippendorff's α over the team's decisions, every editor a
	// rater; AlphaOK is false when the looks cannot measure it.
	Alpha   float64
	AlphaOK bool
	// AlphaWhy says why α cannot be read though it may be measured
	// (agreement.TooFewLooks, agreement.OneDecision), "" when it can.
	AlphaWhy string
	Raters   int
	// ByKind and ByGovernorate are where the answers disagreed, by the
	// first answer's kind of place and governorate, the most first.
	ByKind, ByGovernorate []Disagreements
	// Looks are the second looks themselves, for the CSV.
	Looks []store.LookRound
}

// AgreementRow is one pair's (or the team's) second looks: how many, and
// how many agreed each of the three ways and in the end; Cohen's κ on
// their decisions (confirm, correct, unplaceable), KappaOK false when it
// cannot be measured (too few looks, or one decision alone). SamePlace,
// Nested and WithinSize (near points) are the three ways of agreeing,
// counted apart; Agreed those that verified (the same place, near
// points). KappaWhy says why κ cannot be read, measured or not
// (agreement.KappaReadable), "" when it can.
type AgreementRow struct {
	A, B                                         string // "" for the team
	Looks, SamePlace, Nested, WithinSize, Agreed int
	Kappa                                        float64
	KappaOK                                      bool
	KappaWhy                                     string
}

// Disagreements counts the looks of one kind of place or governorate and
// those whose answers did not agree.
type Disagreements struct {
	Name string
	// ID is a governorate's gazetteer id ("ocha:SY02"), for its name in
	// a page's language; "" for a kind of place.
	ID               string
	Looks, Disagreed int
}

// maxLooks bounds the looks a report reads.
const maxLooks = 200000

// AgreementBetween measures the second looks answered from from to to
// (RFC 3339 days; "" for open). κ is measured per pair on the looks the
// two gave together, whoever looked first: a rater who took part in fewer
// looks counts for those alone. α takes every editor as a rater of the
// photos they answered, so it measures the team however the looks were
// shared out.
func (a *Archive) AgreementBetween(ctx context.Context, from, to string) (Agreement, error) {
	out := Agreement{From: from, To: to}
	looks, err := a.LookRounds(ctx, "", from, to, maxLooks)
	if err != nil {
		return out, err
	}
	out.Looks = looks
	type pairKey struct{ a, b string }
	pairs := map[pairKey]*AgreementRow{}
	pairRatings := map[pairKey][]agreement.Pair{}
	var teamRatings []agreement.Pair
	var units []agreement.Unit
	raters := map[string]bool{}
	kinds, govs := map[string]*Disagreements{}, map[string]*Disagreements{}
	for _, l := range looks {
		k := pairKey{l.First.By, l.Second.By}
		da, db := l.First.Decision, l.Second.Decision
		if k.b < k.a { // one row per pair, whoever looked first
			k.a, k.b, da, db = k.b, k.a, db, da
		}
		row := pairs[k]
		if row == nil {
			row = &AgreementRow{A: k.a, B: k.b}
			pairs[k] = row
		}
		for _, r := range []*AgreementRow{row, &out.Team} {
			r.Looks++
			r.SamePlace += b2i(l.Judgement.SamePlace)
			r.Nested += b2i(l.Judgement.Nested)
			r.WithinSize += b2i(l.Judgement.WithinSize)
			r.Agreed += b2i(l.Judgement.Agreed)
		}
		pairRatings[k] = append(pairRatings[k], agreement.Pair{A: da, B: db})
		teamRatings = append(teamRatings, agreement.Pair{A: l.First.Decision, B: l.Second.Decision})
		units = append(units, agreement.Unit{l.First.By: l.First.Decision, l.Second.By: l.Second.Decision})
		raters[l.First.By], raters[l.Second.By] = true, true
		count(kinds, cmp.Or(l.First.Kind, "point"), !l.Judgement.Agreed)
		count(govs, cmp.Or(l.First.GovPCode, "?"), !l.Judgement.Agreed)
	}
	for k, row := range pairs {
		row.Kappa, row.KappaOK = measured(agreement.CohenKappa(pairRatings[k]))
		row.KappaWhy = agreement.KappaReadable(pairRatings[k])
		out.Pairs = append(out.Pairs, *row)
	}
	slices.SortFunc(out.Pairs, func(x, y AgreementRow) int {
		return cmp.Or(y.Looks-x.Looks, cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
	// The team's κ treats first and second as two raters, whoever they
	// were: what a reader of the figures expects beside α.
	out.Team.Kappa, out.Team.KappaOK = measured(agreement.CohenKappa(teamRatings))
	out.Team.KappaWhy = agreement.KappaReadable(teamRatings)
	out.Alpha, out.AlphaOK = measured(agreement.KrippendorffAlpha(units))
	out.AlphaWhy = agreement.AlphaReadable(units)
	out.Raters = len(raters)
	out.ByKind, out.ByGovernorate = mostDisagreed(kinds), mostDisagreed(govs)
	g := a.Gazetteer()
	for i, d := range out.ByGovernorate {
		if p := g.ByID("ocha:" + d.Name); p != nil {
			out.ByGovernorate[i].Name, out.ByGovernorate[i].ID = p.Name, p.ID
		}
	}
	return out, nil
}

func measured(v float64, err error) (float64, bool) { return v, err == nil }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func count(m map[string]*Disagreements, name string, disagreed bool) {
	d := m[name]
	if d == nil {
		d = &Disagreements{Name: name}
		m[name] = d
	}
	d.Looks++
	d.Disagreed += b2i(disagreed)
}

func mostDisagreed(m map[string]*Disagreements) []Disagreements {
	var out []Disagreements
	for _, d := range m {
		out = append(out, *d)
	}
	slices.SortFunc(out, func(x, y Disagreements) int {
		return cmp.Or(y.Disagreed-x.Disagreed, y.Looks-x.Looks, cmp.Compare(x.Name, y.Name))
	})
	return out
}
