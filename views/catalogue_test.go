package views

import (
	"bytes"
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/syriamap/syriamap/internal/i18n"
)

// TestPagesSayOnlyCatalogueWords renders every page in the catalogue's
// pseudo-language, where each message is ⟪key⟫ and the model's text is
// digits: a word left on the page, or in a label, title, placeholder or
// alt a person reads, is written in a template, not taken from the
// catalogue, and so would stay English on an Arabic page. A key the
// catalogue lacks shows as ⟦key⟧ and fails too. Each page is rendered
// with its model filled (every text "1", every flag true, every list one
// long) and with its model empty, so that both sides of most branches
// are seen.
func TestPagesSayOnlyCatalogueWords(t *testing.T) {
	ctx := i18n.With(context.Background(), i18n.Locale{Lang: i18n.Pseudo})
	pages := map[string]func(full bool) templ.Component{
		"explorer":     func(f bool) templ.Component { return ExplorerPage(filled[Explorer](f)) },
		"static photo": func(f bool) templ.Component { return StaticPhotoPage(filled[StaticPhoto](f)) },
		"photo":        func(f bool) templ.Component { return PhotoPageView(filled[PhotoPage](f)) },
		"place":        func(f bool) templ.Component { return PlacePageView(filled[PlacePage](f)) },
		"about":        func(f bool) templ.Component { return AboutPage(filled[About](f)) },
		"ogc":          func(f bool) templ.Component { return OGCPage(filled[OGC](f)) },
		"sign-in":      func(f bool) templ.Component { return SignInPage(filled[SignIn](f)) },
		"review queue": func(f bool) templ.Component { return ReviewQueuePage(filled[ReviewQueue](f)) },
		"review photo": func(f bool) templ.Component { return ReviewPhotoPage(filled[ReviewPhoto](f)) },
		"review log":   func(f bool) templ.Component { return ReviewLogPage(filled[ReviewLog](f)) },
		"stories":      func(f bool) templ.Component { return StoriesPage(filled[StoryList](f)) },
		"story":        func(f bool) templ.Component { return StoryReader(filled[StoryPage](f)) },
		"story editor": func(f bool) templ.Component { return StoryEditor(filled[StoryEdit](f)) },
		"error":        func(f bool) templ.Component { return ErrorPage(filled[Page](f), "1", f) },
	}
	for name, page := range pages {
		for _, full := range []bool{true, false} {
			var b bytes.Buffer
			if err := page(full).Render(ctx, &b); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, w := range untranslated(b.String()) {
				t.Errorf("%s (model filled %v): %q is not from the catalogue", name, full, w)
			}
		}
	}
}

var (
	// What a person does not read as the page's words: scripts, styles,
	// commands and keys (<code>, <kbd>), and the catalogue's own markers.
	notWords   = regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>|<code[^>]*>.*?</code>|<kbd>.*?</kbd>|⟪[^⟫]*⟫`)
	textNodes  = regexp.MustCompile(`>([^<]+)<`)
	readAttrs  = regexp.MustCompile(`\b(?:title|aria-label|placeholder|alt)="([^"]*)"`)
	wordRe     = regexp.MustCompile(`[\p{L}]{2,}|⟦[^⟧]*⟧`)
	doctypeTag = regexp.MustCompile(`(?i)<!doctype[^>]*>`)
)

// untranslated lists the words of a page rendered in the pseudo-language
// that are not the catalogue's.
func untranslated(page string) []string {
	page = notWords.ReplaceAllString(doctypeTag.ReplaceAllString(page, ""), "")
	var out []string
	for _, re := range []*regexp.Regexp{textNodes, readAttrs} {
		for _, m := range re.FindAllStringSubmatch(page, -1) {
			out = append(out, wordRe.FindAllString(m[1], -1)...)
		}
	}
	return out
}

// filled is a model: with full, every string "1", every bool true, every
// number 1, every slice one element long and every pointer set, down
// through its fields; else the zero model.
func filled[T any](full bool) T {
	var v T
	if full {
		fill(reflect.ValueOf(&v).Elem(), 0)
	}
	return v
}

func fill(v reflect.Value, depth int) {
	if depth > 6 || !v.CanSet() {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("1")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(1)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fill(v.Field(i), depth+1)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	}
}

// TestUntranslatedFinds: the check finds a word a template writes, in
// text and in a label, and a key the catalogue lacks.
func TestUntranslatedFinds(t *testing.T) {
	got := untranslated(`<p>⟪a.b⟫ Close</p><button aria-label="Close the list">⟪x⟫</button><code>syriamap users</code><kbd>J</kbd><p>⟦no.key⟧ 12 ·</p>`)
	if strings.Join(got, "|") != "Close|⟦no.key⟧|Close|the|list" {
		t.Errorf("untranslated = %q", got)
	}
}
