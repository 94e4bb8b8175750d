//go:build ignore

// basejpeg writes the plain JPEG the fixtures are made from: 64×32
// pixels, left half red and right half blue, so that a test can tell
// whether a derivative was turned by its EXIF orientation.
package main

import (
	"image"
	"image/color"
	"image/jpeg"
	"os"
)

func main() {
	img := image.NewRGBA(image.Rect(0, 0, 64, 32))
	for y := 0; y < 32; y++ {
		for x := 0; x < 64; x++ {
			c := color.RGBA{220, 30, 30, 255}
			if x >= 32 {
				c = color.RGBA{30, 30, 220, 255}
			}
			img.Set(x, y, c)
		}
	}
	if err := jpeg.Encode(os.Stdout, img, &jpeg.Options{Quality: 90}); err != nil {
		panic(err)
	}
}
