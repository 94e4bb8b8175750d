package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestExportEvidence (issue 42, part 3): a bag of the archive's photos
// holds each original as imported, its metadata as read, caption, record
// and custody; it validates with sha256sum -c on both manifests and
// against RFC 8493 read line by line; a filter narrows it.
func TestExportEvidence(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	photos := filepath.Join(dir, "photos")
	os.MkdirAll(photos, 0o755)
	var originals []string
	for _, name := range []string{"iptc-utf8.jpg", "xmp-only.jpg", "check-abroad.jpg"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "internal", "evidence", "imagemeta", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(photos, name), b, 0o644)
		h := sha256.Sum256(b)
		originals = append(originals, hex.EncodeToString(h[:]))
	}
	if out, errOut, err := runCmd(t, "", "import", "--db", db, photos); err != nil {
		t.Fatalf("import: %v\n%s%s", err, out, errOut)
	}
	os.RemoveAll(photos)
	bagDir := filepath.Join(dir, "bag")
	out, errOut, err := runCmd(t, "", "export-evidence", "--db", db, bagDir)
	if err != nil || !strings.Contains(out, "with their originals") {
		t.Fatalf("export: %v\n%s%s", err, out, errOut)
	}
	checkBag(t, bagDir)

	// Each original is in the bag as imported, with its custody.
	kept := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(bagDir, "data", "*", "original.jpg"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		h := sha256.Sum256(b)
		kept[hex.EncodeToString(h[:])] = true
		var c struct {
			Records []struct{ Action, Hash string }
		}
		cb, _ := os.ReadFile(filepath.Join(filepath.Dir(f), "custody.json"))
		if json.Unmarshal(cb, &c) != nil || len(c.Records) == 0 || c.Records[0].Action != "import" || len(c.Records[0].Hash) != 64 {
			t.Errorf("%s: custody %s", f, cb)
		}
		for _, name := range []string{"caption.txt", "metadata.json", "record.json"} {
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), name)); err != nil {
				t.Error(err)
			}
		}
	}
	for _, sum := range originals {
		if !kept[sum] {
			t.Errorf("the original %s is not in the bag", sum)
		}
	}

	// sha256sum checks both manifests, without syriamap.
	if _, err := exec.LookPath("sha256sum"); err == nil {
		cmd := exec.Command("sha256sum", "--strict", "-c", "manifest-sha256.txt", "tagmanifest-sha256.txt")
		cmd.Dir = bagDir
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c: %v\n%s", err, b)
		}
	}
	// A changed payload file fails the check.
	os.WriteFile(filepath.Join(filepath.Dir(files[0]), "caption.txt"), []byte("another caption\n"), 0o644)
	if problems := bagProblems(bagDir); len(problems) == 0 {
		t.Error("a changed caption in the bag went unnoticed")
	}

	// A filter: the export is of those photos alone; an existing bag is
	// not written into.
	if _, _, err := runCmd(t, "", "export-evidence", "--db", db, bagDir); exitCode(err) == 0 {
		t.Error("export into a folder that holds a bag: no error")
	}
	narrow := filepath.Join(dir, "narrow")
	if out, _, err := runCmd(t, "", "export-evidence", "--db", db, "--agency", "No Such Agency", narrow); err != nil || !strings.Contains(out, "exported 0 photos") {
		t.Errorf("a filter that selects nothing: %v %s", err, out)
	}
	checkBag(t, narrow)
}

// checkBag fails the test for each way the bag departs from RFC 8493.
func checkBag(t *testing.T, root string) {
	t.Helper()
	for _, p := range bagProblems(root) {
		t.Error(p)
	}
}

// bagProblems reads a bag as RFC 8493 says it is written: bagit.txt's two
// lines in order; bag-info.txt's labels and continuation lines and its
// Payload-Oxum; every payload file under data/ in the manifest and every
// manifest line's file present with that SHA-256; the tag manifest
// covering the tag files.
func bagProblems(root string) []string {
	var out []string
	add := func(f string, a ...any) { out = append(out, fmt.Sprintf(f, a...)) }
	b, err := os.ReadFile(filepath.Join(root, "bagit.txt"))
	if err != nil || string(b) != "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n" {
		add("bagit.txt: %q (%v)", b, err)
	}
	info, err := os.ReadFile(filepath.Join(root, "bag-info.txt"))
	if err != nil {
		add("bag-info.txt: %v", err)
	}
	label := regexp.MustCompile(`^[^:\s][^:]*: .*$`)
	var oxum string
	for i, line := range strings.Split(strings.TrimSuffix(string(info), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"):
			if i == 0 {
				add("bag-info.txt line 1 continues nothing")
			}
		case !label.MatchString(line):
			add("bag-info.txt line %d is not 'Label: value': %q", i+1, line)
		case strings.HasPrefix(line, "Payload-Oxum: "):
			oxum = strings.TrimPrefix(line, "Payload-Oxum: ")
		}
	}
	sums := func(name string) map[string]string {
		m := map[string]string{}
		f, err := os.Open(filepath.Join(root, name))
		if err != nil {
			add("%s: %v", name, err)
			return m
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			sum, path, ok := strings.Cut(sc.Text(), "  ")
			if !ok || len(sum) != 64 || strings.Contains(path, "\\") || strings.HasPrefix(path, "/") || strings.Contains(path, "..") {
				add("%s line %d: %q", name, n, sc.Text())
				continue
			}
			m[path] = sum
		}
		return m
	}
	payload := sums("manifest-sha256.txt")
	var octets int64
	count := 0
	filepath.WalkDir(filepath.Join(root, "data"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		b, _ := os.ReadFile(p)
		h := sha256.Sum256(b)
		octets += int64(len(b))
		count++
		switch want, ok := payload[rel]; {
		case !ok:
			add("%s is not in the manifest", rel)
		case want != hex.EncodeToString(h[:]):
			add("%s does not hash to its manifest's SHA-256", rel)
		}
		delete(payload, rel)
		return nil
	})
	for p := range payload {
		add("the manifest lists %s, which the bag lacks", p)
	}
	if want := strconv.FormatInt(octets, 10) + "." + strconv.Itoa(count); oxum != want {
		add("Payload-Oxum %q, the payload is %s", oxum, want)
	}
	tags := sums("tagmanifest-sha256.txt")
	for _, name := range []string{"bagit.txt", "bag-info.txt", "manifest-sha256.txt"} {
		b, _ := os.ReadFile(filepath.Join(root, name))
		h := sha256.Sum256(b)
		if tags[name] != hex.EncodeToString(h[:]) {
			add("the tag manifest does not hold %s's SHA-256", name)
		}
	}
	return out
}
