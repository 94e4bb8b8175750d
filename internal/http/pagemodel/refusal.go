package pagemodel

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/i18n"
)

// Refusal is a refused search's message (one of the search's formats,
// archive.SearchRules, after "q: ") in l's words (search.refused.*, as
// the explorer's script says it: assets/src/refusal.js), and whether it
// is one; a message of no known format, or on an English page, is
// returned as it is, false.
func Refusal(l i18n.Locale, message string) (string, bool) {
	if l.Lang != i18n.Arabic {
		return message, false
	}
	text := strings.TrimPrefix(message, "q: ")
	for kind, re := range refusalPatterns() {
		m := re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		args := make([]any, 0, 8)
		for i, v := range m[1:] {
			var val any = v
			if n, err := strconv.Atoi(v); err == nil {
				val = n
			} else if u, err := strconv.Unquote(v); err == nil {
				val = u
			}
			name := [...]string{"n", "max"}[min(i, 1)]
			if kind == "syntax" {
				name = "q"
			} else if kind == "prefix" && i == 1 {
				name = "term"
			}
			args = append(args, name, val)
		}
		return l.T("search.refused."+kind, args...), true
	}
	return message, false
}

// refusalPatterns are the search's message formats as expressions: %d a
// number, %q a quoted string, %s any text.
var refusalPatterns = sync.OnceValue(func() map[string]*regexp.Regexp {
	out := map[string]*regexp.Regexp{}
	verb := regexp.MustCompile(`%[dqs]`)
	for kind, f := range archive.SearchRules().Messages {
		var b strings.Builder
		b.WriteString("^")
		last := 0
		for _, loc := range verb.FindAllStringIndex(f, -1) {
			b.WriteString(regexp.QuoteMeta(f[last:loc[0]]))
			b.WriteString(map[string]string{"%d": `(\d+)`, "%q": `("(?:[^"\\]|\\.)*")`, "%s": `(.*)`}[f[loc[0]:loc[1]]])
			last = loc[1]
		}
		b.WriteString(regexp.QuoteMeta(f[last:]) + "$")
		out[kind] = regexp.MustCompile(b.String())
	}
	return out
})
