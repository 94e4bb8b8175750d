package photo

import (
	"context"
	"strings"
)

// Viewer is whom a read is for. Who sees what is decided by it alone: the
// store reads it from the context of every query (as benbjohnson/wtf's
// services read their user), so a read that names no viewer is the
// public's, and no caller can ask for more by building a filter.
type Viewer struct {
	// Editor names the signed-in editor, or the archive's command
	// (syriamap export, import), that reads; "" is the public.
	Editor string
	// Archive marks the archive's own reads (a command, the checks of a
	// decision): they see every placement as it stands, the ones waiting
	// for a second look too.
	Archive bool
}

// Public is the viewer of every read that names none.
var Public = Viewer{}

// SeesWithheld reports whether v may read photos withheld from the
// public: editors and the archive's own commands may.
func (v Viewer) SeesWithheld() bool { return v.Editor != "" }

// SeesAnswer reports whether v may see a placement that waits for its
// second look (Photo.AwaitsLook) and that editor firstBy made: its first
// editor may, and the archive's own reads; nobody else — readers, the
// second editor, any other editor — until the look is decided, so that
// the second answer is given blind however the second editor reads the
// archive. Names compare without case, as editors' do.
func (v Viewer) SeesAnswer(firstBy string) bool {
	return v.Archive || SameEditor(v.Editor, firstBy)
}

// SameEditor reports whether two editors' names name one editor: names
// compare without case and surrounding space, as sign-in reads them; ""
// is nobody, and no editor.
func SameEditor(a, b string) bool {
	k := editorKey(a)
	return k != "" && k == editorKey(b)
}

// CountEditors is how many editors the names name (SameEditor), nobody
// ("") aside: the editors who stand behind something, each once.
func CountEditors(names []string) int {
	seen := map[string]bool{}
	for _, n := range names {
		if k := editorKey(n); k != "" {
			seen[k] = true
		}
	}
	return len(seen)
}

// editorKey is the one spelling of an editor's name that SameEditor
// compares.
func editorKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// Shown returns p as v may see it: p itself, or, when p's placement
// waits for a second look that v may not see (SeesAnswer), p without it
// (Photo.WithoutPlacement).
func (v Viewer) Shown(p *Photo) *Photo {
	if p.AwaitsLook() && !v.SeesAnswer(p.ReviewedBy) {
		p.WithoutPlacement()
	}
	return p
}

// ShownFeature is Shown for a feature of a photo whose second look
// stands at secondLook (Photo.SecondLook).
func (v Viewer) ShownFeature(f *Feature, secondLook string) {
	if awaits(secondLook) && !v.SeesAnswer(f.ReviewedBy) {
		f.WithoutPlacement()
	}
}

type viewerKey struct{}

// WithViewer returns ctx reading as v.
func WithViewer(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// AsEditor returns ctx reading as the editor (or command) named editor.
func AsEditor(ctx context.Context, editor string) context.Context {
	return WithViewer(ctx, Viewer{Editor: editor})
}

// ViewerOf returns the viewer ctx reads as: Public unless WithViewer
// said otherwise.
func ViewerOf(ctx context.Context) Viewer {
	v, _ := ctx.Value(viewerKey{}).(Viewer)
	return v
}
