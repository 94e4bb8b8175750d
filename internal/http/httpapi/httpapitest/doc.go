package httpapitest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// Doc is a parsed page, queried by data-testid as a person's eye would
// find things, never by matching the markup as text.
type Doc struct {
	t    testing.TB
	Root *html.Node
}

// ParsePage parses a page's answer, failing the test when it is not
// HTML.
func ParsePage(t testing.TB, resp *http.Response, body []byte) Doc {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("Content-Type %q, want HTML:\n%s", ct, body)
	}
	root, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return Doc{t, root}
}

// GetPage gets path and parses it as a page, failing the test unless it
// is a 200.
func GetPage(t testing.TB, ts *httptest.Server, path string) Doc {
	t.Helper()
	resp, body := Get(t, ts, path)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d\n%s", path, resp.StatusCode, body)
	}
	return ParsePage(t, resp, body)
}

// All returns the elements with the test id.
func (d Doc) All(id string) []*html.Node {
	return Find(d.Root, func(n *html.Node) bool { return AttrOf(n, "data-testid") == id })
}

// One returns the element with the test id, failing when there is not
// exactly one.
func (d Doc) One(id string) *html.Node {
	d.t.Helper()
	ns := d.All(id)
	if len(ns) != 1 {
		d.t.Fatalf("%d elements with data-testid=%q, want 1", len(ns), id)
	}
	return ns[0]
}

// Text is the text of the element with the test id, white space
// collapsed.
func (d Doc) Text(id string) string {
	d.t.Helper()
	return TextOf(d.One(id))
}

// Find returns the elements under n (n included) that match, in document
// order.
func Find(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

// TextOf is n's text with white space collapsed.
func TextOf(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// AttrOf is the value of element n's attribute key, "" when it has none.
func AttrOf(n *html.Node, key string) string {
	v, _ := Attr(n, key)
	return v
}

// Elements returns the elements named tag under n.
func Elements(n *html.Node, tag string) []*html.Node {
	return Find(n, func(e *html.Node) bool { return e.Data == tag })
}
