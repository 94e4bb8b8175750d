package photo

// AddedPlace is a place an archive's editors added to its gazetteer: one
// the bundled gazetteer lacks (a shelter, a quarter, a camp), with the
// page its point was read from. The archive geocodes with the bundled
// places and these.
type AddedPlace struct {
	ID     string   `json:"id"` // "arc:" and a slug of Name, given when added
	Name   string   `json:"name"`
	NameAr string   `json:"name_ar,omitempty"`
	Names  []string `json:"names,omitempty"` // other spellings, Latin or Arabic
	Kind   string   `json:"kind"`            // a gazetteer kind: camp, neighbourhood, village…
	Lon    float64  `json:"lon"`
	Lat    float64  `json:"lat"`
	Parent string   `json:"parent,omitempty"` // the id of the place it lies in
	Source string   `json:"source,omitempty"` // the page its point was read from
	// AddedBy and AddedAt (RFC 3339) say who added it and when.
	AddedBy string `json:"added_by"`
	AddedAt string `json:"added_at"`
}
