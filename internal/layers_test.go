package internal

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/syriamap/syriamap/"

// layers is the README's picture of the house (its "The folders are the
// layers" section), top down: each layer's packages, by exact path from
// the module's root or a folder's subtree ("internal/http/..."), and the
// layers below it that it may import. A package imports its own layer's
// packages and the layers it names, nothing else: no arrow points up, and
// none skips the archive to reach the storage.
var layers = []struct {
	name     string
	packages []string
	imports  []string // the layers below it that it may import
}{
	{"commands", []string{"cmd/...", "geodata/build"},
		[]string{"http", "archive", "readers", "shared", "types", "data"}},
	{"http", []string{"internal/http/...", "views"},
		[]string{"archive", "readers", "shared", "types", "data"}},
	{"archive", []string{"internal/archive"},
		[]string{"readers", "storage", "shared", "types", "data"}},
	{"readers", []string{"internal/geoparse/...", "internal/evidence/...", "internal/ingest", "internal/resize/...",
		"internal/i18n", "internal/markdown", "internal/auth", "internal/attribution"},
		[]string{"shared", "types"}},
	{"storage", []string{"internal/store"},
		[]string{"shared", "types"}},
	{"shared", []string{"internal/geoparse/lexicon", "internal/agreement", "internal/conflict"},
		[]string{"types"}},
	{"types", []string{"internal/photo", "internal/story"}, nil},
	{"data", []string{"assets", "geodata"}, nil},
}

// layerOf is the layer that places pkg: an exact path first, else the
// longest subtree that holds it; "" when none does.
func layerOf(pkg string) string {
	layer, longest := "", -1
	for _, l := range layers {
		for _, p := range l.packages {
			if p == pkg {
				return l.name
			}
			if dir, ok := strings.CutSuffix(p, "/..."); ok && (pkg == dir || strings.HasPrefix(pkg, dir+"/")) && len(dir) > longest {
				layer, longest = l.name, len(dir)
			}
		}
	}
	return layer
}

// mayImport reports whether a package of layer from may import one of
// layer to.
func mayImport(from, to string) bool {
	if from == to {
		return true
	}
	for _, l := range layers {
		if l.name == from {
			return slices.Contains(l.imports, to)
		}
	}
	return false
}

// TestLayers reads every package's imports (its Go files, tests aside)
// and fails on one the table does not place, and on an import its layer
// may not make. (It reads the files itself, rather than asking go list,
// so that go test's cache knows what it read.)
func TestLayers(t *testing.T) {
	imports, err := readImports("..")
	if err != nil {
		t.Fatal(err)
	}
	if len(imports) < 50 {
		t.Fatalf("%d packages read: the walk missed the house", len(imports))
	}
	for _, pkg := range sortedKeys(imports) {
		from := layerOf(pkg)
		if from == "" {
			t.Errorf("%s is in no layer: place it in the table (and the README's picture)", pkg)
			continue
		}
		for _, dep := range sortedKeys(imports[pkg]) {
			to := layerOf(dep)
			if !mayImport(from, to) {
				t.Errorf("%s (%s) imports %s (%s): an arrow the layers do not allow", pkg, from, dep, to)
			}
		}
	}
}

// TestLayersTable checks the table itself: its layers name only layers
// below them, so that no two may import each other.
func TestLayersTable(t *testing.T) {
	seen := map[string]bool{}
	for i := len(layers) - 1; i >= 0; i-- {
		for _, below := range layers[i].imports {
			if !seen[below] {
				t.Errorf("layer %s may import %s, which is not below it", layers[i].name, below)
			}
		}
		seen[layers[i].name] = true
	}
	for _, c := range []struct{ pkg, layer string }{
		{"internal/store", "storage"},
		{"internal/geoparse/lexicon", "shared"},
		{"internal/geoparse/caption", "readers"},
		{"internal/http/httpapi", "http"},
		{"internal/evidence", "readers"},
		{"internal/evidencex", ""},
		{"cmd/syriamap", "commands"},
		{"internal", ""},
	} {
		if got := layerOf(c.pkg); got != c.layer {
			t.Errorf("layerOf(%s) = %q, want %q", c.pkg, got, c.layer)
		}
	}
	for _, c := range []struct {
		from, to string
		want     bool
	}{
		{"http", "archive", true},
		{"http", "storage", false},
		{"readers", "archive", false},
		{"storage", "readers", false},
		{"archive", "storage", true},
		{"types", "shared", false},
	} {
		if got := mayImport(c.from, c.to); got != c.want {
			t.Errorf("mayImport(%s, %s) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
}

// readImports reads the Go files under root (tests, testdata and hidden
// folders aside) and returns each package's imports of the module's own
// packages, both by path from the module's root.
func readImports(root string) (map[string]map[string]bool, error) {
	imports := map[string]map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		if pkg == "." {
			pkg = ""
		}
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, spec := range f.Imports {
			if dep, ok := strings.CutPrefix(strings.Trim(spec.Path.Value, `"`), module); ok {
				imports[pkg][dep] = true
			}
		}
		return nil
	})
	delete(imports, "internal") // this test's own package: doc.go
	return imports, err
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
