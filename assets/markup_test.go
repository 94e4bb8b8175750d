package assets

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestScriptsNeverParseDataAsMarkup reads the page scripts' sources: text
// from the archive reaches the page as text. Leaflet parses a tooltip's
// or popup's string as HTML, so each is given an element made by plain();
// the DOM's HTML setters are not used at all. A name an editor typed
// (`<img src=…>`) would otherwise load, and run, on every reader's page.
func TestScriptsNeverParseDataAsMarkup(t *testing.T) {
	files, err := filepath.Glob("src/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in src/: %v", err)
	}
	leaflet := regexp.MustCompile(`\.(bindTooltip|bindPopup|setTooltipContent|setPopupContent|setContent)\(\s*([^)]{0,40})`)
	setters := regexp.MustCompile(`\.(innerHTML|outerHTML)\s*[+]?=|insertAdjacentHTML|createContextualFragment|document\.write|DOMParser`)
	calls := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			for _, m := range leaflet.FindAllStringSubmatch(line, -1) {
				calls++
				if !strings.HasPrefix(m[2], "plain(") {
					t.Errorf("%s:%d: %s(%s…) gives Leaflet a string, which it parses as HTML: wrap the text in plain()", f, i+1, m[1], m[2])
				}
			}
			if m := setters.FindString(line); m != "" {
				t.Errorf("%s:%d: %s parses text as HTML: build elements (h, plain) instead", f, i+1, m)
			}
		}
	}
	if calls == 0 {
		t.Fatal("no tooltip found in the scripts: the pattern no longer matches how they bind one")
	}
}
