// Package importapi takes editors' files over HTTP — caption files (TXT,
// CSV, JSON Lines) and JPEGs — and imports them as `syriamap import`
// does, with every check it makes, in the background: POST /api/imports
// answers 202 Accepted with the job's address in Location, and GET
// /api/imports/{id} answers its state and, once done, each file's
// summary. A file is streamed to disk as it arrives, hashed on the way,
// never held whole in memory.
//
// A file's name as sent is only a name (fileName); an upload, resumable
// or not, and its job are its editor's alone (404 to others); pictures
// are taken only where their originals can be kept (the archive's
// store), and the bytes waiting for an import are bounded by budgets
// (budget.go). The jobs run from the archive's durable queue (queue.go):
// any server of the archive runs a job and answers its state, and a job
// whose server died runs again on a live one. Resumable uploads
// untouched for a day, and files no job holds, are swept away
// (sweep.go). Handlers serve these
// routes, the resumable uploads (tus, under /api/uploads/) and the upload
// page, behind the server's guard (handlers.go).
package importapi

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	tusd "github.com/tus/tusd/v2/pkg/handler"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/ingest"
	"github.com/syriamap/syriamap/internal/photo"
)

// Limits bound an upload: each file, and all files of one request. A
// request that declares a larger body is refused before it is read.
// EditorBytes and TotalBytes are budgets of the bytes declared and not
// yet imported (resumable uploads, queued files): one editor's and
// everyone's; an upload past either is refused (507), naming it.
//
// Lease is how long a server holds a job it runs without word from it
// (it says it is alive every third of it): past it, another server of
// the archive takes the job over, its own having died (0: DefaultLease).
type Limits struct {
	FileBytes, UploadBytes  int64
	EditorBytes, TotalBytes int64
	Lease                   time.Duration
}

// DefaultLimits: an agency's JPEG is under 50 MB and a million captions
// under 1 GB; an editor may have 8 GiB waiting, everyone 32 GiB.
var DefaultLimits = Limits{FileBytes: 1 << 30, UploadBytes: 4 << 30, EditorBytes: 8 << 30, TotalBytes: 32 << 30}

// Expiry is how long a resumable upload may stay untouched before the
// sweep removes it; a finished job is forgotten after as long.
const Expiry = 24 * time.Hour

// Job is one upload's import, as GET /api/imports/{id} answers it.
type Job struct {
	ID      string    `json:"id"`
	Editor  string    `json:"editor"`
	Created time.Time `json:"created"`
	// Date is the date the editor gave the upload's photos on its form
	// (YYYY, YYYY-MM or YYYY-MM-DD; "" for none): a photo whose caption,
	// file and import give no date takes it, as an editor's
	// (archive.WithFormDate).
	Date string `json:"date,omitempty"`
	// State is queued, running, done or failed (Error says why: its
	// servers stopped each time it ran).
	State string `json:"state"`
	Error string `json:"error,omitempty"`
	Files []File `json:"files"`
	// Summary adds up the files' imports once done.
	Summary *photo.ImportSummary `json:"summary,omitempty"`
	// NewPhotos counts the photos this upload added; Photos are those
	// its files gave, added or not (the first maxListed), for the review.
	NewPhotos int        `json:"new_photos"`
	Photos    []JobPhoto `json:"photos,omitempty"`
	// Skipped are the files the page left out, not sent: of a kind
	// syriamap does not take (a PDF), each with why.
	Skipped []Skipped `json:"skipped,omitempty"`
	// Counts add up what happened to the upload's files, for scripts.
	Counts Counts `json:"counts"`
}

// Counts say how many of a job's files were imported (done), refused
// (by the import, with why) and skipped (not sent; Skipped lists them).
type Counts struct {
	Imported int `json:"imported"`
	Refused  int `json:"refused"`
	Skipped  int `json:"skipped"`
}

// Skipped is a file an upload left out, and why.
type Skipped struct {
	Name string `json:"name"`
	Why  string `json:"why"`
}

