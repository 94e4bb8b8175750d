package pages_test

import (
	"context"
	"strings"
	"testing"
)

// TestAboutCitesTheEvents (issue 56, 1): with the bundled UCDP GED events
// imported, the about page counts them and cites them as CC BY asks, in
// both languages; without events it says nothing of them.
func TestAboutCitesTheEvents(t *testing.T) {
	e := newServer(t)
	ts, a := e.TS, e.A
	if _, page := get(t, ts, "/about"); strings.Contains(string(page), `data-testid="events"`) {
		t.Error("an archive without events has an events section")
	}
	if _, n, err := a.ImportBundledEvents(context.Background()); err != nil || n != 16566 {
		t.Fatalf("the bundled events: %d, %v", n, err)
	}
	_, page := get(t, ts, "/about")
	if !strings.Contains(string(page), "16,566 events of UCDP") || !strings.Contains(string(page), "version 19.1") ||
		!strings.Contains(string(page), "Sundberg, Ralph, and Erik Melander, 2013") {
		t.Errorf("the about page does not count and cite the events:\n%.600s", page[strings.Index(string(page), "<main"):])
	}
	if _, page := get(t, ts, "/about?lang=ar"); !strings.Contains(string(page), "أحداث النزاع") || !strings.Contains(string(page), "Sundberg") {
		t.Error("the Arabic about page does not cite the events")
	}
}
