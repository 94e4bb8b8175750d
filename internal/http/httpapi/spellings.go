package httpapi

import "net/http"

// spellingsFound is what /api/search/spellings answers: the places a
// caption search names, each with the spellings it finds as one.
type spellingsFound struct {
	Places []placeSpellings `json:"places"`
}

type placeSpellings struct {
	ID    string   `json:"id"`
	Names []string `json:"names"`
}

// searchSpellings says how the archive reads a caption search (q, as the
// photo routes take it): the places whose names it holds, each with the
// spellings in either script it finds as one (archive.Widen), so that
// the page can say "also spelled …"; none when it is searched as written.
// A published site answers the same from its own table (staticapi.js).
func (s *Server) searchSpellings(w http.ResponseWriter, r *http.Request) {
	out := spellingsFound{Places: []placeSpellings{}}
	if widened, ok := s.archive.Widen(r.URL.Query().Get("q")); ok {
		for _, sp := range widened.Spelled {
			out.Places = append(out.Places, placeSpellings{ID: sp.Place, Names: sp.Names})
		}
	}
	s.WriteJSON(w, r, "application/json", out)
}
