package photo

import "testing"

// TestParseEventRef: the link-by-id field takes every form a page shows
// an event in, in either script's digits, and refuses the rest with an
// invalid-input error about the field.
func TestParseEventRef(t *testing.T) {
	for _, tc := range []struct {
		name, in      string
		dataset, id   string
		wantMalformed bool
	}{
		{"the label's form", "GED 243931", "ucdp-ged", "243931", false},
		{"lower case", "ged 243931", "ucdp-ged", "243931", false},
		{"no space", "GED243931", "ucdp-ged", "243931", false},
		{"a colon", "GED: 243931", "ucdp-ged", "243931", false},
		{"the key", "ucdp-ged:243931", "ucdp-ged", "243931", false},
		{"the key, upper case", "UCDP-GED:243931", "ucdp-ged", "243931", false},
		{"the dataset's name", "UCDP GED 243931", "ucdp-ged", "243931", false},
		{"a bare id", "243931", "ucdp-ged", "243931", false},
		{"spaces around", "  243931 \t", "ucdp-ged", "243931", false},
		{"no-break spaces", "\u00a0GED\u00a0243931\u00a0", "ucdp-ged", "243931", false},
		{"digits grouped", "243 931", "ucdp-ged", "243931", false},
		{"Arabic-Indic digits", "٢٤٣٩٣١", "ucdp-ged", "243931", false},
		{"Arabic-Indic, grouped", "GED ٢٤٣٬٩٣١", "ucdp-ged", "243931", false},
		{"Persian digits", "۲۴۳۹۳۱", "ucdp-ged", "243931", false},
		{"bidi marks pasted", "\u200fGED 243931\u200e", "ucdp-ged", "243931", false},
		{"a hash", "GED #243931", "ucdp-ged", "243931", false},
		{"the event page's path", "/events/ucdp-ged/243931", "ucdp-ged", "243931", false},
		{"the event page's address", "https://archive.example/events/ucdp-ged/243931?lang=ar", "ucdp-ged", "243931", false},
		{"a candidate's line", "same city, same day; 3 killed — GED 243931", "ucdp-ged", "243931", false},
		{"ACLED's key", "acled:SYR1234", "acled", "SYR1234", false},
		{"ACLED's name", "ACLED SYR1234", "acled", "SYR1234", false},
		{"ACLED, lower case id", "acled syr1234", "acled", "SYR1234", false},
		{"a bare ACLED id", "SYR1234", "acled", "SYR1234", false},
		{"empty", "   ", "", "", true},
		{"letters in a GED id", "GED 24393x", "", "", true},
		{"a GED id of letters", "ucdp-ged:abc", "", "", true},
		{"an unknown dataset", "foo:123", "", "", true},
		{"two numbers", "243931 243932", "", "", true},
		{"a sentence", "the strike on Aleppo", "", "", true},
		{"a negative id", "-243931", "", "", true},
		{"ACLED without its digits", "acled:SYR", "", "", true},
		{"too long", "GED 1234567890123456789012345", "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dataset, id, err := ParseEventRef(tc.in)
			if tc.wantMalformed {
				if err == nil || ErrorCode(err) != EInvalid {
					t.Fatalf("ParseEventRef(%q) = %q %q %v, want an invalid-input error", tc.in, dataset, id, err)
				}
				return
			}
			if err != nil || dataset != tc.dataset || id != tc.id {
				t.Errorf("ParseEventRef(%q) = %q %q %v, want %q %q", tc.in, dataset, id, err, tc.dataset, tc.id)
			}
		})
	}
}

// TestCheckEventID: an id as a route names it is refused when it cannot
// be one of its dataset's.
func TestCheckEventID(t *testing.T) {
	for _, tc := range []struct {
		dataset, id string
		ok          bool
	}{
		{"ucdp-ged", "243931", true},
		{"ucdp-ged", "24393x", false},
		{"ucdp-ged", "", false},
		{"acled", "SYR1234", true},
		{"acled", "SYR 1234", false},
		{"unknown", "1", false},
	} {
		if err := CheckEventID(tc.dataset, tc.id); (err == nil) != tc.ok || (err != nil && ErrorCode(err) != EInvalid) {
			t.Errorf("CheckEventID(%q, %q) = %v, want ok %v", tc.dataset, tc.id, err, tc.ok)
		}
	}
}
