package jpegdc_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/framehash"
	"github.com/syriamap/syriamap/internal/evidence/pdq"
	"github.com/syriamap/syriamap/internal/resize/jpegdc"
)

// picture draws a varied test picture: a smooth field of a few random
// waves in each channel, rectangles and discs of flat colour, and noise
// whose strength varies with the seed (from none to sensor-like).
func picture(seed uint64, w, h int) *image.RGBA {
	r := rand.New(rand.NewPCG(seed, 7))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	type wave struct{ fx, fy, phase, amp float64 }
	var waves [3][3]wave
	for c := range waves {
		for k := range waves[c] {
			waves[c][k] = wave{r.Float64() * 12 / float64(w), r.Float64() * 12 / float64(h), r.Float64() * 6.3, 20 + r.Float64()*40}
		}
	}
	noise := []float64{0, 3, 12, 40}[r.IntN(4)]
	// sin(ax + by + c) = sin(ax + c)·cos(by) + cos(ax + c)·sin(by): each
	// wave's factors once per column and per row.
	sinX, cosX := make([][3][3]float64, w), make([][3][3]float64, w)
	sinY, cosY := make([][3][3]float64, h), make([][3][3]float64, h)
	for x := range w {
		for c := range 3 {
			for k, wv := range waves[c] {
				sinX[x][c][k], cosX[x][c][k] = math.Sincos(wv.fx*float64(x)*6.28 + wv.phase)
			}
		}
	}
	for y := range h {
		for c := range 3 {
			for k, wv := range waves[c] {
				sinY[y][c][k], cosY[y][c][k] = math.Sincos(wv.fy * float64(y) * 6.28)
			}
		}
	}
	for y := range h {
		for x := range w {
			o := img.PixOffset(x, y)
			for c := range 3 {
				v := 128.0
				for k, wv := range waves[c] {
					v += wv.amp * (sinX[x][c][k]*cosY[y][c][k] + cosX[x][c][k]*sinY[y][c][k])
				}
				if noise > 0 {
					v += r.NormFloat64() * noise
				}
				img.Pix[o+c] = clamp(v)
			}
			img.Pix[o+3] = 255
		}
	}
	for range r.IntN(12) {
		x0, y0 := r.IntN(w), r.IntN(h)
		x1, y1 := x0+1+r.IntN(w/3+1), y0+1+r.IntN(h/3+1)
		c := [3]uint8{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256))}
		disc := r.IntN(2) == 0
		for y := y0; y < min(y1, h); y++ {
			for x := x0; x < min(x1, w); x++ {
				dx, dy := float64(2*x-x0-x1)/float64(x1-x0), float64(2*y-y0-y1)/float64(y1-y0)
				if disc && dx*dx+dy*dy > 1 {
					continue
				}
				o := img.PixOffset(x, y)
				img.Pix[o], img.Pix[o+1], img.Pix[o+2] = c[0], c[1], c[2]
			}
		}
	}
	return img
}

func clamp(v float64) uint8 { return uint8(min(max(math.Round(v), 0), 255)) }

// cjpeg encodes img with libjpeg-turbo's cjpeg and its arguments, which
// reach what Go's encoder does not (progressive, every subsampling,
// restart markers, RGB, optimised tables). It needs cjpeg (Debian's
// libjpeg-turbo-progs, which .ci/run installs).
func cjpeg(t testing.TB, img *image.RGBA, args ...string) []byte {
	t.Helper()
	path, err := exec.LookPath("cjpeg")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("cjpeg is missing (libjpeg-turbo-progs): .ci/run installs it")
		}
		t.Skip("cjpeg is not installed (apt install libjpeg-turbo-progs)")
	}
	b := img.Bounds()
	var ppm bytes.Buffer
	fmt.Fprintf(&ppm, "P6\n%d %d\n255\n", b.Dx(), b.Dy())
	for y := range b.Dy() {
		for x := range b.Dx() {
			o := img.PixOffset(x, y)
			ppm.Write(img.Pix[o : o+3])
		}
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin = &ppm
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("cjpeg %v: %v: %s", args, err, stderr.Bytes())
	}
	return out.Bytes()
}

// variant is one way of writing a JPEG, as cjpeg's arguments.
type variant struct {
	name string
	args []string
}

