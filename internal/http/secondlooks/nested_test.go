package secondlooks_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
)

// TestNestedAnswersWaitForAThird (issue 68, 1): rana places a photo at a
// quarter of Aleppo, omar answers "Aleppo" blind through the form. The
// answers nest: the form sends him back saying so and that a third
// editor decides, the round waits for one, the photo page says nothing
// verified, and the agreement page counts the look as nested (not
// agreed), explains κ and α and says they cannot be read from one look —
// in English and Arabic.
func TestNestedAnswersWaitForAThird(t *testing.T) {
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	g := e.a.Gazetteer()
	aleppo := g.ByID("gn:170063")
	var quarter string
	for _, p := range g.Places() {
		if p.Kind == "neighbourhood" && p.Parent == aleppo.ID && p.Located {
			quarter = p.ID
			break
		}
	}
	path := filepath.Join(t.TempDir(), "nested.txt")
	os.WriteFile(path, []byte("Residents inspect damage in Aleppo, Syria, May 3, 2016. (Photo by A. Person/Reuters)\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=residents")
	as := func(token string) []string { return []string{"Authorization", "Bearer " + token} }
	rana, omar := as(e.token), as(tokenOf(t, e.a, "omar"))
	form := func(h []string) []string {
		return append([]string{"Content-Type", "application/x-www-form-urlencoded"}, h...)
	}
	if res, _ := do(t, nil, "POST", e.ts.URL+"/review/second-looks/setting", "two_person=on", form(rana)...); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("turning two-person confirmation on: %d", res.StatusCode)
	}
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/photos/"+id+"/placement", `{"place_id":"`+quarter+`"}`, rana...); res.StatusCode != 200 {
		t.Fatalf("rana's placement: %d %s", res.StatusCode, body)
	}
	looks, err := e.a.LookRounds(ctx, "waiting", "", "", 5)
	if err != nil || len(looks) != 1 {
		t.Fatalf("waiting looks: %d, %v", len(looks), err)
	}
	look := e.ts.URL + "/review/second-looks/" + itoa(looks[0].ID)
	res, _ := do(t, nil, "POST", look, "action=place&place_id="+aleppo.ID, form(omar)...)
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasSuffix(loc, "?done=nested") {
		t.Fatalf("omar's answer: %d, to %q; want 303 to ?done=nested", res.StatusCode, loc)
	}
	_, page := do(t, nil, "GET", e.ts.URL+loc, "", omar...)
	if flash := between(page, `data-testid="flash">`, "<"); !strings.Contains(flash, "nest") || !strings.Contains(flash, "third editor") {
		t.Errorf("the queue after omar's answer says %q; want the answers nest and a third editor decides", flash)
	}
	// The round waits for a third editor, judged nested and not agreed.
	_, body := do(t, nil, "GET", e.ts.URL+"/api/second-looks/"+itoa(looks[0].ID), "", omar...)
	var round struct {
		State     string         `json:"state"`
		Judgement map[string]any `json:"judgement"`
	}
	if err := json.Unmarshal([]byte(body), &round); err != nil || round.State != "disagreed" || round.Judgement["nested"] != true ||
		round.Judgement["agreed"] != false || round.Judgement["within_size"] != false {
		t.Errorf("the round: %s", body)
	}
	// The third editor's page says which place both named and whose the
	// quarter is.
	lina := as(tokenOf(t, e.a, "lina"))
	q := g.ByID(quarter)
	for _, c := range []struct{ lang, want string }{
		{"en", "both editors named " + aleppo.Name + "; " + q.Name + " is rana's answer alone"},
		{"ar", "سمّى المحرّران كلاهما"},
	} {
		_, page := do(t, nil, "GET", e.ts.URL+"/review/adjudications/"+itoa(looks[0].ID)+"?lang="+c.lang, "", lina...)
		if !strings.Contains(strings.NewReplacer("\u2068", "", "\u2069", "", "&#39;", "'").Replace(page), c.want) {
			t.Errorf("%s: the adjudication page does not say %q", c.lang, c.want)
		}
	}
	// Nothing on the photo page says the quarter was checked.
	_, photoPage := do(t, nil, "GET", e.ts.URL+"/photos/"+id, "")
	if strings.Contains(photoPage, "verified-mark") || strings.Contains(photoPage, "checked by omar") {
		t.Error("the photo page says the quarter omar never named was checked")
	}
	nestedAgreementPage(t, e, omar)
}

// nestedAgreementPage checks the agreement page after one nested look,
// in both languages: nested 1, agreed 0, κ and α "cannot be read", and
// what they measure said.
func nestedAgreementPage(t *testing.T, e *editorServer, omar []string) {
	t.Helper()
	// The agreement page, both languages.
	for _, c := range []struct{ lang, nested, unreadable, measures, one, zero, governorate string }{
		{"en", "Nested", "cannot be read", "measure the decisions", ">1 (", ">0 (", "Aleppo"},
		{"ar", "متداخلان", "لا يمكن قراءته", "تقيسان القرارات", ">١ (", ">٠ (", "حلب"},
	} {
		res, page := do(t, nil, "GET", e.ts.URL+"/review/agreement?lang="+c.lang, "", omar...)
		if res.StatusCode != 200 {
			t.Fatalf("%s agreement page: %d", c.lang, res.StatusCode)
		}
		team := strings.NewReplacer("\u2068", "", "\u2069", "").Replace(between(page, `data-testid="agreement-team"`, "</tr>"))
		cells := strings.Split(team, "<td")
		// editors, looks, same place, nested, near points, agreed, κ
		if len(cells) < 8 || !strings.Contains(cells[4], c.one) || !strings.Contains(cells[6], c.zero) || !strings.Contains(cells[7], c.unreadable) {
			t.Errorf("%s: the team's row %q: want nested 1, agreed 0, κ %q", c.lang, team, c.unreadable)
		}
		alpha := between(page, `data-testid="alpha"`, "</p>")
		if !strings.Contains(alpha, c.unreadable) {
			t.Errorf("%s: α %q; want %q", c.lang, alpha, c.unreadable)
		}
		// Where they disagreed, by governorate, in the page's language
		// (issue 68, 8: the Arabic page said "Aleppo").
		if govs := between(page, `data-testid="by-governorate"`, "</table>"); !strings.Contains(govs, c.governorate) || c.lang == "ar" && strings.Contains(govs, "Aleppo") {
			t.Errorf("%s: the governorates %q; want %q", c.lang, govs, c.governorate)
		}
		if !strings.Contains(page, c.measures) || !strings.Contains(page, c.nested) {
			t.Errorf("%s: the agreement page does not say what κ and α measure (%q)", c.lang, c.measures)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// between is the text of s after the first from, up to the next to.
func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i+len(from):]
	if j := strings.Index(s, to); j >= 0 {
		return s[:j]
	}
	return s
}
