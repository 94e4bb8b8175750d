package eventsapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
)

// aleppoMortar is the sample archive with GED's bundled events and one
// photo of Aleppo on 1 January 2016, whose id it answers.
func aleppoMortar(t *testing.T) (*servertest.Server, string) {
	t.Helper()
	e := newServer(t)
	ctx := context.Background()
	if _, _, err := e.A.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "aleppo.txt")
	if err := os.WriteFile(path, []byte("Rebel fighters fire a mortar during clashes in Aleppo, Syria January 1, 2016. REUTERS/Abdalrhman Ismail\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.A.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	return e, httpapitest.PhotoID(t, e.TS, "?q=mortar")
}

// TestLinkByIDRefusesBesideTheField (issue 69, 5): the photo page's "Link
// an event by its id" takes the forms the page shows an event in; a
// malformed or unknown id sends the editor back to the photo's page with
// the refusal beside the field and what they typed kept (never a bare
// error page), in English and Arabic; the API answers a malformed id
// 400 in JSON.
func TestLinkByIDRefusesBesideTheField(t *testing.T) {
	e, id := aleppoMortar(t)
	bearer := []string{"Authorization", "Bearer " + e.Token}
	res, body := httpapitest.Do(t, nil, "PUT", e.TS.URL+"/api/photos/"+id+"/events/ucdp-ged/24393x", `{"decision":"confirmed"}`, bearer...)
	if res.StatusCode != http.StatusBadRequest || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || !strings.Contains(body, "24393x") {
		t.Errorf("the API, a malformed id: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	c, csrf := httpapitest.SignIn(t, e.TS.URL)
	post := func(t *testing.T, next, event, decision string) *http.Response {
		t.Helper()
		res, body := httpapitest.Do(t, c, "POST", e.TS.URL+"/photos/"+id+"/events", url.Values{"csrf": {csrf}, "event": {event}, "decision": {decision}, "next": {next}}.Encode(),
			"Content-Type", "application/x-www-form-urlencoded", "Accept", "text/html")
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %q: %d, want a redirect back to the page: %.300s", event, res.StatusCode, body)
		}
		return res
	}
	follow := func(t *testing.T, res *http.Response) httpapitest.Doc {
		t.Helper()
		loc := res.Header.Get("Location")
		if !strings.HasPrefix(loc, "/photos/"+id) || !strings.HasSuffix(loc, "#events") {
			t.Errorf("back to %q, want the photo's page at its events", loc)
		}
		page, body := httpapitest.Do(t, c, "GET", e.TS.URL+loc, "")
		return httpapitest.ParsePage(t, page, []byte(body))
	}
	for _, tc := range []struct {
		name, lang, typed, want string
	}{
		{"malformed", "", "GED 24393x", `"GED 24393x" is not an event's id`},
		{"malformed, Arabic", "ar", "GED 24393x", "«GED 24393x» ليس معرّف حدث"},
		{"unknown", "", "GED 999999999", "The archive holds no GED event 999999999"},
		{"unknown, Arabic digits", "ar", "٩٩٩٩٩٩٩٩٩", "لا يحوي الأرشيف حدث GED رقم 999999999"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := "/photos/" + id
			if tc.lang != "" {
				next += "?lang=" + tc.lang
			}
			d := follow(t, post(t, next, tc.typed, "confirmed"))
			if got := plain(d.Text("event-id-error")); !strings.Contains(got, tc.want) {
				t.Errorf("the refusal beside the field: %q, want %q", got, tc.want)
			}
			if got := httpapitest.AttrOf(d.One("event-id"), "value"); got != tc.typed {
				t.Errorf("the field holds %q, want what was typed, %q", got, tc.typed)
			}
			if len(d.All("event-link")) != 0 {
				t.Error("a refused id was linked")
			}
		})
	}
}

// TestEventDecisionsSayWhatTheyDid (issue 69, 5): confirming by a typed
// id, rejecting and undoing each come back to the page with a status
// that says what was done to which event, and each custody record names
// the dataset, the event and the decision, in English and Arabic.
func TestEventDecisionsSayWhatTheyDid(t *testing.T) {
	e, id := aleppoMortar(t)
	c, csrf := httpapitest.SignIn(t, e.TS.URL)
	step := func(t *testing.T, lang, event, decision string) httpapitest.Doc {
		t.Helper()
		next := "/photos/" + id
		if lang != "" {
			next += "?lang=" + lang
		}
		res, body := httpapitest.Do(t, c, "POST", e.TS.URL+"/photos/"+id+"/events", url.Values{"csrf": {csrf}, "event": {event}, "decision": {decision}, "next": {next}}.Encode(),
			"Content-Type", "application/x-www-form-urlencoded", "Accept", "text/html")
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %q %q: %d %.300s", event, decision, res.StatusCode, body)
		}
		page, body := httpapitest.Do(t, c, "GET", e.TS.URL+res.Header.Get("Location"), "")
		return httpapitest.ParsePage(t, page, []byte(body))
	}
	custody := func(t *testing.T, d httpapitest.Doc) string {
		rows := d.All("custody-record")
		if len(rows) == 0 {
			t.Fatal("no custody records on the page")
		}
		return httpapitest.TextOf(rows[len(rows)-1])
	}
	for _, tc := range []struct {
		name, lang, event, decision string
		status, record              string
	}{
		{"linked by its label's form", "", "GED 214797", "confirmed", "Linked GED 214797 to this photo as documenting it", "Linked as documenting GED event 214797 (version 19.1)"},
		{"undone", "", "ucdp-ged:214797", "", "Undone: GED 214797 is no longer linked to this photo", "Unlinked from GED event 214797 (version 19.1)"},
		{"rejected, Arabic", "ar", "214808", "rejected", "عُلّم GED 214808 بأن هذه الصورة لا توثّقه", "رُفض حدث GED رقم 214808 (الإصدار 19.1): الصورة لا توثّقه"},
		{"the rejection undone, Arabic", "ar", "214808", "", "أُلغي: لم يعد GED 214808 مرفوضًا", "سُحب رفض حدث GED رقم 214808 (الإصدار 19.1)"},
		{"linked again, Arabic", "ar", "GED ٢١٤٧٩٧", "confirmed", "رُبط GED 214797 بهذه الصورة على أنها توثّقه", "رُبطت بحدث GED رقم 214797 (الإصدار 19.1) على أنها توثّقه"},
		{"the same again", "", "214797", "confirmed", "GED 214797 was already so: nothing changed", "Linked as documenting GED event 214797"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := step(t, tc.lang, tc.event, tc.decision)
			if got := plain(d.Text("event-status")); !strings.Contains(got, tc.status) {
				t.Errorf("the status: %q, want %q", got, tc.status)
			}
			if got := plain(custody(t, d)); !strings.Contains(got, tc.record) {
				t.Errorf("the custody record: %q, want %q", got, tc.record)
			}
		})
	}
}

