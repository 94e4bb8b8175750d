package importapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// pending adds up the bytes declared and not yet imported: the
// resumable uploads' declared sizes and the files of the jobs not done
// (the queue's, every server's),
// editor's and everyone's.
func (im *Imports) pending(editor string) (mine, all int64) {
	for _, u := range im.resumables() {
		all += u.Size
		if u.Editor == editor {
			mine += u.Size
		}
	}
	// The jobs not done, of every server of the archive.
	open, err := im.archive.Jobs(im.ctx, jobKind, "", true)
	if err != nil {
		im.log.Warn("uploads: reading the jobs not done, for the budget", "err", err)
	}
	for _, q := range open {
		var p payload
		if json.Unmarshal([]byte(q.Payload), &p) != nil {
			continue
		}
		for _, f := range p.Job.Files {
			all += f.Size
			if q.Owner == editor {
				mine += f.Size
			}
		}
	}
	return mine, all
}

// budgetLeft is how many bytes editor may send more, refusing (507)
// an upload that declares more than that.
func (im *Imports) budgetLeft(editor string, declared int64) (int64, error) {
	mine, all := im.pending(editor)
	left := min(im.limits.EditorBytes-mine, im.limits.TotalBytes-all)
	if declared > left || left <= 0 {
		return 0, im.overBudgetBy(editor, declared, mine, all)
	}
	return left, nil
}

// overBudget is the refusal of an upload past a budget, found while it
// was read.
func (im *Imports) overBudget(editor string) error {
	mine, all := im.pending(editor)
	return im.overBudgetBy(editor, 0, mine, all)
}

func (im *Imports) overBudgetBy(editor string, declared, mine, all int64) error {
	this := ""
	if declared > 0 {
		this = ", and this upload is " + web.SizeText(declared)
	}
	if im.limits.EditorBytes-mine < im.limits.TotalBytes-all {
		return photo.Errorf(photo.EDiskFull, "your uploads not yet imported come to %s%s: an editor may have at most %s waiting (the server's upload budget, --upload-budget); import or delete some first",
			web.SizeText(mine), this, web.SizeText(im.limits.EditorBytes))
	}
	return photo.Errorf(photo.EDiskFull, "the uploads not yet imported come to %s%s: the server keeps at most %s waiting (its total upload budget, --upload-budget-total); try again once some are imported",
		web.SizeText(all), this, web.SizeText(im.limits.TotalBytes))
}

// resumable is what the budget and the sweeps read of a resumable
// upload's record (tusd's .info file).
type resumable struct {
	ID       string
	Size     int64
	MetaData map[string]string
	Editor   string `json:"-"`
	info     string // the .info file's path
}

// resumables lists the resumable uploads on disk.
func (im *Imports) resumables() []resumable {
	matches, _ := filepath.Glob(filepath.Join(im.dir, tusDir, "*.info"))
	var out []resumable
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err != nil {
			continue
		}
		var u resumable
		if json.Unmarshal(b, &u) != nil {
			u.ID = strings.TrimSuffix(filepath.Base(m), ".info")
		}
		u.Editor, u.info = u.MetaData["editor"], m
		out = append(out, u)
	}
	return out
}

// picturesKept says why this server takes no pictures now: it keeps no
// originals, or cannot write them (503); nil when it can.
func (im *Imports) picturesKept() error {
	switch s := im.archive.OriginalsStore().(type) {
	case nil:
		return photo.Errorf(photo.EUnavailable, "this server keeps no originals, so it takes no pictures: start it with a store of originals it can write (--originals); caption files it takes")
	case *originals.Dir:
		if err := s.Writable(); err != nil {
			if full := photo.DiskFull(err); photo.ErrorCode(full) == photo.EDiskFull {
				return full
			}
			return photo.Errorf(photo.EUnavailable, "this server cannot write its originals in %s, so it takes no pictures now: %v", s.Where(), err)
		}
	}
	return nil
}

// validSum reports whether sum is a hex SHA-256.
func validSum(sum string) bool {
	b, err := hex.DecodeString(sum)
	return err == nil && len(b) == sha256.Size && strings.ToLower(sum) == sum
}
