package web

import (
	"net/url"
	"strings"
)

// ContentSecurityPolicy is the one policy of the server's answers and of
// a published site's pages (a meta element there, where frame-ancestors
// has no effect): scripts, styles and data from the site itself; images
// from the site, the data: and blob: URLs its scripts make and the tile
// server (tiles, a Leaflet URL template, or ""), nothing wider, so that
// no text in the archive can make a reader's browser call another site.
func ContentSecurityPolicy(tiles string) string {
	return "default-src 'self'; img-src 'self' data: blob:" + TileOrigin(tiles) + "; object-src 'none'; base-uri 'self'; form-action 'self'"
}

// TileOrigin is the tile server's origin for img-src, with a leading
// space, or "" when tiles is not an http(s) URL template.
func TileOrigin(tiles string) string {
	// Leaflet's {s} subdomain placeholder is any subdomain to the CSP.
	u, err := url.Parse(strings.Replace(tiles, "{s}", "a", 1))
	if tiles == "" || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return ""
	}
	host := u.Host
	if strings.Contains(tiles, "://{s}.") {
		host = "*" + strings.TrimPrefix(host, "a")
	}
	return " " + u.Scheme + "://" + host
}
