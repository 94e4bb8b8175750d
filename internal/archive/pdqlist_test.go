package archive

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/pdq"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// pdqArchive is importFramesOnArrival's archive with the tent's photo
// withheld and the other market copy's PDQ hash made too plain to match
// on, and a reader of the archive's list as ExportPDQ writes it.
func pdqArchive(t *testing.T) (a *Archive, editor context.Context, withheld, plain *photo.Photo, export func(context.Context, bool) (map[string]int, []pdq.Listed, PDQExport)) {
	t.Helper()
	a, byCaption := importFramesOnArrival(t)
	ctx := context.Background()
	editor = photo.AsEditor(ctx, "rana")
	withheld, plain = byCaption(`"A boy sits near a tent"`), byCaption(`"People shop in a market"`)
	if _, err := a.SetHarm(editor, withheld.ID, photo.HarmWithheld, "rana", "a test"); err != nil {
		t.Fatal(err)
	}
	if err := a.db.AddFrames(ctx, map[string]store.Frame{plain.File.SHA256: {Hash: 1, PDQ: strings.Repeat("0f", 32), PDQQuality: pdq.LowQuality}}); err != nil {
		t.Fatal(err)
	}
	export = func(ctx context.Context, includeWithheld bool) (map[string]int, []pdq.Listed, PDQExport) {
		t.Helper()
		var b bytes.Buffer
		r, err := a.ExportPDQ(ctx, &b, includeWithheld)
		if err != nil {
			t.Fatal(err)
		}
		list, err := pdq.ReadList(&b, "export")
		if err != nil {
			t.Fatalf("the export does not read back: %v", err)
		}
		ids := map[string]int{}
		for _, l := range list {
			ids[l.Label]++
		}
		return ids, list, r
	}
	return a, editor, withheld, plain, export
}

// TestPDQExportWithheld (issue 70, item 3): the public's list leaves a
// withheld photo out, whoever asks for it; an editor's with
// --include-withheld holds it, and only an editor's may; a hash of low
// quality is in no list.
func TestPDQExportWithheld(t *testing.T) {
	a, editor, withheld, plain, export := pdqArchive(t)
	for _, c := range []context.Context{context.Background(), editor} {
		ids, list, r := export(c, false)
		if len(list) != 3 || ids[withheld.ID] != 0 || ids[plain.ID] != 0 || r.Written != 3 || r.LowQuality != 1 || r.Withheld != 0 {
			t.Errorf("the public's list: %v, %+v; want the 3 photos neither withheld nor plain", ids, r)
		}
	}
	ids, list, r := export(editor, true)
	if len(list) != 4 || ids[withheld.ID] != 1 || ids[plain.ID] != 0 || r.Withheld != 1 {
		t.Errorf("with the withheld: %v, %+v; want 4 with the withheld photo", ids, r)
	}
	if _, err := a.ExportPDQ(context.Background(), &bytes.Buffer{}, true); !isCode(err, photo.EForbidden) {
		t.Errorf("the public's list with the withheld: %v, want EForbidden", err)
	}
}

// TestPDQListRoundTrip (issue 70, item 3): the archive's own list, read
// back and matched against the archive, finds every photo it lists at
// distance 0, the withheld one marked; a low-quality hash matches
// nothing; only an editor may match.
func TestPDQListRoundTrip(t *testing.T) {
	a, editor, withheld, plain, export := pdqArchive(t)
	ids, list, _ := export(editor, true)
	m, err := a.MatchPDQ(editor, list)
	if err != nil {
		t.Fatal(err)
	}
	if m.Compared != 4 || m.Listed != 4 || m.LowQuality != 1 || m.Unhashed != 0 {
		t.Errorf("compared %+v", m)
	}
	self := map[string]bool{}
	for _, x := range m.Matches {
		if x.PhotoID == x.Listed.Label {
			self[x.PhotoID] = x.Distance == 0 && x.Withheld == (x.PhotoID == withheld.ID) && x.Quality == x.Listed.Quality
		}
		if x.PhotoID == plain.ID {
			t.Errorf("the plain hash matched %+v", x)
		}
	}
	for id := range ids {
		if !self[id] {
			t.Errorf("photo %s: not found at distance 0 by its own line (%+v)", id, m.Matches)
		}
	}
	if _, err := a.MatchPDQ(context.Background(), list); !isCode(err, photo.EForbidden) {
		t.Errorf("the public's match: %v, want EForbidden", err)
	}
	// A list's hash of low quality is not compared.
	low := append([]pdq.Listed(nil), list...)
	for i := range low {
		low[i].Quality = pdq.LowQuality
	}
	if m, err := a.MatchPDQ(editor, low); err != nil || len(m.Matches) != 0 || m.ListLowQuality != 4 {
		t.Errorf("a list of low quality: %+v, %v", m, err)
	}
}

// TestPDQMatchMirrored: the archive keeps its pictures' hashes as they
// are; a partner's list with a picture's eight variants (pdq-photo-hasher
// --pdqdih) finds its mirrored copy too.
func TestPDQMatchMirrored(t *testing.T) {
	a, byCaption := importFramesOnArrival(t)
	editor := photo.AsEditor(context.Background(), "rana")
	first, reused := byCaption(`"Men walk through rubble"`), byCaption(`"A man walks in a destroyed street"`)
	variants, q := pdq.Dihedral(picture(1))
	found := func(list []pdq.Listed) map[string]bool {
		t.Helper()
		m, err := a.MatchPDQ(editor, list)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, x := range m.Matches {
			out[x.PhotoID] = true
		}
		return out
	}
	asIs := found([]pdq.Listed{{Hash: variants[0], Quality: q, Label: "street"}})
	if !asIs[first.ID] {
		t.Errorf("the picture's own hash did not find it: %v", asIs)
	}
	var all []pdq.Listed
	for _, h := range variants {
		all = append(all, pdq.Listed{Hash: h, Quality: q, Label: "street"})
	}
	if got := found(all); !got[first.ID] || !got[reused.ID] || len(got) != 2 {
		t.Errorf("the eight variants found %v; want the picture and its mirrored copy", got)
	}
}

func isCode(err error, code string) bool {
	var e *photo.Error
	return errors.As(err, &e) && e.Code == code
}
