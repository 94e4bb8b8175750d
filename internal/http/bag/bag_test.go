package bag

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestBagProvesItsCustodyLeadsToItsHead checks a bag as a third party
// would, with the bag alone and a hash function: the bag's head, the
// links from its photo's first record to the head unbroken, and each of
// the photo's records among them, hashing to what they say. A link
// removed from the middle, or a record of the photo changed, fails the
// check (issue 52, part 2).
func TestBagProvesItsCustodyLeadsToItsHead(t *testing.T) {
	ctx := context.Background()
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	a, err := archive.Open(ctx, filepath.Join(t.TempDir(), "a.db"), g, false)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	file := filepath.Join(t.TempDir(), "captions.txt")
	os.WriteFile(file, []byte("Boys play in Aleppo, Syria, July 12, 2016. (Photo by A. Person/AFP)\n\n"+
		"A market in Damascus, Syria, August 1, 2016. (Photo by B. Person/Reuters)\n\n"+
		"A shop in Idlib, Syria, November 7, 2015. (Photo by C. Person/Reuters)\n"), 0o644)
	if _, err := a.ImportFile(ctx, file, "", nil); err != nil {
		t.Fatal(err)
	}
	id := photo.ID("Boys play in Aleppo, Syria, July 12, 2016. (Photo by A. Person/AFP)")
	if _, err := a.SetHarm(ctx, id, photo.HarmGraphic, "rana", "a wounded child"); err != nil {
		t.Fatal(err)
	}
	bag := filepath.Join(t.TempDir(), "bag")
	if _, err := Export(ctx, a, photo.Filter{Query: "Boys"}, bag, "rana"); err != nil {
		t.Fatal(err)
	}
	head := map[string]any{}
	readJSON(t, filepath.Join(bag, "data", "custody-head.json"), &head)
	if got, _ := a.Head(ctx); head["hash"] == got.Hash { // the export's own record came after
		t.Errorf("the bag's head is the chain's head after the export (%v); want the head it was made at", head)
	}
	if err := checkBag(bag, id); err != nil {
		t.Fatalf("a bag as written: %v", err)
	}
	links := filepath.Join(bag, "data", "custody-links.txt")
	body, _ := os.ReadFile(links)
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if len(lines) < 3 {
		t.Fatalf("%d links; the test wants the photo's import, another photo's and the harm mark", len(lines))
	}
	os.WriteFile(links, []byte(strings.Join(append(lines[:1], lines[2:]...), "\n")+"\n"), 0o644)
	if err := checkBag(bag, id); err == nil || !strings.Contains(err.Error(), "does not follow") {
		t.Errorf("a link taken out of the middle: %v", err)
	}
	os.WriteFile(links, body, 0o644)
	custody := filepath.Join(bag, "data", id, "custody.json")
	c, _ := os.ReadFile(custody)
	os.WriteFile(custody, []byte(strings.Replace(string(c), "a wounded child", "nothing", 1)), 0o644)
	if err := checkBag(bag, id); err == nil || !strings.Contains(err.Error(), "does not hash") {
		t.Errorf("a record of the photo changed: %v", err)
	}
}

// checkBag is the check custody-head.json describes, written from its
// words: no syriamap code.
func checkBag(bag, id string) error {
	var head struct {
		Seq  int64  `json:"seq"`
		Hash string `json:"hash"`
	}
	if err := readJSONErr(filepath.Join(bag, "data", "custody-head.json"), &head); err != nil {
		return err
	}
	f, err := os.Open(filepath.Join(bag, "data", "custody-links.txt"))
	if err != nil {
		return err
	}
	defer f.Close()
	type link struct{ prev, hash string }
	links := map[int64]link{}
	var lastSeq int64
	lastHash := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Fields(sc.Text())
		if len(parts) != 3 {
			return fmt.Errorf("bad line %q", sc.Text())
		}
		seq, _ := strconv.ParseInt(parts[0], 10, 64)
		prev := parts[1]
		if prev == "-" {
			prev = ""
		}
		if lastSeq != 0 && (seq != lastSeq+1 || prev != lastHash) {
			return fmt.Errorf("link %d does not follow link %d", seq, lastSeq)
		}
		links[seq] = link{prev, parts[2]}
		lastSeq, lastHash = seq, parts[2]
	}
	if lastSeq != head.Seq || lastHash != head.Hash {
		return fmt.Errorf("the links end at %d %s, not at the head %d %s", lastSeq, lastHash, head.Seq, head.Hash)
	}
	var custody struct {
		Records []struct {
			Seq                           int64
			PhotoID                       string `json:"photo_id"`
			At, Actor, Action, Prev, Hash string
			Detail                        json.RawMessage
		}
	}
	if err := readJSONErr(filepath.Join(bag, "data", id, "custody.json"), &custody); err != nil {
		return err
	}
	if len(custody.Records) == 0 {
		return fmt.Errorf("photo %s has no records", id)
	}
	for _, r := range custody.Records {
		l, ok := links[r.Seq]
		if !ok || l.hash != r.Hash || l.prev != r.Prev {
			return fmt.Errorf("record %d is not among the links", r.Seq)
		}
		h := sha256.New()
		for _, field := range []string{r.Prev, strconv.FormatInt(r.Seq, 10), r.PhotoID, r.At, r.Actor, r.Action, string(r.Detail)} {
			var n [8]byte
			binary.BigEndian.PutUint64(n[:], uint64(len(field)))
			h.Write(n[:])
			h.Write([]byte(field))
		}
		if hex.EncodeToString(h.Sum(nil)) != r.Hash {
			return fmt.Errorf("record %d does not hash to its hash", r.Seq)
		}
	}
	return nil
}

func readJSONErr(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	if err := readJSONErr(path, v); err != nil {
		t.Fatal(err)
	}
}
