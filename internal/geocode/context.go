package geocode

import (
	"strings"

	"github.com/syriamap/syriamap/internal/caption"
	"github.com/syriamap/syriamap/internal/gazetteer"
)

// farMetres is how far a reading may lie from every other place a caption
// names before it is doubted.
const farMetres = 80000

// markFar lowers, and marks far, the readings that do not fit the other
// places the caption names: readings outside the country the caption puts
// the photo in; readings that the next name does not hold though the
// caption says it does ("the Hamidiyeh market in the old city of
// Damascus"); and readings far from every other place named (a loose
// spelling that matches a village across the country, Hamouria for Al
// Hamra, while the caption speaks of eastern Ghouta). A far reading is
// no anchor for others, and no known name for the fallback rules.
func (gc *Geocoder) markFar(c caption.Caption, cands []candidate) {
	// The country a caption puts the photo in ("…, Kilis, Turkey, March
	// 2", "in Lebanon's Bekaa valley"): readings in another country are
	// doubted too (Arbil in Iraq is not ‘Irbīn near Damascus).
	if country := photoCountry(c); country != "" {
		for i := range cands {
			// A crossing is on both sides of the border.
			if p := &cands[i]; p.hit.Place.Country != country && p.hit.Place.Kind != gazetteer.Crossing {
				p.far = true
				p.score *= 0.3
			}
		}
	}
	// "the Hamidiyeh market in the old city of Damascus": a name the
	// caption puts inside the next one must be read as a place inside it;
	// and a quarter of a city is not what "in Aleppo province" holds.
	for i := range cands {
		p := &cands[i]
		holder := nextHolder(c, p.mention)
		if holder < 0 || !p.hit.Place.Located {
			continue
		}
		area := isArea(c.Mentions[holder].Designator)
		held, anchored := false, false
		for j := range cands {
			q := &cands[j]
			if q.mention != holder || !q.whole || !q.hit.Exact || !q.hit.Place.Located {
				continue
			}
			anchored = true
			pp, qp := p.hit.Place, q.hit.Place
			// "in Sanliurfa province": the province, which the gazetteer
			// may know only by its capital, holds the place.
			sameArea := area && (pp.Governorate.PCode != "" && pp.Governorate.PCode == qp.Governorate.PCode || pp.Country == qp.Country && pp.Country != "SY")
			if sameArea || gc.contains(qp, pp) || within(pp.Point, qp.Point, holdMetres(qp.Kind)) {
				held = true
			}
		}
		quarterInProvince := p.hit.Place.Kind == gazetteer.Neighbourhood && area
		if anchored && !held || quarterInProvince {
			p.far = true
			p.score *= 0.3
		}
	}
	// A reading far from every other place named: judged against the
	// readings as they stand, then marked all at once.
	var doubted []int
	for i := range cands {
		p := &cands[i]
		if !p.hit.Place.Located || p.hit.Place.Kind == gazetteer.Governorate || p.hit.Place.Kind == gazetteer.Region {
			continue
		}
		others, near := 0, false
		for j := range cands {
			q := &cands[j]
			m := c.Mentions[q.mention]
			// Only close spellings anchor: two loose ones far apart must
			// not doubt each other.
			if q.mention == p.mention || !q.hit.Exact || !q.whole || q.far || !q.hit.Place.Located || q.base < 0.1 || m.Role == caption.Origin || m.Role == caption.Target {
				continue
			}
			others++
			if q.hit.Place.Kind == gazetteer.Governorate && q.hit.Place.Governorate.PCode == p.hit.Place.Governorate.PCode ||
				within(p.hit.Place.Point, q.hit.Place.Point, farMetres) || gc.g.Contains(q.hit.Place, p.hit.Place) {
				near = true
				break
			}
		}
		if others > 0 && !near {
			doubted = append(doubted, i)
		}
	}
	for _, i := range doubted {
		p := &cands[i]
		p.far = true
		if p.hit.Exact {
			p.score *= 0.8
		} else {
			p.score *= 0.5
		}
	}
}

// holdMetres is how far from a holder's point a place the caption puts in
// it may lie: a region (a valley 120 km long, a mountain range) holds
// places farther from its centre than a town does.
func holdMetres(k gazetteer.Kind) float64 {
	if k == gazetteer.Region {
		return 60000
	}
	return 25000
}

// nextHolder returns the mention that the caption says holds mention i
// ("X in Y", "X of Y", "X, Y" in one clause), or -1.
func nextHolder(c caption.Caption, i int) int {
	if i+1 >= len(c.Mentions) {
		return -1
	}
	m, n := c.Mentions[i], c.Mentions[i+1]
	if n.Sentence != m.Sentence || n.Start-m.End > 60 || n.Entity != caption.MaybePlace {
		return -1
	}
	// "northeast of Damascus", "near Damascus" name a neighbour, not a
	// holder.
	if isDirection(n.Designator) || n.Designator == "border" || n.Cue != "in" && n.Cue != "" {
		return -1
	}
	between := c.Text[m.End:n.Start]
	if strings.ContainsAny(between, ".;()") || strings.Count(between, ",") > 1 {
		return -1
	}
	linked := strings.HasPrefix(between, ",")
	for _, w := range strings.FieldsFunc(strings.ToLower(between), func(r rune) bool { return r == ' ' || r == '-' || r == ',' }) {
		switch {
		case w == "in" || w == "of":
			linked = true
		case w == "the" || w == "a" || w == "an" || facilityWords[w] || holderWords[w]:
		default:
			return -1 // "fled Raqqa city stand near their tent in Ras al-Ain"
		}
	}
	if linked {
		return i + 1
	}
	return -1
}

// holderWords may stand between a place and the place holding it, besides
// facilityWords: "in the rebel-held city of".
var holderWords = map[string]bool{"rebel": true, "held": true, "controlled": true, "government": true,
	"besieged": true, "opposition": true, "neighbourhood": true, "neighborhood": true, "area": true,
	"quarter": true, "suburb": true, "suburbs": true, "region": true, "syrian": true, "capital": true}

// isArea reports whether a designator names an area larger than a city.
func isArea(d string) bool { return d == "province" || d == "governorate" || d == "countryside" }

// neighbours maps the countries captions name to their ISO codes.
var neighbours = map[string]string{"syria": "SY", "turkey": "TR", "lebanon": "LB", "jordan": "JO",
	"iraq": "IQ", "kurdistan": "IQ", "iraqi kurdistan": "IQ", "israel": "IL"}

// photoCountry returns the country the first sentence places the photo
// in: the last country named as "…, Turkey," or "in Lebanon's …", not one
// named as a border ("near the border with Syria"). It returns "" when the
// caption names none, or Syria.
func photoCountry(c caption.Caption) string {
	code := ""
	for _, m := range c.Mentions {
		if m.Entity != caption.Country || m.Sentence != 0 {
			continue
		}
		if m.Role == caption.Context && m.Cue == "" || m.Role == caption.Where && m.Cue == "in" && m.Designator == "" || m.Possessive {
			code = neighbours[strings.ToLower(m.Text)]
		}
	}
	if code == "SY" {
		return ""
	}
	return code
}
