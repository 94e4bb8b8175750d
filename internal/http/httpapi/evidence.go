package httpapi

import (
	"archive/zip"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/syriamap/syriamap/internal/http/bag"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
)

// maxEvidencePhotos bounds an export asked for in the browser; a larger
// one is the command's (syriamap export-evidence), which writes to disk
// as it goes.
const maxEvidencePhotos = 2000

// exportEvidence answers an editor's POST of a selection (the explorer's
// filters, or id=… for photos by id) with a BagIt bag of it, zipped: the
// same bag `syriamap export-evidence` writes, in a folder of the zip. The
// export is recorded in each photo's custody under the editor's name.
func (s *Server) exportEvidence(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	if err := r.ParseForm(); err != nil {
		s.Error(w, r, web.BadParam("form", "%v", err))
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
		s.Error(w, r, err)
		return
	}
	f.IDs = web.MultiParam(r.PostForm, "id")
	ctx := r.Context()
	n, err := s.db.CountPhotos(ctx, f)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if n > maxEvidencePhotos {
		s.Error(w, r, web.BadParam("selection", "%d photos: a bag of more than %d is made with the command syriamap export-evidence", n, maxEvidencePhotos))
		return
	}
	tmp, err := os.MkdirTemp("", "syriamap-evidence-*")
	if err != nil {
		s.Error(w, r, err)
		return
	}
	defer os.RemoveAll(tmp)
	name := "syriamap-evidence-" + time.Now().UTC().Format("20060102-150405")
	dir := filepath.Join(tmp, name)
	// Recorded by the name it is downloaded under: the server's
	// temporary folder is nobody's business.
	if _, err := bag.ExportAs(ctx, s.archive, f, dir, name+".zip (downloaded)", "editor "+ed.Name); err != nil {
		s.Error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.zip"`, name))
	w.Header().Set("Cache-Control", "private, no-store")
	zw := zip.NewWriter(w)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(tmp, p)
		if err != nil {
			return err
		}
		// Stored, not deflated: the originals are JPEGs already.
		out, err := zw.CreateHeader(&zip.FileHeader{Name: filepath.ToSlash(rel), Method: zip.Store, Modified: time.Now()})
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
		s.log.Warn("evidence export cut short", "err", err)
	}
}
