package photo

import (
	"maps"
	"slices"
)

// Licence is what a conflict dataset's terms allow the archive to do
// with its events (see Licences).
type Licence struct {
	// Public: anyone may read its events and the links of photos to
	// them; else the archive's editors alone.
	Public bool
	// Copied: its events' fields may be copied into what the archive
	// hands out (a photo's bag); else an event is named by its id alone.
	Copied bool
}

// Licences is the table of the conflict datasets' terms, keyed on the
// dataset (conflict.GED, conflict.ACLED): UCDP GED is CC BY 4.0,
// anyone's, and copied whole; ACLED's terms keep its rows to the
// archive's editors, and a bag names its events by id. A dataset the
// table does not name is an editor's alone, and never copied. It is the
// one statement of these rules: the store, the archive and the HTTP
// layer ask Viewer.SeesDataset, PublicDatasets or LicenceOf.
var Licences = map[string]Licence{
	"ucdp-ged": {Public: true, Copied: true},
	"acled":    {},
}

// LicenceOf is dataset's licence: its entry in Licences, or none (an
// editor's alone) for a dataset the table does not name.
func LicenceOf(dataset string) Licence { return Licences[dataset] }

// PublicDatasets lists the datasets anyone may read, sorted: the ones a
// collection of events (OGC, the map, a count on a public page) holds,
// for editors too.
func PublicDatasets() []string {
	var out []string
	for _, d := range slices.Sorted(maps.Keys(Licences)) {
		if Licences[d].Public {
			out = append(out, d)
		}
	}
	return out
}

// SeesDataset reports whether v may read dataset's events and the links
// of photos to them: anyone a public dataset's, editors and the archive's
// commands every dataset's. The rule is the dataset's licence, not the
// withheld photos' (SeesWithheld), though editors pass both.
func (v Viewer) SeesDataset(dataset string) bool {
	return LicenceOf(dataset).Public || v.SeesEveryDataset()
}

// SeesEveryDataset reports whether v may read every dataset's events,
// whatever its licence: editors and the archive's commands may.
func (v Viewer) SeesEveryDataset() bool { return v.Editor != "" }

// SeesDecisions reports whether v may read editors' work on links
// (rejected and taken back decisions, links not yet confirmed):
// editors and the archive's commands may; readers read the confirmed
// links alone.
func (v Viewer) SeesDecisions() bool { return v.Editor != "" }