// counted is j with its counts added up.
func (j Job) counted() Job {
	j.Counts = Counts{Skipped: max(j.Counts.Skipped, len(j.Skipped))}
	for _, f := range j.Files {
		switch f.State {
		case "done":
			j.Counts.Imported++
		case "refused":
			j.Counts.Refused++
		}
	}
	return j
}

// JobPhoto is a photo an upload's files gave.
type JobPhoto struct {
	ID      string `json:"id"`
	Caption string `json:"caption"`
}

// maxListed bounds the photos a job lists.
const maxListed = 500

// File is one uploaded file: its name as sent, size and SHA-256, and
// how its import went — its counts, or the error `import` gives for it
// (file and line), or the reason an image was skipped.
type File struct {
	Name   string               `json:"name"`
	Size   int64                `json:"size"`
	SHA256 string               `json:"sha256"`
	Kind   string               `json:"kind"` // captions or image
	State  string               `json:"state"`
	Result *photo.ImportSummary `json:"result,omitempty"`
	Error  string               `json:"error,omitempty"`
	// Warnings are what its import warned of, each naming the file and
	// line ("a.txt:2: two captions may be joined into one photo: …").
	Warnings []string `json:"warnings,omitempty"`
	path     string
}

// Archive is what the uploads ask of the archive (*archive.Archive): the
// imports of caption files and pictures, the photos and files they gave
// before, and its originals.
type Archive interface {
	ImportFile(ctx context.Context, path, format string, progress archive.Progress) (archive.Result, error)
	ImportImages(ctx context.Context, paths, include []string, progress func(done, total int)) (archive.ImageResult, error)
	PhotosOfFiles(ctx context.Context, files []string, limit int) ([]photo.Photo, error)
	FileOf(ctx context.Context, sha string) (string, photo.FileState, error)
	ImportedUnder(ctx context.Context, dir string) (map[string]int, error)
	// OpenOriginal opens a file's original by its SHA-256
	// (originals.ErrNotFound when none is kept); OriginalsStore is where
	// they are kept, nil when nowhere.
	OpenOriginal(ctx context.Context, sha256 string) (io.ReadCloser, error)
	OriginalsStore() originals.Store
	// HashAhead hashes a picture's frame as it arrives, before its job
	// runs (the import takes it); Forget drops it when the file goes
	// unimported.
	HashAhead(ctx context.Context, sha256, path string)
	Forget(sha256 string)
	Queue
}

// Queue is the archive's durable queue of jobs (*archive.Archive; see
// archive.ClaimJob), which every server of the archive runs jobs from.
type Queue interface {
	EnqueueJob(ctx context.Context, job photo.QueuedJob) error
	ClaimJob(ctx context.Context, kind, holder string, lease time.Duration, maxAttempts int) (photo.QueuedJob, bool, error)
	ExtendJob(ctx context.Context, id, holder string, lease time.Duration, result string) error
	FinishJob(ctx context.Context, id, holder, state, result, why string) error
	Job(ctx context.Context, id string) (photo.QueuedJob, error)
	Jobs(ctx context.Context, kind, owner string, open bool) ([]photo.QueuedJob, error)
	ForgetJobs(ctx context.Context, kind string, before time.Time) (int, error)
}

// Imports queues the jobs in the archive and runs them, jobsAtOnce at a
// time, beside the other servers of the archive (queue.go).
type Imports struct {
	archive Archive
	dir     string // where uploads are written while they wait
	limits  Limits
	log     *slog.Logger
	// holder names this server in the jobs it holds: its host, process
	// and a random part, new at each start.
	holder string
	// wake tells the workers a job was queued here.
	wake chan struct{}

	mu sync.Mutex
	// tus is the resumable uploads' store (Resumable); nil without.
	tus *tusd.StoreComposer
	// now is the clock the sweep reads (tests set it).
	now func() time.Time
	// lost are the files a stopped server never imported, by editor,
	// kept in lostFile (sweep.go).
	lost map[string][]Lost
	// ctx is the uploads' life (New's), which work ahead of a job
	// (HashAhead) stops with.
	ctx context.Context
	// sums are the SHA-256 of finished resumable uploads, by id, hashed
	// as they finished (finished).
	sums map[string]string
}

