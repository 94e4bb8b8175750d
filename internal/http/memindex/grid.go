package memindex

import (
	"math"
	"sort"

	"github.com/paulmach/orb"
)

// gridDegrees is the side of a grid cell: about 25 km, so that a city's
// box holds a few cells and a tile at zoom 7 about a hundred.
const gridDegrees = 0.25

// maxGridCells is the most cells a box may cover for the grid to answer
// it: a wider one (a country's view) is cheaper scanned in its window's
// range, whose positions lie together, than gathered from hundreds of
// cells (measured at 1M: a year country-wide, 5.8 ms scanned, 8.7 ms
// from 560 cells; a zoom-7 tile of about 120 cells, the other way).
const maxGridCells = 256

// grid lists the positions of the placed photos by square cell, each
// list in the index's order (so by first day): a box's photos in a window
// are then a binary search per cell, not a scan of the whole window.
type grid struct {
	cells map[[2]int32][2]int32 // cell → [start, end) in pos
	pos   []int32
}

func cellOf(lon, lat float64) [2]int32 {
	return [2]int32{int32(math.Floor((lon + 180) / gridDegrees)), int32(math.Floor((lat + 90) / gridDegrees))}
}

// newGrid files the positions whose points are lon, lat (NaN unplaced).
func newGrid(lon, lat []float64) grid {
	count := map[[2]int32]int32{}
	for i := range lon {
		if !math.IsNaN(lon[i]) {
			count[cellOf(lon[i], lat[i])]++
		}
	}
	g := grid{cells: make(map[[2]int32][2]int32, len(count))}
	var at int32
	for c, n := range count {
		g.cells[c] = [2]int32{at, at}
		at += n
	}
	g.pos = make([]int32, at)
	for i := range lon {
		if math.IsNaN(lon[i]) {
			continue
		}
		c := cellOf(lon[i], lat[i])
		r := g.cells[c]
		g.pos[r[1]] = int32(i)
		r[1]++
		g.cells[c] = r
	}
	return g
}

// visit calls fn for the positions in the cells that box covers whose
// first days lie in ranges (of positions) and that in selects; it
// reports false, having done nothing, when the box covers too many cells.
func (g grid) visit(box orb.Bound, ranges [][2]int, in func(int) bool, fn func(int32)) bool {
	lo, hi := cellOf(box.Min.Lon(), box.Min.Lat()), cellOf(box.Max.Lon(), box.Max.Lat())
	if int64(hi[0]-lo[0]+1)*int64(hi[1]-lo[1]+1) > maxGridCells {
		return false
	}
	for x := lo[0]; x <= hi[0]; x++ {
		for y := lo[1]; y <= hi[1]; y++ {
			r, ok := g.cells[[2]int32{x, y}]
			if !ok {
				continue
			}
			list := g.pos[r[0]:r[1]]
			for _, rg := range ranges {
				// The list is in position order: the range's part of it.
				a := sort.Search(len(list), func(k int) bool { return int(list[k]) >= rg[0] })
				for k := a; k < len(list) && int(list[k]) < rg[1]; k++ {
					if in(int(list[k])) {
						fn(list[k])
					}
				}
			}
		}
	}
	return true
}
