package importapi

import (
	"path"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// maxNameBytes bounds an uploaded file's name: what a file system takes.
const maxNameBytes = 255

// fileName is the name a client sent for a file (a multipart part's, a
// resumable upload's metadata) as the server keeps it: its base name, a
// folder's path aside, whichever slashes it has. A name
// holding a control character or a bidirectional override is refused as
// a place's name is (photo.CheckName), and so is one past 255 bytes or
// one with no name left: a name is never a path.
func fileName(sent string) (string, error) {
	name := path.Base(strings.ReplaceAll(sent, `\`, "/"))
	switch {
	case name == "." || name == ".." || name == "/" || strings.TrimSpace(name) == "":
		return "", photo.ParamErrorf("file name", "%q names no file: send the file's own name", sent)
	case len(name) > maxNameBytes:
		return "", photo.ParamErrorf("file name", "the name is %d bytes long; a file's name has at most %d bytes", len(name), maxNameBytes)
	}
	if err := photo.CheckName("file name", name); err != nil {
		return "", err
	}
	return name, nil
}
