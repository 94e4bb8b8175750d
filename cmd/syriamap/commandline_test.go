package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A flag before the command word never hides it: every command is found
// however its flags are placed, values and all, and a word that is no
// command is left for run to refuse; only no command at all serves
// (issue 54, defect 5: "syriamap --db a.db import FILE" served the
// samples instead of importing FILE).
func TestCommandFirst(t *testing.T) {
	for cmd := range commands {
		for _, tc := range []struct{ in, want []string }{
			{[]string{"--db", "a.db", cmd, "x"}, []string{cmd, "x", "--db", "a.db"}},
			{[]string{"--db=a.db", cmd}, []string{cmd, "--db=a.db"}},
			{[]string{"--quiet", cmd, "x"}, []string{cmd, "x", "--quiet"}},
			{[]string{"-db", "a.db", "--read-only", cmd, "x", "--", "-y"}, []string{cmd, "x", "-db", "a.db", "--read-only", "--", "-y"}},
			{[]string{cmd, "--db", "a.db"}, []string{cmd, "--db", "a.db"}},
		} {
			if got := commandFirst(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
			}
		}
	}
	for _, args := range [][]string{{}, {"--addr", "127.0.0.1:9"}, {"--db", "import"}, {"nonsense", "import"}} {
		if got := commandFirst(args); !slices.Equal(got, args) {
			t.Errorf("%q: %q, want it as it was", args, got)
		}
	}
}

// The case of the defect, whole: the file is imported, nothing is served
// and no sample is seeded.
func TestFlagsBeforeTheCommandWord(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	captions := filepath.Join(dir, "captions.txt")
	os.WriteFile(captions, []byte("Boys play in Aleppo, Syria, July 12, 2016. (Photo by A. Person/AFP)\n"), 0o644)
	if out, errOut, err := runCmd(t, "", "--db", db, "import", captions); err != nil || !strings.Contains(out+errOut, "1 added") && !strings.Contains(out+errOut, "added 1") {
		t.Fatalf("syriamap --db a.db import FILE: %v\n%s%s", err, out, errOut)
	}
	out, _, err := runCmd(t, "", "--db", db, "list")
	if err != nil || !strings.Contains(out, "Boys play in Aleppo") || strings.Count(out, "\n") > 3 {
		t.Errorf("syriamap --db a.db list: %v\n%s", err, out)
	}
}