// New returns the uploads of archive a, written under dir (made if need
// be) while they wait for their import, and starts its worker, which
// stops with ctx.
//
// What a stopped server left there (the files of jobs it never ran,
// resumable uploads never imported) is removed first, logged, and told
// to its editor (Lost); then every hour the sweep removes the resumable
// uploads untouched for a day (Sweep).
func New(ctx context.Context, a Archive, dir string, limits Limits, log *slog.Logger) (*Imports, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if limits.EditorBytes <= 0 {
		limits.EditorBytes = DefaultLimits.EditorBytes
	}
	if limits.TotalBytes <= 0 {
		limits.TotalBytes = DefaultLimits.TotalBytes
	}
	if limits.Lease <= 0 {
		limits.Lease = DefaultLease
	}
	im := &Imports{archive: a, dir: dir, limits: limits, log: log, holder: holderName(), wake: make(chan struct{}, jobsAtOnce),
		now: time.Now, lost: map[string][]Lost{}, ctx: ctx, sums: map[string]string{}}
	if err := im.sweepLeftovers(); err != nil {
		return nil, err
	}
	for range jobsAtOnce {
		go im.work(ctx)
	}
	go im.sweepEvery(ctx, time.Hour)
	return im, nil
}

// Dir is the folder uploads wait in.
func (im *Imports) Dir() string { return im.dir }

// Receive reads an upload's files from a multipart body to disk, hashing
// each, and queues its import by editor; it returns the job. Nothing is
// imported when a file is refused (its type, its size, the disk).
func (im *Imports) Receive(r *http.Request, editor string) (Job, error) {
	if r.ContentLength > im.limits.UploadBytes {
		return Job{}, tooLarge("the upload is %s; send at most %s at once", web.SizeText(r.ContentLength), web.SizeText(im.limits.UploadBytes))
	}
	room, err := im.budgetLeft(editor, max(r.ContentLength, 0))
	if err != nil {
		return Job{}, err
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return Job{}, photo.Errorf(photo.EUnsupported, "send the files as multipart/form-data: %v", err)
	}
	id := newID()
	dir := filepath.Join(im.dir, id)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return Job{}, photo.DiskFull(fmt.Errorf("uploads: %w", err))
	}
	job := &Job{ID: id, Editor: editor, Created: im.now().UTC(), State: "queued"}
	ok := false
	defer func() {
		os.RemoveAll(dir) // its parts, moved to files/ as they were read
		if !ok {
			im.release(job)
		}
	}()
	var total int64
	names := map[string]bool{}
	pictures := false
	// Past the room left, the refusal names what bounds it: the upload's
	// limit or the budget.
	over := tooLarge("the upload is larger than %s; send at most that at once", web.SizeText(im.limits.UploadBytes))
	if room < im.limits.UploadBytes {
		over = im.overBudget(editor)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Job{}, photo.Errorf(photo.EInvalid, "reading the upload: %v", err)
		}
		if part.FileName() == "" {
			err := im.formField(part, job)
			part.Close()
			if err != nil {
				return Job{}, err
			}
			continue // a form's other fields
		}
		f, err := im.save(part, job.ID, dir, names, min(im.limits.UploadBytes, room)-total, over, &pictures)
		part.Close()
		if err != nil {
			return Job{}, err
		}
		total += f.Size
		job.Files = append(job.Files, f)
	}
	if len(job.Files) == 0 {
		return Job{}, photo.Errorf(photo.EInvalid, "the upload holds no file: send one or more as multipart/form-data parts with a file name")
	}
	out, err := im.enqueue(r.Context(), job)
	ok = err == nil
	return out, err
}

