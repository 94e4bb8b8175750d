package importapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/tus/tusd/v2/pkg/filelocker"
	"github.com/tus/tusd/v2/pkg/filestore"
	tusd "github.com/tus/tusd/v2/pkg/handler"
	xslog "golang.org/x/exp/slog"

	"github.com/syriamap/syriamap/internal/http/web"
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
	// Uploads declare their length when they are created (the budget
	// counts it): no deferred lengths, no concatenation, no download.
	store := roomyStore{filestore.New(dir)}
	composer := tusd.NewStoreComposer()
	composer.UseCore(store)
	composer.UseTerminater(store)
	filelocker.New(dir).UseIn(composer)
	im.tus = composer
	h, err := tusd.NewHandler(tusd.Config{
		StoreComposer: composer, BasePath: basePath, MaxSize: im.limits.FileBytes,
		DisableDownload: true, DisableConcatenation: true,
		// tusd writes a line a request on its own logger: kept quiet.
		Logger:                    xslog.New(xslog.NewTextHandler(io.Discard, nil)),
		PreUploadCreateCallback:   im.creating,
		PreFinishResponseCallback: im.finished,
	})
	if err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	// The upload is its editor's: another's HEAD, PATCH or DELETE is
	// answered as one of no upload.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost && r.Method != http.MethodOptions && !im.owns(r.Context(), strings.Trim(r.URL.Path, "/"), photo.ViewerOf(r.Context()).Editor) {
			w.Header().Set("Tus-Resumable", "1.0.0")
			http.Error(w, "no upload of yours at this address", http.StatusNotFound)
			return
		}
		h.ServeHTTP(w, r)
	}), nil
}

// creating checks a new resumable upload: its name (a base name,
// fileName), its type, that its pictures' originals can be kept, and
// its declared size against the budgets; it writes its editor in it.
func (im *Imports) creating(hook tusd.HookEvent) (tusd.HTTPResponse, tusd.FileInfoChanges, error) {
	sent, ok := hook.Upload.MetaData["filename"]
	if !ok || sent == "" {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusd.NewError("ERR_NO_NAME", "name the file: Upload-Metadata filename", http.StatusBadRequest)
	}
	editor := photo.ViewerOf(hook.Context).Editor
	name, err := fileName(sent)
	if err == nil {
		var kind string
		if kind, err = kindOf(name); err == nil && kind == "image" {
			err = im.picturesKept()
		}
	}
	if err == nil {
		_, err = im.budgetLeft(editor, hook.Upload.Size)
	}
	if err != nil {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusError(err)
	}
	// The upload is its editor's: only they may touch or import it.
	meta := tusd.MetaData{"filename": name, "editor": editor}
	return tusd.HTTPResponse{}, tusd.FileInfoChanges{MetaData: meta}, nil
}

// finished hashes a resumable upload as its last bytes arrive: its
// SHA-256 (the import's POST takes it, rather than reading every file
// again) and, for a picture, its frame in the background
// (Archive.HashAhead), while the next files are sent.
func (im *Imports) finished(hook tusd.HookEvent) (tusd.HTTPResponse, error) {
	path := hook.Upload.Storage[filestore.StorageKeyPath]
	f, err := os.Open(path)
	if err != nil {
		return tusd.HTTPResponse{}, nil // the import's POST says what is wrong
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return tusd.HTTPResponse{}, nil
	}
	sum := hex.EncodeToString(h.Sum(nil))
	im.mu.Lock()
	im.sums[hook.Upload.ID] = sum
	im.mu.Unlock()
	if kind, err := kindOf(hook.Upload.MetaData["filename"]); err == nil && kind == "image" {
		im.archive.HashAhead(im.ctx, sum, path)
	}
	return tusd.HTTPResponse{}, nil
}

