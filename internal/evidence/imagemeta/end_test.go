package imagemeta

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/internal/resize/bomb"
)

// Every whole fixture reaches its end marker, written at once or a byte
// at a time; cut anywhere after its header, or missing its last two
// bytes, it does not.
func TestEndCheck(t *testing.T) {
	var files []string
	for _, name := range must(filepath.Glob("testdata/*.jpg")) {
		if filepath.Base(name)[:4] != "bad-" {
			files = append(files, name)
		}
	}
	ended := func(b []byte, step int) bool {
		var c EndCheck
		for i := 0; i < len(b); i += step {
			c.Write(b[i:min(len(b), i+step)])
		}
		return c.Ended()
	}
	check := func(name string, b []byte) {
		for _, step := range []int{1, 7, 1 << 20} {
			if !ended(b, step) {
				t.Errorf("%s, written %d bytes at a time: no end found", name, step)
			}
			if ended(b[:len(b)-2], step) {
				t.Errorf("%s without its last two bytes: an end found", name)
			}
			if ended(b[:len(b)/2], step) {
				t.Errorf("%s cut at half: an end found", name)
			}
		}
		// Data after the end marker is a camera's own; the file is whole.
		if !ended(append(append([]byte{}, b...), "trailer\xFF\xD8"...), 5) {
			t.Errorf("%s with a trailer: no end found", name)
		}
	}
	for _, name := range files {
		check(name, must(os.ReadFile(name)))
	}
	check("progressive", bomb.FlatJPEG(640, 480, true))
	check("with caption", bomb.WithCaption(bomb.FlatJPEG(64, 64, false), "A caption"))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
