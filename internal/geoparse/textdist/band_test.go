package textdist

import "testing"

// fullDistance is the textbook optimal string alignment distance over the
// whole table, the reference the banded Distance must agree with.
func fullDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func FuzzDistanceAgreesWithFullTable(f *testing.F) {
	for _, s := range [][2]string{{"kafranbel", "kafrnabl"}, {"ab", "ba"}, {"sakur", "sukari"}, {"", "abc"}, {"aleppo", "halab"}} {
		f.Add(s[0], s[1], 2)
	}
	f.Fuzz(func(t *testing.T, a, b string, max int) {
		if max < 0 || max > 8 || len(a) > 64 || len(b) > 64 {
			t.Skip()
		}
		want := min(fullDistance(a, b), max+1)
		if got := Distance(a, b, max); got != want {
			t.Fatalf("Distance(%q, %q, %d) = %d, want %d", a, b, max, got, want)
		}
	})
}
