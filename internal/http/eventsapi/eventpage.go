package eventsapi

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// maxPageCandidates bounds the candidates a photo's page lists.
const maxPageCandidates = 8

// PhotoEventsView is the events photo p documents as its page shows them
// (page is the page's shared model: who is signed in), and for an editor
// the candidates with their forms; nil for a reader of a photo linked to
// none. The photo's page and its review page show it.
func (a *API) PhotoEventsView(r *http.Request, page views.Page, p *photo.Photo) (*views.PhotoEvents, error) {
	editor := page.Editor != "" && a.Guard.Writable(r.Context()) == nil
	if !editor && p.Events == "" {
		return nil, nil
	}
	pe, err := a.DB.EventsOf(r.Context(), p.ID)
	if err != nil {
		return nil, err
	}
	l := i18n.From(r.Context())
	m := &views.PhotoEvents{}
	for _, le := range pe.Links {
		m.Links = append(m.Links, a.eventLinkRow(l, le))
	}
	if !editor {
		return m, nil
	}
	m.Action, m.CSRF, m.Version = a.Kit.URL("photo.event-links", "id", p.ID), page.CSRF, strconv.FormatInt(p.Rev, 10)
	q := r.URL.Query()
	m.Status = eventStatus(l, q)
	m.IDError, m.Typed = eventRefusal(l, q)
	next := *r.URL
	next.RawQuery = withoutAnswer(q).Encode()
	m.Next = next.RequestURI()
	for i, c := range pe.Candidates {
		if i == maxPageCandidates {
			break
		}
		m.Candidates = append(m.Candidates, a.eventLinkRow(l, c))
	}
	return m, nil
}

// eventStatus says what the last decision did, as postEventLink named it
// in q ("Linked GED 243931 to this photo as documenting it"); "" when q
// names none.
func eventStatus(l i18n.Locale, q url.Values) string {
	done := q.Get(paramDone)
	dataset, id, ok := photo.SplitEventKey(q.Get(paramEvent))
	if !ok || !slices.Contains([]string{photo.LinkConfirmed, photo.LinkRejected, "unlinked", "unrejected", "unchanged"}, done) {
		return ""
	}
	return l.T("events.done."+done, "event", cmp.Or(conflict.DatasetName(dataset), dataset)+" "+id)
}

// eventRefusal says why the event typed in "Link an event by its id" was
// refused, as postEventLink named it in q, and what was typed; "" when q
// names no refusal.
func eventRefusal(l i18n.Locale, q url.Values) (why, typed string) {
	typed = q.Get(paramTyped)
	reason := q.Get(paramError)
	dataset, id, err := photo.ParseEventRef(typed)
	switch {
	case reason == "":
		return "", ""
	case strings.TrimSpace(typed) == "":
		return l.T("events.id-empty"), typed
	case err != nil || (reason != "unknown" && reason != "retired"):
		return l.T("events.id-malformed", "typed", strings.TrimSpace(typed)), typed
	}
	return l.T("events.id-"+reason, "event", l.T("events.page-title", "dataset", cmp.Or(conflict.DatasetName(dataset), dataset), "id", id)), typed
}

func (a *API) eventLinkRow(l i18n.Locale, c archive.LinkedEvent) views.EventLinkRow {
	e := c.Event
	row := views.EventLinkRow{Dataset: e.Dataset, ID: e.ID, URL: a.Kit.URL("event", "dataset", e.Dataset, "event", e.ID), Why: c.Why,
		Score: l.Decimal(c.Score, 2), Likely: c.Likely, Decision: c.Link.Decision, Retired: c.Retired, Group: c.Group}
	if l.Lang == i18n.Arabic {
		row.Label = strings.Join([]string{l.T("events.page-title", "dataset", conflict.DatasetName(e.Dataset), "id", eventID(l, e.ID)),
			l.Named("events.kind.", e.Kind), l.T("events.killed", "n", e.Deaths)}, " · ")
		row.Why, _, _ = strings.Cut(c.Why, " — ") // the reasons; the event is the label
	}
	if d := c.Link.Decision; d != "" {
		at := c.Link.At.UTC()
		row.Decided = l.T("events.decided."+d, "who", pagemodel.ByWhom(l, pagemodel.ActorName(c.Link.By)), "date", l.Date(at.Year(), at.Month(), at.Day()))
	}
	return row
}

