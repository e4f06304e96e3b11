package main

import (
	"fmt"
	"image"
	"image/color"
)

type Image struct {
	w, h int
}

func (img Image) ColorModel() color.Model { return color.RGBAModel }

func (img Image) Bounds() image.Rectangle { return image.Rect(0, 0, img.w, img.h) }

func (img Image) At(x, y int) color.Color {
	v := uint8((x ^ y) * 16)
	return color.RGBA{v, v, 255, 255}
}

func summarize(m image.Image) {
	b := m.Bounds()
	var sum, n int
	hist := map[uint8]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, _, _, _ := m.At(x, y).RGBA()
			sum += int(r >> 8)
			hist[uint8(r>>8)]++
			n++
		}
	}
	fmt.Println("bounds", b, "pixels", n, "mean red", sum/n, "distinct", len(hist))
}

func main() {
	m := Image{4, 3}
	summarize(m)
	fmt.Println(m.Bounds().Dx(), m.Bounds().Dy(), m.At(3, 1))
	r, g, b, a := m.At(1, 2).RGBA()
	fmt.Println(r, g, b, a)

	rgba := image.NewRGBA(image.Rect(0, 0, 3, 2))
	rgba.Set(1, 1, color.RGBA{200, 100, 50, 255})
	fmt.Println(rgba.Bounds(), rgba.At(1, 1), rgba.At(0, 0))
	summarize(rgba)
	gray := color.GrayModel.Convert(color.RGBA{200, 100, 50, 255})
	fmt.Println(gray)
	p := image.Pt(2, 3).Add(image.Pt(1, 1)).Mul(2)
	fmt.Println(p, p.In(image.Rect(0, 0, 10, 10)), image.Rect(0, 0, 4, 4).Intersect(image.Rect(2, 2, 6, 6)))
}
