package publish

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A symbolic link anywhere inside the output folder is never written
// through: the publish refuses with a message naming it, and nothing
// lands where the link points.
func TestPublishNeverWritesThroughALink(t *testing.T) {
	a := testArchive(t, 20)
	for _, name := range []string{"download", "places", "data"} {
		t.Run(name, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			if err := os.Symlink(outside, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			_, err := Publish(context.Background(), a, dir, Options{IncludeUnplaced: true})
			if err == nil || !strings.Contains(err.Error(), name+" in ") || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("publishing over a linked %s/: %v", name, err)
			}
			if left, _ := os.ReadDir(outside); len(left) != 0 {
				t.Errorf("the publish wrote %d files through the link", len(left))
			}
		})
	}
	// A link in place of one file is not written through either.
	dir, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "victim.html")
	os.WriteFile(target, []byte("mine"), 0o644)
	if err := os.Symlink(target, filepath.Join(dir, "about.html")); err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(context.Background(), a, dir, Options{IncludeUnplaced: true}); err == nil || !strings.Contains(err.Error(), "about.html") {
		t.Errorf("publishing over a linked about.html: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "mine" {
		t.Errorf("the file the link points to was changed")
	}
}

// A publish that was killed leaves half-written files; the next one
// removes them before it starts.
func TestPublishRemovesHalfWrittenFiles(t *testing.T) {
	a := testArchive(t, 20)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "download"), 0o755)
	half := filepath.Join(dir, "download", ".photos.csv.gz.123456"+tempSuffix)
	os.WriteFile(half, []byte("half"), 0o644)
	if _, err := Publish(context.Background(), a, dir, Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(half); !os.IsNotExist(err) {
		t.Errorf("the half-written file is still there")
	}
}
