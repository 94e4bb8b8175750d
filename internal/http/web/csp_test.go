package web

import (
	"strings"
	"testing"
)

func TestTileOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"": "",
		"https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png": " https://*.tile.openstreetmap.org",
		"http://localhost:8081/tiles/{z}/{x}/{y}.png":        " http://localhost:8081",
		"ftp://example.org/{z}":                              "",
		"tiles/{z}/{x}/{y}.png":                              "",
	} {
		if got := TileOrigin(in); got != want {
			t.Errorf("TileOrigin(%q) = %q, want %q", in, got, want)
		}
	}
}

// Images come from the site, data: and blob: URLs, and the tile server
// when one is configured: never any https: host (issue 52, fault 1: a
// place named `<img src="https://…">` made every reader's browser call
// that host).
func TestPolicyLoadsImagesFromTheSiteAndItsTilesOnly(t *testing.T) {
	for tiles, want := range map[string]string{
		"": "img-src 'self' data: blob:;",
		"https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png": "img-src 'self' data: blob: https://*.tile.openstreetmap.org;",
	} {
		csp := ContentSecurityPolicy(tiles)
		if !strings.Contains(csp, want) || !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "object-src 'none'") {
			t.Errorf("tiles %q: policy %q, want %q", tiles, csp, want)
		}
	}
}
