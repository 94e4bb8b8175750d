package i18n

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The catalogue against the code that reads it: the templates and Go
// code that build pages, and the browser's scripts (assets/src).

var (
	// A key a call names outright: t(ctx, "k"), l.T("k"), i18n.T(ctx,
	// "k"), tHTML(ctx, "k"), t("k") in a script.
	calledKey = regexp.MustCompile(`(?:\bt\(ctx, |\.T\(|i18n\.T\([^,()]+, |tHTML\(ctx, |\bt\()["` + "`" + `]([\w.:-]+)["` + "`" + `][,)]`)
	// A family of keys a call makes from a value: "kind." + k, `month.${m}`.
	keyFamily = regexp.MustCompile(`["` + "`" + `]([a-z][\w-]*(?:\.[\w-]+)*\.)["` + "`" + `]\s*\+|` + "`" + `([a-z][\w-]*(?:\.[\w-]+)*\.)\$\{|(?:tValue\(ctx, |Named\()"([\w.-]*)"`)
	// Any string in the code: a key may be kept as a value (a table of
	// options by key) before it is looked up.
	stringLit = regexp.MustCompile(`"([a-z][\w.:-]*)"`)
)

// sources reads the files that speak to readers.
func sources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, pattern := range []string{"../../views/*.templ", "../../views/*.go", "../../internal/*/*.go", "../../internal/*/*/*.go", "../../internal/*/*/*/*.go", "../../assets/src/*.js"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, "_templ.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[f] = string(b)
		}
	}
	if len(out) < 50 {
		t.Fatalf("found %d source files: is the test run from internal/i18n?", len(out))
	}
	return out
}

// TestEveryKeyUsedExists fails when the code asks for a message the
// catalogue does not hold (a page would show ⟦key⟧).
func TestEveryKeyUsedExists(t *testing.T) {
	for file, src := range sources(t) {
		for _, m := range calledKey.FindAllStringSubmatch(src, -1) {
			if !Has(m[1]) {
				t.Errorf("%s asks for %q, which the catalogue does not hold", file, m[1])
			}
		}
	}
}

// TestEveryKeyIsUsed fails for a message no code asks for: a catalogue
// that only grows is one nobody can check. Keys made from values (a
// family, "kind." + kind) count as used by their family; the OGC pages'
// "ogc:" texts and the credits' are looked up by the English they give.
func TestEveryKeyIsUsed(t *testing.T) {
	used := map[string]bool{}
	families := []string{"ogc:", "credit.", "error.", "country.name."}
	for _, src := range sources(t) {
		for _, m := range stringLit.FindAllStringSubmatch(src, -1) {
			used[m[1]] = true
		}
		for _, m := range keyFamily.FindAllStringSubmatch(src, -1) {
			for _, g := range m[1:] {
				if g != "" {
					families = append(families, g)
				}
			}
		}
	}
	var unused []string
	for key := range catalogue {
		if used[key] || slices.ContainsFunc(families, func(f string) bool { return strings.HasPrefix(key, f) }) {
			continue
		}
		unused = append(unused, key)
	}
	slices.Sort(unused)
	for _, k := range unused {
		t.Errorf("no code asks for %q", k)
	}
}
