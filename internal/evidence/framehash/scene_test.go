package framehash

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
)

// scene draws a varied picture: a sky-to-ground gradient, a horizon,
// buildings, rubble, people-sized figures and sensor noise, in colours
// of its own — as far from flat colours as the photos are.
func scene(seed uint64, w, h int) *image.RGBA {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	sky := [3]float64{100 + r.Float64()*120, 120 + r.Float64()*110, 140 + r.Float64()*110}
	ground := [3]float64{60 + r.Float64()*120, 50 + r.Float64()*100, 30 + r.Float64()*90}
	horizon := h/4 + r.IntN(h/2)
	for y := range h {
		for x := range w {
			c := ground
			t := float64(y) / float64(h)
			if y < horizon {
				c = sky
			}
			i := img.PixOffset(x, y)
			for k := range 3 {
				img.Pix[i+k] = clamp(c[k]*(0.7+0.5*t) + r.NormFloat64()*6)
			}
			img.Pix[i+3] = 255
		}
	}
	fill := func(x0, y0, x1, y1 int, c [3]float64, round bool) {
		cx, cy, rx, ry := float64(x0+x1)/2, float64(y0+y1)/2, float64(x1-x0)/2, float64(y1-y0)/2
		for y := max(0, y0); y < min(h, y1); y++ {
			for x := max(0, x0); x < min(w, x1); x++ {
				if round && math.Pow((float64(x)-cx)/rx, 2)+math.Pow((float64(y)-cy)/ry, 2) > 1 {
					continue
				}
				i := img.PixOffset(x, y)
				for k := range 3 {
					img.Pix[i+k] = clamp(c[k] + r.NormFloat64()*8)
				}
			}
		}
	}
	colour := func() [3]float64 { return [3]float64{r.Float64() * 255, r.Float64() * 255, r.Float64() * 255} }
	for range 3 + r.IntN(6) { // buildings
		bw, bh := w/12+r.IntN(w/5), h/8+r.IntN(h/2)
		x := r.IntN(w)
		fill(x, horizon-bh, x+bw, horizon+h/20, colour(), false)
		for range r.IntN(8) { // windows, holes
			wx, wy := x+r.IntN(max(1, bw)), horizon-bh+r.IntN(max(1, bh))
			fill(wx, wy, wx+w/60+1, wy+h/40+1, [3]float64{20, 20, 25}, false)
		}
	}
	for range 5 + r.IntN(20) { // rubble, cars, figures
		s := w/40 + r.IntN(w/8)
		x, y := r.IntN(w), horizon+r.IntN(max(1, h-horizon))
		fill(x, y-s/2, x+s, y+s/2, colour(), r.IntN(2) == 0)
	}
	return img
}

func clamp(v float64) uint8 { return uint8(max(0, min(255, v))) }

// copies are the ways a re-captioned frame comes again: resized to 50 %,
// recompressed at JPEG quality 60, cropped 5 %, watermarked, mirrored.
var copies = []struct {
	name string
	f    func(image.Image) image.Image
}{{"resized to 50 %", half}, {"JPEG quality 60", recompress}, {"cropped 5 %", crop}, {"watermarked", watermark}, {"mirrored", mirror}}

func half(img image.Image) image.Image { // resized to 50 %, area-averaged
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
	for y := range b.Dy() / 2 {
		for x := range b.Dx() / 2 {
			var s [4]uint32
			for _, d := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				r, g, bl, a := img.At(b.Min.X+2*x+d[0], b.Min.Y+2*y+d[1]).RGBA()
				s[0], s[1], s[2], s[3] = s[0]+r, s[1]+g, s[2]+bl, s[3]+a
			}
			out.Set(x, y, color.RGBA64{uint16(s[0] / 4), uint16(s[1] / 4), uint16(s[2] / 4), uint16(s[3] / 4)})
		}
	}
	return out
}

func recompress(img image.Image) image.Image { // JPEG at quality 60
	var buf bytes.Buffer
	jpeg.Encode(&buf, img, &jpeg.Options{Quality: 60})
	out, _ := jpeg.Decode(&buf)
	return out
}

func crop(img image.Image) image.Image { // 5 % off: 3 % left and top, 2 % right and bottom
	b := img.Bounds()
	r := image.Rect(b.Min.X+b.Dx()*3/100, b.Min.Y+b.Dy()*3/100, b.Max.X-b.Dx()*2/100, b.Max.Y-b.Dy()*2/100)
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(r)
}

func watermark(img image.Image) image.Image { // an agency's name, bottom right
	b := img.Bounds()
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	// Letters as strokes: 8 letters of 5×7 cells, white, half opaque.
	cell := max(1, b.Dx()/200)
	x0, y0 := b.Max.X-b.Dx()/3, b.Max.Y-b.Dy()/12
	rnd := rand.New(rand.NewPCG(7, 7))
	for l := range 8 {
		for cy := range 7 {
			for cx := range 5 {
				if rnd.IntN(2) == 0 {
					continue
				}
				for dy := range cell {
					for dx := range cell {
						x, y := x0+l*6*cell+cx*cell+dx, y0+cy*cell+dy
						if (image.Point{x, y}).In(b) {
							r, g, bl, _ := out.At(x, y).RGBA()
							out.Set(x, y, color.RGBA{uint8((r>>8 + 255) / 2), uint8((g>>8 + 255) / 2), uint8((bl>>8 + 255) / 2), 255})
						}
					}
				}
			}
		}
	}
	return out
}

func mirror(img image.Image) image.Image { // left to right
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := range b.Dy() {
		for x := range b.Dx() {
			out.Set(b.Dx()-1-x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return out
}
