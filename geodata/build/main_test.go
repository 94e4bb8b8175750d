package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestBuildIsReproducible rebuilds the gazetteer from ../shared and checks
// that the committed files are what the build makes: the bundled data is
// derived, never edited by hand.
func TestBuildIsReproducible(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared")
	if _, err := os.Stat(filepath.Join(shared, "geodata")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI runs with ../shared beside the repo, but: %v", err)
		}
		t.Skipf("no shared data beside the repo: %v", err)
	}
	out := t.TempDir()
	if err := run(shared, "..", out); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"gazetteer.tsv", "attribution.json", "ATTRIBUTION.md", "basemap.geojson", "samples/captions-a.txt", "samples/captions-b.txt"} {
		got, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("geodata/%s is not what the build makes: run make geodata and commit the result", f)
		}
	}
}

func TestSlug(t *testing.T) {
	tests := map[string]string{"Al-Fu'ah": "al-fuah", "Midan (Damascus)": "midan-damascus", "al-Yarmūk": "al-yarmuk", "Bza'a": "bzaa"}
	for in, want := range tests {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
