package bag

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// Download serves an editor's bag, zipped, over HTTP (POST
// /evidence.zip). Set its fields before it serves.
type Download struct {
	DB    DownloadStore
	Guard *session.Guard
	Error func(w http.ResponseWriter, r *http.Request, err error)
	Log   *slog.Logger
	// Now is the clock of the bag's name and its files' times.
	Now func() time.Time
}

// DownloadStore is what a download asks of the archive: an export's,
// and how many photos a selection holds, before anything is written.
type DownloadStore interface {
	Archive
	CountPhotos(ctx context.Context, f photo.Filter) (int, error)
}

// Routes adds the download's route to r.
func (d *Download) Routes(r *mux.Router) {
	r.Handle("/evidence.zip", d.Guard.Editing(d.exportEvidence)).Methods(http.MethodPost).Name("evidence")
}

// maxEvidencePhotos bounds an export asked for in the browser; a larger
// one is the command's (syriamap export-evidence), which writes to disk
// as it goes.
const maxEvidencePhotos = 2000

// exportEvidence answers an editor's POST of a selection (the explorer's
// filters, or id=… for photos by id) with a BagIt bag of it, zipped: the
// same bag `syriamap export-evidence` writes, in a folder of the zip. The
// export is recorded in each photo's custody under the editor's name.
func (d *Download) exportEvidence(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	if err := r.ParseForm(); err != nil {
		d.Error(w, r, web.BadParam("form", "%v", err))
		return
	}
	q := url.Values{}
	for k, v := range r.PostForm {
		if k != session.CSRFField && k != "id" {
			q[k] = v
		}
	}
	f, err := web.ParseFilter(q)
	if err != nil {
		d.Error(w, r, err)
		return
	}
	f.IDs = web.MultiParam(r.PostForm, "id")
	ctx := r.Context()
	n, err := d.DB.CountPhotos(ctx, f)
	if err != nil {
		d.Error(w, r, err)
		return
	}
	if n > maxEvidencePhotos {
		d.Error(w, r, web.BadParam("selection", "%d photos: a bag of more than %d is made with the command syriamap export-evidence", n, maxEvidencePhotos))
		return
	}
	tmp, err := os.MkdirTemp("", "syriamap-evidence-*")
	if err != nil {
		d.Error(w, r, err)
		return
	}
	defer os.RemoveAll(tmp)
	name := "syriamap-evidence-" + d.Now().UTC().Format("20060102-150405")
	dir := filepath.Join(tmp, name)
	// Recorded by the name it is downloaded under: the server's
	// temporary folder is nobody's business.
	if _, err := ExportAs(ctx, d.DB, f, dir, name+".zip (downloaded)", "editor "+ed.Name); err != nil {
		d.Error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.zip"`, name))
	w.Header().Set("Cache-Control", "private, no-store")
	zw := zip.NewWriter(w)
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, err := filepath.Rel(tmp, p)
		if err != nil {
			return err
		}
		// Stored, not deflated: the originals are JPEGs already.
		out, err := zw.CreateHeader(&zip.FileHeader{Name: filepath.ToSlash(rel), Method: zip.Store, Modified: d.Now()})
		if err != nil {
			return err
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		_, err = io.Copy(out, in)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		d.Log.Warn("evidence export cut short", "err", err)
	}
}