// formField reads a form field of a multipart upload: date, the form's
// date for its photos (see Job.Date); others are left.
func (im *Imports) formField(part *multipart.Part, job *Job) error {
	if part.FormName() != "date" {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(part, 64))
	if err != nil {
		return photo.Errorf(photo.EInvalid, "reading the upload: %v", err)
	}
	job.Date, err = formDate(string(b))
	return err
}

// formDate checks the date an upload's form gives its photos: "" for
// none, else YYYY, YYYY-MM or YYYY-MM-DD, refused with what is wrong.
func formDate(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	d, err := photo.ParseDate(s)
	if err != nil {
		return "", photo.Errorf(photo.EInvalid, "the photos' date: %v", err)
	}
	return d.String(), nil
}

// save writes one part to dir, hashing it, at most the file limit and
// room left bytes, then keeps it as files/SHA-256/its name (a folder's
// path aside): the same file uploaded again is the same file to the
// import, which then changes nothing. The first picture of a request
// checks that the originals can be kept (pictures).
func (im *Imports) save(part *multipart.Part, jobID, dir string, names map[string]bool, room int64, over error, pictures *bool) (File, error) {
	name, err := fileName(part.FileName())
	if err != nil {
		return File{}, err
	}
	kind, err := kindOf(name)
	if err != nil {
		return File{}, err
	}
	if kind == "image" && !*pictures {
		if err := im.picturesKept(); err != nil {
			return File{}, err
		}
		*pictures = true
	}
	path := filepath.Join(dir, fmt.Sprintf("%d.part", len(names)))
	names[path] = true
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return File{}, photo.DiskFull(fmt.Errorf("uploads: %w", err))
	}
	defer out.Close()
	limit := min(im.limits.FileBytes, room)
	h := sha256.New()
	in := &readErrors{r: part}
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(in, limit+1))
	switch {
	case in.err != nil: // the client's body broke off, or is not multipart
		return File{}, photo.Errorf(photo.EInvalid, "reading the upload: %s: %v", name, in.err)
	case err != nil:
		return File{}, photo.DiskFull(fmt.Errorf("uploads: %s: %w", name, err))
	case n > limit && limit == im.limits.FileBytes:
		os.Remove(path)
		return File{}, tooLarge("%s is larger than %s, the most one file may be", name, web.SizeText(limit))
	case n > limit:
		os.Remove(path)
		return File{}, over
	}
	if err := out.Close(); err != nil {
		return File{}, photo.DiskFull(fmt.Errorf("uploads: %s: %w", name, err))
	}
	sum := hex.EncodeToString(h.Sum(nil))
	kept, err := im.keep(path, sum, jobID, name)
	if err != nil {
		return File{}, err
	}
	if kind == "image" {
		// Hashed while the next files arrive, not once its job runs.
		im.archive.HashAhead(im.ctx, sum, kept)
	}
	return File{Name: name, Size: n, SHA256: sum, Kind: kind, State: "queued", path: kept}, nil
}

// readErrors keeps the error its reader gave, io.EOF aside: what went
// wrong reading a request's body is the client's, not the server's disk.
type readErrors struct {
	r   io.Reader
	err error
}

func (e *readErrors) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

// keep moves an uploaded file to files/SHA-256/job/name: the folder
// named by its bytes says the import whether they were imported before,
// under any name (importedBefore), and the job's own folder in it is
// removed with the job (release), whichever server runs it.
func (im *Imports) keep(tmp, sum, jobID, name string) (string, error) {
	name, err := fileName(name)
	if err != nil {
		return "", err
	}
	kept := filepath.Join(im.dir, "files", sum, jobID, name)
	if filepath.Dir(filepath.Dir(filepath.Dir(kept))) != filepath.Join(im.dir, "files") || !validSum(sum) || !validJobID(jobID) {
		return "", fmt.Errorf("uploads: %q is not a file's name", name) // never: fileName took its base
	}
	if err := os.MkdirAll(filepath.Dir(kept), 0o700); err != nil {
		return "", photo.DiskFull(fmt.Errorf("uploads: %w", err))
	}
	if err := os.Rename(tmp, kept); err != nil {
		return "", photo.DiskFull(fmt.Errorf("uploads: %w", err))
	}
	return kept, nil
}

