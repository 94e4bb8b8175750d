package publish

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestPublishedFacetLabelsAreTheServers (issue 67, 5): the labels a
// published site shows for a facet's values are written at publish time
// by the server's rules, not worked out again in the page: the counts'
// label_ar of a place, a governorate and a source is
// pagemodel.FacetLabelAr's, as /api/facets gives it, and the points'
// tables carry the same Arabic labels beside each value.
func TestPublishedFacetLabelsAreTheServers(t *testing.T) {
	ctx := context.Background()
	a := testArchive(t, 200)
	dir := t.TempDir()
	if _, err := Publish(ctx, a, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	m := readManifest(t, dir)
	type value struct {
		Value   string `json:"value"`
		Label   string `json:"label"`
		LabelAr string `json:"label_ar"`
	}
	var counts struct {
		Facets map[string][]value `json:"facets"`
	}
	if err := json.Unmarshal(gunzipFile(t, filepath.Join(dir, m.Counts)), &counts); err != nil {
		t.Fatal(err)
	}
	arabic := 0
	for facet, key := range map[photo.Facet]string{photo.FacetPlace: "places", photo.FacetGovernorate: "governorates", photo.FacetAgency: "agencies"} {
		for _, v := range counts.Facets[key] {
			if want := pagemodel.FacetLabelAr(a.Gazetteer(), facet, v.Value); v.LabelAr != want {
				t.Errorf("counts: %s %q has label_ar %q; the server's is %q", facet, v.Value, v.LabelAr, want)
			} else if want != "" {
				arabic++
			}
		}
	}
	var pts struct {
		Places       [][3]string `json:"places"`
		Governorates [][3]string `json:"governorates"`
	}
	if err := json.Unmarshal(gunzipFile(t, filepath.Join(dir, m.Points)), &pts); err != nil {
		t.Fatal(err)
	}
	for _, row := range pts.Places {
		if want := pagemodel.FacetLabelAr(a.Gazetteer(), photo.FacetPlace, row[0]); row[2] != want {
			t.Errorf("points: place %q has the Arabic label %q; the server's is %q", row[0], row[2], want)
		}
	}
	for _, row := range pts.Governorates { // [name, P-code, Arabic label]
		if want := pagemodel.FacetLabelAr(a.Gazetteer(), photo.FacetGovernorate, row[1]); row[2] != want {
			t.Errorf("points: governorate %q (%s) has the Arabic label %q; the server's is %q", row[0], row[1], row[2], want)
		}
	}
	if arabic == 0 {
		t.Error("no facet value with an Arabic label: the test reads nothing")
	}
}
