package importapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/tus/tusd/v2/pkg/filelocker"
	"github.com/tus/tusd/v2/pkg/filestore"
	tusd "github.com/tus/tusd/v2/pkg/handler"
	xslog "golang.org/x/exp/slog"

	"github.com/syriamap/syriamap/internal/photo"
)

// Resumable uploads follow tus 1.0 (tus.io), with tusd's handler and
// file store: a client creates an upload with its size and name, sends
// its bytes in as many requests as its connection allows, and after a
// dropped connection asks the server how far it got (HEAD) and sends the
// rest from there. A finished upload is imported by naming it in POST
// /api/imports ({"uploads": [id, …]}). The size is declared at creation:
// a file past the limit is refused then, before a byte of it is sent.

// tusDir is the file store's folder under the uploads' folder.
const tusDir = "resumable"

// Resumable returns the tus handler, to serve under basePath (its
// requests' paths with basePath taken off). Every request must come from
// an editor (the server's guard, before it): an upload is its editor's.
func (im *Imports) Resumable(basePath string) (http.Handler, error) {
	dir := filepath.Join(im.dir, tusDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	store := filestore.New(dir)
	composer := tusd.NewStoreComposer()
	store.UseIn(composer)
	filelocker.New(dir).UseIn(composer)
	im.tus = composer
	h, err := tusd.NewHandler(tusd.Config{
		StoreComposer: composer, BasePath: basePath, MaxSize: im.limits.FileBytes,
		DisableDownload: true, DisableConcatenation: true,
		// tusd writes a line a request on its own logger: kept quiet.
		Logger: xslog.New(xslog.NewTextHandler(io.Discard, nil)),
		PreUploadCreateCallback: func(hook tusd.HookEvent) (tusd.HTTPResponse, tusd.FileInfoChanges, error) {
			name := hook.Upload.MetaData["filename"]
			if name == "" {
				return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusd.NewError("ERR_NO_NAME", "name the file: Upload-Metadata filename", http.StatusBadRequest)
			}
			if _, err := kindOf(name); err != nil {
				return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusd.NewError("ERR_TYPE", photo.ErrorMessage(err), http.StatusUnsupportedMediaType)
			}
			// The upload is its editor's: only they may import it.
			meta := tusd.MetaData{"filename": name, "editor": photo.ViewerOf(hook.Context).Editor}
			return tusd.HTTPResponse{}, tusd.FileInfoChanges{MetaData: meta}, nil
		},
	})
	if err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	return h, nil
}

// takeResumable makes finished resumable upload id, of editor, a file of
// a job: its bytes hashed and kept as an upload's are (keep), its tus
// record removed.
func (im *Imports) takeResumable(ctx context.Context, id, editor string) (File, error) {
	if im.tus == nil {
		return File{}, photo.Errorf(photo.ENotFound, "this server takes no resumable uploads")
	}
	up, err := im.tus.Core.GetUpload(ctx, id)
	if err != nil {
		return File{}, photo.Errorf(photo.ENotFound, "no resumable upload %q", id)
	}
	info, err := up.GetInfo(ctx)
	switch {
	case err != nil:
		return File{}, fmt.Errorf("uploads: %s: %w", id, err)
	case info.MetaData["editor"] != editor:
		return File{}, photo.Errorf(photo.ENotFound, "no resumable upload %q of yours", id)
	case info.Offset != info.Size:
		return File{}, photo.Errorf(photo.EConflict, "%s: %d of %d bytes have arrived; send the rest before importing it", info.MetaData["filename"], info.Offset, info.Size)
	}
	name := info.MetaData["filename"]
	kind, err := kindOf(name)
	if err != nil {
		return File{}, err
	}
	path := info.Storage[filestore.StorageKeyPath]
	f, err := os.Open(path)
	if err != nil {
		return File{}, fmt.Errorf("uploads: %s: %w", name, err)
	}
	h := sha256.New()
	_, err = io.Copy(h, f)
	f.Close()
	if err != nil {
		return File{}, fmt.Errorf("uploads: %s: %w", name, err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	kept, err := im.keep(path, sum, name)
	if err != nil {
		return File{}, err
	}
	os.Remove(path)
	os.Remove(path + ".info")
	return File{Name: name, Size: info.Size, SHA256: sum, Kind: kind, State: "queued", path: kept}, nil
}

// ReceiveResumable queues the import of finished resumable uploads, by
// editor; it returns the job.
func (im *Imports) ReceiveResumable(ctx context.Context, ids []string, editor string) (Job, error) {
	if len(ids) == 0 {
		return Job{}, photo.Errorf(photo.EInvalid, "name the finished uploads to import: {\"uploads\": [id, …]}")
	}
	job := &Job{ID: newID(), Editor: editor, Created: time.Now().UTC(), State: "queued"}
	for _, id := range ids {
		f, err := im.takeResumable(ctx, id, editor)
		if err != nil {
			im.release(job)
			return Job{}, err
		}
		job.Files = append(job.Files, f)
	}
	return im.enqueue(job)
}
