package eventsapi

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
	"unicode"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/i18n"
)

// TestEventWordsInArabic (issue 68, 8): over every bundled GED event, an
// Arabic page names every governorate and district and nearly every
// place in Arabic, every side by the catalogue, and the id in Arabic
// digits; an English page keeps the dataset's words.
func TestEventWordsInArabic(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(geodata.EventsGED))
	if err != nil {
		t.Fatal(err)
	}
	events, err := conflict.Read(zr, "ged", geodata.EventsGEDVersion)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	ar, en := i18n.Locale{Lang: i18n.Arabic}, i18n.Locale{Lang: "en"}
	var where, whereAr, admin, adminAr, sides int
	latin := map[string]int{}
	for _, e := range events {
		if eventPlaceName(en, g, e.Where, e.Lon, e.Lat) != e.Where || eventSides(en, e) != strings.Join(nonEmpty(e.SideA, e.SideB), " · ") {
			t.Fatalf("GED %s in English: %q, %q", e.ID, eventPlaceName(en, g, e.Where, e.Lon, e.Lat), eventSides(en, e))
		}
		for _, name := range []string{e.Adm1, e.Adm2} {
			if name != "" {
				admin++
				if got := eventPlaceName(ar, g, name, e.Lon, e.Lat); got != name {
					adminAr++
				} else {
					latin[name]++
				}
			}
		}
		if e.Where != "" && e.Where != "Syria" {
			where++
			if eventPlaceName(ar, g, e.Where, e.Lon, e.Lat) != e.Where {
				whereAr++
			}
		}
		if s := eventSides(ar, e); strings.ContainsFunc(s, func(r rune) bool { return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }) {
			sides++
		}
	}
	t.Logf("%d events: governorates and districts %d of %d in Arabic; places %d of %d; sides in Latin letters %d", len(events), adminAr, admin, whereAr, where, sides)
	if adminAr != admin || sides != 0 || float64(whereAr) < 0.8*float64(where) {
		t.Errorf("in Latin: %v", latin)
	}
	if got := eventID(ar, "319280"); got != "٣١٩٢٨٠" {
		t.Errorf("GED 319280 on an Arabic page: %q", got)
	}
	if got := eventID(ar, "SYR1234"); got != "SYR1234" {
		t.Errorf("an ACLED id: %q", got)
	}
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}
