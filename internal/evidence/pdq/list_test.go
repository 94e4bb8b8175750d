package pdq

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// Two hashes of ThreatExchange's reference pictures, as their tools write
// them, and one upper-cased.
const (
	hashA = "f8f8f0cce0f4e84d0e370a22028f67f0b36e2ed596623e1d33e6339c4e9c9b22"
	hashB = "30a10efd71cc3d429013d48d0ffffc52e34e0e17ada952a9d29685211ea9e5af"
)

// TestReadList reads each shape of line ThreatExchange's tools write
// (pdq-photo-hasher's plain, --details, --pdqdih-across; hashtool256's
// input; python-threatexchange's) and refuses a bad line by its file and
// line, returning nothing.
func TestReadList(t *testing.T) {
	a, _ := Parse(hashA)
	b, _ := Parse(hashB)
	across := strings.Repeat(hashA+",", 4) + strings.Repeat(hashB+",", 4)
	for _, tc := range []struct {
		name, list string
		want       []Listed // Line counted from 1
		err        string
	}{
		{"alone", hashA + "\n", []Listed{{Hash: a, Quality: -1, Line: 1}}, ""},
		{"upper case, CRLF, no final newline", strings.ToUpper(hashA) + "\r\n" + hashB, []Listed{{Hash: a, Quality: -1, Line: 1}, {Hash: b, Quality: -1, Line: 2}}, ""},
		{"blank lines and comments", "# a partner's list\n\n   \n" + hashA + "\n#" + hashB + "\n", []Listed{{Hash: a, Quality: -1, Line: 4}}, ""},
		{"byte order mark", "\uFEFF" + hashA + " x.jpg\n", []Listed{{Hash: a, Quality: -1, Label: "x.jpg", Line: 1}}, ""},
		{"space and a label", hashA + "  Douma market, 2015 \n", []Listed{{Hash: a, Quality: -1, Label: "Douma market, 2015", Line: 1}}, ""},
		{"tab and a label", hashA + "\tcase-17\n", []Listed{{Hash: a, Quality: -1, Label: "case-17", Line: 1}}, ""},
		{"a number after white space is the label's", hashA + " 12 killed\n", []Listed{{Hash: a, Quality: -1, Label: "12 killed", Line: 1}}, ""},
		{"pdq-photo-hasher", hashA + ",100,/photos/bridge 1.jpg\n", []Listed{{Hash: a, Quality: 100, Label: "/photos/bridge 1.jpg", Line: 1}}, ""},
		{"pdq-photo-hasher, a comma in the file name", hashA + ",87,a,b.jpg\n", []Listed{{Hash: a, Quality: 87, Label: "a,b.jpg", Line: 1}}, ""},
		{"hash,quality", hashA + ",42\n", []Listed{{Hash: a, Quality: 42, Line: 1}}, ""},
		{"hashtool256's metadata", hashA + ",idx=3\n", []Listed{{Hash: a, Quality: -1, Label: "idx=3", Line: 1}}, ""},
		{"a number that is no quality", hashA + ",2019,x\n", []Listed{{Hash: a, Quality: -1, Label: "2019,x", Line: 1}}, ""},
		{"details", "hash=" + hashA + ",norm=128,delta=0,quality=90,filename=x,y.jpg\n", []Listed{{Hash: a, Quality: 90, Label: "x,y.jpg", Line: 1}}, ""},
		{"details, dihedral", "hash=" + hashB + ",xform=rot90,filename=x.jpg\n", []Listed{{Hash: b, Quality: -1, Label: "x.jpg xform=rot90", Line: 1}}, ""},
		{"pdqdih-across", across + "77,x.jpg\n", []Listed{
			{a, 77, "x.jpg", 1}, {a, 77, "x.jpg", 1}, {a, 77, "x.jpg", 1}, {a, 77, "x.jpg", 1},
			{b, 77, "x.jpg", 1}, {b, 77, "x.jpg", 1}, {b, 77, "x.jpg", 1}, {b, 77, "x.jpg", 1}}, ""},
		{"a hash as another's label", hashA + "," + hashB + "\n", []Listed{{Hash: a, Quality: -1, Label: hashB, Line: 1}}, ""},
		{"python-threatexchange", "pdq " + hashA + "\n", []Listed{{Hash: a, Quality: -1, Line: 1}}, ""},
		{"control characters in a label", hashA + " a\x00b\x1bc\n", []Listed{{Hash: a, Quality: -1, Label: "a b c", Line: 1}}, ""},
		{"invalid UTF-8 in a label", hashA + " caf\xe9\n", []Listed{{Hash: a, Quality: -1, Label: "caf\uFFFD", Line: 1}}, ""},

		{"short", hashA + "\n" + hashA[:63] + "\n", nil, `list.txt:2: not a PDQ hash: "` + hashA[:63] + `"`},
		{"not hex", hashA + "\n\n" + strings.Replace(hashA, "f", "g", 1) + " x\n", nil, "list.txt:3: not a PDQ hash"},
		{"too long", hashA + "0\n", nil, "list.txt:1: not a PDQ hash"},
		{"MD5", "d41d8cd98f00b204e9800998ecf8427e\n", nil, "list.txt:1: not a PDQ hash"},
		{"pdqdih-across without a quality", across + "x.jpg\n", nil, "list.txt:1: eight hashes"},
		{"details, a bad quality", "hash=" + hashA + ",quality=high\n", nil, "list.txt:1: its quality"},
		{"details, no hash", "hash=,filename=x\n", nil, "list.txt:1: not a PDQ hash"},
		{"a line too long", hashA + " " + strings.Repeat("x", maxLine) + "\n", nil, "list.txt:1: a line longer"},
		{"a long bad line is cut", strings.Repeat("z", 200) + "\n", nil, "…\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadList(strings.NewReader(tc.list), "list.txt")
			if tc.err != "" {
				var e *photo.Error
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.As(err, &e) || e.Code != photo.EInvalid {
					t.Fatalf("error %v, want EInvalid with %q", err, tc.err)
				}
				if got != nil {
					t.Errorf("a refused list returned %d hashes", len(got))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d hashes %+v, want %d", len(got), got, len(tc.want))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("hash %d: %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// FuzzReadList: a list is read whole or refused with EInvalid naming the
// list; a line ListLine writes reads back as written.
func FuzzReadList(f *testing.F) {
	f.Add(hashA+",100,x.jpg\n", uint64(1), 50, "x.jpg")
	f.Add("hash="+hashA+",quality=9,filename=a,b\n", uint64(2), 0, "12 killed")
	f.Add(strings.Repeat(hashB+",", 8)+"77,x\n#c\n\n", uint64(3), 100, "a\nb")
	f.Add("pdq "+hashA, uint64(4), 49, "=HYPERLINK(\"x\")")
	f.Fuzz(func(t *testing.T, list string, seed uint64, quality int, label string) {
		got, err := ReadList(strings.NewReader(list), "l")
		if err != nil {
			var e *photo.Error
			if !errors.As(err, &e) || e.Code != photo.EInvalid || !strings.HasPrefix(err.Error(), "l:") || got != nil {
				t.Fatalf("ReadList(%q): %v, %d hashes", list, err, len(got))
			}
		}
		for _, l := range got {
			if l.Quality < -1 || l.Quality > 100 || l.Line < 1 || strings.ContainsAny(l.Label, "\n\r\x00") {
				t.Fatalf("ReadList(%q): %+v", list, l)
			}
		}
		quality = min(100, max(0, quality))
		var h Hash256
		r := rand.New(rand.NewPCG(seed, 0))
		for i := range h {
			h[i] = byte(r.Uint32())
		}
		back, err := ReadList(strings.NewReader(ListLine(h, quality, label)), "l")
		if err != nil || len(back) != 1 || back[0].Hash != h || back[0].Quality != quality || back[0].Label != cleanLabel(label) {
			t.Fatalf("ListLine(%s, %d, %q) read back as %+v, %v", h, quality, label, back, err)
		}
	})
}

// TestPairs: every pair within the radius and no other, in order.
func TestPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	random := func() Hash256 {
		var h Hash256
		for i := range h {
			h[i] = byte(r.Uint32())
		}
		return h
	}
	flipped := func(h Hash256, n int) Hash256 {
		for _, k := range r.Perm(256)[:n] {
			h[k/8] ^= 1 << (k % 8)
		}
		return h
	}
	theirs := []Hash256{random(), random(), random()}
	ours := make([]Hash256, 3000) // enough for more than one worker
	for i := range ours {
		ours[i] = random()
	}
	ours[5], ours[6], ours[2999] = flipped(theirs[1], 31), flipped(theirs[1], 32), theirs[2]
	ours[7] = flipped(theirs[0], 10)
	got := Pairs(ours, theirs, MatchRadius)
	want := []Pair{{5, 1, 31}, {7, 0, 10}, {2999, 2, 0}}
	if len(got) != len(want) {
		t.Fatalf("pairs %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] || Distance(ours[got[i].A], theirs[got[i].B]) != got[i].Distance {
			t.Errorf("pair %d: %v, want %v", i, got[i], want[i])
		}
	}
	// The index (under 32 bits) and the comparison of every pair (at
	// 32 and more) agree with Distance pair by pair.
	ours[8], ours[9] = flipped(theirs[2], 40), flipped(theirs[0], 48)
	for _, radius := range []int{0, 31, 40, 48} {
		var want []Pair
		for i := range ours {
			for j := range theirs {
				if d := Distance(ours[i], theirs[j]); d <= radius {
					want = append(want, Pair{i, j, d})
				}
			}
		}
		if got := Pairs(ours, theirs, radius); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("radius %d: pairs %v, want %v", radius, got, want)
		}
	}
	if Pairs(nil, theirs, MatchRadius) != nil || Pairs(ours, nil, MatchRadius) != nil {
		t.Error("pairs of an empty set")
	}
}
