package conflict

import (
	"math"
	"slices"
)

// Index finds the events a photo may document without reading them all:
// an event whose place is known to a district or better is filed under
// the grid cell of its point, once for every day it spans, in day order;
// one known only to its governorate or a larger area is filed by day
// alone (Match then asks for its governorate); one never listed (Listed)
// is not filed. A photo's candidates are then the
// events of its window's days in the cells its reach touches, ranked by
// the same rule as one photo's (Rank).
type Index struct {
	events []Event
	// near are the events of each cell, each filed under every day it
	// spans, by day: a photo's window is a run of each cell's list.
	near map[cell][]filed
	wide map[int32][]int32
}

type cell struct{ lon, lat int16 }

type filed struct{ day, event int32 }

// indexCellDeg is the grid's cell, in degrees.
const indexCellDeg = 0.5

// maxIndexedDays bounds the days an event is filed under: GED's longest
// (date_prec 5) spans a year.
const maxIndexedDays = 400

// NewIndex files events (Match reads them later: it keeps the slice).
func NewIndex(events []Event) *Index {
	ix := &Index{events: events, near: map[cell][]filed{}, wide: map[int32][]int32{}}
	for i, e := range events {
		if !Listed(e) {
			continue // never a candidate (Rank)
		}
		first, last := dayNumber(e.DateStart), dayNumber(e.DateEnd)
		if last-first > maxIndexedDays {
			last = first + maxIndexedDays
		}
		lon, lat := cellOf(e.Lon), cellOf(e.Lat)
		for d := first; d <= last; d++ {
			if e.WherePrec <= 3 {
				k := cell{lon, lat}
				ix.near[k] = append(ix.near[k], filed{d, int32(i)})
			} else {
				ix.wide[d] = append(ix.wide[d], int32(i))
			}
		}
	}
	for _, list := range ix.near {
		slices.SortFunc(list, func(a, b filed) int { return int(a.day - b.day) })
	}
	return ix
}

// Candidates are the events s may document, best first (Rank).
func (ix *Index) Candidates(s Sighting) []Candidate {
	if !s.Located || s.From == 0 {
		return nil
	}
	from, to := Window(s)
	// The farthest an event may be from the photo: the largest photo's
	// place, doubled for a fallback, and a district's reach.
	reachKm := 2*maxPlaceKm + districtRadiusKm
	dLat := int16(math.Ceil(reachKm / 111 / indexCellDeg))
	dLon := int16(math.Ceil(reachKm / (111 * math.Max(0.1, math.Cos(s.Point.Lat()*math.Pi/180))) / indexCellDeg))
	lon, lat := cellOf(s.Point.Lon()), cellOf(s.Point.Lat())
	first, last := dayNumber(from), dayNumber(to)
	var hits []int32
	for d := first; d <= last; d++ {
		hits = append(hits, ix.wide[d]...)
	}
	for x := lon - dLon; x <= lon+dLon; x++ {
		for y := lat - dLat; y <= lat+dLat; y++ {
			list := ix.near[cell{x, y}]
			i, _ := slices.BinarySearchFunc(list, first, func(f filed, d int32) int { return int(f.day - d) })
			for ; i < len(list) && list[i].day <= last; i++ {
				hits = append(hits, list[i].event)
			}
		}
	}
	slices.Sort(hits)
	hits = slices.Compact(hits)
	events := make([]Event, len(hits))
	for i, h := range hits {
		events[i] = ix.events[h]
	}
	return Rank(s, events)
}

func cellOf(deg float64) int16 { return int16(math.Floor(deg / indexCellDeg)) }

// dayNumber is day d (YYYYMMDD) as days since 1 January 1970.
func dayNumber(d int) int32 { return int32(toTime(d).Unix() / 86400) }
