package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func runCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

// TestGeocodeContract checks the shape of each output line: the keys and
// their JSON types are a contract other tools rely on.
func TestGeocodeContract(t *testing.T) {
	in := "A man reacts in the rebel held besieged town of Douma, eastern Ghouta in Damascus, Syria, October 24,\n2016. (Photo by Bassam Khabieh/Reuters)\n\n" +
		"A Syrian rebel walks past Sham 2, a homemade armored vehicle. (Photo by Herve Bar/AFP Photo)\n"
	out, _, err := runCmd(t, in, "geocode")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2:\n%s", len(lines), out)
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"text", "date", "date_precision", "photographer", "agency", "place", "precision", "confidence", "mention", "alternatives"} {
		if _, ok := first[k]; !ok {
			t.Errorf("key %q missing from %s", k, lines[0])
		}
	}
	if first["text"] != "A man reacts in the rebel held besieged town of Douma, eastern Ghouta in Damascus, Syria, October 24, 2016. (Photo by Bassam Khabieh/Reuters)" {
		t.Errorf("text = %q: the lines of a paragraph are joined with a space", first["text"])
	}
	if first["date"] != "2016-10-24" || first["date_precision"] != "day" || first["agency"] != "Reuters" || first["photographer"] != "Bassam Khabieh" {
		t.Errorf("date, credit: %s", lines[0])
	}
	place, _ := first["place"].(map[string]any)
	for k, kind := range map[string]string{"id": "string", "name": "string", "kind": "string", "lat": "float64", "lon": "float64", "country": "string", "governorate": "string"} {
		if v, ok := place[k]; !ok || reflect.TypeOf(v).String() != kind {
			t.Errorf("place.%s = %#v, want a %s", k, v, kind)
		}
	}
	if place["name"] != "Douma" || place["country"] != "SY" || place["governorate"] != "Rif Dimashq" {
		t.Errorf("place = %v", place)
	}
	if c, _ := first["confidence"].(float64); c <= 0 || c > 1 {
		t.Errorf("confidence = %v", first["confidence"])
	}
	var second map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil {
		t.Fatal(err)
	}
	if second["place"] != nil || second["precision"] != "none" || second["date"] != nil {
		t.Errorf("an unplaced, undated caption: %s", lines[1])
	}
	if _, ok := second["alternatives"].([]any); !ok {
		t.Errorf("alternatives must be a list, even empty: %s", lines[1])
	}
}

// TestGeocodeSamplesGolden compares the output on the bundled samples with
// testdata/samples.golden.jsonl (go test -update rewrites it).
func TestGeocodeSamplesGolden(t *testing.T) {
	out, _, err := runCmd(t, "", "geocode", "--samples")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "samples.golden.jsonl")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("output differs from %s (run go test ./cmd/syriamap -update and review the diff)", golden)
	}
	if n := strings.Count(out, "\n"); n != 16 {
		t.Errorf("%d captions in the samples, want 16", n)
	}
}

func TestGeocodeFilesInOrder(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("A man in Idlib, Syria, 2015. REUTERS/A B\n\nA man in Homs, 2015. REUTERS/C D\n"), 0o644)
	os.WriteFile(b, []byte("A man in Aleppo, 2015. REUTERS/E F\n"), 0o644)
	out, _, err := runCmd(t, "", "geocode", a, b)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	var names []string
	for sc.Scan() {
		var r struct{ Place struct{ Name string } }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		names = append(names, r.Place.Name)
	}
	if strings.Join(names, ",") != "Idlib,Homs,Aleppo" {
		t.Errorf("places = %v, want Idlib,Homs,Aleppo in input order", names)
	}
}

// TestGeocodeManyInOrder geocodes more captions than several workers'
// batches hold and checks that every record comes back, in input order.
func TestGeocodeManyInOrder(t *testing.T) {
	places := []string{"Idlib", "Homs", "Aleppo", "Douma", "Raqqa"}
	var in strings.Builder
	const n = 3*geocodeBatch + 7
	for i := range n {
		fmt.Fprintf(&in, "Photo %d: a man in %s, Syria, 2015. REUTERS/A B\n\n", i, places[i%len(places)])
	}
	out, _, err := runCmd(t, in.String(), "geocode")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	i := 0
	for ; sc.Scan(); i++ {
		var r struct {
			Text  string
			Place struct{ Name string }
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("Photo %d:", i); !strings.HasPrefix(r.Text, want) || r.Place.Name != places[i%len(places)] {
			t.Fatalf("record %d = %q at %s, want %q… at %s", i, r.Text, r.Place.Name, want, places[i%len(places)])
		}
	}
	if i != n {
		t.Errorf("%d records for %d captions", i, n)
	}
}

func TestGeocodeErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("A man in Idlib.\n"), 0o644)
	bin := filepath.Join(dir, "latin1.txt")
	os.WriteFile(bin, []byte("Caf\xe9 in Idlib\n"), 0o644)
	missing := filepath.Join(dir, "missing.txt")

	out, _, err := runCmd(t, "", "geocode", good, missing)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("an unreadable file: err = %v, want it named", err)
	}
	if out != "" {
		t.Errorf("output before the error: %q", out)
	}
	if exitCode(err) == 0 {
		t.Error("exit code 0 for an unreadable file")
	}
	if _, _, err := runCmd(t, "", "geocode", bin); err == nil || !strings.Contains(err.Error(), bin) || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("a file that is not UTF-8: err = %v", err)
	}
	if _, _, err := runCmd(t, "", "frobnicate"); exitCode(err) != 2 {
		t.Errorf("an unknown command: err = %v, exit %d, want 2", err, exitCode(err))
	}
	if _, _, err := runCmd(t, "", "geocode", "--nope"); exitCode(err) != 2 {
		t.Errorf("an unknown flag: err = %v, exit %d, want 2", err, exitCode(err))
	}
	if out, _, err := runCmd(t, "", "help"); err != nil || !strings.Contains(out, "geocode") {
		t.Errorf("help: %v %q", err, out)
	}
}

// TestGeocodeKinds: --kinds prints a row per template and per kind, with
// every kind of place in it.
func TestGeocodeKinds(t *testing.T) {
	out, _, err := runCmd(t, "", "geocode", "--kinds", "--per", "5")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"place right", "village", "crossing", "camp", "quarter", "landmark lacking", "town abroad", "abroad lacking", "relation", "(all)"} {
		if !strings.Contains(out, want) {
			t.Errorf("--kinds output lacks %q:\n%s", want, out)
		}
	}
}

// TestGeocodeRef: `geocode --ref DAY` reads relative dates and days
// without a year against the day given, as an import reads them against
// its page's; without it they give no date (issue 69, item 2).
func TestGeocodeRef(t *testing.T) {
	in := "Smoke rises over Douma on Sunday after air strikes.\n\nانتشال ضحايا في مدينة معرة النعمان - 16 من تموز (الدفاع المدني)\n"
	for _, c := range []struct {
		args []string
		want []any
	}{
		{[]string{"geocode", "--ref", "2018-07-17"}, []any{"2018-07-15", "2018-07-16"}},
		{[]string{"geocode"}, []any{nil, nil}},
	} {
		out, _, err := runCmd(t, in, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatal(err)
			}
			if rec["date"] != c.want[i] {
				t.Errorf("%v, caption %d: date %v, want %v", c.args, i+1, rec["date"], c.want[i])
			}
		}
	}
	if _, _, err := runCmd(t, in, "geocode", "--ref", "17/07/2018"); err == nil || !strings.Contains(err.Error(), "--ref") {
		t.Errorf("a --ref that is no date: %v", err)
	}
}
