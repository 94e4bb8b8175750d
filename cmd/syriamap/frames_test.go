package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/photo"
)

// importPictures imports, into a new archive, a picture of its own for
// each caption (a JPEG with the caption in its IIM), hashed as they
// arrive, and returns the archive's path and the photos' ids in order.
func importPictures(t *testing.T, captions ...string) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	db, in := filepath.Join(dir, "a.db"), filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	for i, caption := range captions {
		r := rand.New(rand.NewPCG(uint64(i+1), 9))
		img := image.NewRGBA(image.Rect(0, 0, 320, 240))
		for range 20 {
			c := color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
			x0, y0, w, h := r.IntN(320), r.IntN(240), 10+r.IntN(120), 10+r.IntN(120)
			for y := y0; y < min(240, y0+h); y++ {
				for x := x0; x < min(320, x0+w); x++ {
					img.Set(x, y, c)
				}
			}
		}
		var b bytes.Buffer
		jpeg.Encode(&b, img, &jpeg.Options{Quality: 90})
		body := append(append(append([]byte{}, b.Bytes()[:2]...), imagemeta.IIMSegment(map[int][]string{120: {caption}})...), b.Bytes()[2:]...)
		if err := os.WriteFile(filepath.Join(in, string(rune('a'+i))+".jpg"), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, errOut, err := runCmd(t, "", "import", "--db", db, in); err != nil {
		t.Fatalf("import: %v\n%s%s", err, out, errOut)
	}
	var ids []string
	for _, c := range captions {
		ids = append(ids, photo.ID(c))
	}
	return db, ids
}

// TestFramesMatchAndExport (issue 70, item 3): `frames --export` writes
// the public's photos' PDQ hashes, a withheld photo's only with
// --include-withheld; `frames --match` of that list finds each photo at
// distance 0, as CSV, the withheld one marked; a bad line refuses the
// list by file and line and prints nothing.
func TestFramesMatchAndExport(t *testing.T) {
	db, ids := importPictures(t,
		"Men walk through rubble in Aleppo, Syria, May 12, 2013. (AP Photo/Hussein Malla)",
		"People shop in a market in Damascus, Syria, June 2, 2015. REUTERS/Omar Sanadiki",
		"A boy sits near a tent in Ras al-Ain, Syria, January 22, 2017. (Photo by Rodi Said/Reuters)")
	ctx := context.Background()
	a, closeDB, err := openArchive(ctx, db, openWrite, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetHarm(photo.AsEditor(ctx, "rana"), ids[2], photo.HarmWithheld, "rana", "a test"); err != nil {
		t.Fatal(err)
	}
	closeDB()
	dir := filepath.Dir(db)
	lines := func(path string) []string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}

	public := filepath.Join(dir, "public.txt")
	if out, errOut, err := runCmd(t, "", "frames", "--db", db, "--export", public); err != nil || !strings.Contains(out, "2 PDQ hashes written") {
		t.Fatalf("--export: %v\n%s%s", err, out, errOut)
	}
	if got := strings.Join(lines(public), "\n"); strings.Contains(got, ids[2]) || !strings.Contains(got, ","+ids[0]) || !strings.Contains(got, ","+ids[1]) {
		t.Errorf("the public's list:\n%s\nwant %s and %s, not the withheld %s", got, ids[0], ids[1], ids[2])
	}
	all := filepath.Join(dir, "all.txt")
	if out, errOut, err := runCmd(t, "", "frames", "--include-withheld", "--export", all, "--db", db); err != nil || !strings.Contains(out, "3 PDQ hashes written") || !strings.Contains(out, "1 withheld") {
		t.Fatalf("--export --include-withheld: %v\n%s%s", err, out, errOut)
	}

	out, errOut, err := runCmd(t, "", "frames", "--db", db, "--match", all)
	if err != nil {
		t.Fatalf("--match: %v\n%s", err, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) < 4 || strings.Join(rows[0], ",") != "photo_id,label,distance,quality,list_line,withheld" {
		t.Fatalf("--match printed %q (%v)", out, err)
	}
	self := map[string]string{}
	for _, r := range rows[1:] {
		if r[0] == r[1] {
			self[r[0]] = r[2] + " " + r[5]
		}
	}
	for i, id := range ids {
		want := "0 "
		if i == 2 {
			want = "0 withheld"
		}
		if self[id] != want {
			t.Errorf("photo %s by its own line: %q, want %q\n%s", id, self[id], want, out)
		}
	}
	if !strings.Contains(errOut, "3 of the archive's PDQ hashes compared with 3") || !strings.Contains(errOut, "withheld from the public") {
		t.Errorf("--match said %q", errOut)
	}

	// A label that starts like a formula is made safe for a spreadsheet.
	first := strings.SplitN(lines(all)[0], ",", 2)[0]
	partner := filepath.Join(dir, "partner.txt")
	os.WriteFile(partner, []byte("# a partner's list\n"+first+" =HYPERLINK(\"x\")\n"), 0o644)
	if out, _, err := runCmd(t, "", "frames", "--db", db, "--match", partner); err != nil || !strings.Contains(out, `'=HYPERLINK(""x"")`) {
		t.Errorf("a formula's label: %v\n%s", err, out)
	}
	// A bad line: the file and line, nothing printed.
	os.WriteFile(partner, []byte(first+"\n\n"+first[:60]+" x\n"), 0o644)
	out, _, err = runCmd(t, "", "frames", "--db", db, "--match", partner)
	if err == nil || exitCode(err) != 1 || !strings.Contains(errorText(err), partner+":3: not a PDQ hash") || out != "" {
		t.Errorf("a bad line: %v (%d), printed %q", err, exitCode(err), out)
	}
	if _, _, err := runCmd(t, "", "frames", "--db", db, "--include-withheld"); exitCode(err) != 2 {
		t.Errorf("--include-withheld without --export: %v", err)
	}
}

// TestFramesExportIntoAMissingFolder: --export into a folder that is not
// there names the folder, not the temporary file it would have written.
func TestFramesExportIntoAMissingFolder(t *testing.T) {
	db, _ := importPictures(t, "Men walk through rubble in Aleppo, Syria, May 12, 2013. (AP Photo/Hussein Malla)")
	missing := filepath.Join(filepath.Dir(db), "no-such-folder", "list.txt")
	_, errOut, err := runCmd(t, "", "frames", "--db", db, "--export", missing)
	if err == nil || !strings.Contains(err.Error()+errOut, "cannot write into "+filepath.Dir(missing)) || strings.Contains(err.Error()+errOut, ".list.txt.") {
		t.Errorf("--export into a missing folder: %v %s; want the folder named, no temporary file", err, errOut)
	}
}
