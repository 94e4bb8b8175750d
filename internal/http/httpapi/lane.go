package httpapi

import (
	"net/http"

	"github.com/syriamap/syriamap/internal/http/lane"
)

// costly runs the whole of a request whose filter has a full-text search
// in the lane: its counts, facets or page are all the search's work.
// Streams, which must not hold a slot while a client reads, admit their
// own parts instead (see featurestream).
func (s *Server) costly(next http.HandlerFunc) http.HandlerFunc {
	inLane := s.heavy(next)
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("q") == "" {
			next(w, r)
			return
		}
		inLane(w, r)
	}
}

// heavy runs the whole of a request in the lane whatever its filter: the
// review pages group and rank every photo the filter selects (a second or
// more over a large archive), search or not.
func (s *Server) heavy(next http.HandlerFunc) http.HandlerFunc { return s.inLane(&s.lane, next) }

// inLane runs the whole of a request in the lane *l (read at each
// request, so that a test may swap it).
func (s *Server) inLane(l **lane.Lane, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		leave, err := (*l).Admit(r.Context())
		if err != nil {
			s.Error(w, r, err)
			return
		}
		defer leave()
		next(w, r)
	}
}