// eventPage shows one conflict event: its fields, its precision in
// words, its source, the photos linked to it and those nearby that
// nobody linked. An ACLED event is an editor's alone (the route is
// editorial; a reader is answered 404).
func (a *API) eventPage(w http.ResponseWriter, r *http.Request) {
	v := mux.Vars(r)
	ev, err := a.DB.EventPhotos(r.Context(), v["dataset"], v["event"])
	if err != nil {
		a.Error(w, r, err)
		return
	}
	l := i18n.From(r.Context())
	e := ev.Event
	m := views.EventPage{Page: a.Kit.Page(r, l.T("events.page-title", "dataset", conflict.DatasetName(e.Dataset), "id", eventID(l, e.ID)), ""),
		Dataset: e.Dataset, ID: e.ID, Headline: e.Headline, Facts: eventFacts(l, a.DB.Gazetteer(), ev)}
	if e.Dataset == conflict.GED {
		m.Citation, m.CitedInEnglish = geodata.CiteGED(e.Version), true
	} else {
		m.Citation = l.T("events.acled-terms")
	}
	if e.WherePrec <= 3 {
		m.Map = a.Kit.MiniMap(&m.Page, e.Lon, e.Lat, e.Where)
	}
	for i := range ev.Linked {
		m.Linked = append(m.Linked, pagemodel.PhotoRow(l, &ev.Linked[i], a.DB.Gazetteer(), a.PageURLs()))
	}
	for i := range ev.Nearby {
		m.Nearby = append(m.Nearby, pagemodel.PhotoRow(l, &ev.Nearby[i], a.DB.Gazetteer(), a.PageURLs()))
	}
	a.Kit.Render(w, r, http.StatusOK, views.EventPageView(m))
}

// eventID is an event's id in the reader's digits when it is a number
// (GED's "319280"), as the dataset writes it otherwise (ACLED's
// "SYR1234").
func eventID(l i18n.Locale, id string) string {
	if id == "" || strings.Trim(id, "0123456789") != "" {
		return id
	}
	return l.Number(id)
}

// eventFacts are an event's fields as its page lists them, its precision
// in words.
func eventFacts(l i18n.Locale, g *gazetteer.Gazetteer, ev archive.EventWithPhotos) []views.Fact {
	e := ev.Event
	day := func(d int) string { return l.Date(d/10000, time.Month(d/100%100), d%100) }
	when := day(e.DateStart)
	if e.DateEnd != e.DateStart {
		when = l.T("events.span", "from", when, "to", day(e.DateEnd))
	}
	prec := func(kind string, code int) string {
		return l.Named("events."+e.Dataset+"."+kind+".", strconv.Itoa(code))
	}
	facts := []views.Fact{
		{Label: l.T("common.date"), Value: when},
		{Label: l.T("events.date-known"), Value: prec("date", e.DatePrec)},
		{Label: l.T("filters.place"), Value: joinNonEmpty(eventPlaceName(l, g, e.Where, e.Lon, e.Lat), eventPlaceName(l, g, e.Adm2, e.Lon, e.Lat),
			eventPlaceName(l, g, e.Adm1, e.Lon, e.Lat))},
		{Label: l.T("events.place-known"), Value: prec("where", e.WherePrec)},
		{Label: l.T("events.kind"), Value: l.Named("events.kind.", e.Kind)},
		{Label: l.T("events.sides"), Value: eventSides(l, e)},
		{Label: l.T("events.deaths"), Value: l.Number(strconv.Itoa(e.Deaths))},
	}
	if e.Dataset == conflict.GED {
		facts = append(facts, views.Fact{Label: l.T("events.civilians"), Value: l.Number(strconv.Itoa(e.Civilians))})
	}
	facts = append(facts, views.Fact{Label: l.T("events.source"), Value: e.Source},
		views.Fact{Label: l.T("events.dataset"), Value: conflict.DatasetName(e.Dataset) + " " + l.Number(e.Version) + " · " + eventID(l, e.ID)})
	if ev.Retired != "" {
		facts = append(facts, views.Fact{Label: l.T("events.status"), Value: l.T("events.retired", "version", ev.Retired)})
	}
	out := facts[:0]
	for _, f := range facts {
		if f.Value != "" {
			out = append(out, f)
		}
	}
	return out
}

// joinNonEmpty joins the parts given, " · " between them.
func joinNonEmpty(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), " · ")
}
