package geocode

import (
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// TestOtherKinds: the kinds of place a caption names by a word, whole
// words only, English capitalised or plural, Arabic with a prefix or
// plural, less the answer's own kind.
func TestOtherKinds(t *testing.T) {
	tests := []struct {
		text string
		kind gazetteer.Kind
		want string
	}{
		{"A Syrian refugee boy plays at a refugee camp in Sofia, Bulgaria", gazetteer.Village, "camp"},
		{"villages and Camps near the District", gazetteer.Town, "camp+neighbourhood+village"},
		{"the Bab al-Hawa border gate", gazetteer.Town, "crossing"},
		{"a campaign at the gateway of the encampment", gazetteer.Town, ""},
		{"Residents of the Salaheddine neighbourhood", gazetteer.Neighbourhood, ""},
		{"near the Umayyad mosque in the Old City souk", gazetteer.Landmark, ""},
		{"في مخيمات عرسال", gazetteer.Town, "camp"},
		{"بمخيم الزعتري", gazetteer.Camp, ""},
		{"حي الفردوس", gazetteer.City, "neighbourhood"},
		{"يحيى في المخيمهم", gazetteer.Town, ""},
		{"والمعبر الحدودي، قرية", gazetteer.Town, "crossing+village"},
	}
	for _, tt := range tests {
		if got := otherKinds(tt.text, tt.kind); got != tt.want {
			t.Errorf("%q answered by a %s: %q, want %q", tt.text, tt.kind, got, tt.want)
		}
	}
}

// BenchmarkOtherKinds: what the kinds a caption names cost each answer.
func BenchmarkOtherKinds(b *testing.B) {
	const text = "A Syrian refugee boy plays inside lockers at a corridor of a refugee camp in Sofia, Bulgaria, November 22, 2013. REUTERS/Stoyan Nenov"
	for b.Loop() {
		_ = otherKinds(text, gazetteer.Village)
	}
}
