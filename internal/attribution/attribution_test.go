package attribution

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestAttributionIsCompleteAndCurrent reads the bundled credits
// (geodata/attribution.json, which the build writes): every source names
// its licence and the words it asks for, every curated point the page it
// was read from, and the repo's ATTRIBUTION.md is Markdown of them as
// they are (a credit changed without make geodata fails here).
func TestAttributionIsCompleteAndCurrent(t *testing.T) {
	b, err := os.ReadFile("../../geodata/attribution.json")
	if err != nil {
		t.Fatal(err)
	}
	var c Credits
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Sources) < 3 || len(c.Pages) == 0 {
		t.Fatalf("%d sources and %d pages: the credits are not read", len(c.Sources), len(c.Pages))
	}
	for _, s := range c.Sources {
		if s.Name == "" || s.Licence == "" || s.Credit == "" || !strings.HasPrefix(s.URL, "https://") || !strings.HasPrefix(s.LicenceURL, "http") {
			t.Errorf("source %+v lacks a name, licence, credit or address", s)
		}
	}
	for _, p := range c.Pages {
		if p.Place == "" || p.ID == "" || !strings.HasPrefix(p.URL, "http") {
			t.Errorf("curated place %+v names no page", p)
		}
	}
	md, err := os.ReadFile("../../geodata/ATTRIBUTION.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := Markdown(c); got != string(md) {
		t.Error("geodata/ATTRIBUTION.md is not the Markdown of geodata/attribution.json (make geodata)")
	}
	if m := Markdown(c); !strings.Contains(m, "| ["+c.Sources[0].Name+"]("+c.Sources[0].URL+")") || !strings.Contains(m, c.Pages[0].URL) {
		t.Error("the Markdown leaves out a source or a page")
	}
}
