package imagery

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestMediaDirServesOnlyImagesInside: paths that leave the folder are
// refused, and only images pass the sniffing, whatever their names.
func TestMediaDirServesOnlyImagesInside(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "2016"), 0o755)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	os.WriteFile(filepath.Join(dir, "2016", "a.png"), png, 0o644)
	os.WriteFile(filepath.Join(dir, "evil.jpg"), []byte("<html><script>alert(1)</script></html>"), 0o644)
	os.WriteFile(filepath.Join(filepath.Dir(dir), "secret.txt"), []byte("not for you"), 0o644)
	m, err := OpenMedia(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../secret.txt", "2016/../../secret.txt", "", "2016"} {
		if f, _, err := m.Open(p); err == nil {
			f.Close()
			t.Errorf("%q opened", p)
		}
	}
	f, _, err := m.Open("2016/a.png")
	if err != nil {
		t.Fatal(err)
	}
	if ct, err := SniffImage(f, "2016/a.png"); ct != "image/png" || err != nil {
		t.Errorf("a PNG: %q, %v", ct, err)
	}
	f.Close()
	f, _, _ = m.Open("evil.jpg")
	defer f.Close()
	if _, err := SniffImage(f, "evil.jpg"); photo.ErrorCode(err) != photo.EForbidden {
		t.Errorf("an HTML file named .jpg: %v", err)
	}
}

func TestIsSHA256(t *testing.T) {
	if !IsSHA256(strings.Repeat("ab", 32)) || IsSHA256(strings.Repeat("AB", 32)) || IsSHA256("../etc/passwd") {
		t.Error("IsSHA256 is wrong")
	}
}
