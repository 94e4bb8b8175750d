package photo

// SearchRules are the limits and messages of a full-text search, as data
// for a published site's script (web.SiteRules); store.SearchRulesOf gives them.
type SearchRules struct {
	MaxBytes       int               `json:"max_bytes"`
	MaxTerms       int               `json:"max_terms"`
	MaxPrefixTerms int               `json:"max_prefix_terms"`
	MinPrefixRunes int               `json:"min_prefix_runes"`
	Messages       map[string]string `json:"messages"`
	// Operators are FTS5's words of syntax (NEAR only before a bracket).
	Operators []string `json:"operators"`
}
