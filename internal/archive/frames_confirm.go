package archive

import (
	"github.com/syriamap/syriamap/internal/evidence/pdq"
	"github.com/syriamap/syriamap/internal/store"
)

// pdqConfirm is how far apart, in bits, the PDQ hashes of a pair the frame
// hash finds may be for the pair to be one frame. The frame hash finds
// copies (resized, recompressed, cropped 5 %, watermarked, mirrored) but
// also 0.008 % of the pairs of different pictures, and groups join
// through their members: among 10,000 different generated scenes that
// made a group of 2,163, at a million each photo would have about 50
// such neighbours. Copies' PDQ hashes lie within 74 bits of each other
// (a mirrored crop); different scenes' mostly over 100 (none within 78
// among 3,000; of the pairs of 40,000 the frame hash finds, 16 of 96,380
// closer than 80). At 80 the groups of different scenes are pairs, and every
// copy the frame hash finds is kept (go test -bench 'CopiesFound|GroupsOfDifferentScenes'
// ./internal/evidence/framehash). Wider than pdq.MatchRadius, which is for
// lists matched without a second hash, and misses 95 % of 5 % crops.
const pdqConfirm = 80

// confirmable is f's PDQ hash, or nil when it has none (hashed before PDQ
// was) or one too plain to say (quality ≤ pdq.LowQuality): its pairs are
// the frame hash's alone.
func confirmable(f *store.Frame) *pdq.Hash256 {
	if f == nil || f.PDQ == "" || f.PDQQuality <= pdq.LowQuality {
		return nil
	}
	h, err := pdq.Parse(f.PDQ)
	if err != nil {
		return nil
	}
	return &h
}

// samePicture says whether a pair the frame hash found — b through a's
// hash, or through a's mirrored hash — is one frame by their PDQ hashes:
// within pdqConfirm, or either without one.
func samePicture(a, b *pdq.Hash256, mirrored bool) bool {
	if a == nil || b == nil {
		return true
	}
	h := *a
	if mirrored {
		h = pdq.MirrorOf(h)
	}
	return pdq.Distance(h, *b) <= pdqConfirm
}
