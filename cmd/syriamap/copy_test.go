package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/pgtest"
	"github.com/syriamap/syriamap/internal/store"
)

// TestCopyToPostgresAndBack (issue 71, item 5) walks through syriamap
// copy as the README does: an archive of the sample captions, images
// whose originals are kept beside it, an editor, events and a corrected
// place, copied to PostgreSQL and from there to a new file; verify passes
// on each copy, reading the originals where they stay, with the custody
// head the copy printed for both. A second copy into the same database is
// refused.
func TestCopyToPostgresAndBack(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	photos := filepath.Join(dir, "photos")
	os.MkdirAll(photos, 0o755)
	for _, name := range []string{"iptc-utf8.jpg", "xmp-only.jpg"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "internal", "evidence", "imagemeta", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(photos, name), b, 0o644)
	}
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "geodata", "samples", "*.txt"))
	ged := filepath.Join(dir, "ged-syria-19.1.csv")
	b, err := os.ReadFile("../../internal/conflict/testdata/ged-syria-sample.csv")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(ged, b, 0o644)
	for _, args := range [][]string{
		append([]string{"import", "--db", db, photos}, seeds...),
		{"users", "add", "--db", db, "--password-stdin", "rana"},
		{"events", "import", "--db", db, ged},
	} {
		if out, errOut, err := runCmd(t, "a password of rana's\n", args...); err != nil {
			t.Fatalf("%s: %v\n%s%s", args[0], err, out, errOut)
		}
	}
	out, _, err := runCmd(t, "", "list", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	id := strings.Fields(strings.Split(out, "\n")[1])[0]
	if out, _, err := runCmd(t, "", "set-place", "--db", db, "--note", "read on a map", id, "--point", "37.05,36.27"); err != nil {
		t.Fatalf("set-place: %v\n%s", err, out)
	}
	originals := filepath.Join(dir, "originals")
	pg := pgtest.Database(t)
	back := filepath.Join(t.TempDir(), "back.db")
	head := regexp.MustCompile(`custody head of the original: (record \d+, \w+)\n.*custody head of the copy: +(record \d+, \w+)\n`)
	for _, step := range [][2]string{{db, pg}, {pg, back}} {
		out, errOut, err := runCmd(t, "", "copy", step[0], step[1])
		if err != nil {
			t.Fatalf("copy %s %s: %v\n%s%s", step[0], step[1], err, out, errOut)
		}
		m := head.FindStringSubmatch(out)
		if m == nil || m[1] != m[2] || !strings.Contains(out, "photos ") || !strings.Contains(out, "copied in ") {
			t.Errorf("copy %s %s printed:\n%s", step[0], step[1], out)
		}
		// The head as each archive holds it, before verify adds its own
		// records.
		for _, path := range step {
			if h := custodyHead(t, path); m != nil && h != m[1] {
				t.Errorf("%s holds the custody head %s; the copy printed %s", path, h, m[1])
			}
		}
		out, _, err = runCmd(t, "", "verify", "--db", step[1], "--originals", originals)
		if err != nil || !strings.Contains(out, "2 originals") || !strings.Contains(out, "the custody chain holds") {
			t.Errorf("verify of the copy %s: %v\n%s", step[1], err, out)
		}
	}
	_, _, err = runCmd(t, "", "copy", db, pg)
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "already holds an archive") || strings.Contains(err.Error(), "password") {
		t.Errorf("a copy into an archive: exit %d, %v", exitCode(err), err)
	}
}

// TestCopyRefusals: the built command exits 1 with a message naming what
// is wrong: the same archive twice, a server that cannot be reached; and
// 2 without its two arguments.
func TestCopyRefusals(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if _, _, err := runCmd(t, "", "import", "--db", db, "testdata/samples.golden.jsonl"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"copy", db, filepath.Join(dir, ".", "a.db")}, 1, "are the same archive"},
		{[]string{"copy", db, "postgres://someone:secret@127.0.0.1:1/archive?connect_timeout=5"}, 1, "cannot be reached"},
		{[]string{"copy", db}, 2, "give the archive to copy and the one to copy it into"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SYRIAMAP_TEST_MAIN="+strings.Join(tc.args, "\x1f"))
		var errOut strings.Builder
		cmd.Stderr = &errOut
		err := cmd.Run()
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		}
		if code != tc.code || !strings.Contains(errOut.String(), tc.want) || strings.Contains(errOut.String(), "secret") {
			t.Errorf("%v: exit %d, %q; want exit %d saying %q, no password", tc.args[1:], code, errOut.String(), tc.code, tc.want)
		}
	}
}

// custodyHead is the custody chain's head the archive at path holds, as
// copy prints it.
func custodyHead(t *testing.T, path string) string {
	t.Helper()
	s, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h, err := s.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("record %d, %s", h.Seq, h.Hash)
}