// variants are the encodings every picture is written in: each
// subsampling Go's image package names and one it does not, progressive
// and sequential, with and without restart markers, greyscale and RGB.
func variants(r *rand.Rand) []variant {
	q := fmt.Sprint([]int{30, 50, 75, 90, 95, 100}[r.IntN(6)])
	var out []variant
	for _, s := range []string{"1x1", "2x1", "2x2", "1x2", "4x1", "4x2", "2x2,1x2,2x1"} {
		args := []string{"-quality", q, "-sample", s}
		name := "q" + q + " " + s
		if r.IntN(2) == 0 {
			args, name = append(args, "-progressive"), name+" progressive"
		}
		if restart := []string{"", "1", "3B"}[r.IntN(3)]; restart != "" {
			args, name = append(args, "-restart", restart), name+" restart "+restart
		}
		if r.IntN(3) == 0 {
			args, name = append(args, "-optimize"), name+" optimized"
		}
		out = append(out, variant{name, args})
	}
	return append(out,
		variant{"q" + q + " grey", []string{"-quality", q, "-grayscale"}},
		variant{"q" + q + " grey progressive restart 2B", []string{"-quality", q, "-grayscale", "-progressive", "-restart", "2B"}},
		variant{"q" + q + " RGB", []string{"-quality", q, "-rgb"}},
	)
}

// plane is one channel of a picture: its samples, row by row.
type plane struct {
	pix          []byte
	stride, w, h int
}

// planesOf are a picture's channels as its decoder keeps them: Y, Cb and
// Cr (the last two at their subsampled size), grey, or R, G and B.
func planesOf(img image.Image) []plane {
	b := img.Bounds()
	switch m := img.(type) {
	case *image.YCbCr:
		cw, ch := m.COffset(b.Max.X-1, 0)+1, (m.COffset(0, b.Max.Y-1))/m.CStride+1
		return []plane{{m.Y, m.YStride, b.Dx(), b.Dy()}, {m.Cb, m.CStride, cw, ch}, {m.Cr, m.CStride, cw, ch}}
	case *image.Gray:
		return []plane{{m.Pix, m.Stride, b.Dx(), b.Dy()}}
	}
	rgba := image.NewRGBA(b)
	for y := range b.Dy() {
		for x := range b.Dx() {
			rgba.Set(x, y, img.At(x, y))
		}
	}
	var out []plane
	for c := range 3 {
		p := plane{make([]byte, b.Dx()*b.Dy()), b.Dx(), b.Dx(), b.Dy()}
		for i := range p.pix {
			p.pix[i] = rgba.Pix[4*i+c]
		}
		out = append(out, p)
	}
	return out
}

// means is p averaged over each whole 8×8 block. (A partial block at the
// right or bottom edge is left out: its DC coefficient averages the
// padding the encoder added too.)
func (p plane) means() plane8 {
	w, h := p.w/8, p.h/8
	sum, n := make([]float64, w*h), make([]float64, w*h)
	for y := range h * 8 {
		for x := range w * 8 {
			sum[(y/8)*w+x/8] += float64(p.pix[y*p.stride+x])
			n[(y/8)*w+x/8]++
		}
	}
	for i := range sum {
		sum[i] /= n[i]
	}
	return plane8{sum, w, h}
}

type plane8 struct {
	v    []float64
	w, h int
}

// djpeg decodes data whole with libjpeg-turbo's djpeg, as grey (the Y
// component, or an RGB JPEG's luma) or RGB.
func djpeg(t *testing.T, data []byte) *image.Gray {
	cmd := exec.Command("djpeg", "-pnm", "-grayscale")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("djpeg: %v", err)
	}
	var w, h, maxval int
	if n, _ := fmt.Sscanf(string(out), "P5\n%d %d\n%d\n", &w, &h, &maxval); n != 3 {
		t.Fatalf("djpeg wrote no PGM")
	}
	return &image.Gray{Pix: out[len(out)-w*h:], Stride: w, Rect: image.Rect(0, 0, w, h)}
}

