package jpegdc

import (
	"image"
	"image/color"
)

// image makes the 1/8-scale picture from the DC planes.
func (d *decoder) image() (image.Image, error) {
	if !d.frameSeen {
		return nil, FormatError("no frame header")
	}
	rect := image.Rect(0, 0, (d.width+7)/8, (d.height+7)/8)
	planes := make([][]byte, len(d.comps))
	for i := range d.comps {
		planes[i] = d.samples(&d.comps[i])
	}
	if len(d.comps) == 1 {
		return &image.Gray{Pix: planes[0], Stride: d.comps[0].stride, Rect: rect}, nil
	}
	if r := ratio(d.comps); r >= 0 && !d.isRGB() {
		return &image.YCbCr{Y: planes[0], Cb: planes[1], Cr: planes[2],
			YStride: d.comps[0].stride, CStride: d.comps[1].stride, SubsampleRatio: r, Rect: rect}, nil
	}
	// Any other sampling, or R, G and B: each pixel from the block of
	// each component that covers it.
	img := image.NewRGBA(rect)
	rgb := d.isRGB()
	for y := range rect.Dy() {
		for x := range rect.Dx() {
			var s [3]byte
			for i := range d.comps {
				c := &d.comps[i]
				s[i] = planes[i][(y*c.v/d.vmax)*c.stride+x*c.h/d.hmax]
			}
			if !rgb {
				s[0], s[1], s[2] = color.YCbCrToRGB(s[0], s[1], s[2])
			}
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = s[0], s[1], s[2], 0xFF
		}
	}
	return img, nil
}

// samples turns a component's DC coefficients into its blocks' mean
// samples: the DC coefficient, dequantised, is eight times the mean's
// difference from 128 (A.3.3), rounded as libjpeg's 1/8-scale decode does.
func (d *decoder) samples(c *component) []byte {
	q := int32(d.quant[c.tq])
	out := make([]byte, len(c.dc))
	for i, v := range c.dc {
		s := (v*q+4)>>3 + 128
		out[i] = byte(min(max(s, 0), 255))
	}
	return out
}

// ratio is the subsampling of a three-component frame as Go's image
// package names it, or -1 when it names none.
func ratio(comps []component) image.YCbCrSubsampleRatio {
	if len(comps) != 3 || comps[1].h != 1 || comps[1].v != 1 || comps[2].h != 1 || comps[2].v != 1 {
		return -1
	}
	switch [2]int{comps[0].h, comps[0].v} {
	case [2]int{1, 1}:
		return image.YCbCrSubsampleRatio444
	case [2]int{2, 1}:
		return image.YCbCrSubsampleRatio422
	case [2]int{2, 2}:
		return image.YCbCrSubsampleRatio420
	case [2]int{1, 2}:
		return image.YCbCrSubsampleRatio440
	case [2]int{4, 1}:
		return image.YCbCrSubsampleRatio411
	case [2]int{4, 2}:
		return image.YCbCrSubsampleRatio410
	}
	return -1
}
