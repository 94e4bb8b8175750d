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
	// Country is the ISO 3166 code of the country the place is in: said
	// by the editor for a place abroad, else its parent's, else SY.
	Country string `json:"country,omitempty"`
	// Distinct says the editor knows a gazetteer place of the same name
	// and kind exists in the country and this is another one ("another
	// Aleppo"): without it such a name is refused.
	Distinct bool   `json:"distinct,omitempty"`
	Source   string `json:"source,omitempty"` // the page its point was read from
	// AddedBy and AddedAt (RFC 3339) say who added it and when.
	AddedBy string `json:"added_by"`
	AddedAt string `json:"added_at"`
}

// PlaceChange is an editor taking back a place they or another editor
// added: removed (Remove), brought back (Restore), or moved (a new
// point).
type PlaceChange struct {
	ID, Author, Reason string
	Remove, Restore    bool
	Lon, Lat           *float64
}
