package review_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
)

// TestMarkingAPhoto: an editor marks a photo through the API and through
// the photo page's form, always with a reason, which its custody record
// keeps with the mark before and after; a mark not known, or no reason,
// is a 400 that changes nothing; the photo page says the mark and who put
// it, to an editor with the form, and the review queue lists the marked
// photos for editors only.
func TestMarkingAPhoto(t *testing.T) {
	e := newEditorServer(t, httpapi.Options{})
	id := e.photoID(t, "?place=ocha:C2320")
	api := e.ts.URL + "/api/photos/" + id + "/harm"
	bearer := []string{"Authorization", "Bearer " + e.token}
	for _, tc := range []struct{ body, param string }{
		{`{"harm": "graphic", "reason": "  "}`, ""},
		{`{"harm": "gory", "reason": "a body"}`, "harm"},
	} {
		res, out := do(t, nil, "PUT", api, tc.body, bearer...)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(out, tc.param) {
			t.Errorf("PUT %s: %s %s", tc.body, res.Status, out)
		}
	}
	if p, _ := e.a.Photo(context.Background(), id); p.Harm != "" {
		t.Fatalf("a refused mark marked the photo %q", p.Harm)
	}
	res, out := do(t, nil, "PUT", api, `{"harm": "graphic", "reason": "a body in the street"}`, bearer...)
	if res.StatusCode != http.StatusOK || !strings.Contains(out, `"graphic":true`) {
		t.Fatalf("marking graphic: %s %s", res.Status, out)
	}
	// The page's form: withheld, back to the page it came from.
	client, csrf := e.signIn(t)
	form := url.Values{"csrf": {csrf}, "harm": {"withheld"}, "reason": {"the family asked"}, "next": {"/photos/" + id}}
	res, out = do(t, client, "POST", api, form.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/photos/"+id {
		t.Fatalf("the form: %s %s → %s", res.Status, out, res.Header.Get("Location"))
	}
	recs, _ := e.a.CustodyOf(context.Background(), id)
	var marks []string
	for _, c := range recs {
		if c.Action == "harm" {
			marks = append(marks, c.Actor+": "+string(c.Detail))
		}
	}
	want := []string{`editor rana: {"after":"graphic","before":"","reason":"a body in the street"}`,
		`editor rana: {"after":"withheld","before":"graphic","reason":"the family asked"}`}
	if !slices.Equal(marks, want) {
		t.Errorf("custody of the marks:\n%q\nwant\n%q", marks, want)
	}
	res, page := do(t, client, "GET", e.ts.URL+"/photos/"+id, "")
	if res.StatusCode != http.StatusOK || !strings.Contains(page, `data-testid="harm"`) || !strings.Contains(page, "the family asked") ||
		!strings.Contains(page, `data-testid="harm-form"`) || !strings.Contains(page, "Withheld from the public") {
		t.Errorf("the editor's page of a withheld photo: %s", res.Status)
	}
	_, queue := do(t, client, "GET", e.ts.URL+"/review", "")
	if !strings.Contains(queue, `data-testid="marked"`) || !strings.Contains(queue, "/photos/"+id) {
		t.Error("the editor's review queue does not list the withheld photo")
	}
	_, queue = do(t, nil, "GET", e.ts.URL+"/review", "")
	if strings.Contains(queue, `data-testid="marked"`) || strings.Contains(queue, id) {
		t.Error("a reader's review queue lists the withheld photo")
	}
	// Taken off again: public.
	res, _ = do(t, nil, "PUT", api, `{"harm": "", "reason": "the family agreed after all"}`, bearer...)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("taking the mark off: %s", res.Status)
	}
	if res, _ := get(t, e.ts, "/photos/"+id); res.StatusCode != http.StatusOK {
		t.Errorf("the photo given back: %s", res.Status)
	}
}
