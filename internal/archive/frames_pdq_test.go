package archive

import (
	"context"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/pdq"
	"github.com/syriamap/syriamap/internal/photo"
)

// storedPDQ is each photo's stored PDQ hash and quality, by the start of
// its caption's photo id; it fails the test on a frame stored without one.
func storedPDQ(t *testing.T, a *Archive) map[string]pdq.Hash256 {
	t.Helper()
	frames, err := a.db.PhotoFrames(photo.WithViewer(context.Background(), photo.Public))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]pdq.Hash256{}
	for _, f := range frames {
		h, err := pdq.Parse(f.PDQ)
		if err != nil {
			t.Errorf("%s: PDQ %q: %v", f.PhotoID, f.PDQ, err)
			continue
		}
		if f.PDQQuality < 0 || f.PDQQuality > 100 {
			t.Errorf("%s: PDQ quality %d", f.PhotoID, f.PDQQuality)
		}
		out[f.PhotoID] = h
	}
	return out
}

// TestFramesStorePDQ (issue 70, item 2): `syriamap frames` stores each
// image's PDQ hash and quality beside its frame hash; the mirrored copy's
// PDQ is, within PDQ's matching radius, the first's mirrored hash
// (Dihedral's left-to-right one), a different picture's is not near.
func TestFramesStorePDQ(t *testing.T) {
	a, byCaption := importFrames(t)
	if _, err := a.Frames(context.Background(), "test", nil); err != nil {
		t.Fatal(err)
	}
	got := storedPDQ(t, a)
	if len(got) != 5 {
		t.Fatalf("%d photos with a PDQ hash, want 5", len(got))
	}
	first, reused := got[byCaption(`"Men walk through rubble"`).ID], got[byCaption(`"A man walks in a destroyed street"`).ID]
	market, again := got[byCaption(`"People shop in a market"`).ID], got[byCaption(`"Syrians shop at a market"`).ID]
	other := got[byCaption(`"A boy sits near a tent"`).ID]
	street, _ := pdq.Dihedral(picture(1))
	if d := pdq.Distance(first, street[0]); d > pdq.MatchRadius {
		t.Errorf("the first's PDQ is %d bits from its picture's", d)
	}
	if d := pdq.Distance(reused, street[5]); d > pdq.MatchRadius {
		t.Errorf("the mirrored copy's PDQ is %d bits from its picture's mirrored hash", d)
	}
	if d := pdq.Distance(market, again); d > pdq.MatchRadius {
		t.Errorf("the market's copies are %d bits apart", d)
	}
	if d := pdq.Distance(first, other); d <= pdq.MatchRadius {
		t.Errorf("two different pictures are %d bits apart", d)
	}
}

// TestImportStoresPDQ: an import that hashes frames on arrival stores
// the PDQ hash too.
func TestImportStoresPDQ(t *testing.T) {
	a, _ := importFramesOnArrival(t)
	if got := storedPDQ(t, a); len(got) != 5 {
		t.Errorf("%d photos with a PDQ hash, want 5", len(got))
	}
}
