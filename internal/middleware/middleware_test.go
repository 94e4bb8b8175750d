package middleware

import "testing"

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
