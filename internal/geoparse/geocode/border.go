package geocode

import (
	"slices"
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
)

// borderGovernorates are the P-codes of the Syrian governorates along
// each neighbour's border.
var borderGovernorates = map[string][]string{
	"TR": {"SY02", "SY06", "SY07", "SY08", "SY11"},
	"LB": {"SY03", "SY04", "SY10"},
	"JO": {"SY03", "SY04", "SY12", "SY13"},
	"IQ": {"SY04", "SY08", "SY09"},
}

// borderPhrases say which border a caption puts the photo near.
var borderPhrases = map[string][]string{
	"TR": {"turkish border", "border with turkey", "turkish-syrian border", "syrian-turkish border", "syria-turkey border", "turkey-syria border"},
	"LB": {"lebanese border", "border with lebanon", "lebanese-syrian border", "syrian-lebanese border", "syria-lebanon border", "lebanon-syria border"},
	"JO": {"jordanian border", "border with jordan", "jordanian-syrian border", "syrian-jordanian border", "syria-jordan border", "jordan-syria border"},
	"IQ": {"iraqi border", "border with iraq", "iraqi-syrian border", "syrian-iraqi border", "syria-iraq border", "iraq-syria border"},
}

// saidBorder returns the one neighbour whose border the caption's first
// sentence names ("Souran village, near the Turkish border"), or "".
func saidBorder(c caption.Caption) string {
	first := c.Text
	if len(c.Mentions) > 0 {
		for _, m := range c.Mentions {
			if m.Sentence > 0 {
				first = c.Text[:m.Start]
				break
			}
		}
	}
	if !strings.Contains(first, "order") { // border, Border
		return ""
	}
	low := strings.ToLower(first)
	said := ""
	for code, phrases := range borderPhrases {
		for _, p := range phrases {
			if strings.Contains(low, p) {
				if said != "" && said != code {
					return "" // "between the Turkish and Iraqi borders"
				}
				said = code
			}
		}
	}
	return said
}

// nearBorder doubts, of the Syrian readings of one name that some read in
// a governorate along the border the caption names, those that are not:
// "Souran village, near the Turkish border" is the Suran of Aleppo
// province, not of Hama.
func nearBorder(c caption.Caption, cands []candidate) {
	code := saidBorder(c)
	if code == "" {
		return
	}
	// Only names spelled as the gazetteer spells them: a loose spelling
	// near the border is no likelier than one far from it.
	along := func(cd *candidate) bool {
		return cd.hit.Exact && cd.hit.Place.Country == "SY" && slices.Contains(borderGovernorates[code], cd.hit.Place.Governorate.PCode)
	}
	for i := 0; i < len(cands); {
		j, some := i, false
		for ; j < len(cands) && cands[j].mention == cands[i].mention; j++ {
			some = some || along(&cands[j])
		}
		for k := i; some && k < j; k++ {
			if p := &cands[k]; p.hit.Exact && p.hit.Place.Country == "SY" && !along(p) {
				p.score *= 0.6
			}
		}
		i = j
	}
}
