package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestFlagsAfterArguments: the README's form, with the note after the
// ids, works; flags go anywhere.
func TestFlagsAfterArguments(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	out, _, err := runCmd(t, "", "list", "--db", db, "--limit", "1")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.Fields(strings.Split(out, "\n")[1])[0]
	out, errOut, err := runCmd(t, "", "set-place", id, "ocha:SY02", "--note", "read on the agency's page", "--db", db)
	if err != nil || !strings.Contains(out, "is now at Aleppo") {
		t.Fatalf("set-place ID PLACE --note: %q %q %v", out, errOut, err)
	}
	out, _, _ = runCmd(t, "", "list", "--db", db, "--", "--limit")
	if !strings.Contains(out, "photos") {
		t.Errorf("-- ends the flags: %q", out)
	}
}

// TestPointMustBeAPoint: --point takes two plain decimals on the Earth.
func TestPointMustBeAPoint(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	for _, pt := range []string{"NaN,NaN", "0x1p5,33", "3_6,33", "Inf,1", "200,33", "36,-91", "36"} {
		_, errOut, err := runCmd(t, "", "set-place", "--db", db, "0123456789abcdef", "--point", pt)
		if exitCode(err) != 2 || !strings.Contains(errOut+fmt.Sprint(err), "--point") {
			t.Errorf("--point %s: %v %q", pt, err, errOut)
		}
	}
}

// TestListShowsControlCharactersAsText: a caption's escape sequences must
// not reach the user's terminal.
func TestListShowsControlCharactersAsText(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	txt := filepath.Join(dir, "esc.txt")
	os.WriteFile(txt, []byte("Evil \x1b]0;pwned\x07 caption in Daraa \x1b[31mred \u202eevil\n"), 0o644)
	if _, _, err := runCmd(t, "", "import", "--db", db, txt); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "", "list", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(out, "\x1b\x07\u202e") || !strings.Contains(out, "caption in Daraa") {
		t.Errorf("list wrote control characters: %q", out)
	}
}

// TestConcurrentImports: two imports at once into one archive (two
// processes, as far as SQLite can tell) both succeed whole.
func TestConcurrentImports(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	files := make([]string, 2)
	for i := range files {
		var b strings.Builder
		for j := range 3000 {
			fmt.Fprintf(&b, "Photo %d of file %d: a man walks in Aleppo, Syria, May 2, 2016. REUTERS/Abdalrhman Ismail\n\n", j, i)
		}
		files[i] = filepath.Join(dir, fmt.Sprintf("f%d.txt", i))
		os.WriteFile(files[i], []byte(b.String()), 0o644)
	}
	if _, _, err := runCmd(t, "", "list", "--db", db); err != nil { // create it
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	outs := make([]string, 2)
	errs := make([]error, 2)
	for i := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], _, errs[i] = runCmd(t, "", "import", "--db", db, files[i])
		}()
	}
	wg.Wait()
	for i := range files {
		if errs[i] != nil || !strings.Contains(outs[i], "3000 added") || !strings.Contains(outs[i], "0 rejected") {
			t.Errorf("import %d: %q %v", i, outs[i], errs[i])
		}
	}
	out, _, _ := runCmd(t, "", "list", "--db", db, "--limit", "1")
	if !strings.Contains(out, "of 6015 photos") {
		t.Errorf("after both: %q", out)
	}
}

// TestDamagedArchive: an import into a damaged archive stops before
// writing, and says so; a backup is a sound copy of a live archive.
func TestDamagedArchiveAndBackup(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	var b strings.Builder
	for j := range 4000 {
		fmt.Fprintf(&b, "Photo %d: a man walks in Aleppo, Syria, May 2, 2016. REUTERS/Abdalrhman Ismail\n\n", j)
	}
	txt := filepath.Join(dir, "f.txt")
	os.WriteFile(txt, []byte(b.String()), 0o644)
	if _, _, err := runCmd(t, "", "import", "--db", db, txt); err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(dir, "copy.db")
	out, _, err := runCmd(t, "", "backup", "--db", db, copyPath)
	if err != nil || !strings.Contains(out, "4000 photos") {
		t.Fatalf("backup: %q %v", out, err)
	}
	out, _, err = runCmd(t, "", "list", "--db", copyPath, "--limit", "1")
	if err != nil || !strings.Contains(out, "of 4000 photos") {
		t.Errorf("the backup: %q %v", out, err)
	}
	// Damage the copy in its middle.
	f, _ := os.OpenFile(copyPath, os.O_RDWR, 0)
	st, _ := f.Stat()
	f.WriteAt(bytes.Repeat([]byte{0xff}, 8192), st.Size()/2)
	f.Close()
	more := filepath.Join(dir, "more.txt")
	os.WriteFile(more, []byte("One more caption in Homs.\n"), 0o644)
	_, errOut, err := runCmd(t, "", "import", "--db", copyPath, more)
	if err == nil || !strings.Contains(errOut+err.Error(), "damaged") {
		t.Errorf("an import into a damaged archive: %q %v", errOut, err)
	}
}

// TestServeReadOnly: a read-only server opens an archive without writing
// to it, and another application's database is refused untouched.
func TestServeReadOnly(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if _, _, err := runCmd(t, "", "list", "--db", db); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(db)
	url, stop := serveForTest(t, "--db", db, "--read-only")
	body := getBody(t, url+"healthz")
	stop()
	if strings.TrimSpace(body) != "ok" {
		t.Errorf("healthz: %q", body)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Error("serving read-only changed the archive")
	}
	other := filepath.Join(dir, "other.db")
	os.WriteFile(other, []byte("SQLite format 3\x00"+strings.Repeat("\x00", 84)), 0o644)
	if _, _, err := runCmd(t, "", "serve", "--db", other, "--addr", "127.0.0.1:0"); err == nil {
		t.Error("served a file that is not an archive")
	}
}
