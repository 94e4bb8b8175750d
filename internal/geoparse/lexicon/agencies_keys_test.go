package lexicon

import "testing"

// TestAgencyKeysAreAgencyOf: the table a published site looks searches up
// in (AgencyKeys) names each key's agency as AgencyOf does, and holds
// every name of every agency.
func TestAgencyKeysAreAgencyOf(t *testing.T) {
	keys := AgencyKeys()
	for k, id := range keys {
		if a, ok := AgencyOf(k); !ok || a.ID != id {
			t.Errorf("key %q: %q; AgencyOf gives %q, %v", k, id, a.ID, ok)
		}
	}
	for _, a := range Agencies() {
		for _, name := range []string{a.ID, a.English, a.Arabic} {
			if keys[AgencyKey(name)] != a.ID {
				t.Errorf("%q (%s) is not in the keys", name, a.ID)
			}
		}
	}
	if len(keys) == 0 {
		t.Fatal("no keys")
	}
}
