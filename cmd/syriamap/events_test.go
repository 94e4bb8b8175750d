package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEventsImport: GED rows and an ACLED export import together, again
// change nothing, and a file with a bad row writes nothing, naming the
// file and line (exit 1); no version in the name and none given is a
// clear error.
func TestEventsImport(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	dir := t.TempDir()
	copyTo := func(src, name string) string {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	ged := copyTo("../../internal/conflict/testdata/ged-syria-sample.csv", "ged-syria-19.1.csv")
	acled := copyTo("../../internal/conflict/testdata/acled-synthetic.csv", "acled-2020.01.csv")
	out, _, err := runCmd(t, "", "events", "import", "--db", db, ged, acled)
	if err != nil || !strings.Contains(out, "ucdp-ged 19.1: 11 events read: 11 added") || !strings.Contains(out, "acled 2020.01: 2 events read: 2 added") {
		t.Fatalf("import: %v\n%s", err, out)
	}
	if out, _, err := runCmd(t, "", "events", "import", "--db", db, ged); err != nil || !strings.Contains(out, "11 unchanged") {
		t.Errorf("again: %v\n%s", err, out)
	}
	bad := filepath.Join(dir, "ged-bad-19.2.csv")
	b, _ := os.ReadFile(ged)
	lines := strings.SplitAfter(string(b), "\n")
	fields := strings.SplitN(lines[3], ",", 5)
	fields[3] = "9" // type_of_violence, a code GED has not
	lines[3] = strings.Join(fields, ",")
	os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644)
	fresh := filepath.Join(t.TempDir(), "b.db")
	_, _, err = runCmd(t, "", "events", "import", "--db", fresh, acled, bad)
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "ged-bad-19.2.csv:4:") {
		t.Errorf("a bad row: exit %d, %v; want 1 naming the file and line", exitCode(err), err)
	}
	if out, _, err := runCmd(t, "", "events", "import", "--db", fresh, acled); err != nil || !strings.Contains(out, "2 added") {
		t.Errorf("after a refused import, the good file's events: %v\n%s; want them all new (nothing was written)", err, out)
	}
	noVersion := copyTo(ged, "events.csv")
	if _, _, err := runCmd(t, "", "events", "import", "--db", db, noVersion); exitCode(err) != 1 || !strings.Contains(err.Error(), "--version") {
		t.Errorf("no version: %v", err)
	}
	if out, _, err := runCmd(t, "", "events", "import", "--db", db, "--version", "19.1", noVersion); err != nil || !strings.Contains(out, "11 unchanged") {
		t.Errorf("--version: %v\n%s", err, out)
	}
	if _, _, err := runCmd(t, "", "events", "frobnicate"); exitCode(err) != 2 {
		t.Errorf("events frobnicate: exit %d, want 2", exitCode(err))
	}
}

// TestEventsSuggest: every photo's candidates as CSV — the Aleppo photo
// of 1 January 2016 has GED 214808 first and likely, with its reasons;
// the Saraqeb photo the ACLED event by its id alone (no notes, no
// actors); --likely leaves out the rest.
func TestEventsSuggest(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	dir := t.TempDir()
	ged, acled := filepath.Join(dir, "ged-19.1.csv"), filepath.Join(dir, "acled-2020.01.csv")
	for src, dst := range map[string]string{"../../internal/conflict/testdata/ged-syria-sample.csv": ged, "../../internal/conflict/testdata/acled-synthetic.csv": acled} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(dst, b, 0o644)
	}
	captions := filepath.Join(dir, "photos.txt")
	os.WriteFile(captions, []byte("Rebel fighters fire a mortar during clashes in Aleppo, Syria January 1, 2016. REUTERS/Abdalrhman Ismail\n\n"+
		"A man walks past a damaged building in Saraqeb, Idlib province, Syria January 15, 2018. REUTERS/Ammar Abdullah\n\n"+
		// Two days after Teir Maaleh's shelling: a candidate, never likely.
		"Men inspect a damaged building in Teir Maaleh, Homs province, Syria January 3, 2016. REUTERS/Marko Djurica\n"), 0o644)
	if _, _, err := runCmd(t, "", "import", "--db", db, captions); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "", "events", "import", "--db", db, ged, acled); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCmd(t, "", "events", "suggest", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "photo,dataset,version,event,score,likely,why" || len(lines) < 4 || !strings.Contains(errOut, "for 3 photos") {
		t.Fatalf("suggest:\n%s\n%s", out, errOut)
	}
	var aleppoFirst, acledByID bool
	seen := map[string]bool{}
	for _, l := range lines[1:] {
		f := strings.SplitN(l, ",", 7)
		if !seen[f[0]] && f[3] == "214808" && f[5] == "true" && strings.Contains(f[6], "same city, same day") {
			aleppoFirst = true
		}
		seen[f[0]] = true
		if f[1] == "acled" {
			acledByID = f[3] == "SYR900001" && f[6] == ""
		}
	}
	if !aleppoFirst || !acledByID || strings.Contains(out, "made-up") || strings.Contains(out, "Military Forces") {
		t.Errorf("suggest: Aleppo's first %v, ACLED by id alone %v:\n%s", aleppoFirst, acledByID, out)
	}
	likely, _, err := runCmd(t, "", "events", "suggest", "--db", db, "--likely")
	if err != nil || strings.Contains(likely, ",false,") || len(strings.Split(strings.TrimSpace(likely), "\n")) >= len(lines) {
		t.Errorf("--likely: %v\n%s", err, likely)
	}
}
