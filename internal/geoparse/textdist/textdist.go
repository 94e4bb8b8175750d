// Package textdist measures how far apart two spellings are.
package textdist

// Distance returns the optimal string alignment distance between a and b,
// compared byte by byte: the fewest insertions, deletions, substitutions
// and swaps of neighbouring bytes that turn a into b. Once the distance is
// sure to exceed max it stops and returns max+1.
//
// Only the diagonal band of cells within max of one another is computed
// (a path that leaves it costs more than max), so the work grows with
// len(a)·max rather than len(a)·len(b).
func Distance(a, b string, max int) int {
	if max < 0 {
		max = 0
	}
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	const stack = 32
	var buf [3 * stack]int
	rows := buf[:]
	n := len(b) + 1
	if n+1 > stack {
		rows = make([]int, 3*(n+1))
	}
	// One spare cell per row, so the band's right edge can always be
	// marked out of reach.
	prev2, prev, cur := rows[:n+1], rows[n+1:2*(n+1)], rows[2*(n+1):3*(n+1)]
	far := max + 1
	for j := range prev {
		prev[j] = min(j, far)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := i-max, min(len(b), i+max)
		cur[0] = min(i, far)
		if lo < 1 {
			lo = 1
		} else {
			cur[lo-1] = far // left of the band
		}
		rowMin := far
		if lo == 1 {
			rowMin = cur[0]
		}
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			v = min(v, far)
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		cur[hi+1] = far // right of the band, read by the next row
		if rowMin > max {
			return far
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
