package pdq

import (
	"errors"
	"image"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

func TestParse(t *testing.T) {
	const bridge = "f8f8f0cce0f4e84d0e370a22028f67f0b36e2ed596623e1d33e6339c4e9c9b22"
	cases := []struct {
		name, in string
		ok       bool
		want     string // String of the hash read
	}{
		{"reference", bridge, true, bridge},
		{"upper case", strings.ToUpper(bridge), true, bridge},
		{"zero", strings.Repeat("0", 64), true, strings.Repeat("0", 64)},
		{"short", bridge[:63], false, ""},
		{"long", bridge + "0", false, ""},
		{"empty", "", false, ""},
		{"not hex", "g" + bridge[1:], false, ""},
		{"with quality", bridge + ",100", false, ""},
		{"spaces", " " + bridge[1:], false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, err := Parse(c.in)
			if !c.ok {
				var e *photo.Error
				if !errors.As(err, &e) || e.Code != photo.EInvalid {
					t.Fatalf("Parse(%q) = %s, %v; want an EInvalid error", c.in, h, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", c.in, err)
			}
			if h.String() != c.want {
				t.Errorf("Parse(%q).String() = %s, want %s", c.in, h, c.want)
			}
		})
	}
}

func TestDistance(t *testing.T) {
	var zero, ones, one, top Hash256
	for i := range ones {
		ones[i] = 0xff
	}
	one[31] = 1
	top[0] = 0x80
	cases := []struct {
		name string
		a, b Hash256
		want int
	}{
		{"same", ones, ones, 0},
		{"all", zero, ones, 256},
		{"lowest bit", zero, one, 1},
		{"highest bit", one, top, 2},
	}
	for _, c := range cases {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("%s: Distance = %d, want %d", c.name, got, c.want)
		}
		if Distance(c.a, c.b) != Distance(c.b, c.a) {
			t.Errorf("%s: Distance is not symmetric", c.name)
		}
	}
}

// TestFlat: a picture with nothing in it (no pixels, one colour, one
// pixel) is of quality 0, below LowQuality, and hashing it does not fail.
func TestFlat(t *testing.T) {
	grey := image.NewGray(image.Rect(0, 0, 300, 200))
	for i := range grey.Pix {
		grey.Pix[i] = 128
	}
	cases := []struct {
		name string
		img  image.Image
	}{
		{"no pixels", image.NewRGBA(image.Rectangle{})},
		{"one colour", grey},
		{"one pixel", image.NewGray(image.Rect(0, 0, 1, 1))},
	}
	for _, c := range cases {
		if _, q := Hash(c.img); q != 0 {
			t.Errorf("%s: quality %d, want 0", c.name, q)
		}
	}
}

// TestTypesAgree: the fast paths (YCbCr, grey, RGBA) hash as the generic
// one does, so a JPEG's 1/8-scale grey plane is hashed as a decoded
// picture of the same pixels would be.
func TestTypesAgree(t *testing.T) {
	img := decode(t, "q1050.jpg")
	want, wq := Hash(opaque{img})
	rgba := turn(img, 0)
	if h, q := Hash(img); Distance(h, want) != 0 || q != wq {
		t.Errorf("YCbCr: %s quality %d, generic %s quality %d", h, q, want, wq)
	}
	if h, q := Hash(rgba); Distance(h, want) != 0 || q != wq {
		t.Errorf("RGBA: %s quality %d, generic %s quality %d", h, q, want, wq)
	}
	grey := image.NewGray(img.Bounds())
	for y := range img.Bounds().Dy() {
		for x := range img.Bounds().Dx() {
			grey.Set(x, y, img.At(x, y))
		}
	}
	gw, _ := Hash(opaque{grey})
	if h, _ := Hash(grey); Distance(h, gw) != 0 {
		t.Errorf("Gray: %s, generic %s", h, gw)
	}
}

// opaque hides an image's type, so Hash takes its generic path.
type opaque struct{ image.Image }

// FuzzParse: Parse either refuses with EInvalid or reads a hash that
// String writes back as the input, lower-cased.
func FuzzParse(f *testing.F) {
	f.Add("f8f8f0cce0f4e84d0e370a22028f67f0b36e2ed596623e1d33e6339c4e9c9b22")
	f.Add("F8F8F0CCE0F4E84D0E370A22028F67F0B36E2ED596623E1D33E6339C4E9C9B22")
	f.Add("f8f8f0cce0f4e84d0e370a22028f67f0b36e2ed596623e1d33e6339c4e9c9b2,")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		h, err := Parse(s)
		if err != nil {
			var e *photo.Error
			if !errors.As(err, &e) || e.Code != photo.EInvalid {
				t.Fatalf("Parse(%q): %v is not EInvalid", s, err)
			}
			return
		}
		if h.String() != strings.ToLower(s) {
			t.Fatalf("Parse(%q).String() = %s", s, h)
		}
		if back, err := Parse(h.String()); err != nil || back != h {
			t.Fatalf("Parse(String()) = %s, %v; want %s", back, err, h)
		}
	})
}
