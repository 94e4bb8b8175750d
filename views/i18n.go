package views

import (
	"context"
	"html"
	"net/url"
	"strings"

	"github.com/a-h/templ"

	"github.com/syriamap/syriamap/internal/i18n"
)

// Every string a page shows comes from the catalogue (internal/i18n) in
// the reader's language, which the request's context carries.

// t is the message key for the page's reader, its {name}s filled from
// args (name, value pairs).
func t(ctx context.Context, key string, args ...any) string { return i18n.T(ctx, key, args...) }

// tValue is a stored code's name for the page's reader (Locale.Named).
func tValue(ctx context.Context, prefix, value string) string {
	return i18n.From(ctx).Named(prefix, value)
}

// loc is the page's locale.
func loc(ctx context.Context) i18n.Locale { return i18n.From(ctx) }

// num writes n with the reader's digits.
func num(ctx context.Context, n int) string { return i18n.From(ctx).Int(n) }

// markup is a piece of HTML a message's placeholder takes as it is.
type markup string

// a is a link's markup for a message: its text escaped.
func a(href, text string, attrs ...string) markup {
	var b strings.Builder
	b.WriteString(`<a href="` + html.EscapeString(href) + `"`)
	for i := 0; i+1 < len(attrs); i += 2 {
		b.WriteString(" " + attrs[i] + `="` + html.EscapeString(attrs[i+1]) + `"`)
	}
	b.WriteString(">" + html.EscapeString(text) + "</a>")
	return markup(b.String())
}

// tHTML is a message with markup in it (a link within a sentence): the
// message and text arguments escaped, markup arguments as they are.
func tHTML(ctx context.Context, key string, args ...any) templ.Component {
	l := i18n.From(ctx)
	s := html.EscapeString(l.T(key))
	for i := 0; i+1 < len(args); i += 2 {
		name, _ := args[i].(string)
		var v string
		if m, ok := args[i+1].(markup); ok {
			v = l.Isolate(string(m))
		} else {
			v = html.EscapeString(l.Value(args[i+1]))
		}
		s = strings.ReplaceAll(s, "{"+name+"}", v)
	}
	return templ.Raw(s)
}

// hostOf is the site an address is on, as a reader would name it.
func hostOf(u string) string {
	if p, err := url.Parse(u); err == nil && p.Host != "" {
		return p.Host
	}
	return u
}
