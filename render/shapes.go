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
	case shapeSwords:
		drawSwords(dc, cx, cy, box, fill, ink)
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

// drawSwords draws two swords crossed like an X, points up: bold blades,
// cross guards, grips and pommels, the second sword edged in fill where
// it crosses the first.
func drawSwords(dc *gg.Context, cx, cy, box float64, fill, ink color.Color) {
	u := box / 2 * 1.4 // the swords reach 0.7 u from the centre
	for _, side := range []float64{1, -1} {
		// A sword from its pommel at the lower left (or right) to its
		// point at the upper right (or left), in units of u.
		pt := func(along, across float64) (float64, float64) {
			// along runs from the hilt to the point, across to its right.
			dx, dy := side*0.7071, -0.7071
			nx, ny := 0.7071, side*0.7071
			hx, hy := -side*0.42, 0.42 // where guard and blade meet
			return cx + (hx+dx*along+nx*across)*u, cy + (hy+dy*along+ny*across)*u
		}
		blade := [][2]float64{{0, -0.13}, {1.0, -0.13}, {1.3, 0}, {1.0, 0.13}, {0, 0.13}}
		path := func() {
			for i, p := range blade {
				x, y := pt(p[0], p[1])
				if i == 0 {
					dc.MoveTo(x, y)
				} else {
					dc.LineTo(x, y)
				}
			}
			dc.ClosePath()
		}
		if side < 0 {
			// Edge the second blade so that the crossing reads.
			path()
			dc.SetColor(fill)
			dc.SetLineWidth(0.14 * u)
			dc.Stroke()
		}
		path()
		dc.SetColor(ink)
		dc.Fill()
		// Cross guard, grip and pommel.
		gx0, gy0 := pt(0, -0.30)
		gx1, gy1 := pt(0, 0.30)
		dc.SetLineWidth(0.18 * u)
		dc.SetLineCapRound()
		dc.DrawLine(gx0, gy0, gx1, gy1)
		dc.Stroke()
		hx0, hy0 := pt(0, 0)
		hx1, hy1 := pt(-0.28, 0)
		dc.SetLineWidth(0.13 * u)
		dc.DrawLine(hx0, hy0, hx1, hy1)
		dc.Stroke()
		px, py := pt(-0.36, 0)
		dc.DrawCircle(px, py, 0.10*u)
		dc.Fill()
	}
}
