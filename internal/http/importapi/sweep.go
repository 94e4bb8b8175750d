package importapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// A stopped server (killed, its machine down) leaves behind it the files
// of the jobs it had queued and the resumable uploads not yet imported.
// Each job writes down its files when it is queued (jobsDir/ID.json, its
// manifest, removed once it is done), and each resumable upload names its
// editor in its record; so the next start removes them all, logs what,
// and tells each editor on the upload page which of their files were
// never imported (lostFile, kept for lostKept).

const (
	jobsDir  = "jobs"
	lostFile = "never-imported.json"
	lostKept = 30 * 24 * time.Hour
)

// Lost are files an editor sent that a stopped server never imported.
type Lost struct {
	Sent  time.Time `json:"sent"`
	Names []string  `json:"names"`
}

// manifest is a queued job as written down.
type manifest struct {
	Editor  string    `json:"editor"`
	Created time.Time `json:"created"`
	Names   []string  `json:"names"`
}

func (im *Imports) manifestPath(job *Job) string {
	return filepath.Join(im.dir, jobsDir, job.ID+".json")
}

// writeManifest writes down job's editor and files before it is queued.
func (im *Imports) writeManifest(job *Job) error {
	m := manifest{Editor: job.Editor, Created: job.Created}
	for _, f := range job.Files {
		m.Names = append(m.Names, f.Name)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	path := im.manifestPath(job)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return photo.DiskFull(fmt.Errorf("uploads: %w", err))
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		os.Remove(path)
		return photo.DiskFull(fmt.Errorf("uploads: %w", err))
	}
	return nil
}

func (im *Imports) removeManifest(job *Job) { os.Remove(im.manifestPath(job)) }

// Lost lists the files of editor's that a stopped server never imported,
// latest first.
func (im *Imports) Lost(editor string) []Lost {
	im.mu.Lock()
	defer im.mu.Unlock()
	return slices.Clone(im.lost[editor])
}

// sweepLeftovers runs at start, before any upload: it reads what the
// manifests and the resumable uploads' records say was never imported,
// adds it to what editors are told, and removes every file under the
// uploads' folder but that list.
func (im *Imports) sweepLeftovers() error {
	im.readLost()
	found := map[string]map[time.Time][]string{} // editor → day sent → names
	note := func(editor string, sent time.Time, names ...string) {
		if editor == "" || len(names) == 0 {
			return
		}
		if found[editor] == nil {
			found[editor] = map[time.Time][]string{}
		}
		day := sent.UTC().Truncate(time.Minute)
		found[editor][day] = append(found[editor][day], names...)
	}
	manifests, _ := filepath.Glob(filepath.Join(im.dir, jobsDir, "*.json"))
	for _, p := range manifests {
		var m manifest
		if b, err := os.ReadFile(p); err == nil && json.Unmarshal(b, &m) == nil {
			note(m.Editor, m.Created, m.Names...)
		}
	}
	for _, u := range im.resumables() {
		sent := time.Now()
		if st, err := os.Stat(u.info); err == nil {
			sent = st.ModTime()
		}
		note(u.Editor, sent, u.MetaData["filename"])
	}
	removed, bytes := 0, int64(0)
	entries, err := os.ReadDir(im.dir)
	if err != nil {
		return fmt.Errorf("uploads: %w", err)
	}
	for _, e := range entries {
		if e.Name() == lostFile {
			continue
		}
		p := filepath.Join(im.dir, e.Name())
		filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				removed++
				if info, err := d.Info(); err == nil {
					bytes += info.Size()
				}
			}
			return nil
		})
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("uploads: removing what a stopped server left: %w", err)
		}
	}
	if removed > 0 {
		im.log.Warn("uploads: removed what a stopped server left in the uploads' folder, never imported", "files", removed, "bytes", bytes, "folder", im.dir)
	}
	for editor, days := range found {
		for sent, names := range days {
			slices.Sort(names)
			im.lost[editor] = append(im.lost[editor], Lost{Sent: sent, Names: names})
			im.log.Warn("uploads: files never imported", "editor", editor, "sent", sent.Format(time.RFC3339), "files", len(names), "names", names)
		}
	}
	return im.writeLost()
}

// readLost reads what editors are still to be told, dropping what is
// older than lostKept.
func (im *Imports) readLost() {
	b, err := os.ReadFile(filepath.Join(im.dir, lostFile))
	if err != nil {
		return
	}
	var lost map[string][]Lost
	if json.Unmarshal(b, &lost) != nil {
		return
	}
	for editor, ls := range lost {
		for _, l := range ls {
			if im.now().Sub(l.Sent) < lostKept {
				im.lost[editor] = append(im.lost[editor], l)
			}
		}
	}
}

// writeLost keeps what editors are to be told across restarts.
func (im *Imports) writeLost() error {
	path := filepath.Join(im.dir, lostFile)
	for _, ls := range im.lost {
		slices.SortFunc(ls, func(a, b Lost) int { return b.Sent.Compare(a.Sent) })
	}
	if len(im.lost) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("uploads: %w", err)
		}
		return nil
	}
	b, err := json.Marshal(im.lost)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return photo.DiskFull(fmt.Errorf("uploads: %w", err))
	}
	return nil
}

// sweepEvery sweeps every interval until ctx is done.
func (im *Imports) sweepEvery(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			im.Sweep()
		}
	}
}

// Sweep removes the resumable uploads untouched for Expiry (their last
// byte, or their creation, that long ago by the clock), and forgets the
// jobs done that long ago. It returns how many uploads it removed.
func (im *Imports) Sweep() int {
	now := im.now()
	removed := 0
	for _, u := range im.resumables() {
		bin := filepath.Join(filepath.Dir(u.info), u.ID)
		last := time.Time{}
		for _, p := range []string{bin, u.info} {
			if st, err := os.Stat(p); err == nil && st.ModTime().After(last) {
				last = st.ModTime()
			}
		}
		if now.Sub(last) < Expiry {
			continue
		}
		if err := errors.Join(os.Remove(bin), os.Remove(u.info)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			im.log.Warn("uploads: removing an expired upload", "err", err)
			continue
		}
		removed++
		im.mu.Lock()
		if sum, ok := im.sums[u.ID]; ok {
			delete(im.sums, u.ID)
			im.archive.Forget(sum)
		}
		im.mu.Unlock()
		im.log.Info("uploads: removed a resumable upload untouched for a day", "editor", u.Editor, "name", u.MetaData["filename"], "declared", u.Size, "last", last.UTC().Format(time.RFC3339))
	}
	im.mu.Lock()
	defer im.mu.Unlock()
	for id, j := range im.jobs {
		if j.State == "done" && now.Sub(j.Created) >= Expiry {
			delete(im.jobs, id)
		}
	}
	return removed
}
