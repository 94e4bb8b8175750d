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

// The jobs survive a stopped server (queue.go): their files stay in the
// uploads' folder, which every server of the archive shares, until the
// job is done, whichever server runs it; a resumable upload stays too,
// to be finished through any server. What is left to sweep: what a
// server of an earlier version left (its jobs' manifests, jobsDir/ID.json,
// and their files, files/SHA-256/name, never imported: removed at start,
// and their editors told, lostFile, for lostKept), and, every hour, the
// resumable uploads untouched for a day, the jobs done a day ago, and the
// files no job holds a day after they were written (an upload's request
// cut, a job's files its server died before removing).

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

// manifest is a queued job as an earlier version wrote it down.
type manifest struct {
	Editor  string    `json:"editor"`
	Created time.Time `json:"created"`
	Names   []string  `json:"names"`
}

// Lost lists the files of editor's that a stopped server never imported,
// latest first.
func (im *Imports) Lost(editor string) []Lost {
	im.mu.Lock()
	defer im.mu.Unlock()
	return slices.Clone(im.lost[editor])
}

// sweepLeftovers runs at start: it tells editors of the files an earlier
// version's stopped server never imported (its manifests), and removes
// them; the jobs' files and resumable uploads of this version are the
// queue's, and stay.
func (im *Imports) sweepLeftovers() error {
	im.readLost()
	found := map[string]map[time.Time][]string{} // editor → minute sent → names
	manifests, _ := filepath.Glob(filepath.Join(im.dir, jobsDir, "*.json"))
	for _, p := range manifests {
		var m manifest
		if b, err := os.ReadFile(p); err == nil && json.Unmarshal(b, &m) == nil && m.Editor != "" && len(m.Names) > 0 {
			if found[m.Editor] == nil {
				found[m.Editor] = map[time.Time][]string{}
			}
			sent := m.Created.UTC().Truncate(time.Minute)
			found[m.Editor][sent] = append(found[m.Editor][sent], m.Names...)
		}
	}
	// An earlier version's kept files: files/SHA-256/name, a file where
	// a job's folder is now.
	old, _ := filepath.Glob(filepath.Join(im.dir, "files", "*", "*"))
	removed := 0
	for _, p := range old {
		if st, err := os.Lstat(p); err == nil && !st.IsDir() && os.Remove(p) == nil {
			os.Remove(filepath.Dir(p))
			removed++
		}
	}
	if err := os.RemoveAll(filepath.Join(im.dir, jobsDir)); err != nil {
		return fmt.Errorf("uploads: removing what a stopped server left: %w", err)
	}
	if removed > 0 || len(manifests) > 0 {
		im.log.Warn("uploads: removed what a stopped server of an earlier version left in the uploads' folder, never imported", "files", removed, "folder", im.dir)
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
	if _, err := im.archive.ForgetJobs(im.ctx, jobKind, now.Add(-Expiry)); err != nil {
		im.log.Warn("uploads: forgetting the jobs done a day ago", "err", err)
	}
	im.sweepUnheld(now)
	return removed
}

// sweepUnheld removes the files no job of the queue holds that were
// written Expiry ago or more: a job's folder (files/SHA-256/job) whose job
// is done or gone, and an upload's request's parts (ID/) cut before its
// job was queued.
func (im *Imports) sweepUnheld(now time.Time) {
	open, err := im.archive.Jobs(im.ctx, jobKind, "", true)
	if err != nil {
		im.log.Warn("uploads: reading the jobs not done, for the sweep", "err", err)
		return
	}
	held := map[string]bool{}
	for _, q := range open {
		held[q.ID] = true
	}
	folders, _ := filepath.Glob(filepath.Join(im.dir, "files", "*", "*"))
	parts, _ := filepath.Glob(filepath.Join(im.dir, "*"))
	for _, p := range append(folders, parts...) {
		id := filepath.Base(p)
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() || !validJobID(id) || held[id] || now.Sub(st.ModTime()) < Expiry {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			im.log.Warn("uploads: removing files no job holds", "err", err)
			continue
		}
		os.Remove(filepath.Dir(p)) // files/SHA-256, once empty
		im.log.Info("uploads: removed files no job holds, written a day ago", "folder", p)
	}
}
