package httpapitest

import "golang.org/x/net/html"

// Attr is the value of element n's attribute key, and whether n has it.
func Attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}
