package markdown

import (
	"regexp"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"paragraphs and a break", "One\ntwo\n\nThree", "<p>One<br>two</p>\n<p>Three</p>\n"},
		{"emphasis", "**Siege** of *eastern* Aleppo", "<p><strong>Siege</strong> of <em>eastern</em> Aleppo</p>\n"},
		{"a link", "See [the report](https://example.org/r?a=1&b=2).", `<p>See <a href="https://example.org/r?a=1&amp;b=2" rel="noopener noreferrer nofollow">the report</a>.</p>` + "\n"},
		{"a site path", "[Aleppo](/places/ocha:C1007)", `<p><a href="/places/ocha:C1007" rel="noopener noreferrer nofollow">Aleppo</a></p>` + "\n"},
		{"lists", "- one\n- two\n\n1. first\n2. second", "<ul><li>one</li><li>two</li></ul>\n<ol><li>first</li><li>second</li></ol>\n"},
		{"code", "the `<b>` tag", "<p>the <code>&lt;b&gt;</code> tag</p>\n"},
		{"Arabic", "حلب **الشرقية**", "<p>حلب <strong>الشرقية</strong></p>\n"},
		// Inert: what tries to run or load shows as text.
		{"a script", "<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"},
		{"raw HTML", `<img src=x onerror="alert(1)">`, "<p>&lt;img src=x onerror=&#34;alert(1)&#34;&gt;</p>\n"},
		{"a javascript: link", "[click](javascript:alert(1))", "<p>[click](javascript:alert(1))</p>\n"},
		{"a JavaScript: link in capitals", "[click](JavaScript:alert%281%29)", "<p>[click](JavaScript:alert%281%29)</p>\n"},
		{"a data: link", "[x](data:text/html;base64,PHNjcmlwdD4=)", "<p>[x](data:text/html;base64,PHNjcmlwdD4=)</p>\n"},
		{"a link to another host without a scheme", "[x](//evil.example/)", "<p>[x](//evil.example/)</p>\n"},
		{"a backslash a browser reads as another host", `[x](/\evil.example/)`, "<p>[x](/\\evil.example/)</p>\n"},
		{"a tab a browser drops", "[x](/\t/evil.example/)", "<p>[x](/\t/evil.example/)</p>\n"},
		{"a quote in a link", `[x](https://a.example/"onmouseover="x)`, `<p><a href="https://a.example/&#34;onmouseover=&#34;x" rel="noopener noreferrer nofollow">x</a></p>` + "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Render(c.src); got != c.want {
				t.Errorf("Render(%q)\n got %q\nwant %q", c.src, got, c.want)
			}
		})
	}
}

// allowed are the only tags Render writes, with the only attributes.
var tagRe = regexp.MustCompile(`<(/?)([a-z]+)([^>]*)>`)

func FuzzRender(f *testing.F) {
	for _, s := range []string{"**a** *b* `c` [d](https://e)", "<script>x</script>", "[x](javascript:y)", "- a\n- b", "1. a\n\nb\nc",
		`[a](/"><script>)`, "`<`*>*", "\x00\x001\x00"} {
		f.Add(s)
	}
	allowed := map[string]bool{"p": true, "br": true, "ul": true, "ol": true, "li": true, "strong": true, "em": true, "code": true, "a": true}
	f.Fuzz(func(t *testing.T, src string) {
		out := Render(src)
		for _, m := range tagRe.FindAllStringSubmatch(out, -1) {
			if !allowed[m[2]] {
				t.Fatalf("Render(%q) wrote <%s>: %q", src, m[2], out)
			}
			attrs := strings.TrimSpace(m[3])
			if m[2] == "a" && m[1] == "" {
				if !regexp.MustCompile(`^href="[^"<>]*" rel="noopener noreferrer nofollow"$`).MatchString(attrs) {
					t.Fatalf("Render(%q) wrote a link with %q", src, attrs)
				}
				href := strings.ToLower(regexp.MustCompile(`href="([^"]*)"`).FindStringSubmatch(attrs)[1])
				if strings.Contains(href, "javascript:") && !strings.HasPrefix(href, "http") || strings.HasPrefix(href, "data:") || strings.HasPrefix(href, "//") {
					t.Fatalf("Render(%q) links to %q", src, href)
				}
			} else if attrs != "" {
				t.Fatalf("Render(%q) wrote <%s %s>", src, m[2], attrs)
			}
		}
	})
}
