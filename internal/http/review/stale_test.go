package review_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

// TestStalePageSaysWhatChanged (issue 68, 8): the page a stale form
// meets says in words, in the page's language, what the last change was
// (not the records' "second-look") and what the refused change was.
func TestStalePageSaysWhatChanged(t *testing.T) {
	e := newEditorServer(t, httpapi.Options{})
	omar := []string{"Authorization", "Bearer " + tokenOf(t, e.a, "omar")}
	id := e.photoID(t, "?place=ocha:C2320")
	// omar puts it at a point, then asks for a second look at it (which
	// it already awaits: no record).
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/photos/"+id+"/placement", `{"lon": 36.36, "lat": 33.53}`, omar...); res.StatusCode != 200 {
		t.Fatalf("omar's point: %s %s", res.Status, body)
	}
	if res, body := do(t, nil, "POST", e.ts.URL+"/api/photos/"+id+"/second-look", "", omar...); res.StatusCode >= 300 {
		t.Fatalf("omar's request of a second look: %s %s", res.Status, body)
	}
	c, csrf := e.signIn(t)
	for _, tc := range []struct {
		name string
		form url.Values
		lang string
		want []string // the message holds each
	}{
		{"a confirmation", url.Values{"action": {"confirm"}, "shown_place_id": {"ocha:C2320"}}, "en",
			[]string{"omar placed it elsewhere", "confirming its place at Zamalka"}},
		{"a point", url.Values{"action": {"point"}, "lon": {"36.36"}, "lat": {"33.53"}}, "en",
			[]string{"omar placed it elsewhere", "placing it at a point (36.36000, 33.53000)"}},
		{"a fix", url.Values{"action": {"fix"}, "photographer": {"R. Said"}}, "en",
			[]string{"omar placed it elsewhere", "fixing its date and credit"}},
		{"a confirmation, in Arabic", url.Values{"action": {"confirm"}, "shown_place_id": {"ocha:C2320"}}, "ar",
			[]string{"وضعها في مكان آخر", "تأكيد مكانها في زملكا"}},
		{"a point, in Arabic", url.Values{"action": {"point"}, "lon": {"36.36"}, "lat": {"33.53"}}, "ar",
			[]string{"وضعها في مكان آخر", "وضعها في نقطة (٣٦٫٣٦٠٠٠، ٣٣٫٥٣٠٠٠)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			form := tc.form
			form.Set("csrf", csrf)
			form.Set("version", "1")
			res, body := do(t, c, "POST", e.ts.URL+"/review/photos/"+id+"?lang="+tc.lang, form.Encode(),
				"Content-Type", "application/x-www-form-urlencoded", "Accept", "text/html")
			if res.StatusCode != http.StatusPreconditionFailed {
				t.Fatalf("%s %.300s", res.Status, body)
			}
			msg := strings.NewReplacer("\u2068", "", "\u2069", "").Replace(httpapitest.ParsePage(t, res, []byte(body)).Text("stale"))
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("the stale page says %q; want %q in it", msg, w)
				}
			}
			if strings.Contains(msg, "second-look") {
				t.Errorf("the stale page says %q: the records' word", msg)
			}
		})
	}
}
