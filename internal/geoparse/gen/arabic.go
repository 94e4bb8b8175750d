package gen

import (
	"fmt"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// Arabic captions, in the shapes Arabic services and Syrian outlets write
// them: a place after a cue or a designator (في، قرب، بلدة، حي، مخيم),
// written with a particle (بحلب), in guillemets, or after an origin
// (نازحون من); dates with Levantine or Egyptian month names, both
// side by side, or numbers; credits as (أ ف ب), «الفرنسية»,
// "تصوير: name - رويترز", (سانا). Places are those with an Arabic name.

var arSubjects = []string{"أطفال", "طفل سوري", "رجل", "امرأة", "عناصر من الدفاع المدني", "مقاتلون من المعارضة",
	"جنود من الجيش السوري", "عائلات نازحة", "سكان", "متطوعون", "بائع", "طلاب"}

var arActions = []string{"يسيرون بين المباني المدمرة", "يقفون قرب الأنقاض", "ينتظرون المساعدات", "يلعبون وسط الركام",
	"يتفقدون آثار القصف", "يحملون الخبز", "يبحثون عن ناجين", "يصطفون للحصول على المياه"}

var levantine = []string{"كانون الثاني", "شباط", "آذار", "نيسان", "أيار", "حزيران", "تموز", "آب", "أيلول",
	"تشرين الأول", "تشرين الثاني", "كانون الأول"}
var egyptian = []string{"يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر",
	"أكتوبر", "نوفمبر", "ديسمبر"}

var arKind = map[gazetteer.Kind]string{gazetteer.City: "مدينة", gazetteer.Town: "بلدة", gazetteer.Village: "قرية",
	gazetteer.Neighbourhood: "حي", gazetteer.Camp: "مخيم", gazetteer.Crossing: "معبر"}

// arabicPlaces are the places with an Arabic name.
func (g *Generator) arabicPlaces() []*gazetteer.Place {
	if g.arPlaces == nil {
		for _, p := range g.places {
			if p.NameAr != "" {
				g.arPlaces = append(g.arPlaces, p)
			}
		}
	}
	return g.arPlaces
}

// ArabicCaption returns one synthetic caption written in Arabic.
func (g *Generator) ArabicCaption() string {
	ps := g.arabicPlaces()
	p := ps[g.rng.IntN(len(ps))]
	d := time.Date(2012, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, g.rng.IntN(6*365))
	body := arSubjects[g.rng.IntN(len(arSubjects))] + " " + arActions[g.rng.IntN(len(arActions))] + " " + g.arWhere(p)
	date := g.arDate(d)
	switch g.rng.IntN(4) {
	case 0:
		return fmt.Sprintf("%s في %s. (أ ف ب)", body, date)
	case 1:
		who := g.photographer[g.rng.IntN(len(g.photographer))]
		return fmt.Sprintf("%s يوم %s. تصوير: %s - رويترز", body, date, who)
	case 2:
		return fmt.Sprintf("%s، %s «الفرنسية»", body, date)
	default:
		return fmt.Sprintf("%s بتاريخ %s (سانا)", body, date)
	}
}

// arWhere says where the photo was, in one of several shapes.
func (g *Generator) arWhere(p *gazetteer.Place) string {
	name := p.NameAr
	kind := arKind[p.Kind]
	if kind == "" {
		kind = "منطقة"
	}
	switch g.rng.IntN(6) {
	case 0:
		return "في " + name
	case 1:
		return fmt.Sprintf("في %s %s", kind, name)
	case 2:
		return fmt.Sprintf("في %s «%s»", kind, name)
	case 3:
		if strings.HasPrefix(name, "ال") {
			return "بـ" + name
		}
		return "ب" + name
	case 4:
		c := g.arabicPlaces()[g.rng.IntN(len(g.arabicPlaces()))]
		return fmt.Sprintf("بعد نزوحهم من %s، في %s", c.NameAr, name)
	default:
		return "قرب " + name
	}
}

// arDate writes a day as Arabic captions do.
func (g *Generator) arDate(d time.Time) string {
	m := int(d.Month()) - 1
	switch g.rng.IntN(4) {
	case 0:
		return fmt.Sprintf("%d %s %d", d.Day(), levantine[m], d.Year())
	case 1:
		return fmt.Sprintf("%d %s/%s %d", d.Day(), levantine[m], egyptian[m], d.Year())
	case 2:
		return fmt.Sprintf("%d %s %d", d.Day(), egyptian[m], d.Year())
	default:
		return fmt.Sprintf("%d/%d/%d", d.Day(), d.Month(), d.Year())
	}
}
