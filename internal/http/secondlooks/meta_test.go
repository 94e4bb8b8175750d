package secondlooks_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

// TestBlindLookSaysWhatIsUnknown (issue 68, 8): the blind look of a
// photo without a date or a photographer says which is unknown, in the
// page's language ("Unknown · Unknown / AFP" said neither).
func TestBlindLookSaysWhatIsUnknown(t *testing.T) {
	e := newEditorServer(t, httpapi.Options{})
	path := filepath.Join(t.TempDir(), "looks.txt")
	os.WriteFile(path, []byte("Smoke rises over a market in Aleppo, Syria. AFP PHOTO\n"), 0o644)
	if _, err := e.a.ImportFile(context.Background(), path, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=market")
	rana, omar := []string{"Authorization", "Bearer " + e.token}, []string{"Authorization", "Bearer " + tokenOf(t, e.a, "omar")}
	if res, _ := do(t, nil, "POST", e.ts.URL+"/review/second-looks/setting", "two_person=on", append([]string{"Content-Type", "application/x-www-form-urlencoded"}, rana...)...); res.StatusCode >= 400 {
		t.Fatalf("two-person confirmation: %d", res.StatusCode)
	}
	if res, body := do(t, nil, "PUT", e.ts.URL+"/api/photos/"+id+"/placement", `{"confirm":true}`, rana...); res.StatusCode != 200 {
		t.Fatalf("rana's confirmation: %d %s", res.StatusCode, body)
	}
	_, body := do(t, nil, "GET", e.ts.URL+"/api/second-looks", "", omar...)
	var queue struct {
		Looks []struct {
			ID int64 `json:"id"`
		} `json:"second_looks"`
	}
	if json.Unmarshal([]byte(body), &queue); len(queue.Looks) != 1 {
		t.Fatalf("omar's queue: %s", body)
	}
	for lang, want := range map[string][]string{
		"en": {"date unknown", "photographer unknown", "AFP"},
		"ar": {"تاريخ غير معروف", "مصوّر غير معروف", "AFP"}, // a wire agency's name, as the agencies' table leaves it
	} {
		res, page := do(t, nil, "GET", e.ts.URL+"/review/second-looks/"+strconv.FormatInt(queue.Looks[0].ID, 10)+"?lang="+lang, "", append([]string{"Accept", "text/html"}, omar...)...)
		meta := httpapitest.ParsePage(t, res, []byte(page)).Text("look-meta")
		for _, w := range want {
			if !strings.Contains(meta, w) {
				t.Errorf("%s: the blind look says %q; want %q", lang, meta, w)
			}
		}
		if lang == "ar" && strings.Contains(meta, "Unknown") {
			t.Errorf("the Arabic blind look says %q", meta)
		}
	}
}
