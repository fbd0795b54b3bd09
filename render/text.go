package render

import (
	"image"
	"image/color"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// drawText draws s in face f and colour c onto img so that (x, y) falls at
// the fraction ax of its width and ay of its height, as
// gg.Context.DrawStringAnchored does. It draws the glyph masks directly
// (font.Drawer), which is several times faster than gg's transformed
// drawing, since text here is never rotated or scaled.
func drawText(img *image.RGBA, f font.Face, s string, x, y, ax, ay float64, c color.Color) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: f}
	w := fix2f(d.MeasureString(s))
	h := fix2f(f.Metrics().Height)
	d.Dot = fixed.Point26_6{X: fixed.Int26_6((x-ax*w)*64 + 0.5), Y: fixed.Int26_6((y+ay*h)*64 + 0.5)}
	d.DrawString(s)
}

// textWidth returns the advance width of s in face f, in pixels.
func textWidth(f font.Face, s string) float64 { return fix2f(font.MeasureString(f, s)) }
