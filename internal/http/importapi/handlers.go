package importapi

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/assets"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/sitepage"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// Handlers serve the uploads' routes to editors: the multipart and the
// resumable (tus) uploads, their imports' jobs, and the upload page. Set
// its fields before it serves.
type Handlers struct {
	Kit   *sitepage.Kit
	Guard *session.Guard
	// Imports takes the uploads, Resumable the tus ones (Imports.Resumable
	// at /api/uploads/); both nil on a server that takes none now (it is
	// read-only), whose upload routes say so.
	Imports   *Imports
	Resumable http.Handler
}

// Routes adds the uploads' routes to r; editorial adds a read route that
// shows an editor more (session.Guard.Viewing). A server that takes no
// uploads has no upload page.
func (h *Handlers) Routes(r *mux.Router, editorial func(name, path string, h http.HandlerFunc)) {
	r.Handle("/api/imports", h.Guard.Editing(h.postImport)).Methods(http.MethodPost).Name("imports")
	r.Handle("/api/imports/{id}", h.Guard.Editing(h.importJob)).Methods(http.MethodGet, http.MethodHead).Name("imports.job")
	r.PathPrefix("/api/uploads/").Handler(h.Guard.Editing(h.resumableUpload)).
		Methods(http.MethodPost, http.MethodHead, http.MethodPatch, http.MethodDelete).Name("uploads")
	if h.Imports != nil {
		editorial("upload", "/upload", h.uploadPage)
	}
}

// maxNamingBytes bounds the JSON body naming finished resumable uploads:
// the upload page names every file it sent in one request, 35 bytes an
// id, and 1 MB names about 28,000 (a form's 16 KB, 450).
const maxNamingBytes = 1 << 20

// postImport takes an editor's files (multipart/form-data: caption
// files and JPEGs) and answers 202 Accepted with the import's address in
// Location; the import runs after, as `syriamap import` runs it.
func (h *Handlers) postImport(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	if !h.takesUploads(w, r) {
		return
	}
	var job Job
	var err error
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		// Finished resumable uploads, by their ids, and the names of
		// the files the page left out.
		var b struct {
			Uploads []string `json:"uploads"`
			Skipped []string `json:"skipped"`
			// Date is the form's date for the photos (see Job.Date).
			Date string `json:"date"`
		}
		if err = web.DecodeJSON(r, &b, maxNamingBytes); err == nil {
			job, err = h.Imports.ReceiveResumable(r.Context(), b.Uploads, b.Skipped, b.Date, ed.Name)
		}
	} else {
		job, err = h.Imports.Receive(r, ed.Name)
	}
	if err != nil {
		h.Kit.Error(w, r, err)
		return
	}
	body, err := web.MarshalJSON(job)
	if err != nil {
		h.Kit.Error(w, r, err)
		return
	}
	hd := w.Header()
	hd.Set("Location", h.Kit.URL("imports.job", "id", job.ID))
	hd.Set("Content-Type", "application/json")
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusAccepted)
	w.Write(body)
}

// uploadPage is where an editor adds photos from their browser.
func (h *Handlers) uploadPage(w http.ResponseWriter, r *http.Request) {
	l := i18n.From(r.Context())
	if !photo.ViewerOf(r.Context()).SeesWithheld() {
		h.Kit.Error(w, r, photo.Errorf(photo.EUnauthorized, "sign in to add photos"))
		return
	}
	page := h.Kit.Page(r, l.T("upload.title"), "review")
	page.Scripts = append(page.Scripts, h.Kit.URL("asset", "file", assets.Name("upload.js")))
	var lost []string
	for _, f := range h.Imports.Lost(photo.ViewerOf(r.Context()).Editor) {
		at := f.Sent.UTC()
		when := l.T("history.at", "date", l.Date(at.Year(), at.Month(), at.Day()), "time", l.Number(at.Format("15:04")))
		lost = append(lost, l.T("upload.lost", "n", len(f.Names), "when", when, "names", strings.Join(f.Names, ", ")))
	}
	var kinds []views.UploadKind
	for _, k := range [][2]string{{"txt", ".txt"}, {"csv", ".csv"}, {"jsonl", ".jsonl, .ndjson"}, {"jpeg", "JPEG (.jpg, .jpeg)"}} {
		// Column names are the file's own words, in either language.
		kinds = append(kinds, views.UploadKind{Kind: k[0], Names: k[1], Holds: l.T("upload.kind."+k[0],
			"captions", "caption, description, text, headline", "columns", "id, date, photographer, agency, lat, lon, source, image_url")})
	}
	h.Kit.Render(w, r, http.StatusOK, views.UploadPageView(views.UploadPage{Page: page, UploadsURL: h.Kit.URL("uploads"),
		ImportsURL: h.Kit.URL("imports"), ReviewURL: h.Kit.URL("review"), ReviewPhotoURL: h.Kit.URL("review.photo", "id", "ID"), Lost: lost,
		ReusedURL: h.Kit.URL("review") + "?reuse=conflict", Kinds: kinds}))
}

// resumableUpload serves the tus protocol under /api/uploads/ (see
// Resumable), to editors.
func (h *Handlers) resumableUpload(w http.ResponseWriter, r *http.Request, _ *session.Editor) {
	if !h.takesUploads(w, r) {
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.StripPrefix("/api/uploads/", h.Resumable).ServeHTTP(w, r)
}

// importJob answers an upload's import: its state and, once done, each
// file's summary or the error `import` gives for it.
func (h *Handlers) importJob(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	if !h.takesUploads(w, r) {
		return
	}
	job, err := h.Imports.Job(r.Context(), mux.Vars(r)["id"], ed.Name)
	if err != nil {
		h.Kit.Error(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	h.Kit.WriteJSON(w, r, "application/json", job)
}

// PageURL is the upload page's address, "" when the server takes no
// uploads now.
func (h *Handlers) PageURL() string {
	if h.Imports == nil {
		return ""
	}
	return h.Kit.URL("upload")
}

// takesUploads answers a request for the uploads of a server that takes
// none now (read-only: its guard says so first), and reports whether it
// takes them.
func (h *Handlers) takesUploads(w http.ResponseWriter, r *http.Request) bool {
	if h.Imports == nil {
		h.Kit.Error(w, r, photo.Errorf(photo.EForbidden, "this server is read-only (--read-only, or the archive cannot be written): it takes no uploads"))
		return false
	}
	return true
}
