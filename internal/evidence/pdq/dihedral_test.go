package pdq

import (
	"image"
	"image/color"
	"path/filepath"
	"testing"
)

// dihedralFiles are the reference's names for Dihedral's eight, in order.
var dihedralFiles = [8]string{
	"bridge-1-original.jpg", "bridge-2-rotate-90.jpg", "bridge-3-rotate-180.jpg", "bridge-4-rotate-270.jpg",
	"bridge-5-flipx.jpg", "bridge-6-flipy.jpg", "bridge-7-flip-plus-1.jpg", "bridge-8-flip-minus-1.jpg",
}

// TestDihedralReference: the eight hashes Dihedral reads from the bridge's
// one DCT are each within 10 bits of the reference's hash of the turned or
// mirrored file, in Dihedral's order.
func TestDihedralReference(t *testing.T) {
	want := map[string]Hash256{}
	for _, ref := range readReference(t) {
		want[ref.name] = ref.hash
	}
	got, q := Dihedral(decode(t, dihedralFiles[0]))
	if q != 100 {
		t.Errorf("quality %d, want 100", q)
	}
	for k, name := range dihedralFiles {
		ref, ok := want[name]
		if !ok {
			t.Fatalf("no reference hash for %s", name)
		}
		d := Distance(got[k], ref)
		t.Logf("%-26s distance %d", name, d)
		if d > 10 {
			t.Errorf("Dihedral[%d] = %s, %d bits from the reference's %s for %s", k, got[k], d, ref, name)
		}
	}
}

// turn is img turned or mirrored the k-th way of Dihedral's order, pixel
// by pixel (k = 0 is a copy).
func turn(img image.Image, k int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	ow, oh := w, h
	if k == 1 || k == 3 || k == 6 || k == 7 {
		ow, oh = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, ow, oh))
	for y := range oh {
		for x := range ow {
			var sx, sy int // the source pixel shown at (x, y)
			switch k {
			case 0:
				sx, sy = x, y
			case 1: // anticlockwise: the top row is the right column
				sx, sy = w-1-y, x
			case 2:
				sx, sy = w-1-x, h-1-y
			case 3: // clockwise: the top row is the left column, upwards
				sx, sy = y, h-1-x
			case 4: // upside down
				sx, sy = x, h-1-y
			case 5: // left to right
				sx, sy = w-1-x, y
			case 6:
				sx, sy = y, x
			case 7:
				sx, sy = w-1-y, h-1-x
			}
			out.Set(x, y, color.RGBAModel.Convert(img.At(b.Min.X+sx, b.Min.Y+sy)))
		}
	}
	return out
}

// crop is img's top left w × h.
func crop(img image.Image, w, h int) image.Image {
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(image.Rect(0, 0, w, h))
}

// TestDihedralMatchesTurnedPictures: hashing a picture turned or mirrored
// pixel by pixel gives the hash Dihedral put at that place (2 bits allowed
// for a float's rounding), on the reference's bridge, on pieces of it of
// other sizes (even and odd, square and not, powers of two, where PDQ's
// grid is least symmetric: read from the one DCT, as the reference does,
// they were 18 bits off at 1024×768, 24 at 512, 38 at 256) and on a
// 256-pixel reference picture; and the reference's own turned files
// (bridge-2, bridge-5) hash within 10 bits of Dihedral's.
func TestDihedralMatchesTurnedPictures(t *testing.T) {
	bridge := decode(t, dihedralFiles[0])
	cases := []struct {
		name string
		img  image.Image
	}{
		{"bridge 1600×1004", bridge},
		{"bridge 1000×1000", crop(bridge, 1000, 1000)},
		{"bridge 1279×833", crop(bridge, 1279, 833)},
		{"bridge 640×480", crop(bridge, 640, 480)},
		{"bridge 800×600", crop(bridge, 800, 600)},
		{"bridge 1024×768", crop(bridge, 1024, 768)},
		{"bridge 1599×999", crop(bridge, 1599, 999)},
		{"bridge 512×512", crop(bridge, 512, 512)},
		{"bridge 256×256", crop(bridge, 256, 256)},
		{"q0122 256×256", decode(t, "q0122.jpg")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, _ := Dihedral(c.img)
			worst := 0
			for k := range want {
				got, _ := Hash(turn(c.img, k))
				d := Distance(got, want[k])
				worst = max(worst, d)
				if d > 2 {
					t.Errorf("turned the %d-th way: %s, %d bits from Dihedral's %s", k, got, d, want[k])
				}
			}
			t.Logf("max distance %d", worst)
		})
	}
	want, _ := Dihedral(bridge)
	for _, k := range []int{1, 4} {
		got, _ := Hash(decode(t, dihedralFiles[k]))
		if d := Distance(got, want[k]); d > 10 {
			t.Errorf("%s: %s, %d bits from Dihedral(bridge)[%d] = %s", dihedralFiles[k], got, d, k, want[k])
		}
	}
}

// TestMirrorOf: the hash MirrorOf reads from a photo's hash alone is
// within 30 bits of the mirrored photo's (Dihedral's, read from the
// picture) on the reference photos of 768 pixels and more (on the
// 256-pixel ones, where PDQ's grid is a sixth of a sample off its mirror,
// 24 to 118 bits); mirroring twice gives the hash back.
func TestMirrorOf(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jpg")
	for _, f := range files {
		img := decode(t, filepath.Base(f))
		h, _ := Hash(img)
		if MirrorOf(MirrorOf(h)) != h {
			t.Errorf("%s: mirrored twice, %s is not %s", filepath.Base(f), MirrorOf(MirrorOf(h)), h)
		}
		if b := img.Bounds(); min(b.Dx(), b.Dy()) < 768 {
			continue
		}
		d, _ := Dihedral(img)
		got := Distance(MirrorOf(h), d[5])
		t.Logf("%s: %d bits from the mirrored picture's hash", filepath.Base(f), got)
		if got > 30 {
			t.Errorf("%s: MirrorOf is %d bits from the mirrored picture's hash, want ≤ 30", filepath.Base(f), got)
		}
	}
}
