package internal

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
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
	{"shared", []string{"internal/geoparse/lexicon", "internal/agreement", "internal/conflict", "internal/secondlook", "internal/pgtest"},
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

// TestLayersMatchTheReadme holds the table to the README's picture of
// the folders (the block that begins with cmd/syriamap/): every folder
// it shows is placed by the table, and every package the table names is
// shown, itself or a folder holding it.
func TestLayersMatchTheReadme(t *testing.T) {
	shown, err := readmeFolders("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(shown) < 40 {
		t.Fatalf("%d folders read from the README's picture: %v", len(shown), shown)
	}
	for _, f := range shown {
		if layerOf(f) == "" {
			t.Errorf("the README shows %s/, which no layer places", f)
		}
		if fi, err := os.Stat(filepath.Join("..", f)); err != nil || !fi.IsDir() {
			t.Errorf("the README shows %s/, which is not a folder (%v)", f, err)
		}
	}
	for _, l := range layers {
		for _, p := range l.packages {
			p = strings.TrimSuffix(p, "/...")
			if !slices.ContainsFunc(shown, func(f string) bool { return f == p || strings.HasPrefix(p, f+"/") || strings.HasPrefix(f, p+"/") }) {
				t.Errorf("layer %s names %s, which the README's picture does not show", l.name, p)
			}
		}
	}
}

// folderLine is a line of the README's picture: its indent and folder.
var folderLine = regexp.MustCompile(`^( *)([a-z0-9._-]+(?:/[a-z0-9._-]+)*)/(?:\s|$)`)

// readmeFolders reads the picture of the folders in the README at path:
// a folder at the line's start is a path from the module's root; one
// indented by two spaces more than the folder above is inside it.
func readmeFolders(readme string) ([]string, error) {
	f, err := os.Open(readme)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var shown, outer []string // outer: the folders the next line may be inside, by depth
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && strings.HasPrefix(line, "cmd/syriamap/ "):
			in = true
		case in && strings.HasPrefix(line, "```"):
			return shown, sc.Err()
		case !in:
			continue
		}
		m := folderLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		depth := len(m[1]) / 2
		if depth > len(outer) {
			continue // a continuation line that happens to start with a word and a slash
		}
		dir := m[2]
		if depth > 0 {
			dir = path.Join(outer[depth-1], dir)
		}
		outer = append(outer[:depth], dir)
		shown = append(shown, dir)
	}
	return shown, sc.Err()
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