// sumOf is the SHA-256 of the finished resumable upload id at path: as it
// was hashed when it finished, else read now.
func (im *Imports) sumOf(id, path string) (string, error) {
	im.mu.Lock()
	sum, ok := im.sums[id]
	delete(im.sums, id)
	im.mu.Unlock()
	if ok {
		return sum, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// tusError is err as tusd answers it: the status its code has, its
// message.
func tusError(err error) error {
	status := web.Status(err)
	return tusd.NewError("ERR_"+strings.ToUpper(photo.ErrorCode(err)), photo.ErrorMessage(err), status)
}

// owns reports whether resumable upload id is editor's.
func (im *Imports) owns(ctx context.Context, id, editor string) bool {
	if !uploadID(id) {
		return false
	}
	up, err := im.tus.Core.GetUpload(ctx, id)
	if err != nil {
		return false
	}
	info, err := up.GetInfo(ctx)
	return err == nil && editor != "" && info.MetaData["editor"] == editor
}

// roomyStore is tusd's file store, saying a full disk as such: 507, not
// 500.
type roomyStore struct{ filestore.FileStore }

func (s roomyStore) NewUpload(ctx context.Context, info tusd.FileInfo) (tusd.Upload, error) {
	up, err := s.FileStore.NewUpload(ctx, info)
	if err != nil {
		return nil, diskFull(err)
	}
	return roomyUpload{up}, nil
}

func (s roomyStore) GetUpload(ctx context.Context, id string) (tusd.Upload, error) {
	up, err := s.FileStore.GetUpload(ctx, id)
	if err != nil {
		return nil, err
	}
	return roomyUpload{up}, nil
}

func (s roomyStore) AsTerminatableUpload(up tusd.Upload) tusd.TerminatableUpload {
	if r, ok := up.(roomyUpload); ok {
		up = r.Upload
	}
	return s.FileStore.AsTerminatableUpload(up)
}

// roomyUpload is an upload of roomyStore's.
type roomyUpload struct{ tusd.Upload }

func (u roomyUpload) WriteChunk(ctx context.Context, offset int64, src io.Reader) (int64, error) {
	n, err := u.Upload.WriteChunk(ctx, offset, src)
	return n, diskFull(err)
}

// diskFull is err, or a 507 saying the disk is full when it is ENOSPC.
func diskFull(err error) error {
	if err == nil || !errors.Is(err, syscall.ENOSPC) {
		return err
	}
	return tusd.NewError("ERR_DISK_FULL", "the disk holding the uploads is full: what arrived is kept; send the rest once there is room", http.StatusInsufficientStorage)
}

// takeResumable makes finished resumable upload id, of editor, a file of
// a job: its bytes hashed and kept as an upload's are (keep), its tus
// record removed.
func (im *Imports) takeResumable(ctx context.Context, jobID, id, editor string) (File, error) {
	if im.tus == nil {
		return File{}, photo.Errorf(photo.ENotFound, "this server takes no resumable uploads")
	}
	if !uploadID(id) {
		return File{}, photo.Errorf(photo.ENotFound, "no resumable upload %q", id)
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
	name, err := fileName(info.MetaData["filename"])
	if err != nil {
		return File{}, err
	}
	kind, err := kindOf(name)
	if err != nil {
		return File{}, err
	}
	path := info.Storage[filestore.StorageKeyPath]
	sum, err := im.sumOf(id, path)
	if err != nil {
		return File{}, fmt.Errorf("uploads: %s: %w", name, err)
	}
	kept, err := im.keep(path, sum, jobID, name)
	if err != nil {
		return File{}, err
	}
	if kind == "image" {
		im.archive.HashAhead(im.ctx, sum, kept) // hashed ahead, or now: it moved
	}
	os.Remove(path)
	os.Remove(path + ".info")
	return File{Name: name, Size: info.Size, SHA256: sum, Kind: kind, State: "queued", path: kept}, nil
}

// ReceiveResumable queues the import of finished resumable uploads, by
// editor; it returns the job. Skipped names the files the page left out
// (of a kind not imported), counted in the job and listed with why (the
// first maxListed whose names are file names).
func (im *Imports) ReceiveResumable(ctx context.Context, ids, skipped []string, date, editor string) (Job, error) {
	if len(ids) == 0 {
		return Job{}, photo.Errorf(photo.EInvalid, "name the finished uploads to import: {\"uploads\": [id, …]}")
	}
	date, err := formDate(date)
	if err != nil {
		return Job{}, err
	}
	job := &Job{ID: newID(), Editor: editor, Created: im.now().UTC(), State: "queued", Date: date}
	// A name that is no file's name is counted, not listed: a file left
	// out refuses nothing.
	job.Counts.Skipped = len(skipped)
	for _, s := range skipped[:min(len(skipped), maxListed)] {
		if name, err := fileName(s); err == nil {
			job.Skipped = append(job.Skipped, Skipped{Name: name, Why: notImported})
		}
	}
	for _, id := range ids {
		f, err := im.takeResumable(ctx, job.ID, id, editor)
		if err != nil {
			im.release(job)
			return Job{}, err
		}
		job.Files = append(job.Files, f)
	}
	out, err := im.enqueue(ctx, job)
	if err != nil {
		im.release(job)
	}
	return out, err
}

// uploadID reports whether id is one tusd's file store gives (32 hex
// digits), so that no id names a file outside its folder.
func uploadID(id string) bool {
	b, err := hex.DecodeString(id)
	return err == nil && len(b) == 16 && strings.ToLower(id) == id
}
