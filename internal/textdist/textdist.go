// Package textdist measures how far apart two spellings are.
package textdist

// Distance returns the optimal string alignment distance between a and b,
// compared byte by byte: the fewest insertions, deletions, substitutions
// and swaps of neighbouring bytes that turn a into b. Once the distance is
// sure to exceed max it stops and returns max+1.
func Distance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	const stack = 32
	var buf [3 * stack]int
	rows := buf[:]
	if len(b)+1 > stack {
		rows = make([]int, 3*(len(b)+1))
	}
	n := len(b) + 1
	prev2, prev, cur := rows[:n], rows[n:2*n], rows[2*n:3*n]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