// release removes a job's kept files, and their folders once empty.
func (im *Imports) release(job *Job) {
	for _, f := range job.Files {
		os.Remove(f.path)
		os.Remove(filepath.Dir(f.path))
		os.Remove(filepath.Dir(filepath.Dir(f.path)))
		if f.Kind == "image" {
			im.archive.Forget(f.SHA256)
		}
	}
}

// notImported says why a file of another kind is not imported.
const notImported = "not a file syriamap imports (caption files: .txt, .csv, .jsonl, .ndjson; images: .jpg, .jpeg)"

// kindOf is what an uploaded file is by its name: captions (as `import`
// reads them) or an image.
func kindOf(name string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(name)); ext {
	case ".jpg", ".jpeg":
		return "image", nil
	default:
		if _, err := ingest.FormatOf(name); err != nil {
			return "", photo.Errorf(photo.EUnsupported, "%s: %s", name, notImported)
		}
		return "captions", nil
	}
}

// jobsAtOnce is how many jobs run side by side: while one writes what it
// imported (its originals made durable, its transaction), the next one's
// pictures are read. The archive bounds the pictures read at once across
// them (archive.ImportImages), so that two jobs decode no more than one
// import does.
const jobsAtOnce = 2

// run imports one job's files: each caption file on its own, as
// `import` does, and the images together (an image's original is kept by
// the import, as `import` keeps it). Run again, after its server died,
// it imports nothing twice: the bytes imported before change nothing.
func (im *Imports) run(ctx context.Context, job *Job) {
	im.set(job, func() { job.State = "running" })
	ctx = photo.WithActor(photo.AsEditor(ctx, job.Editor), "editor "+job.Editor)
	if d, err := photo.ParseDate(job.Date); err == nil {
		ctx = archive.WithFormDate(ctx, d)
	}
	var images []int
	var sum photo.ImportSummary
	var before []string // the files the same bytes were imported from
	for i := range job.Files {
		f := &job.Files[i]
		if f.Kind == "image" {
			images = append(images, i)
			continue
		}
		// The same bytes imported before, under any name, change nothing.
		if files, n := im.importedBefore(ctx, f); n > 0 {
			before = append(before, files...)
			im.set(job, func() { f.State, f.Result = "done", &photo.ImportSummary{Unchanged: n} })
			sum.Unchanged += n
			continue
		}
		res, err := im.archive.ImportFile(ctx, f.path, "", nil)
		err = im.failed(job, f.Name, err)
		im.set(job, func() {
			finish(f, res.Summary, err, filepath.Dir(f.path))
			for _, w := range res.Warnings {
				f.Warnings = append(f.Warnings, strings.ReplaceAll(w, filepath.Dir(f.path)+string(filepath.Separator), ""))
			}
		})
		sum.Add(res.Summary)
	}
	// Pictures the archive holds already, the same bytes with their
	// original, change nothing: not read again, no custody record.
	images, held := im.held(ctx, job, images)
	sum.Unchanged += len(held)
	if len(images) > 0 {
		var paths []string
		for _, i := range images {
			paths = append(paths, job.Files[i].path)
		}
		// The uploads' copies are the archive's: kept as originals by a
		// link, not written again.
		res, err := im.archive.ImportImages(archive.Adopting(ctx), paths, nil, nil)
		err = im.failed(job, "the pictures", err)
		skipped := map[string]string{}
		for _, s := range res.Skipped {
			skipped[filepath.Base(s.Path)] = s.Reason
			if strings.Contains(s.Reason, "original") { // the store of originals failed, not the file
				im.log.Error("uploads: a picture's original could not be kept", "job", job.ID, "file", filepath.Base(s.Path), "err", s.Reason)
			}
		}
		im.set(job, func() {
			for _, i := range images {
				f := &job.Files[i]
				switch {
				case err != nil:
					finish(f, photo.ImportSummary{}, err, filepath.Dir(f.path))
				case skipped[f.Name] != "":
					f.State, f.Error = "refused", f.Name+": "+skipped[f.Name]
				default:
					f.State = "done"
				}
			}
		})
		sum.Add(res.Summary)
	}
	paths := append(before, held...)
	for _, f := range job.Files {
		if abs, err := filepath.Abs(f.path); err == nil {
			paths = append(paths, abs)
		}
	}
	photos, err := im.archive.PhotosOfFiles(ctx, paths, maxListed)
	if err != nil {
		im.log.Warn("uploads: listing an upload's photos", "job", job.ID, "err", err)
	}
	im.set(job, func() {
		job.State, job.Summary, job.NewPhotos = "done", &sum, sum.Added
		for _, p := range photos {
			job.Photos = append(job.Photos, JobPhoto{ID: p.ID, Caption: p.Caption})
		}
	})
}