// luma is a picture's grey: its Y plane, or its luma from R, G and B.
func luma(img image.Image) plane {
	switch m := img.(type) {
	case *image.YCbCr, *image.Gray:
		return planesOf(m)[0]
	}
	b := img.Bounds()
	p := plane{make([]byte, b.Dx()*b.Dy()), b.Dx(), b.Dx(), b.Dy()}
	for y := range b.Dy() {
		for x := range b.Dx() {
			r, g, bl, _ := img.At(x, y).RGBA()
			p.pix[y*p.stride+x] = clamp((0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257)
		}
	}
	return p
}

// off is how far a 1/8-scale plane is from a full plane's block means,
// at worst and on average.
func off(small plane, full plane) (worst, mean float64, ok bool) {
	m := full.means()
	if small.w < m.w || small.h < m.h {
		return 0, 0, false
	}
	var sum float64
	for y := range m.h {
		for x := range m.w {
			d := math.Abs(float64(small.pix[y*small.stride+x]) - m.v[y*m.w+x])
			worst, sum = max(worst, d), sum+d
		}
	}
	if m.w*m.h > 0 {
		mean = sum / float64(m.w*m.h)
	}
	return worst, mean, true
}

// compare holds the 1/8-scale picture of data to full decodes' block
// means: its luma to libjpeg-turbo's (djpeg), and every channel to Go's
// image/jpeg where that reads the file (not the subsamplings Go's image
// package does not name, nor progressive files with restart markers).
// Within a level on average and a few at worst, where the inverse DCT
// clipped pixels (the DC coefficient is the unclipped mean); a picture
// that comes out in RGB goes through a colour conversion of each block's
// means, and is held to looser bounds.
func compare(t *testing.T, name string, data []byte) {
	t.Helper()
	small, err := jpegdc.Decode(data)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	ref := djpeg(t, data)
	fb := ref.Bounds()
	if b := small.Bounds(); b.Dx() != (fb.Dx()+7)/8 || b.Dy() != (fb.Dy()+7)/8 {
		t.Errorf("%s: %v from %v", name, b, fb)
		return
	}
	worstAllowed, meanAllowed := 12.0, 0.7
	if _, rgb := small.(*image.RGBA); rgb {
		worstAllowed, meanAllowed = 40, 2.5
	}
	worst, mean, ok := off(luma(small), luma(ref))
	if !ok || worst > worstAllowed || mean > meanAllowed {
		t.Errorf("%s (%v): luma off djpeg's block means by %.1f at worst, %.2f on average", name, fb.Size(), worst, mean)
	}
	full, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		return // image/jpeg does not read it; djpeg's luma has been compared
	}
	got, want := planesOf(small), planesOf(full)
	if len(got) != len(want) {
		t.Errorf("%s: %d channels (%T), image/jpeg's %d (%T)", name, len(got), small, len(want), full)
		return
	}
	for c := range got {
		worst, mean, ok := off(got[c], want[c])
		if !ok || worst > worstAllowed || mean > meanAllowed {
			t.Errorf("%s (%v): channel %d off image/jpeg's block means by %.1f at worst, %.2f on average", name, fb.Size(), c, worst, mean)
		}
	}
}

// TestMatchesTheFullDecode: a few hundred generated pictures, of sizes
// that are and are not multiples of a block or an MCU, in every variant,
// read at 1/8 scale as Go's full decode averages them.
func TestMatchesTheFullDecode(t *testing.T) {
	r := rand.New(rand.NewPCG(70, 1))
	sizes := [][2]int{{1, 1}, {7, 9}, {8, 8}, {16, 16}, {17, 33}, {33, 17}, {64, 48}}
	for range 25 {
		sizes = append(sizes, [2]int{1 + r.IntN(400), 1 + r.IntN(300)})
	}
	n := 0
	for i, s := range sizes {
		img := picture(uint64(i), s[0], s[1])
		for _, v := range variants(r) {
			compare(t, fmt.Sprintf("%d × %d %s", s[0], s[1], v.name), cjpeg(t, img, v.args...))
			n++
		}
	}
	t.Logf("%d pictures", n)
}

// TestReferencePhotos: real photographs (the PDQ reference pictures:
// baseline 4:2:0 and progressive 4:4:4) match their full decode too.
func TestReferencePhotos(t *testing.T) {
	files, _ := filepath.Glob("../../evidence/pdq/testdata/*.jpg")
	if len(files) == 0 {
		t.Fatal("no reference pictures")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, filepath.Base(f), data)
	}
}

// TestRefused: what the package does not read is refused, naming why,
// and wraps ErrUnsupported (a caller then decodes the file whole).
func TestRefused(t *testing.T) {
	base := cjpeg(t, picture(1, 40, 30), "-quality", "80")
	sof := bytes.Index(base, []byte{0xFF, 0xC0})
	with := func(at int, b ...byte) []byte {
		out := bytes.Clone(base)
		copy(out[at:], b)
		return out
	}
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"12-bit", "12-bit samples", with(sof+4, 12)},
		{"arithmetic", "arithmetic-coded", cjpeg(t, picture(1, 40, 30), "-arithmetic")},
		{"lossless", "lossless", with(sof+1, 0xC3)},
		{"hierarchical", "hierarchical", with(sof+1, 0xC5)},
		{"DNL height", "DNL", with(sof+5, 0, 0)},
	} {
		_, err := jpegdc.Decode(tc.data)
		if !errors.Is(err, jpegdc.ErrUnsupported) || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
			t.Errorf("%s: %v, want ErrUnsupported naming %q", tc.name, err, tc.want)
		}
	}
}

