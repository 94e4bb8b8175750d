package pages_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestOneLanguagePerAddress: the address decides a page's language; a
// browser that has been to ?lang=ar and then opens a plain address reads
// English, whatever its Accept-Language; only the header's switch is
// remembered, for addresses that say nothing; every link an Arabic page
// holds to the site says lang=ar (its GET forms in a field); pages say
// they vary by cookie (the switch's choice) but not by Accept-Language.
func TestOneLanguagePerAddress(t *testing.T) {
	ts := newServer(t).TS
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	get := func(path, accept string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.Header.Set("Accept-Language", accept)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	const ar, en = `<html lang="ar" dir="rtl"`, `<html lang="en" dir="ltr"`
	for _, c := range []struct{ name, path, accept, want string }{
		{"a link in Arabic", "/about?lang=ar", "en", ar},
		{"the plain address after it", "/about", "en", en},
		{"another plain address", "/", "en", en},
		{"an Arabic browser, nothing said", "/about", "ar-SY,ar;q=0.9", en},
		{"Latin digits in the address", "/about?lang=ar&digits=latn", "", `data-digits="latn"`},
	} {
		resp, body := get(c.path, c.accept)
		if !strings.Contains(body, c.want) {
			t.Errorf("%s: %s (Accept-Language %q) is not %s", c.name, c.path, c.accept, c.want)
		}
		if vary := strings.Join(resp.Header.Values("Vary"), ", "); strings.Contains(vary, "Accept-Language") || !strings.Contains(vary, "Cookie") {
			t.Errorf("%s: Vary %q", c.path, vary)
		}
	}

	// The switch: remembered, and the address it lands on says it.
	resp, body := get("/about?chosen=1&lang=ar", "en")
	if !strings.Contains(body, ar) || resp.Request.URL.RequestURI() != "/about?lang=ar" {
		t.Errorf("the switch to Arabic landed on %s", resp.Request.URL.RequestURI())
	}
	if _, body := get("/about", "en"); !strings.Contains(body, ar) {
		t.Error("the switch's choice was not remembered for a plain address")
	}
	if _, body := get("/about?lang=en", "ar"); !strings.Contains(body, en) {
		t.Error("?lang=en after choosing Arabic is not English")
	}
	get("/about?chosen=1&lang=en", "")
	if _, body := get("/about", "ar"); !strings.Contains(body, en) {
		t.Error("choosing English did not forget Arabic")
	}

	// Every link to the site on an Arabic page says it.
	for _, path := range []string{"/?lang=ar", "/about?lang=ar", "/stories?lang=ar"} {
		_, body := get(path, "")
		links, forms := siteLinks(t, body)
		if len(links) < 4 {
			t.Fatalf("%s: only %d links", path, len(links))
		}
		for _, l := range links {
			u, _ := url.Parse(l)
			if u.Query().Get("lang") != "ar" && !u.Query().Has("chosen") { // the switch says English
				t.Errorf("%s: a link %q does not say lang=ar", path, l)
			}
		}
		for _, f := range forms {
			if f != "ar" {
				t.Errorf("%s: a GET form's lang field is %q", path, f)
			}
		}
	}
}

// siteLinks are the page's links to the site (<a href> and <form
// action> starting "/"), and the lang field of each GET form.
func siteLinks(t *testing.T, body string) (links, getForms []string) {
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	attr := func(n *html.Node, k string) (string, bool) {
		for _, a := range n.Attr {
			if a.Key == k {
				return a.Val, true
			}
		}
		return "", false
	}
	var langOf func(n *html.Node) string
	langOf = func(n *html.Node) string {
		if n.Type == html.ElementNode && n.Data == "input" {
			if name, _ := attr(n, "name"); name == "lang" {
				v, _ := attr(n, "value")
				return v
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if v := langOf(c); v != "" {
				return v
			}
		}
		return ""
	}
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		key := map[string]string{"a": "href", "form": "action"}[n.Data]
		if v, ok := attr(n, key); key != "" && ok && strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") {
			links = append(links, v)
		}
		if m, _ := attr(n, "method"); n.Data == "form" && strings.EqualFold(m, "get") {
			getForms = append(getForms, langOf(n))
		}
	}
	return links, getForms
}