// held takes out of images (indexes of job's files) those whose bytes the
// archive holds already, with their original, marking them done; it
// returns the others and the paths the held ones were imported from.
func (im *Imports) held(ctx context.Context, job *Job, images []int) (rest []int, paths []string) {
	for _, i := range images {
		f := &job.Files[i]
		path, _, err := im.archive.FileOf(ctx, f.SHA256)
		if err == nil {
			var rc io.ReadCloser
			if rc, err = im.archive.OpenOriginal(ctx, f.SHA256); err == nil {
				rc.Close()
			}
		}
		if err != nil {
			rest = append(rest, i)
			continue
		}
		paths = append(paths, path)
		im.set(job, func() { f.State = "done" })
	}
	return rest, paths
}

// importedBefore lists the files photos were imported from that had
// f's bytes (an upload's folder is named by them: files/SHA-256/job/name),
// with how many photos they gave; none when they were never imported. A
// job run again after its server died finds its own first run's.
func (im *Imports) importedBefore(ctx context.Context, f *File) ([]string, int) {
	dir, err := filepath.Abs(filepath.Dir(filepath.Dir(f.path)))
	if err != nil {
		return nil, 0
	}
	files, err := im.archive.ImportedUnder(ctx, dir)
	if err != nil {
		im.log.Warn("uploads: looking for an earlier import of the same bytes", "file", f.Name, "err", err)
		return nil, 0
	}
	n := 0
	for _, c := range files {
		n = max(n, c)
	}
	return slices.Collect(maps.Keys(files)), n
}

// failed logs an import's error the editor is told only as "internal
// error" (a full disk is said as such), and returns it as they are told.
func (im *Imports) failed(job *Job, what string, err error) error {
	told := photo.DiskFull(err)
	if c := photo.ErrorCode(told); c == photo.EInternal || c == photo.EDiskFull {
		im.log.Error("uploads: an upload's import failed", "job", job.ID, "editor", job.Editor, "file", what, "err", err)
	}
	return told
}

// finish writes a caption file's outcome: its counts, or its error as
// `import` words it, the upload's folder left out of the file's name.
func finish(f *File, sum photo.ImportSummary, err error, dir string) {
	if err != nil {
		f.State, f.Error = "refused", strings.ReplaceAll(photo.ErrorMessage(err), dir+string(filepath.Separator), "")
		return
	}
	f.State, f.Result = "done", &sum
}

func (im *Imports) set(job *Job, change func()) {
	im.mu.Lock()
	defer im.mu.Unlock()
	change()
}

func tooLarge(format string, args ...any) error {
	return photo.Errorf(web.EBodyTooLarge, format, args...)
}

func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
