// Package gen writes realistic synthetic captions for tests and
// benchmarks: agency styles (Reuters, AFP, AP, EPA, Getty, Xinhua),
// sentence shapes with origins, holders and background sentences, places
// drawn from the gazetteer under their various spellings, dates from 2012
// to 2017 and many photographers.
package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// Generator makes captions. It is deterministic for a seed and not safe
// for concurrent use.
type Generator struct {
	rng          *rand.Rand
	places       []*gazetteer.Place // settlements, quarters, camps, crossings, landmarks
	cities       []*gazetteer.Place
	arPlaces     []*gazetteer.Place // those with an Arabic name, made on first use
	photographer []string
}

// New returns a Generator over the located places of g.
func New(g *gazetteer.Gazetteer, seed uint64) *Generator {
	gen := &Generator{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	for i := range g.Places() {
		p := &g.Places()[i]
		if !p.Located || p.Kind.Admin() || p.Kind == gazetteer.Region || p.Country != "SY" {
			continue
		}
		gen.places = append(gen.places, p)
		if p.Kind == gazetteer.City && p.Country == "SY" {
			gen.cities = append(gen.cities, p)
		}
	}
	for _, f := range firstNames {
		for _, l := range lastNames {
			gen.photographer = append(gen.photographer, f+" "+l)
		}
	}
	return gen
}

var firstNames = strings.Fields("Omar Bassam Ammar Khalil Rodi Karam Hosam Abdalrhman Zein Delil George Louai Youssef Mohammed Ahmad Hassan Ali Muzaffar Ghaith Alaa Sameer Amer Baraa Jalal Hamza Khaled Osman Umit Murad Sedat Bulent Lefteris Vadim Anas Ibrahim Abd Thaer Nour Hamid Giath")
var lastNames = strings.Fields("Sanadiki Khabieh Abdullah Ashawi Said Al-Masri Katan Ismail Al-Rifai Souleiman Ourfalian Beshara Badawi Badra Aboud Ammar Hashisho Salman Abdul-Ahad Al-Faqir Al-Doumy Almohibany Al-Halabi Al-Mamo Al-Ajweh al-Hariri Orsal Bektas Sezer Suna Kilic Pitarakis Savitsky Alkharboutli Ebu-Leys Doumany Mohammed Fourat Khatib Taha")

var subjects = []string{"A boy", "A girl", "A man", "A woman", "Children", "Residents", "Civil defence members", "A rebel fighter",
	"Syrian army soldiers", "Displaced families", "An elderly man", "Men", "Women", "A fighter of the Free Syrian Army",
	"Members of the Syrian Arab Red Crescent", "Kurdish fighters", "Volunteers", "A vendor", "Students", "A family"}

var actions = []string{"walks past damaged buildings", "stands near the rubble", "rides a bicycle", "carries bread",
	"inspects a damaged site", "waits for aid", "sits outside a tent", "plays on a destroyed tank", "search for survivors",
	"sells vegetables at a market", "queue for water", "gather at a funeral", "walk along a damaged street",
	"take cover near the frontline", "unload aid from a truck", "pray at a mosque", "look at the destruction", "celebrate Eid"}

var adjectives = []string{"rebel-held", "besieged", "government-held", "war-torn", "opposition-controlled", "", "", "", "northern", "eastern"}

// agencyStyles write a caption's first sentence and its credit in the
// manner of one agency.
var agencyStyles = []func(g *Generator, body, who string, d time.Time, p *gazetteer.Place) (string, string){
	func(g *Generator, body, who string, d time.Time, _ *gazetteer.Place) (string, string) {
		return fmt.Sprintf("%s, Syria %s.", body, d.Format("January 2, 2006")), "REUTERS/" + who
	},
	func(g *Generator, body, who string, d time.Time, _ *gazetteer.Place) (string, string) {
		return fmt.Sprintf("%s on %s.", body, d.Format("January 2, 2006")), "/ AFP PHOTO / " + strings.ToUpper(who)
	},
	func(g *Generator, body, who string, d time.Time, _ *gazetteer.Place) (string, string) {
		return fmt.Sprintf("In this %s, %s photo, %s, Syria.", d.Format("Monday"), d.Format("Jan. 2, 2006"), lowerFirst(body)), "(AP Photo/" + who + ")"
	},
	func(g *Generator, body, who string, d time.Time, _ *gazetteer.Place) (string, string) {
		return fmt.Sprintf("%s, Syria, %s.", body, d.Format("2 January 2006")), "EPA/" + strings.ToUpper(who)
	},
	func(g *Generator, body, who string, d time.Time, p *gazetteer.Place) (string, string) {
		agency := []string{"Anadolu Agency", "AFP", "NurPhoto", "Getty Images"}[g.rng.IntN(4)]
		credit := who + "/" + agency
		if agency != "Getty Images" {
			credit += "/Getty Images"
		}
		return fmt.Sprintf("%s, SYRIA - %s: %s on %s.", strings.ToUpper(g.name(p)), strings.ToUpper(d.Format("January 02")),
			body, d.Format("January 2, 2006")), "(Photo by " + credit + ")"
	},
	func(g *Generator, body, who string, d time.Time, _ *gazetteer.Place) (string, string) {
		return fmt.Sprintf("Photo taken on %s shows %s, Syria.", d.Format("Jan. 2, 2006"), lowerFirst(body)), "(Xinhua/" + who + ")"
	},
	func(g *Generator, body, who string, d time.Time, _ *gazetteer.Place) (string, string) {
		return fmt.Sprintf("%s, Syria %s.", body, d.Format("January 2006")), "(Photo by " + who + "/Reuters)"
	},
}

var backgrounds = []string{
	" The war that began in 2011 has killed hundreds of thousands of people.",
	" Since mid-2012 the city has been divided between government and rebel control.",
	" Aid agencies say food and fuel are running short.",
	"", "", "", "", "",
}

// Caption returns one synthetic caption.
func (g *Generator) Caption() string {
	p := g.places[g.rng.IntN(len(g.places))]
	d := time.Date(2012, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, g.rng.IntN(6*365))
	who := g.photographer[g.rng.IntN(len(g.photographer))]
	body := subjects[g.rng.IntN(len(subjects))] + " " + actions[g.rng.IntN(len(actions))] + " " + g.where(p)
	first, credit := agencyStyles[g.rng.IntN(len(agencyStyles))](g, body, who, d, p)
	return first + backgrounds[g.rng.IntN(len(backgrounds))] + " " + credit
}

// where says where the photo was, in one of several shapes.
func (g *Generator) where(p *gazetteer.Place) string {
	name := g.name(p)
	adj := adjectives[g.rng.IntN(len(adjectives))]
	if adj != "" {
		adj += " "
	}
	switch g.rng.IntN(6) {
	case 0:
		return "in " + name
	case 1:
		return fmt.Sprintf("in the %s%s of %s", adj, kindWord(p.Kind), name)
	case 2:
		if p.Governorate.Name != "" {
			return fmt.Sprintf("in %s, %s province", name, p.Governorate.Name)
		}
		return "in " + name
	case 3:
		c := g.cities[g.rng.IntN(len(g.cities))]
		return fmt.Sprintf("after fleeing %s, in %s", g.name(c), name)
	case 4:
		return fmt.Sprintf("in the %s%s %s", adj, name, kindWord(p.Kind))
	default:
		return "near " + name
	}
}

// name picks one of a place's Latin spellings.
func (g *Generator) name(p *gazetteer.Place) string {
	names := []string{p.Name}
	for _, n := range p.Names {
		if latin(n) {
			names = append(names, n)
		}
	}
	return names[g.rng.IntN(len(names))]
}

func latin(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) {
			return false
		}
	}
	return s != "" && unicode.IsUpper([]rune(s)[0])
}

func kindWord(k gazetteer.Kind) string {
	switch k {
	case gazetteer.Neighbourhood:
		return "neighbourhood"
	case gazetteer.Camp:
		return "camp"
	case gazetteer.Crossing:
		return "border crossing"
	case gazetteer.Landmark:
		return "area"
	case gazetteer.Village:
		return "village"
	case gazetteer.City:
		return "city"
	}
	return "town"
}

// lowerFirst lower-cases the first letter of a sentence put after a
// comma, but not of a proper name (Syrian, Kurdish, Free Syrian Army).
func lowerFirst(s string) string {
	for _, proper := range []string{"Syrian ", "Kurdish ", "Members ", "Volunteers "} {
		if strings.HasPrefix(s, proper) && proper != "Members " && proper != "Volunteers " {
			return s
		}
	}
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	r[0] = unicode.ToLower(r[0])
	return string(r)
}