// TestMalformed: broken files are errors, never pictures or panics.
func TestMalformed(t *testing.T) {
	base := cjpeg(t, picture(2, 64, 48), "-quality", "90", "-restart", "1")
	sos := bytes.Index(base, []byte{0xFF, 0xDA})
	rst := bytes.Index(base[sos:], []byte{0xFF, 0xD0}) + sos
	huge := cjpeg(t, picture(2, 64, 48), "-quality", "90") // 64 × 48 calling itself 10,000 × 10,000
	sof := bytes.Index(huge, []byte{0xFF, 0xC0})
	copy(huge[sof+5:], []byte{0x27, 0x10, 0x27, 0x10})
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"not a JPEG", []byte("\x89PNG\r\n\x1a\n")},
		{"header only", base[:sos]},
		{"cut in the scan", base[:sos+100]},
		{"restart marker lost", append(bytes.Clone(base[:rst]), base[rst+2:]...)},
		{"more blocks declared than the data holds", huge},
	} {
		if img, err := jpegdc.Decode(tc.data); err == nil {
			t.Errorf("%s: %v, want an error", tc.name, img.Bounds())
		}
	}
}

// FuzzDecode: no input makes Decode panic.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("../../evidence/pdq/testdata/q0*.jpg")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	var gray bytes.Buffer
	jpeg.Encode(&gray, image.NewGray(image.Rect(0, 0, 20, 20)), nil)
	f.Add(gray.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := jpegdc.Decode(data)
		if err == nil && img.Bounds().Empty() {
			t.Errorf("an empty picture and no error")
		}
	})
}

// TestHashesOfThePlane: the frame hash and the PDQ hash read from the
// 1/8-scale picture (framehash.OfScaled, pdq.HashScaled) stay within a
// few bits of the hashes of the full decode, on generated pictures of the
// sizes the archive hashes from the DC plane (from 768 pixels on the short
// side), in every variant, and on the reference photos.
func TestHashesOfThePlane(t *testing.T) {
	type job struct {
		name string
		data []byte
	}
	var jobs []job
	r := rand.New(rand.NewPCG(70, 2))
	for i := range 30 {
		short := 768 + r.IntN(400)
		w, h := short+r.IntN(short), short
		if i%4 == 0 {
			w, h = h, w
		}
		img := picture(uint64(1000+i), w, h)
		vs := variants(r)
		for k := range 3 {
			v := vs[(i+k*4)%len(vs)]
			jobs = append(jobs, job{fmt.Sprintf("%d × %d %s", w, h, v.name), cjpeg(t, img, v.args...)})
		}
	}
	files, _ := filepath.Glob("../../evidence/pdq/testdata/bridge-*.jpg")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{filepath.Base(f), data})
	}
	var frameSum, pdqSum, pdqN int
	for _, j := range jobs {
		small, err := jpegdc.Decode(j.data)
		if err != nil {
			t.Fatalf("%s: %v", j.name, err)
		}
		full, err := jpeg.Decode(bytes.NewReader(j.data))
		if err != nil {
			full = djpeg(t, j.data) // its luma is what both hashes read
		}
		w, h := full.Bounds().Dx(), full.Bounds().Dy()
		fs, _ := framehash.OfScaled(small, w, h, 8)
		ff, _ := framehash.Of(full)
		if d := framehash.Distance(fs, ff); d > 4 {
			t.Errorf("%s: frame hash %d bits from the full decode's, want ≤ 4", j.name, d)
		} else {
			frameSum += d
		}
		ps, q := pdq.HashScaled(small, w, h, 8)
		pf, qf := pdq.Hash(full)
		if q < 80 || qf < 80 {
			continue // PDQ's conformance counts pictures of quality ≥ 80
		}
		d := pdq.Distance(ps, pf)
		if d > 16 {
			t.Errorf("%s: PDQ hash %d bits from the full decode's, want ≤ 16 (match radius 31)", j.name, d)
		}
		if strings.HasPrefix(j.name, "bridge-") && d > 10 {
			t.Errorf("%s: PDQ hash %d bits from the full decode's, want ≤ 10 on a reference photo", j.name, d)
		}
		pdqSum, pdqN = pdqSum+d, pdqN+1
	}
	if pdqN < len(jobs)/2 {
		t.Errorf("only %d of %d pictures of PDQ quality ≥ 80", pdqN, len(jobs))
	}
	mean := float64(pdqSum) / float64(max(pdqN, 1))
	if mean > 6 {
		t.Errorf("PDQ hashes %.1f bits from the full decode's on average, want ≤ 6", mean)
	}
	t.Logf("%d pictures: frame hash %.2f bits from the full decode's on average; PDQ %.2f (%d of quality ≥ 80)", len(jobs), float64(frameSum)/float64(len(jobs)), mean, pdqN)
}
