package gazetteer

import "testing"

func TestOneEdit(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"معرتمصرين", "معرهمصرين", true}, // one letter changed
		{"سراقب", "سراقيب", true},        // one added
		{"سراقيب", "سراقب", true},        // one dropped
		{"حريتان", "حرتيان", true},       // two neighbours swapped
		{"حريتان", "حريتان", false},      // the same: no edit
		{"حريتان", "حرتين", false},       // two edits
		{"سراقب", "قراسب", false},        // a swap of letters apart
	}
	for _, tt := range tests {
		if got := oneEdit([]rune(tt.a), []rune(tt.b)); got != tt.want {
			t.Errorf("oneEdit(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNearSpellings(t *testing.T) {
	g, err := New([]Place{
		{ID: "gov", Name: "Idlib", Kind: Governorate, Governorate: AdminRef{PCode: "SY07"}},
		{ID: "a", Name: "Maarat Misrin", NameAr: "معرتمصرين", Kind: Town, Governorate: AdminRef{PCode: "SY07"}, Located: true},
		{ID: "b", Name: "Maarat Misrin", NameAr: "معرتمصرين", Kind: Town, Governorate: AdminRef{PCode: "SY02"}, Located: true},
		{ID: "c", Name: "Saraqib", NameAr: "سراقب", Kind: Town, Governorate: AdminRef{PCode: "SY07"}, Located: true},
		{ID: "d", Name: "Hreitan", NameAr: "حريتان", Kind: Town, Governorate: AdminRef{PCode: "SY07"}, Located: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, gov string
		want      []string
	}{
		{"معرة مصرين", "SY07", []string{"a"}}, // only the one in the governorate named
		{"معرة مصرين", "", nil},               // no governorate, no search
		{"سراقيب", "SY07", []string{"c"}},
		{"Saraqeeb", "SY07", nil},        // Latin names have their own folding
		{"حرتان", "SY07", []string{"d"}}, // one letter dropped
		{"سرب", "SY07", nil},             // too short to read with a letter changed
	} {
		var got []string
		for _, p := range g.NearSpellings(tt.name, tt.gov) {
			got = append(got, p.ID)
		}
		if len(got) != len(tt.want) || len(got) > 0 && got[0] != tt.want[0] {
			t.Errorf("NearSpellings(%s, %q) = %v, want %v", tt.name, tt.gov, got, tt.want)
		}
	}
}
