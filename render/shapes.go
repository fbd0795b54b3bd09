package render

import (
	"image/color"

	"github.com/fogleman/gg"
)

// drawShape draws a vector symbol in ink, fitting a box x box square
// centred on (cx, cy); fill is the colour of the token under it.
func drawShape(dc *gg.Context, s shape, cx, cy, box float64, fill, ink color.Color) {
	switch s {
	case shapeTank:
		drawTank(dc, cx, cy, box, fill, ink)
	}
}

// drawTank draws a tank seen from the side, gun to the right: tracks with
// road wheels, a hull, a turret and a barrel.
func drawTank(dc *gg.Context, cx, cy, box float64, fill, ink color.Color) {
	u := box / 2 // half the box: coordinates below run from -1 to 1
	x := func(v float64) float64 { return cx + v*u }
	y := func(v float64) float64 { return cy + v*u }
	dc.SetColor(ink)
	// Tracks.
	dc.DrawRoundedRectangle(x(-0.95), y(0.22), 1.9*u, 0.62*u, 0.31*u)
	dc.Fill()
	// Hull.
	dc.MoveTo(x(-0.85), y(0.22))
	dc.LineTo(x(-0.70), y(-0.08))
	dc.LineTo(x(0.78), y(-0.08))
	dc.LineTo(x(0.92), y(0.22))
	dc.ClosePath()
	dc.Fill()
	// Turret and barrel.
	dc.DrawRoundedRectangle(x(-0.45), y(-0.42), 0.8*u, 0.40*u, 0.14*u)
	dc.Fill()
	dc.DrawRectangle(x(0.30), y(-0.33), 0.72*u, 0.13*u)
	dc.Fill()
	// Road wheels, in the token's colour.
	dc.SetColor(fill)
	for _, wx := range []float64{-0.64, -0.21, 0.22, 0.65} {
		dc.DrawCircle(x(wx), y(0.53), 0.17*u)
		dc.Fill()
	}
}
