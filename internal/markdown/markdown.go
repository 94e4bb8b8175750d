// Package markdown renders the small Markdown a story's text is written
// in to HTML that cannot run or load anything: every character of the
// source is escaped first, and only these are made of it — paragraphs
// (blank lines), line breaks, lists ("- " or "1. " at a line's start),
// **strong**, *emphasis*, `code`, and links [text](url) whose url is
// http, https, mailto or a path on the site. Raw HTML shows as text; a
// javascript: or data: link stays text.
package markdown

import (
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Render returns the HTML of src.
func Render(src string) string {
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	var b strings.Builder
	for _, block := range regexp.MustCompile(`\n[ \t]*\n`).Split(strings.TrimSpace(src), -1) {
		block = strings.TrimSpace(block)
		if block == "" {
			continue
		}
		lines := strings.Split(block, "\n")
		if kind := listKind(lines); kind != "" {
			b.WriteString("<" + kind + ">")
			for _, l := range lines {
				b.WriteString("<li>" + inline(listItem.ReplaceAllString(l, "")) + "</li>")
			}
			b.WriteString("</" + kind + ">\n")
			continue
		}
		parts := make([]string, len(lines))
		for i, l := range lines {
			parts[i] = inline(strings.TrimSpace(l))
		}
		b.WriteString("<p>" + strings.Join(parts, "<br>") + "</p>\n")
	}
	return b.String()
}

var (
	listItem  = regexp.MustCompile(`^\s*(?:[-*]|\d+[.)])\s+`)
	bulleted  = regexp.MustCompile(`^\s*[-*]\s+`)
	numbered  = regexp.MustCompile(`^\s*\d+[.)]\s+`)
	linkRe    = regexp.MustCompile(`\[([^\[\]]+)\]\(([^()\s]+)\)`)
	strongRe  = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	emRe      = regexp.MustCompile(`\*([^*]+)\*`)
	codeRe    = regexp.MustCompile("`([^`]+)`")
	codeSlots = regexp.MustCompile("\x00(\\d+)\x00")
)

// listKind is "ul" or "ol" when every line of a block is an item of that
// kind of list, else "".
func listKind(lines []string) string {
	for _, kind := range []struct {
		re  *regexp.Regexp
		tag string
	}{{bulleted, "ul"}, {numbered, "ol"}} {
		all := true
		for _, l := range lines {
			if !kind.re.MatchString(l) {
				all = false
				break
			}
		}
		if all {
			return kind.tag
		}
	}
	return ""
}

// inline renders one line: escaped, then code spans set aside, links,
// strong and emphasis made.
func inline(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	var code []string
	s = codeRe.ReplaceAllStringFunc(s, func(m string) string {
		code = append(code, "<code>"+html.EscapeString(m[1:len(m)-1])+"</code>")
		return "\x00" + strconv.Itoa(len(code)-1) + "\x00"
	})
	var out strings.Builder
	last := 0
	for _, m := range linkRe.FindAllStringSubmatchIndex(s, -1) {
		out.WriteString(emphasis(html.EscapeString(s[last:m[0]])))
		text, href := s[m[2]:m[3]], s[m[4]:m[5]]
		if safe := safeURL(href); safe != "" {
			out.WriteString(`<a href="` + html.EscapeString(safe) + `" rel="noopener noreferrer nofollow">` + emphasis(html.EscapeString(text)) + "</a>")
		} else {
			out.WriteString(emphasis(html.EscapeString(s[m[0]:m[1]])))
		}
		last = m[1]
	}
	out.WriteString(emphasis(html.EscapeString(s[last:])))
	return codeSlots.ReplaceAllStringFunc(out.String(), func(m string) string {
		if i, err := strconv.Atoi(m[1 : len(m)-1]); err == nil && i < len(code) {
			return code[i]
		}
		return ""
	})
}

func emphasis(escaped string) string {
	escaped = strongRe.ReplaceAllString(escaped, "<strong>$1</strong>")
	return emRe.ReplaceAllString(escaped, "<em>$1</em>")
}

// safeURL returns href if it is http, https, mailto or a path on the
// site (no scheme, no host), else "".
func safeURL(href string) string {
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto":
		return href
	case "":
		// Browsers read a backslash as a slash ("/\host" is "//host",
		// another site) and drop tabs and line breaks.
		if u.Host == "" && !strings.HasPrefix(href, "//") && !strings.ContainsAny(href, "\\\t\r\n") {
			return href
		}
	}
	return ""
}
