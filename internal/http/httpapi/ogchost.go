package httpapi

import (
	"net/http"
	"net/url"

	"github.com/a-h/templ"

	"github.com/syriamap/syriamap/internal/http/memindex"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// ogcHost lends the OGC API (internal/ogcapi) what every route of the
// server shares.
type ogcHost struct{ s *Server }

func (h ogcHost) URL(name string, pairs ...string) string { return h.s.URL(name, pairs...) }
func (h ogcHost) Base(r *http.Request) string             { return h.s.base(r) }
func (h ogcHost) Error(w http.ResponseWriter, r *http.Request, err error) {
	h.s.Error(w, r, err)
}
func (h ogcHost) WriteJSON(w http.ResponseWriter, r *http.Request, contentType string, v any) {
	h.s.WriteJSON(w, r, contentType, v)
}
func (h ogcHost) Render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	h.s.Render(w, r, status, c)
}
func (h ogcHost) Page(r *http.Request, title, current string) views.Page {
	return h.s.Page(r, title, current)
}
func (h ogcHost) Version(w http.ResponseWriter, r *http.Request) (int64, bool) {
	return h.s.version(w, r)
}
func (h ogcHost) Filter(q url.Values) (photo.Filter, error) { return h.s.parseFilter(q) }
func (h ogcHost) MemIndex(version int64) *memindex.Index    { return h.s.memIndexAt(version) }
func (h ogcHost) WriteWindow(w http.ResponseWriter, ix *memindex.Index, sel []int32, head string, tail func(int, int64) string) {
	h.s.writeWindow(w, ix, sel, head, tail)
}
func (h ogcHost) StreamFeatures(w http.ResponseWriter, r *http.Request, f photo.Filter, head, sep string, tail func(int, int64) string, enc web.EncodeFunc) {
	h.s.stream.Stream(w, r, f, h.s.base(r), head, sep, tail, enc)
}
func (h ogcHost) Links(base string, f *photo.Feature) web.FeatureLinks { return h.s.links(base, f) }
