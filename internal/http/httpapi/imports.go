package httpapi

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/assets"
	"github.com/syriamap/syriamap/internal/http/importapi"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// postImport takes an editor's files (multipart/form-data: caption
// files and JPEGs) and answers 202 Accepted with the import's address in
// Location; the import runs after, as `syriamap import` runs it.
func (s *Server) postImport(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	if !s.takesUploads(w, r) {
		return
	}
	var job importapi.Job
	var err error
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		// Finished resumable uploads, by their ids.
		var b struct {
			Uploads []string `json:"uploads"`
		}
		if err = decodeBody(r, &b); err == nil {
			job, err = s.imports.ReceiveResumable(r.Context(), b.Uploads, ed.Name)
		}
	} else {
		job, err = s.imports.Receive(r, ed.Name)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	body, err := web.MarshalJSON(job)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Location", s.URL("imports.job", "id", job.ID))
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusAccepted)
	w.Write(body)
}

// uploadPage is where an editor adds photos from their browser.
func (s *Server) uploadPage(w http.ResponseWriter, r *http.Request) {
	l := i18n.From(r.Context())
	if !photo.ViewerOf(r.Context()).SeesWithheld() {
		s.Error(w, r, photo.Errorf(photo.EUnauthorized, "sign in to add photos"))
		return
	}
	page := s.Page(r, l.T("upload.title"), "review")
	page.Scripts = append(page.Scripts, s.URL("asset", "file", assets.Name("upload.js")))
	var lost []string
	for _, f := range s.imports.Lost(photo.ViewerOf(r.Context()).Editor) {
		at := f.Sent.UTC()
		when := l.T("history.at", "date", l.Date(at.Year(), at.Month(), at.Day()), "time", l.Number(at.Format("15:04")))
		lost = append(lost, l.T("upload.lost", "n", len(f.Names), "when", when, "names", strings.Join(f.Names, ", ")))
	}
	s.Render(w, r, http.StatusOK, views.UploadPageView(views.UploadPage{Page: page, UploadsURL: s.URL("uploads"),
		ImportsURL: s.URL("imports"), ReviewURL: s.URL("review"), ReviewPhotoURL: s.URL("review.photo", "id", "ID"), Lost: lost}))
}

// resumableUpload serves the tus protocol under /api/uploads/ (see
// importapi.Resumable), to editors.
func (s *Server) resumableUpload(w http.ResponseWriter, r *http.Request, _ *session.Editor) {
	if !s.takesUploads(w, r) {
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.StripPrefix("/api/uploads/", s.resumable).ServeHTTP(w, r)
}

// importJob answers an upload's import: its state and, once done, each
// file's summary or the error `import` gives for it.
func (s *Server) importJob(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	if !s.takesUploads(w, r) {
		return
	}
	job, err := s.imports.Job(mux.Vars(r)["id"], ed.Name)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	s.WriteJSON(w, r, "application/json", job)
}

// uploadURL is the upload page's address, "" when the server takes no
// uploads.
func (s *Server) uploadURL() string {
	if s.imports == nil {
		return ""
	}
	return s.URL("upload")
}

// takesUploads answers a request for the uploads of a server that takes
// none now (read-only: its guard says so first), and reports whether it
// takes them.
func (s *Server) takesUploads(w http.ResponseWriter, r *http.Request) bool {
	if s.imports == nil {
		s.Error(w, r, photo.Errorf(photo.EForbidden, "this server is read-only (--read-only, or the archive cannot be written): it takes no uploads"))
		return false
	}
	return true
}
