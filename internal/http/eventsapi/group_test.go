package eventsapi_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/eventsapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

// TestConfirmOneIncident (issue 69, 3): GED's rows of one incident (Aleppo,
// 24 April 2016: one SOHR headline, two rows of that day; a third of
// its headline spans three days, another incident) are one candidate whose
// group names them; the photo page's confirm sends them all, and the
// editor's one decision links every row.
func TestConfirmOneIncident(t *testing.T) {
	e, id := withEvents(t, "Smoke rises after barrel bombs hit Aleppo, Syria April 24, 2016. REUTERS/Abdalrhman Ismail", "barrel")
	bearer := []string{"Authorization", "Bearer " + e.Token}
	events := func() eventsapi.PhotoEventsJSON {
		t.Helper()
		_, b := httpapitest.Do(t, nil, "GET", e.TS.URL+"/api/photos/"+id+"/events", "", bearer...)
		var out eventsapi.PhotoEventsJSON
		if err := json.Unmarshal([]byte(b), &out); err != nil {
			t.Fatal(err, b)
		}
		return out
	}
	var group []string
	for _, c := range events().Candidates {
		if slices.Contains(c.Group, "219180") {
			group = c.Group
		}
		if len(c.Group) > 0 && c.ID != c.Group[0] {
			t.Errorf("candidate %s: its group %v does not begin with it", c.ID, c.Group)
		}
	}
	if want := []string{"219180", "219182"}; !slices.Equal(sorted(group), want) {
		t.Fatalf("the incident's group: %v, want %v", group, want)
	}
	// The page's confirm carries the group.
	c, csrf := httpapitest.SignIn(t, e.TS.URL)
	_, page := httpapitest.Do(t, c, "GET", e.TS.URL+"/photos/"+id, "")
	for _, g := range group[1:] {
		if !strings.Contains(page, `name="group" value="`+g+`"`) {
			t.Errorf("the photo page's forms do not send row %s of the incident", g)
		}
	}
	form := url.Values{"csrf": {csrf}, "dataset": {"ucdp-ged"}, "event": {group[0]}, "group": group[1:], "decision": {"confirmed"}}
	res, _ := httpapitest.Do(t, c, "POST", e.TS.URL+"/photos/"+id+"/events", form.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirm the incident: %d", res.StatusCode)
	}
	var linked []string
	out := events()
	for _, l := range out.Links {
		linked = append(linked, l.ID)
	}
	if !slices.Equal(sorted(linked), sorted(group)) {
		t.Errorf("linked %v, want the incident's rows %v", linked, group)
	}
	for _, c := range out.Candidates {
		if slices.Contains(group, c.ID) {
			t.Errorf("row %s of the confirmed incident is still a candidate", c.ID)
		}
	}
	// A confirmed row's undo on the page carries the incident's other
	// rows: taken back together (an outside trial undid one row and left
	// the other linked).
	_, page = httpapitest.Do(t, c, "GET", e.TS.URL+"/photos/"+id, "")
	for _, g := range group[1:] {
		if !strings.Contains(page, `name="group" value="`+g+`"`) {
			t.Errorf("after the confirm, the photo page's undo does not send row %s of the incident", g)
		}
	}
	form.Set("decision", "")
	if res, _ := httpapitest.Do(t, c, "POST", e.TS.URL+"/photos/"+id+"/events", form.Encode(), "Content-Type", "application/x-www-form-urlencoded"); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("undo the incident: %d", res.StatusCode)
	}
	if out := events(); len(out.Links) != 0 {
		t.Errorf("links after undoing the incident: %+v", out.Links)
	}
	if res, _ := httpapitest.Do(t, c, "POST", e.TS.URL+"/photos/"+id+"/events", url.Values{"csrf": {csrf}, "dataset": {"ucdp-ged"}, "event": {group[0]}, "group": group[1:], "decision": {"confirmed"}}.Encode(), "Content-Type", "application/x-www-form-urlencoded"); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirm the incident again: %d", res.StatusCode)
	}
	// The API rejects the rows of an incident together too.
	_, b := httpapitest.Do(t, nil, "PUT", e.TS.URL+"/api/photos/"+id+"/events/ucdp-ged/"+group[0], `{"decision":"rejected","group":`+jsonList(group)+`}`, bearer...)
	var after eventsapi.PhotoEventsJSON
	json.Unmarshal([]byte(b), &after)
	if len(after.Links) != 0 {
		t.Errorf("links after rejecting the incident: %+v", after.Links)
	}
	for _, c := range after.Candidates {
		if slices.Contains(group, c.ID) && (c.Decision != "rejected" || c.Likely) {
			t.Errorf("row %s of the rejected incident: %q, likely %v", c.ID, c.Decision, c.Likely)
		}
	}
	// A reader, who sees no rejection, is offered none of its rows (an
	// outside trial saw a rejected row "likely" to readers).
	_, b = httpapitest.Do(t, nil, "GET", e.TS.URL+"/api/photos/"+id+"/events", "")
	var public eventsapi.PhotoEventsJSON
	if err := json.Unmarshal([]byte(b), &public); err != nil {
		t.Fatal(err, b)
	}
	for _, c := range public.Candidates {
		if slices.Contains(group, c.ID) {
			t.Errorf("a reader is offered row %s of the incident editors rejected (likely %v)", c.ID, c.Likely)
		}
	}
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

func jsonList(s []string) string { b, _ := json.Marshal(s); return string(b) }
