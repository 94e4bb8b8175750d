package httpapi

import (
	"golang.org/x/net/html"

	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

// The pages' queries for the tests that read a page's markup
// (httpapitest.Doc reads pages by their test ids).

func find(n *html.Node, match func(*html.Node) bool) []*html.Node { return httpapitest.Find(n, match) }
func elements(n *html.Node, tag string) []*html.Node              { return httpapitest.Elements(n, tag) }
func attr(n *html.Node, key string) string                        { return httpapitest.AttrOf(n, key) }
func attrOK(n *html.Node, key string) (string, bool)              { return httpapitest.Attr(n, key) }
