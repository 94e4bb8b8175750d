package photo

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// errNotDecimal is ParseDecimal's error; callers name the value.
var errNotDecimal = errors.New("not a decimal number")

// ParseDecimal reads a plain decimal number as people and spreadsheets
// write it: an optional sign, digits with at most one decimal point, and an
// optional exponent (36.2, -0.5, .5, 1e-3). It refuses what
// strconv.ParseFloat would take besides — hexadecimal (0x1p5), digit
// separators (3_6), Inf and NaN — as none of them is a coordinate anyone
// meant.
func ParseDecimal(s string) (float64, error) {
	s = strings.TrimSpace(s)
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits, dot := 0, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			goto exponent
		}
	}
exponent:
	if digits == 0 {
		return 0, errNotDecimal
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return 0, errNotDecimal
		}
	}
	if i != len(s) {
		return 0, errNotDecimal
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(x, 0) {
		return 0, errNotDecimal
	}
	return x, nil
}

// ValidPoint reports whether [lon, lat] is a point on the Earth: both
// finite, lon in −180…180 and lat in −90…90.
func ValidPoint(lon, lat float64) bool {
	return lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90 // false for NaN
}
