package gazetteer_test

import (
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// TestFoldInJSMatchesGo: the published site folds a place search with
// assets/src/placesearch.js, over Fold's tables from rules.json. Every
// name of the bundled gazetteer, names written the ways the press writes
// them and random strings of the letters Fold treats apart fold to the
// same key in Node as in Go.
func TestFoldInJSMatchesGo(t *testing.T) {
	assets, _ := filepath.Abs("../../../assets")
	node, err := exec.LookPath("node")
	esbuild := filepath.Join(assets, "node_modules", ".bin", "esbuild")
	if _, serr := os.Stat(esbuild); err != nil || serr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs node and assets/node_modules (npm ci in assets): %v %v", err, serr)
		}
		t.Skip("no node or no assets/node_modules")
	}
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := range g.Places() {
		names = append(names, g.Places()[i].AllNames()...)
	}
	names = append(names, "Deir ez-Zor", "Dayr az Zawr", "Deir al-Zour", "Aleppo's", "Ra's al-Ain", "Ras al-‘Ayn", "Tall Kalakh",
		"Tallkalakh", "Khaldieh", "Khalidiyah", "Ezzor", "Arraqqa", "Alleramoon", "Karmel Jabl", "Shuwayhat", "Ithriya", "al", "Al-",
		"ال", "—", "", "  ", "İdlib", "Şanlıurfa", "Cilvegözü", "Öncüpınar", "Æbleskiver", "Straße", "وبالرقة", "الرقة", "للرقة",
		"رأس العين", "حماة", "ـحلب", "کفرنبل", "Σύρος", "ΣΥΡΙΑ", "Москва", "١٢٣", "123", "Al-Qa'im", "ʿAfrin", "Ma`arrat", "Kafr-Nubl",
		"Ain al‐Arab", "Jisr al–Shughur", "Saraqib/Idlib", "Douma (Rif Dimashq)")
	// Random strings of the letters Fold treats apart.
	alphabet := []rune("aeiouyhwqcpvkgstdzjlrnbmAEIOUYH '’ʿ`-–‐/.,()ÀÉÎÕÜçşğıİøæßđłœðþ" +
		"ابتثجحخدذرسشصضطظعغفقكلمنهويأإآٱةىؤئـکی\u064e\u0651١٢" + "ΣσЖж中")
	rng := rand.New(rand.NewPCG(43, 1))
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(14) {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		names = append(names, b.String())
	}

	dir := t.TempDir()
	script := filepath.Join(dir, "fold.mjs")
	if out, err := exec.Command(esbuild, filepath.Join(assets, "scripts", "fold-names.mjs"), "--bundle", "--platform=node",
		"--format=esm", "--log-level=error", "--outfile="+script).CombinedOutput(); err != nil {
		t.Fatalf("esbuild: %v\n%s", err, out)
	}
	input := filepath.Join(dir, "names.json")
	body, _ := json.Marshal(names)
	if err := os.WriteFile(input, body, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, script, input).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got [][3]any
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(names) {
		t.Fatalf("%d keys from node for %d names: %v", len(got), len(names), err)
	}
	differ := 0
	for i, name := range names {
		want := gazetteer.Fold(name)
		fine, _ := hex.DecodeString(got[i][0].(string))
		skel, _ := hex.DecodeString(got[i][1].(string))
		js := gazetteer.Key{Fine: string(fine), Skeleton: string(skel), Consonants: int(got[i][2].(float64))}
		if js != want {
			if differ++; differ <= 20 {
				t.Errorf("%q: JS folds it to %+v, Go to %+v", name, js, want)
			}
		}
	}
	t.Logf("%d names, %d differ", len(names), differ)
}
