package lexicon

import (
	_ "embed"
	"fmt"
	"strings"
	"unicode"
)

// agenciesTSV is the table of the sources captions credit under names in
// both scripts; its header says what each column holds.
//
//go:embed agencies.tsv
var agenciesTSV string

// Agency is a source that captions credit under several names, in both
// scripts (الدفاع المدني, Syrian Civil Defence, the White Helmets): one
// agency of the archive, filed under its ID and named in each language.
type Agency struct {
	// ID is what a photo's agency holds, the agency facet's value and the
	// downloads' agency column: an English name, as the wire agencies'.
	ID string
	// English and Arabic are its names on the pages of each language.
	English, Arabic string
	// Spellings are the other ways credits write it, as the table has
	// them: Latin ones in lower case, Arabic ones with the mark that says
	// where the Arabic reader takes them for a credit (see SpellingMark).
	Spellings []string
	// Source is the page that names it.
	Source string
}

// Name returns the agency's name in a page's language: the Arabic one for
// "ar", else the English one.
func (a Agency) Name(lang string) string {
	if lang == "ar" && a.Arabic != "" {
		return a.Arabic
	}
	return a.English
}

// Marks of an Arabic spelling: where the Arabic caption reader takes its
// words for a credit.
const (
	MarkAnywhere  = 0   // wherever they stand
	MarkEnclosed  = '~' // in brackets or quotes, or at the caption's start or end
	MarkBracketed = '(' // right after an opening bracket or quote only
	MarkWhole     = '=' // only as a whole bracketed credit at the caption's end
)

// SpellingMark splits a spelling of the table into its mark (one of the
// Mark constants) and its words.
func SpellingMark(s string) (mark byte, words string) {
	if s != "" && (s[0] == MarkEnclosed || s[0] == MarkBracketed || s[0] == MarkWhole) {
		return s[0], s[1:]
	}
	return MarkAnywhere, s
}

// agencyTable is the table read, and its agencies by every name's key.
type agencyTable struct {
	list  []Agency
	byKey map[string]int
}

var agencies = mustReadAgencies(agenciesTSV)

// mustReadAgencies reads the table; a malformed row is a build mistake,
// caught by the package's tests, so it panics.
func mustReadAgencies(tsv string) agencyTable {
	t, err := readAgencies(tsv)
	if err != nil {
		panic(err)
	}
	return t
}

// readAgencies reads the table: one agency a line, five columns separated
// by tabs; lines starting with # are comments. Two agencies may not share
// a name.
func readAgencies(tsv string) (agencyTable, error) {
	t := agencyTable{byKey: map[string]int{}}
	for n, line := range strings.Split(tsv, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 || f[0] == "" || f[1] == "" || f[2] == "" || f[4] == "" {
			return t, fmt.Errorf("lexicon: agencies.tsv:%d: want id, english, arabic, spellings and source, tab-separated", n+1)
		}
		a := Agency{ID: f[0], English: f[1], Arabic: f[2], Source: f[4]}
		if f[3] != "" {
			a.Spellings = strings.Split(f[3], "|")
		}
		names := []string{a.ID, a.English, a.Arabic}
		for _, s := range a.Spellings {
			_, w := SpellingMark(s)
			names = append(names, w)
		}
		for _, name := range names {
			k := agencyKey(name)
			if i, ok := t.byKey[k]; ok && i != len(t.list) {
				return t, fmt.Errorf("lexicon: agencies.tsv:%d: %q is %s's name already", n+1, name, t.list[i].ID)
			}
			t.byKey[k] = len(t.list)
		}
		t.list = append(t.list, a)
	}
	return t, nil
}

// agencyKey is a name as the table's names are compared: case-blind,
// folded (FoldArabic), its words alone ("Syrian Civil Defence (White
// Helmets)" and "syrian civil defence white helmets" are one key).
func agencyKey(s string) string {
	return strings.Join(strings.FieldsFunc(FoldArabic(strings.ToLower(s)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// AgencyKey is a name as AgencyOf compares it (agencyKey).
func AgencyKey(name string) string { return agencyKey(name) }

// AgencyKeys returns every key (AgencyKey) that names an agency, with its
// ID: AgencyOf's table as data, for a published site's script.
func AgencyKeys() map[string]string {
	out := make(map[string]string, len(agencies.byKey))
	for k, i := range agencies.byKey {
		out[k] = agencies.list[i].ID
	}
	return out
}

// Agencies lists the sources known under names in both scripts, in the
// table's order. The slice is shared: do not change it.
func Agencies() []Agency { return agencies.list }

// AgencyOf returns the agency a credit names by its ID, either of its
// names or a spelling of the table, compared case-blind, folded and
// without the punctuation between words, and whether it names one.
func AgencyOf(name string) (Agency, bool) {
	i, ok := agencies.byKey[agencyKey(name)]
	if !ok {
		return Agency{}, false
	}
	return agencies.list[i], true
}

// AgencyID returns the archive's ID of the agency name names ("الدفاع
// المدني" → "Syrian Civil Defence"), or name without the spaces around
// it when it names none of the table: a source the table does not know
// stays as the credit writes it.
func AgencyID(name string) string {
	if a, ok := AgencyOf(name); ok {
		return a.ID
	}
	return strings.TrimSpace(name)
}

// AgencyName returns the name, in a page's language ("ar" or another),
// of the agency an archive's agency value names, or the value itself
// when the table does not know it.
func AgencyName(value, lang string) string {
	if a, ok := AgencyOf(value); ok {
		return a.Name(lang)
	}
	return value
}
