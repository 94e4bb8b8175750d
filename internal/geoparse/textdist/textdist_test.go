package textdist

import "testing"

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		max  int
		want int
	}{
		{"", "", 2, 0},
		{"abc", "abc", 2, 0},
		{"febuary", "february", 2, 1},
		{"agust", "august", 2, 1},
		{"kafranbal", "kafrnabl", 3, 2},
		{"ab", "ba", 2, 1}, // a swap is one edit
		{"sakur", "sukari", 3, 3},
		{"sakur", "sukari", 1, 2}, // stops early: max+1
		{"a", "abcdef", 2, 3},
		{"00000", "100111", 3, 4}, // the best path leaves the band's right edge
		{"qwertyuiopasdfghjklzxcvbnmqwertyuiop", "qwertyuiopasdfghjklzxcvbnmqwertyuiox", 2, 1},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b, tt.max); got != tt.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.max, got, tt.want)
		}
	}
}
