package pdq

import (
	"bufio"
	"image"
	_ "image/jpeg"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// reference is one line of testdata/reference.csv: the hash and quality
// ThreatExchange's C++ reference gave a picture.
type reference struct {
	hash    Hash256
	quality int
	name    string
}

func readReference(t testing.TB) []reference {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "reference.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var refs []reference
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		hash, rest, _ := strings.Cut(line, ",")
		q, name, _ := strings.Cut(rest, ",")
		h, err := Parse(hash)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		quality, err := strconv.Atoi(q)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		refs = append(refs, reference{h, quality, name})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return refs
}

func decode(t testing.TB, name string) image.Image {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return img
}

// TestReference holds Hash to ThreatExchange's rule for a correct port:
// on every reference picture of quality ≥ 80, within 10 bits of the C++
// reference's hash; and its quality close to the reference's on all.
func TestReference(t *testing.T) {
	const maxBits, maxQuality = 10, 2
	worst, sum, n := 0, 0, 0
	for _, ref := range readReference(t) {
		if _, err := os.Stat(filepath.Join("testdata", ref.name)); err != nil {
			continue // a reference hash kept for TestDihedralReference only
		}
		h, q := Hash(decode(t, ref.name))
		d := Distance(h, ref.hash)
		t.Logf("%-22s distance %3d  quality %3d (reference %3d)  %s", ref.name, d, q, ref.quality, h)
		if abs(q-ref.quality) > maxQuality {
			t.Errorf("%s: quality %d, the reference's %d", ref.name, q, ref.quality)
		}
		if ref.quality < 80 {
			continue
		}
		if d > maxBits {
			t.Errorf("%s: %s is %d bits from the reference's %s", ref.name, h, d, ref.hash)
		}
		worst, sum, n = max(worst, d), sum+d, n+1
	}
	if n == 0 {
		t.Fatal("no reference picture of quality ≥ 80 in testdata")
	}
	t.Logf("%d pictures of quality ≥ 80: distance to the reference max %d, mean %.2f", n, worst, float64(sum)/float64(n))
}
