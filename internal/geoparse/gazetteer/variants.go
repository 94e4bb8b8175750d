package gazetteer

import (
	"slices"
	"unicode/utf8"
)

// minVariantLetters is the shortest Arabic name NearSpellings reads with
// one letter changed: below it, one edit turns a name into many others.
const minVariantLetters = 5

// NearSpellings returns the settlements, quarters and camps of the
// governorate with P-code gov one of whose Arabic names is name spelled
// with one letter more, fewer, changed or two swapped ("معرة مصرين" for
// "معر تمصرين", "الطبقه" for "الطبقة" are folded alike already): the
// spellings captions give towns that the gazetteer's lists lack. name
// must be in Arabic script and of five letters or more once folded; the
// governorate the caption names is what makes one edit safe, so there is
// no search without it.
func (g *Gazetteer) NearSpellings(name, gov string) []*Place {
	if gov == "" {
		return nil
	}
	q := []rune(Fold(name).Fine)
	if len(q) < minVariantLetters || !isArabic(q[0]) {
		return nil
	}
	var out []*Place
	for i := range g.places {
		p := &g.places[i]
		if p.Governorate.PCode != gov || !(p.Kind.Populated() || p.Kind == Neighbourhood || p.Kind == Camp) {
			continue
		}
		for _, k := range g.keys[i] {
			if r, _ := utf8.DecodeRuneInString(k.Fine); isArabic(r) && oneEdit(q, []rune(k.Fine)) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// oneEdit reports whether a and b differ by exactly one letter added,
// dropped or changed, or two neighbours swapped.
func oneEdit(a, b []rune) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		diff := -1
		for i := range a {
			if a[i] == b[i] {
				continue
			}
			if diff >= 0 {
				// A second difference: only a swap of the two neighbours.
				return i == diff+1 && a[diff] == b[i] && a[i] == b[diff] && slices.Equal(a[i+1:], b[i+1:])
			}
			diff = i
		}
		return diff >= 0
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return slices.Equal(a[i:], b[i+1:])
	}
	return false
}
