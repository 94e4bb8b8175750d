package main

import (
	"math"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// plainName gives place i a display name in plain Latin letters, as the
// English-language press writes names: Bi’r Bughbugh → Bi'r Bughbugh,
// Diyarbakır → Diyarbakir; a name in Arabic script gives way to the first
// Latin one the place has. The original stays a spelling.
func (b *builder) plainName(i int) {
	p := &b.places[i]
	name := p.Name
	if isArabicText(name) {
		for _, n := range p.Names {
			if !isArabicText(n) && latinOrArabic(n) {
				name = n
				break
			}
		}
	}
	if plain := plainLatin(name); plain != p.Name && plain != "" && !isArabicText(plain) {
		old := p.Name
		p.Name = plain
		b.addNames(i, old, name)
	}
}

// finish completes every place once all records are in: the
// administrative chain of Syrian places no OCHA record gave one (from the
// nearest OCHA community, else the governorate polygon), and the Arabic
// name.
func (b *builder) finish() {
	// The OCHA communities, on a coarse grid, to find the nearest fast.
	type cell struct{ x, y int }
	const size = 0.1 // degrees, about 10 km
	at := func(p orb.Point) cell { return cell{int(math.Floor(p[0] / size)), int(math.Floor(p[1] / size))} }
	grid := map[cell][]int{}
	for i := range b.places {
		p := &b.places[i]
		if p.Country == "SY" && p.Located && p.Subdistrict.PCode != "" && p.Kind.Populated() {
			c := at(p.Point)
			grid[c] = append(grid[c], i)
		}
	}
	for i := range b.places {
		p, m := &b.places[i], &b.meta[i]
		// The seat of a governorate or district goes by the area's name,
		// as the press writes it.
		if len(m.seat) == 4 || len(m.seat) == 6 {
			b.join(i, record{ids: []string{p.ID}, family: "seat", name: b.admin[m.seat].Name, nameRank: rankSeat})
		}
		if m.nameRank > rankCurated {
			b.plainName(i)
		}
		if p.Country != "SY" {
			p.Governorate, p.District, p.Subdistrict = gazetteer.AdminRef{}, gazetteer.AdminRef{}, gazetteer.AdminRef{}
		}
		if p.NameAr == "" {
			p.NameAr = firstArabic(p.Names)
		}
		if p.Country != "SY" || !p.Located || p.Governorate.PCode != "" || p.Kind.Admin() {
			continue
		}
		// A place OCHA does not list shares its nearest community's chain
		// when that community is within 10 km and in the same governorate.
		gov := b.governorateAt(p.Point)
		best, bestD := -1, 10000.0
		c := at(p.Point)
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for _, j := range grid[cell{c.x + dx, c.y + dy}] {
					q := &b.places[j]
					if d := geo.Distance(p.Point, q.Point); d < bestD && q.Governorate.PCode == gov {
						best, bestD = j, d
					}
				}
			}
		}
		if best >= 0 {
			q := &b.places[best]
			p.Governorate, p.District, p.Subdistrict = q.Governorate, q.District, q.Subdistrict
		} else {
			setChain(p, gov, b.admin)
		}
	}
	// A place without a point shows at its parent: it takes its chain.
	for i := range b.places {
		p := &b.places[i]
		if !p.Located && p.Parent != "" && p.Governorate.PCode == "" && p.Country == "SY" {
			q := &b.places[b.byID[p.Parent]]
			p.Governorate, p.District, p.Subdistrict = q.Governorate, q.District, q.Subdistrict
		}
	}
}