// plain is s without the isolates the Arabic messages put around what
// they quote.
func plain(s string) string { return strings.NewReplacer("\u2068", "", "\u2069", "").Replace(s) }

// TestLinkByIDAnswersTheScript (issue 69, 5): the page's script, asking
// the same form for JSON, is told a refusal as an error about the field
// "event" in the page's words, and a decision made as its status and the
// page to go back to.
func TestLinkByIDAnswersTheScript(t *testing.T) {
	e, id := aleppoMortar(t)
	c, csrf := httpapitest.SignIn(t, e.TS.URL)
	send := func(t *testing.T, event string) (*http.Response, map[string]string) {
		t.Helper()
		res, body := httpapitest.Do(t, c, "POST", e.TS.URL+"/photos/"+id+"/events?lang=en", url.Values{"csrf": {csrf}, "event": {event}, "decision": {"confirmed"}, "next": {"/photos/" + id}}.Encode(),
			"Content-Type", "application/x-www-form-urlencoded", "Accept", "application/json")
		var out map[string]string
		if err := json.Unmarshal([]byte(body), &out); err != nil {
			t.Fatalf("%q: not JSON: %d %s", event, res.StatusCode, body)
		}
		return res, out
	}
	if res, out := send(t, "GED 24393x"); res.StatusCode != http.StatusBadRequest || out["parameter"] != "event" || !strings.Contains(out["error"], `"GED 24393x" is not an event's id`) {
		t.Errorf("malformed: %d %v", res.StatusCode, out)
	}
	if res, out := send(t, "GED 999999999"); res.StatusCode != http.StatusNotFound || out["parameter"] != "event" || !strings.Contains(out["error"], "The archive holds no GED event 999999999") {
		t.Errorf("unknown: %d %v", res.StatusCode, out)
	}
	res, out := send(t, "GED 214797")
	if res.StatusCode != http.StatusOK || out["status"] != "Linked GED 214797 to this photo as documenting it" ||
		out["next"] != "/photos/"+id+"?event_done=confirmed&event_key=ucdp-ged%3A214797#events" {
		t.Errorf("linked: %d %v", res.StatusCode, out)
	}
}
