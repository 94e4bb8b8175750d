package agreement

// Why κ or α cannot be read, though a number may be computed.
const (
	// TooFewLooks: fewer than MinLooks units rated twice; one look that
	// agrees on the place but differs on the decision gives κ 0.00,
	// which says nothing.
	TooFewLooks = "too-few-looks"
	// OneDecision: κ when either editor gave one decision only (κ is
	// then 0 or undefined whatever the other did); α when every answer
	// was the same decision.
	OneDecision = "one-decision"
)

// MinLooks is the fewest looks (units rated twice) a κ or α is read
// from: below it a single look moves the figure by a tenth or more.
const MinLooks = 10

// KappaReadable says why Cohen's κ over pairs cannot be read (TooFewLooks,
// OneDecision), or "" when it can.
func KappaReadable(pairs []Pair) string {
	if len(pairs) < MinLooks {
		return TooFewLooks
	}
	a, b := map[string]bool{}, map[string]bool{}
	for _, p := range pairs {
		a[p.A], b[p.B] = true, true
	}
	if len(a) < 2 || len(b) < 2 {
		return OneDecision
	}
	return ""
}

// AlphaReadable says why Krippendorff's α over units cannot be read, or
// "" when it can: α pools every answer's value, so it needs two values
// among them, and MinLooks units rated at least twice.
func AlphaReadable(units []Unit) string {
	n := 0
	values := map[string]bool{}
	for _, u := range units {
		if len(u) < 2 {
			continue
		}
		n++
		for _, v := range u {
			values[v] = true
		}
	}
	switch {
	case n < MinLooks:
		return TooFewLooks
	case len(values) < 2:
		return OneDecision
	}
	return ""
}
