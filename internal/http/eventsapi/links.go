package eventsapi

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
)

// EventJSON is one event a photo may document or documents, as
// /api/photos/{id}/events answers it.
type EventJSON struct {
	Dataset string  `json:"dataset"`
	Version string  `json:"version"`
	ID      string  `json:"id"`
	Score   float64 `json:"score"`
	Likely  bool    `json:"likely"`
	Why     string  `json:"why"`
	// Decision is an editor's: confirmed (among links), rejected, or
	// absent; By and At who decided and when.
	Decision string     `json:"decision,omitempty"`
	By       string     `json:"by,omitempty"`
	At       *time.Time `json:"at,omitempty"`
	// Retired names the dataset's version that dropped the event.
	Retired string `json:"retired,omitempty"`
	URL     string `json:"url,omitempty"`
	// Group are the ids of the dataset's rows of the candidate's
	// incident, its own first (conflict.Candidate.Group): a decision
	// sent with them decides them all.
	Group []string `json:"group,omitempty"`
}

// maxEventCandidates bounds a photo's list of candidates.
const maxEventCandidates = 20

// PhotoEventsJSON is /api/photos/{id}/events' answer: {"candidates": […],
// "links": […]}.
type PhotoEventsJSON struct {
	Candidates []EventJSON `json:"candidates"`
	Links      []EventJSON `json:"links"`
}

// photoEvents answers the events photo {id} documents (links an editor
// confirmed) and may document (candidates, best first: conflict.Rank).
// The route is editorial: an editor's answer holds ACLED's events and
// every decision, a reader's only UCDP GED's confirmed links and
// candidates.
func (a *API) photoEvents(w http.ResponseWriter, r *http.Request) {
	pe, err := a.DB.EventsOf(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		a.Error(w, r, err)
		return
	}
	a.Kit.WriteJSON(w, r, "application/json", a.photoEventsOf(pe))
}

func (a *API) photoEventsOf(pe archive.PhotoEvents) PhotoEventsJSON {
	out := PhotoEventsJSON{Candidates: []EventJSON{}, Links: []EventJSON{}}
	for _, l := range pe.Links {
		out.Links = append(out.Links, a.eventJSONOf(l))
	}
	for i, c := range pe.Candidates {
		if i == maxEventCandidates {
			break
		}
		out.Candidates = append(out.Candidates, a.eventJSONOf(c))
	}
	return out
}

func (a *API) eventJSONOf(c archive.LinkedEvent) EventJSON {
	e := c.Event
	j := EventJSON{Dataset: e.Dataset, Version: e.Version, ID: e.ID, Score: c.Score, Likely: c.Likely, Why: c.Why,
		Decision: c.Link.Decision, Retired: c.Retired, URL: a.Kit.URL("event", "dataset", e.Dataset, "event", e.ID), Group: c.Group}
	if c.Link.Decision != "" {
		j.By, j.At = c.Link.By, &c.Link.At
	}
	return j
}

// putEventLink records an editor's decision on whether photo {id}
// documents event {dataset}/{event}: PUT {"decision": "confirmed" |
// "rejected"}, DELETE to take it back; it answers the photo's events as
// GET does. An event not among the candidates may be linked by its id.
// A candidate's incident of several rows is decided whole with "group":
// [its ids] (EventJSON.Group), in one transaction.
func (a *API) putEventLink(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	v := mux.Vars(r)
	var b struct {
		Decision string   `json:"decision"`
		Group    []string `json:"group"`
	}
	if r.Method == http.MethodPut {
		if err := web.DecodeWrite(r, &b); err != nil {
			a.Error(w, r, err)
			return
		}
		if b.Decision == "" {
			a.Error(w, r, photo.ParamErrorf("decision", "say %q or %q (DELETE takes a decision back)", photo.LinkConfirmed, photo.LinkRejected))
			return
		}
	}
	if err := photo.CheckEventID(v["dataset"], v["event"]); err != nil {
		a.Error(w, r, err)
		return
	}
	if _, err := a.DB.SetEventLinks(r.Context(), v["id"], v["dataset"], incidentRows(v["event"], b.Group), b.Decision, "editor "+ed.Name); err != nil {
		a.Error(w, r, err)
		return
	}
	a.TagPhoto(w, r, v["id"])
	a.photoEvents(w, r)
}

