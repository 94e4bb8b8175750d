package pages_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestPagesInTheReadersLanguage: without a choice, a page is in the
// language the browser prefers; the choice in the address wins, and is
// kept; pages say they vary so.
func TestPagesInTheReadersLanguage(t *testing.T) {
	ts := newServer(t).TS
	for _, c := range []struct {
		path, accept, cookie string
		want                 string
	}{
		{"/about", "ar-SY,ar;q=0.9", "", `<html lang="ar" dir="rtl" data-digits="arab">`},
		{"/about", "en-GB", "", `<html lang="en" dir="ltr" data-digits="latn">`},
		{"/about?lang=en", "ar", "", `<html lang="en" dir="ltr"`},
		{"/about", "en", "ar", `<html lang="ar" dir="rtl"`},
		{"/about?lang=ar&digits=latn", "", "", `data-digits="latn"`},
	} {
		req, _ := http.NewRequest("GET", ts.URL+c.path, nil)
		req.Header.Set("Accept-Language", c.accept)
		if c.cookie != "" {
			req.AddCookie(&http.Cookie{Name: "lang", Value: c.cookie})
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body := string(b)
		if !strings.Contains(body, c.want) {
			t.Errorf("%s (Accept-Language %q, cookie %q): want %s", c.path, c.accept, c.cookie, c.want)
		}
		if vary := strings.Join(resp.Header.Values("Vary"), ", "); !strings.Contains(vary, "Accept-Language") || !strings.Contains(vary, "Cookie") {
			t.Errorf("%s: Vary %q", c.path, vary)
		}
	}
}
