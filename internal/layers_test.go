package internal

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/syriamap/syriamap/internal/"

// layers says which internal packages each group may not import: no
// package imports one of a higher layer.
var layers = []struct {
	group  string   // a package path under internal/, or its prefix
	forbid []string // prefixes it may not import
	except []string // of those, what it may
}{
	// Below the HTTP layer, nothing imports it.
	{"archive", []string{"http/"}, nil},
	{"evidence", []string{"http/"}, nil},
	{"geoparse/", []string{"http/", "archive", "evidence", "store"}, nil},
	{"ingest", []string{"http/", "archive", "evidence", "store"}, nil},
	{"resize", []string{"http/", "archive", "evidence", "store"}, nil},
	// The storage imports no domain package but the word lists its
	// Arabic search folds by.
	{"store", []string{"http/", "archive", "evidence", "geoparse/", "ingest", "resize", "i18n"}, []string{"geoparse/lexicon"}},
	// The types every layer shares import none of them.
	{"photo", []string{""}, nil},
	{"story", []string{""}, []string{"photo"}},
	{"conflict", []string{""}, []string{"photo"}},
}

// TestLayers reads every package's imports (its Go files, tests aside)
// and fails on one that points up a layer. (It reads the files itself,
// rather than asking go list, so that go test's cache knows what it read.)
func TestLayers(t *testing.T) {
	imports := map[string]map[string]bool{} // package under internal/ → its internal imports
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testdata") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
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
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for pkg, deps := range imports {
		for _, l := range layers {
			if pkg != l.group && !(strings.HasSuffix(l.group, "/") && strings.HasPrefix(pkg, l.group)) && !strings.HasPrefix(pkg, l.group+"/") {
				continue
			}
			checked++
			for dep := range deps {
				if dep == pkg || strings.HasPrefix(dep, pkg+"/") {
					continue
				}
				if forbidden(dep, l.forbid) && !forbidden(dep, l.except) {
					t.Errorf("%s imports %s, a layer above it", pkg, strconv.Quote(dep))
				}
			}
		}
	}
	if checked < 15 {
		t.Errorf("%d packages checked: the layers name packages that are not there", checked)
	}
}

func forbidden(dep string, prefixes []string) bool {
	for _, p := range prefixes {
		if dep == p || strings.HasPrefix(dep, p) && (p == "" || strings.HasSuffix(p, "/")) || strings.HasPrefix(dep, p+"/") {
			return true
		}
	}
	return false
}