// postEventLink is putEventLink for the photo page's forms: dataset and
// event (a candidate's buttons, with the other rows of its incident:
// group, one field each, decided together), or the event as an editor
// types it in "Link an event by its id" (photo.ParseEventRef: "GED
// 243931", "ucdp-ged:243931", "243931" …); decision ("" takes it back).
// It goes back to the page (next) at its events, saying what it did
// (eventStatus), or, for an event refused (malformed, not held, dropped
// by its dataset), with the refusal beside the field and what was typed
// kept (eventRefusal): nothing is written then. The page's script asks
// for JSON: DecidedJSON, or the refusal as an error.
func (a *API) postEventLink(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	id := mux.Vars(r)["id"]
	if err := r.ParseForm(); err != nil {
		a.Error(w, r, photo.Errorf(photo.EInvalid, "reading the form: %v", err))
		return
	}
	ctx := r.Context()
	back := cmp.Or(session.SafeNext(r.PostFormValue("next")), a.Kit.URL("photo", "id", id))
	typed, decision := r.PostFormValue("event"), r.PostFormValue("decision")
	dataset, event, err := eventOfForm(r.PostFormValue("dataset"), typed)
	var before string
	if err == nil {
		before, err = a.decisionOn(ctx, id, dataset, event)
	}
	changed := false
	if err == nil {
		changed, err = a.DB.SetEventLinks(ctx, id, dataset, incidentRows(event, r.PostForm["group"]), decision, "editor "+ed.Name)
	}
	l := i18n.From(ctx)
	if refusal := refusalOf(err); refusal != "" && script(r) {
		why, _ := eventRefusal(l, url.Values{paramError: {refusal}, paramTyped: {typed}})
		a.Error(w, r, &photo.Error{Code: photo.ErrorCode(err), Parameter: "event", Message: why})
		return
	} else if refusal != "" {
		http.Redirect(w, r, backTo(back, url.Values{paramError: {refusal}, paramTyped: {typed}}), http.StatusSeeOther)
		return
	} else if err != nil {
		a.Error(w, r, err)
		return
	}
	done := url.Values{paramDone: {doneOf(before, decision, changed)}, paramEvent: {photo.EventKey(dataset, event)}}
	if script(r) {
		a.Kit.WriteJSON(w, r, "application/json", DecidedJSON{Status: eventStatus(l, done), Next: backTo(back, done)})
		return
	}
	http.Redirect(w, r, backTo(back, done), http.StatusSeeOther)
}

// DecidedJSON is the photo page's form's answer to its script (which
// asks for JSON): what the decision did, in the page's language, and the
// page to go back to, which says it too. A refused event is answered as
// an error about the parameter "event", its message in the page's
// language.
type DecidedJSON struct {
	Status string `json:"status"`
	Next   string `json:"next"`
}

// script reports whether the form was sent by the page's script, which
// asks for JSON, rather than by the browser, which asks for a page.
func script(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	return strings.Contains(accept, "application/json") && !strings.Contains(accept, "text/html")
}

// eventOfForm is the event a form names: dataset and id as a candidate's
// buttons send them, or as typed (photo.ParseEventRef).
func eventOfForm(dataset, typed string) (string, string, error) {
	if strings.TrimSpace(typed) == "" {
		return "", "", photo.ParamErrorf("event", "name the event by its id (a UCDP GED id such as GED 270123, or acled:SYR1234)")
	}
	if dataset != "" {
		return dataset, typed, photo.CheckEventID(dataset, typed)
	}
	return photo.ParseEventRef(typed)
}

// decisionOn is the editors' decision on photo id and the event now: "",
// photo.LinkConfirmed or photo.LinkRejected.
func (a *API) decisionOn(ctx context.Context, id, dataset, event string) (string, error) {
	links, err := a.DB.EventLinks(ctx, id)
	for _, l := range links {
		if l.Dataset == dataset && l.EventID == event {
			return l.Decision, err
		}
	}
	return "", err
}

// The parameters a form's answer adds to the page it goes back to: what
// was done (paramDone, one of the events.done.* messages) to which event
// (paramEvent, an event key), or why the event typed was refused
// (paramError: malformed, unknown, retired) and what was typed.
const (
	paramDone  = "event_done"
	paramEvent = "event_key"
	paramError = "event_error"
	paramTyped = "event_typed"
)

// refusalOf names the refusal of an event a form named (err about the
// field "event"): "malformed", "unknown" or "retired"; "" for any other
// error, which is answered as errors are, and for none.
func refusalOf(err error) string {
	var pe *photo.Error
	if !errors.As(err, &pe) || pe.Parameter != "event" {
		return ""
	}
	return map[string]string{photo.EInvalid: "malformed", photo.ENotFound: "unknown", photo.EConflict: "retired"}[pe.Code]
}

// doneOf names what a decision did, given the one before it: confirmed,
// rejected, unlinked (a link undone), unrejected (a rejection undone),
// or unchanged.
func doneOf(before, decision string, changed bool) string {
	switch {
	case !changed:
		return "unchanged"
	case decision != "":
		return decision
	case before == photo.LinkRejected:
		return "unrejected"
	}
	return "unlinked"
}

// backTo is the page next (a path and query) at its events, with the
// form's answer set in its query in place of any earlier one's.
func backTo(next string, set url.Values) string {
	u, err := url.Parse(next)
	if err != nil {
		u = &url.URL{Path: "/"}
	}
	q := withoutAnswer(u.Query())
	for k, v := range set {
		q[k] = v
	}
	u.RawQuery, u.Fragment = q.Encode(), "events"
	return u.String()
}

// withoutAnswer is q without a form's answer (backTo's parameters).
func withoutAnswer(q url.Values) url.Values {
	for _, k := range []string{paramDone, paramEvent, paramError, paramTyped} {
		q.Del(k)
	}
	return q
}

// incidentRows are event and the other rows of its incident an editor
// decides with it, once each, event first.
func incidentRows(event string, group []string) []string {
	out := []string{event}
	for _, g := range group {
		if g = strings.TrimSpace(g); g != "" && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}
