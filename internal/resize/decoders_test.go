package resize

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyThePipelineDecodes (issue 65, fault 5): every decode of a
// picture takes the image budget, so no code outside this package calls
// an image decoder (image.Decode, jpeg.Decode, png.Decode, gif.Decode,
// webp.Decode…) — the frame hash once decoded whole pictures outside it,
// and a 30,000 × 30,000 upload took the server to 1.7 GB. Decoders'
// DecodeConfig reads only a header, and is allowed.
func TestOnlyThePipelineDecodes(t *testing.T) {
	decoders := map[string]bool{"image": true, "image/jpeg": true, "image/png": true, "image/gif": true, "golang.org/x/image/webp": true,
		"golang.org/x/image/bmp": true, "golang.org/x/image/tiff": true}
	root, self := filepath.Join("..", ".."), filepath.Join("..", "..", "internal", "resize")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == self {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		names := map[string]bool{} // the file's names for the decoders' packages
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if decoders[p] {
				name := p[strings.LastIndex(p, "/")+1:]
				if im.Name != nil {
					name = im.Name.Name
				}
				names[name] = true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && names[x.Name] && strings.HasPrefix(sel.Sel.Name, "Decode") && sel.Sel.Name != "DecodeConfig" {
				t.Errorf("%s: %s.%s decodes a picture outside the image budget: use resize.Pipeline (Decode, DecodeWhole)", path, x.Name, sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
