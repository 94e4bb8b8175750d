package importapi_test

import (
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
)

// TestUploadPageSaysWhatEachFileHolds (issue 68, 6): before anything is
// sent, the upload page says what each kind of file holds — a .txt its
// captions separated by a blank line, a .csv and .jsonl their columns,
// a JPEG its IPTC or XMP caption — in English and Arabic, above the
// drop zone; and it gives its script the review filter of reused frames
// to link to.
func TestUploadPageSaysWhatEachFileHolds(t *testing.T) {
	e := servertest.Sample(t, httpapi.Options{Uploads: t.TempDir()})
	for _, c := range []struct {
		lang string
		want map[string]string // a kind's words, by kind
	}{
		{"en", map[string]string{"txt": "separated by a blank line", "csv": "caption", "jsonl": "one JSON object a line", "jpeg": "IPTC or XMP"}},
		{"ar", map[string]string{"txt": "سطر فارغ", "csv": "عمود", "jsonl": "JSON", "jpeg": "IPTC"}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			res, body := httpapitest.Get(t, e.TS, "/upload?lang="+c.lang, "Authorization", "Bearer "+e.Token)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("/upload: %d", res.StatusCode)
			}
			doc, err := html.Parse(strings.NewReader(string(body)))
			if err != nil {
				t.Fatal(err)
			}
			kinds := map[string]string{}
			var order []string // the test ids met, in document order
			var reused string
			for n := range doc.Descendants() {
				if n.Type != html.ElementNode {
					continue
				}
				id := attr(n, "data-testid")
				switch id {
				case "upload-kind":
					kinds[attr(n, "data-kind")] = textOf(n)
				case "upload":
					reused = attr(n, "data-reused-url")
				}
				if id == "upload-kinds" || id == "drop-zone" {
					order = append(order, id)
				}
			}
			for k, w := range c.want {
				if !strings.Contains(kinds[k], w) {
					t.Errorf("%s: says %q; want %q", k, kinds[k], w)
				}
			}
			if strings.Join(order, " ") != "upload-kinds drop-zone" {
				t.Errorf("the page's order: %v; want what files hold before the drop zone", order)
			}
			if reused != "/review?reuse=conflict" {
				t.Errorf("reused frames' link %q; want the review filter /review?reuse=conflict", reused)
			}
		})
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}
