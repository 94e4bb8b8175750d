package caption

import "testing"

// A name that opens a caption is a person's when what follows says who
// ("Saad, a teen from Raqqa,", "Basi with his son"), and stays a place
// when it says what ("Kobani, a Kurdish town").
func TestNamesReadAsPeople(t *testing.T) {
	for _, tc := range []struct {
		text, name string
		person     bool
	}{
		{"Saad, a teen from Raqqa, poses for a photograph, Syria, May 3, 2016.", "Saad", true},
		{"Umm Ahmad, a mother of four, cooks in her tent, Syria, May 3, 2016.", "Umm Ahmad", true},
		{"Rahaf, a 15-year-old Syrian girl, studies, Lebanon, May 3, 2016.", "Rahaf", true},
		{"Basi with his son walks to school, Syria, May 3, 2016.", "Basi", true},
		{"Hamid with family members waits at a checkpoint, Syria, May 3, 2016.", "Hamid", true},
		{"Kobani, a Kurdish town, lies in ruins, Syria, May 3, 2016.", "Kobani", false},
		{"Zaatari, a refugee camp in Jordan, is seen May 3, 2016.", "Zaatari", false},
		{"Aleppo with its citadel is seen at dusk, Syria, May 3, 2016.", "Aleppo", false},
		{"A boy walks with Saad, a teen from Raqqa, in Azaz, Syria, May 3, 2016.", "Saad", false},
	} {
		c := Parse(tc.text)
		found := false
		for _, m := range c.Mentions {
			if m.Text == tc.name {
				found = true
				if got := m.Entity == Person; got != tc.person {
					t.Errorf("%q: %s is a person %v, want %v", tc.text, tc.name, got, tc.person)
				}
			}
		}
		if !found {
			t.Errorf("%q: no mention %q in %+v", tc.text, tc.name, c.Mentions)
		}
	}
}
