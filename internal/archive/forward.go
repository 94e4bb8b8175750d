package archive

import (
	"context"
	"time"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// The storage's reads and writes that the packages above the archive
// use as they are, each forwarded by name: those packages declare the
// interfaces they need (httpapi's storage, session.Store, ogcapi.Storage
// …) and *Archive satisfies them, so that none holds the store itself.
// Who sees what is the context's viewer's (photo.ViewerOf), as in the
// store. A method the archive adds rules to (SetHarm, ImportFile …) is
// the archive's own, not forwarded.

// AddCustody appends records for the archive or its photos in one
// transaction (a publication, a fixity check, an export).
func (a *Archive) AddCustody(ctx context.Context, actor, action string, entries map[string]any) error {
	return a.db.AddCustody(ctx, actor, action, entries)
}

// AddDevice records a browser that has signed in as user, by the hash of
// its device cookie's secret (see auth.Brake).
func (a *Archive) AddDevice(ctx context.Context, hash, user string) error {
	return a.db.AddDevice(ctx, hash, user)
}

// AddSession stores a session under its secret's hash, and forgets the
// sessions that have expired.
func (a *Archive) AddSession(ctx context.Context, hash string, se photo.Session) error {
	return a.db.AddSession(ctx, hash, se)
}

// AddSignInCode keeps a one-time sign-in code's hash for user until
// expires (see auth.Brake: a code stands for a known browser once).
func (a *Archive) AddSignInCode(ctx context.Context, hash, user string, expires time.Time) error {
	return a.db.AddSignInCode(ctx, hash, user, expires)
}

// Apply makes the change to each photo, in one transaction, and records an
// event for each: who, when, what it was and what it became, and why. A
// new place or a confirmation survives re-geocoding and re-imports, as
// does a fixed date or credit. It returns how many photos changed; an
// unknown photo id is an ENotFound error and changes nothing.
func (a *Archive) Apply(ctx context.Context, ids []string, c photo.Change) (int, error) {
	return a.db.Apply(ctx, ids, c)
}

// ApplyBatch is Apply returning, too, the batch its events share, which
// Undo takes.
func (a *Archive) ApplyBatch(ctx context.Context, ids []string, c photo.Change) (n int, batch int64, err error) {
	return a.db.ApplyBatch(ctx, ids, c)
}

// Clusters groups the filter's placed photos into square cells of cell
// degrees, for maps of archives too large to send whole. The grouping
// reads only the window index (dates and points, with the rowid), so a
// month over a million photos costs little; the photos of one-photo cells
// are then read by rowid.
func (a *Archive) Clusters(ctx context.Context, flt photo.Filter, cell float64) ([]photo.Cluster, error) {
	return a.db.Clusters(ctx, flt, cell)
}

// CustodyOf lists a photo's custody records, oldest first. While a
// placement of the photo waits for its second look, the records its
// first editor made from their answer on are theirs alone
// (photo.Viewer.SeesAnswer), as History's events are.
func (a *Archive) CustodyOf(ctx context.Context, photoID string) ([]photo.Custody, error) {
	return a.db.CustodyOf(ctx, photoID)
}

// DayHistogram counts the day-dated photos the filter selects by day
// ("2016-03-05"), in time order: the timeline's detail of a short window.
func (a *Archive) DayHistogram(ctx context.Context, f photo.Filter) ([]photo.MonthCount, error) {
	return a.db.DayHistogram(ctx, f)
}

// DeleteSession ends a session.
func (a *Archive) DeleteSession(ctx context.Context, hash string) error {
	return a.db.DeleteSession(ctx, hash)
}

// DeviceUser returns the editor a device cookie's hash was given to, or
// an ENotFound error.
func (a *Archive) DeviceUser(ctx context.Context, hash string) (string, error) {
	return a.db.DeviceUser(ctx, hash)
}

// EachFeature calls fn for each photo the filter selects, in the order
// they were imported (or newest first), as the rows arrive: nothing is held
// in memory but the row at hand. fn must not keep f, which is reused; an
// error from fn stops the walk. The query holds a reader for as long as fn
// takes: a server answering clients that may read slowly uses SelectIDs
// and EachFeatureOf instead.
func (a *Archive) EachFeature(ctx context.Context, flt photo.Filter, fn func(f *photo.Feature) error) error {
	return a.db.EachFeature(ctx, flt, fn)
}

// EachFeatureBulk is EachFeatureIn for reading the whole archive, as
// ctx's viewer sees it, range by range (the server's memory index): on connections of their own
// that do not map the file, so that reading every page once leaves it out
// of the process's memory.
func (a *Archive) EachFeatureBulk(ctx context.Context, lo, hi int64, fn func(f *photo.Feature) error) error {
	return a.db.EachFeatureBulk(ctx, lo, hi, fn)
}

// EachFeatureIn is EachFeature for the photos whose rowid is in (lo, hi],
// in rowid order, without the filter's order, limit and offset. Callers
// read an archive at large in such ranges to use more than one core
// (pure-Go SQLite spends about 2 µs on every row) and to hold a reader
// only while a range is read.
func (a *Archive) EachFeatureIn(ctx context.Context, flt photo.Filter, lo, hi int64, fn func(f *photo.Feature) error) error {
	return a.db.EachFeatureIn(ctx, flt, lo, hi, fn)
}

// EachFeatureOf calls fn for the features of the photos with the given
// rowids (from SelectIDs, a few thousand at most) in the filter's order.
// The filter is tested again, but for its full-text search (a caption
// never changes): a photo changed since SelectIDs so that the filter no
// longer selects it is left out.
func (a *Archive) EachFeatureOf(ctx context.Context, flt photo.Filter, ids []int64, fn func(f *photo.Feature) error) error {
	return a.db.EachFeatureOf(ctx, flt, ids, fn)
}

// Event reads one event, retired or not (a link to it still says what it
// was); retired names the version that dropped it.
func (a *Archive) Event(ctx context.Context, dataset, id string) (e conflict.Event, retired string, err error) {
	return a.db.Event(ctx, dataset, id)
}

// EventLinks lists the decisions on photo id, oldest first, as ctx's
// viewer may see them: an editor every decision, a reader the confirmed
// links to UCDP GED events alone.
func (a *Archive) EventLinks(ctx context.Context, id string) ([]photo.EventLink, error) {
	return a.db.EventLinks(ctx, id)
}

// Extent returns the extent of the whole archive, as ctx's viewer sees it. Each bound reads one
// end of an index (the window index for dates; the points are read
// whole, a fraction of a second over a million photos).
func (a *Archive) Extent(ctx context.Context) (photo.Extent, error) {
	return a.db.Extent(ctx)
}

// Facets counts the photos the filter selects by agency, photographer,
// governorate and place, the largest first, at most limit values each.
//
// Each facet is counted under the filter without its own selection (see
// photo.Filter.Without), so that its values say what choosing one more
// would add. facets names the ones to count; none counts them all.
func (a *Archive) Facets(ctx context.Context, f photo.Filter, limit int, facets ...photo.Facet) (photo.Facets, error) {
	return a.db.Facets(ctx, f, limit, facets...)
}

// FileOf returns the path of the image file whose content has the hash
// sha (hex), with its state when imported, for serving it; ENotFound when
// no imported file has it.
func (a *Archive) FileOf(ctx context.Context, sha string) (string, photo.FileState, error) {
	return a.db.FileOf(ctx, sha)
}

// HasUsers reports whether the archive has editors: without any, the
// server takes no writes.
func (a *Archive) HasUsers(ctx context.Context) (bool, error) {
	return a.db.HasUsers(ctx)
}

// Head is the chain's head now: its last record (zero for an empty
// chain).
func (a *Archive) Head(ctx context.Context) (photo.Checkpoint, error) {
	return a.db.Head(ctx)
}

// Health answers whether the archive can be read, cheaply and without
// waiting for the reader pool: it reads the change counter and the last
// page of the photos table on a connection kept for it, within ctx.
func (a *Archive) Health(ctx context.Context) error {
	return a.db.Health(ctx)
}

// Histogram counts the photos the filter selects by month of their date
// ("2016-03"); photos dated only to a year count in a bin of their own
// ("2016"). Undated photos are not counted. Bins come in time order.
func (a *Archive) Histogram(ctx context.Context, f photo.Filter) ([]photo.MonthCount, error) {
	return a.db.Histogram(ctx, f)
}

// History returns a photo's events, oldest first.
// The events of a placement that waits for its second look (and those
// after it) are its first editor's alone, as the placement is (see
// blindEvents).
func (a *Archive) History(ctx context.Context, id string) ([]photo.Event, error) {
	return a.db.History(ctx, id)
}

// ImportedUnder lists the files under the folder dir (an absolute path)
// that photos were imported from, with how many photos each gave: an
// upload's folder, named by its bytes' SHA-256, says whether those bytes
// were imported before, under whatever name.
func (a *Archive) ImportedUnder(ctx context.Context, dir string) (map[string]int, error) {
	return a.db.ImportedUnder(ctx, dir)
}

// Links calls fn for each record of the chain from from to to (by seq),
// in order.
func (a *Archive) Links(ctx context.Context, from, to int64, fn func(photo.CustodyLink) error) error {
	return a.db.Links(ctx, from, to, fn)
}

// LinksToEvent lists the confirmed links to event dataset/id, oldest
// first: the photos that document it. A reader is told of none to an
// ACLED event.
func (a *Archive) LinksToEvent(ctx context.Context, dataset, id string) ([]photo.EventLink, error) {
	return a.db.LinksToEvent(ctx, dataset, id)
}

// MarkedPhotos lists the photos marked graphic or withheld, the latest
// imported first, up to limit: id, caption and mark (Harm) only. It is an
// editor's list: for the public it is an EUnauthorized error.
func (a *Archive) MarkedPhotos(ctx context.Context, limit int) ([]photo.Photo, error) {
	return a.db.MarkedPhotos(ctx, limit)
}

// MaxRowid returns the highest rowid of the archive's photos, 0 when it
// is empty.
func (a *Archive) MaxRowid(ctx context.Context) (int64, error) {
	return a.db.MaxRowid(ctx)
}

// MediaRoots returns the folders images were imported from.
func (a *Archive) MediaRoots(ctx context.Context) ([]string, error) {
	return a.db.MediaRoots(ctx)
}

// PasswordHash returns an editor's name as stored and their password
// hash; names are compared without case, and an unknown one is ENotFound.
func (a *Archive) PasswordHash(ctx context.Context, name string) (user, hash string, err error) {
	return a.db.PasswordHash(ctx, name)
}

// Path returns the file the archive is in.
func (a *Archive) Path() string {
	return a.db.Path()
}

// Photo returns one photo with its sources and correction. A withheld
// photo is found only by an editor's read (photo.ViewerOf): to anyone
// else it is not found, as if it were not in the archive.
func (a *Archive) Photo(ctx context.Context, id string) (*photo.Photo, error) {
	return a.db.Photo(ctx, id)
}

// PhotosOfFiles lists the photos the files (their paths as imported)
// gave, in import order, at most limit: id and caption.
func (a *Archive) PhotosOfFiles(ctx context.Context, files []string, limit int) ([]photo.Photo, error) {
	return a.db.PhotosOfFiles(ctx, files, limit)
}

// PlaceVersion is the added place id's version.
func (a *Archive) PlaceVersion(ctx context.Context, id string) (int64, error) {
	return a.db.PlaceVersion(ctx, id)
}

// PlacesWithPhotos returns the places the filter's photos are shown at,
// with their counts, the most photographed first. Photos placed at a bare
// point (a correction or a file's point with no place) are left out.
func (a *Archive) PlacesWithPhotos(ctx context.Context, flt photo.Filter) ([]photo.PlaceCount, error) {
	return a.db.PlacesWithPhotos(ctx, flt)
}

// ReadOnly reports whether the archive was opened with OpenReadOnly.
func (a *Archive) ReadOnly() bool {
	return a.db.ReadOnly()
}

// RecentEvents returns the latest events, newest first, as History
// shows them.
func (a *Archive) RecentEvents(ctx context.Context, limit int) ([]photo.Event, error) {
	return a.db.RecentEvents(ctx, limit)
}

// RequestSecondLook asks a second look at photo id ("needs a second
// look"), a custody record by by. A photo a person has placed gets a round
// at once, with that placement as its first answer; one nobody has placed
// gets it with its first placement. A photo whose round is open, or that
// was asked already, is left as it is; reports whether anything changed.
func (a *Archive) RequestSecondLook(ctx context.Context, id, by string) (bool, error) {
	return a.db.RequestSecondLook(ctx, id, by)
}

// ReviewGroups returns the groups of unchecked photos the filter selects,
// in the order that fixes the most with the least work: the worst first
// (image metadata that disagrees, unplaced, fallbacks, low confidence),
// then the least confident (a review of an unsure answer teaches the
// refitted confidence most), then the largest. A group is the photos whose captions name a place in
// words that fold to one key (MentionKey): case, article and spelling
// aside. It is named as its first photo spells it, and shown at its
// first photo's place: the one its link opens.
//
// At a million photos it stays under a second whatever the filter: one
// pass over the queue's index (photos_review, which holds every column a
// filter reads) counts the groups, then one short read of the index a
// group shown finds its first photo.
func (a *Archive) ReviewGroups(ctx context.Context, f photo.Filter, limit int) ([]photo.ReviewGroup, error) {
	return a.db.ReviewGroups(ctx, f, limit)
}

// ReviewGroupsOf returns the groups of unchecked photos the filter
// selects whose mention keys are among keys (every group, with keys nil),
// in no order: each as ReviewGroups counts it, with its Key and Tenths to
// order them by (photo.ReviewGroup.Before), but without its PlaceName
// (ReviewPlaceNames reads those of the groups shown: a read each). A key
// no photo of the filter has any more comes back as no group.
func (a *Archive) ReviewGroupsOf(ctx context.Context, f photo.Filter, keys []string) ([]photo.ReviewGroup, error) {
	return a.db.ReviewGroupsOf(ctx, f, keys)
}

// ReviewIDs returns the ids of the unchecked photos of a group (its
// mention, in any of its spellings), the ones that most need a person
// first.
func (a *Archive) ReviewIDs(ctx context.Context, f photo.Filter, mention string) ([]string, error) {
	return a.db.ReviewIDs(ctx, f, mention)
}

// ReviewMark returns the number of the last change ReviewTouched counts:
// read before the groups are counted in full, it is the since of the
// next ReviewTouched.
func (a *Archive) ReviewMark(ctx context.Context) (int64, error) {
	return a.db.ReviewMark(ctx)
}

// ReviewPlaceNames fills in the PlaceName of each group, from its first
// photo (Example): the queue's index does not hold it.
func (a *Archive) ReviewPlaceNames(ctx context.Context, groups []photo.ReviewGroup) error {
	return a.db.ReviewPlaceNames(ctx, groups)
}

// ReviewSplit returns how the unchecked photos of a group (its mention,
// in any of its spellings) are placed now, one part a place, the largest first, so that
// an editor sees before applying a decision to "all" that the same words
// were read as different places.
func (a *Archive) ReviewSplit(ctx context.Context, f photo.Filter, mention string) ([]photo.GroupPart, error) {
	return a.db.ReviewSplit(ctx, f, mention)
}

// ReviewTouched returns the mention keys of the review groups whose
// photos changed after the change numbered since (0: ever, as far as the
// archive has kept count), and the number of the last change it read
// (since when none): what a copy of the groups counted after change since
// must count again to be as the archive is now. The numbers rise in the
// order the changes commit, so that a reader who asks again with the
// number returned misses none.
func (a *Archive) ReviewTouched(ctx context.Context, since int64) (keys []string, last int64, err error) {
	return a.db.ReviewTouched(ctx, since)
}

// SaveStory stores st (validated by the caller) under its slug, as
// author, in one transaction with its event: a new story is created;
// one whose slug exists is replaced whole when prevSlug names it (an
// editor's save, which may rename it) and refused otherwise, so that a
// new story never overwrites another's. prevSlug is "" for a new story.
// It returns the story as stored.
func (a *Archive) SaveStory(ctx context.Context, st story.Story, prevSlug, author, action string) (story.Story, error) {
	return a.db.SaveStory(ctx, st, prevSlug, author, action)
}

// SelectIDs returns the rowids of the photos the filter selects, in its
// order (import order, or newest first) and after its offset and limit.
// It reads only indexes where the filter allows, and holds a reader only
// while it runs: the features are then read a few thousand at a time by
// EachFeatureOf, so that a client reading slowly holds no connection.
func (a *Archive) SelectIDs(ctx context.Context, flt photo.Filter) ([]int64, error) {
	return a.db.SelectIDs(ctx, flt)
}

// Session returns the session a secret's hash names, if it has not
// expired.
func (a *Archive) Session(ctx context.Context, hash string) (photo.Session, error) {
	return a.db.Session(ctx, hash)
}

// SetTwoPerson turns two-person confirmation on or off, a custody record
// of the archive. Placements made before it was turned on stay as they
// are: a second look at them is asked photo by photo.
func (a *Archive) SetTwoPerson(ctx context.Context, on bool, by string) error {
	return a.db.SetTwoPerson(ctx, on, by)
}

// SignInCodeUser returns the editor an unexpired one-time code's hash was
// given to, or an ENotFound error.
func (a *Archive) SignInCodeUser(ctx context.Context, hash string) (string, error) {
	return a.db.SignInCodeUser(ctx, hash)
}

// Stories lists the stories, most recently updated first, without their
// steps; drafts only when drafts is true.
func (a *Archive) Stories(ctx context.Context, drafts bool) ([]story.Story, error) {
	return a.db.Stories(ctx, drafts)
}

// Story reads the story with that slug, steps and all.
func (a *Archive) Story(ctx context.Context, slug string) (story.Story, error) {
	return a.db.Story(ctx, slug)
}

// StoryHistory returns a story's saves, oldest first.
func (a *Archive) StoryHistory(ctx context.Context, slug string) ([]story.Event, error) {
	return a.db.StoryHistory(ctx, slug)
}

// TokenUser returns the editor a token's hash belongs to.
func (a *Archive) TokenUser(ctx context.Context, hash string) (string, error) {
	return a.db.TokenUser(ctx, hash)
}

// TwoPerson reports whether the archive asks a second look of every
// placement.
func (a *Archive) TwoPerson(ctx context.Context) (bool, error) {
	return a.db.TwoPerson(ctx)
}

// Undo reverses the placements and confirmations of one batch (see
// ApplyBatch): each photo goes back to the geocoder's place, unchecked,
// and an "undo" event, kept in the history, records it. Only a batch whose
// photos no person had checked before and nobody has changed since can be
// undone whole; otherwise Undo is an EConflict error naming the photo and
// changes nothing. It returns how many photos went back.
func (a *Archive) Undo(ctx context.Context, batch int64, author, note string) (int, error) {
	return a.db.Undo(ctx, batch, author, note)
}

// UseSignInCode spends a one-time code (and drops the expired ones).
func (a *Archive) UseSignInCode(ctx context.Context, hash string) error {
	return a.db.UseSignInCode(ctx, hash)
}

// Version returns the archive's change counter of its photos: it is
// higher after every import, correction, re-geocoding or mark that
// changed a photo.
func (a *Archive) Version(ctx context.Context) (int64, error) {
	return a.db.Version(ctx)
}

// Versions returns the change counter of the photos (Version) and that
// of everything the archive answers: the photos, stories, added places
// and custody records. The second is higher after any change the first
// is, and after the others too: what a whole answer is named by.
func (a *Archive) Versions(ctx context.Context) (photos, all int64, err error) {
	return a.db.Versions(ctx)
}

// VersionsFor is Versions as the viewer may know it: for an editor the
// count of all changes takes in the changes to withheld photos too (their
// pages show them); for a reader it does not, so that nothing a reader is
// answered, its ETag included, moves when only withheld photos change.
func (a *Archive) VersionsFor(ctx context.Context, editor bool) (photos, all int64, err error) {
	return a.db.VersionsFor(ctx, editor)
}

// ViewersVersion is Version as ctx's viewer knows it (photo.ViewerOf):
// for an editor it moves with the changes to withheld photos too. What is
// kept for a viewer is kept at it.
func (a *Archive) ViewersVersion(ctx context.Context) (int64, error) {
	return a.db.ViewersVersion(ctx)
}

// WithheldFile reports whether the image file with hash sha, or the
// media file at path (a photo's image path), is only withheld photos':
// the public is not served it. A file no photo names is not withheld
// (what else serves it decides).
func (a *Archive) WithheldFile(ctx context.Context, sha, path string) (bool, error) {
	return a.db.WithheldFile(ctx, sha, path)
}
