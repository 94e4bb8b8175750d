package photo

import (
	"slices"
	"testing"
)

// TestLicences: who may read which dataset is its licence's: GED anyone,
// ACLED and an unknown dataset editors alone, whoever withholds what.
func TestLicences(t *testing.T) {
	for _, c := range []struct {
		name    string
		viewer  Viewer
		dataset string
		sees    bool
	}{
		{"the public, GED", Public, "ucdp-ged", true},
		{"the public, ACLED", Public, "acled", false},
		{"the public, an unknown dataset", Public, "other", false},
		{"an editor, GED", Viewer{Editor: "rana"}, "ucdp-ged", true},
		{"an editor, ACLED", Viewer{Editor: "rana"}, "acled", true},
		{"the archive's command, ACLED", Viewer{Editor: "syriamap export", Archive: true}, "acled", true},
	} {
		if got := c.viewer.SeesDataset(c.dataset); got != c.sees {
			t.Errorf("%s: SeesDataset = %v, want %v", c.name, got, c.sees)
		}
	}
	if got := PublicDatasets(); !slices.Equal(got, []string{"ucdp-ged"}) {
		t.Errorf("PublicDatasets() = %q, want GED alone", got)
	}
	if !LicenceOf("ucdp-ged").Copied || LicenceOf("acled").Copied || LicenceOf("other").Copied {
		t.Errorf("copied: GED %v, ACLED %v, other %v; want GED alone", LicenceOf("ucdp-ged").Copied, LicenceOf("acled").Copied, LicenceOf("other").Copied)
	}
}
