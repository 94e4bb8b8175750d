package archive

import (
	"context"

	"github.com/syriamap/syriamap/internal/photo"
)

// What the commands read and change of the archive besides imports and
// corrections: counts and lists of photos, the editors and their
// tokens, the archive's health and copies. The commands go through these
// and never to the storage itself.

// Count is how many photos the archive holds.
func (a *Archive) Count(ctx context.Context) (int, error) { return a.db.Count(ctx) }

// OwnPhoto is one photo, whole, as the archive's own work reads it
// (ownRead): withheld or not, whoever ctx names. Photo reads it as ctx's
// viewer may see it.
func (a *Archive) OwnPhoto(ctx context.Context, id string) (*photo.Photo, error) {
	return a.db.Photo(ownRead(ctx), id)
}

// Photos are the photos the filter selects, newest first.
func (a *Archive) Photos(ctx context.Context, f photo.Filter) ([]photo.Photo, error) {
	return a.db.Photos(ctx, f)
}

// CountPhotos is how many photos the filter selects.
func (a *Archive) CountPhotos(ctx context.Context, f photo.Filter) (int, error) {
	return a.db.CountPhotos(ctx, f)
}

// AddEditor adds an editor with a password hash.
func (a *Archive) AddEditor(ctx context.Context, name, hash string) error {
	return a.db.AddUser(ctx, name, hash)
}

// SetPassword changes an editor's password hash and ends all their
// sessions but keepSession's hash ("" ends them all; their bearer
// tokens stay: scripts hold those).
func (a *Archive) SetPassword(ctx context.Context, name, hash, keepSession string) error {
	return a.db.SetPassword(ctx, name, hash, keepSession)
}

// RemoveEditor removes an editor, their sessions and tokens.
func (a *Archive) RemoveEditor(ctx context.Context, name string) error {
	return a.db.RemoveUser(ctx, name)
}

// Editors lists the editors.
func (a *Archive) Editors(ctx context.Context) ([]photo.User, error) { return a.db.Users(ctx) }

// AddToken gives an editor a bearer token, kept by its hash.
func (a *Archive) AddToken(ctx context.Context, editor, label, hash string) error {
	return a.db.AddToken(ctx, editor, label, hash)
}

// QuickCheck checks the archive file for damage.
func (a *Archive) QuickCheck(ctx context.Context) error { return a.db.QuickCheck(ctx) }

// Backup copies the archive, consistently, while it is in use.
func (a *Archive) Backup(ctx context.Context, path string) error { return a.db.Backup(ctx, path) }

// ownRead returns ctx reading as the archive's own work does (a command,
// a decision's checks): every photo, the withheld ones included, and
// every placement as it stands, the ones waiting for a second look too,
// since what is decided of a photo does not depend on what its reader may
// see. The editor ctx reads as is kept.
func ownRead(ctx context.Context) context.Context {
	v := photo.ViewerOf(ctx)
	if v.Editor == "" {
		v.Editor = "syriamap"
	}
	v.Archive = true
	return photo.WithViewer(ctx, v)
}
