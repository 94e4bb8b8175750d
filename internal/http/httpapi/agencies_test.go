package httpapi

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestOneAgencyInBothLanguages: a photo credited "الدفاع المدني" and one
// credited "Syrian Civil Defense/White Helmets" are one agency in the
// facets, named in each language, and the photo page names it in the
// page's language (issue 66, item 4).
func TestOneAgencyInBothLanguages(t *testing.T) {
	_, ts, a := newTestServer(t)
	arabic := "قصف جوي على بلدة معرشورين جنوب إدلب - 21 من آب 2019 (الدفاع المدني)"
	file := filepath.Join(t.TempDir(), "sources.txt")
	os.WriteFile(file, []byte(arabic+"\n\nRescuers search the rubble in Maarshoreen, Idlib, Syria, August 21, 2019. (Syrian Civil Defense/White Helmets)\n"), 0o644)
	if _, err := a.ImportFile(context.Background(), file, "", nil); err != nil {
		t.Fatal(err)
	}
	want := `{"value":"Syrian Civil Defence","label":"Syrian Civil Defence (White Helmets)","label_ar":"الدفاع المدني السوري","count":2}`
	if resp, body := get(t, ts, "/api/facets?field=agency"); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
		t.Errorf("facets: %s, want %s in %.600s", resp.Status, want, body)
	}
	for _, c := range []struct{ lang, want string }{{"en", "Syrian Civil Defence (White Helmets)"}, {"ar", "الدفاع المدني السوري"}} {
		resp, body := get(t, ts, "/photos/"+photo.ID(arabic)+"?lang="+c.lang)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `data-testid="agency" dir="auto">`+c.want+`<`) {
			t.Errorf("photo page in %s: %s, want the agency named %q", c.lang, resp.Status, c.want)
		}
	}
}
