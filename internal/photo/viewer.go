package photo

import "context"

// Viewer is whom a read is for. Who sees what is decided by it alone: the
// store reads it from the context of every query (as benbjohnson/wtf's
// services read their user), so a read that names no viewer is the
// public's, and no caller can ask for more by building a filter.
type Viewer struct {
	// Editor names the signed-in editor, or the archive's command
	// (syriamap export, import), that reads; "" is the public.
	Editor string
}

// Public is the viewer of every read that names none.
var Public = Viewer{}

// SeesWithheld reports whether v may read photos withheld from the
// public: editors and the archive's own commands may.
func (v Viewer) SeesWithheld() bool { return v.Editor != "" }

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
