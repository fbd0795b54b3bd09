package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"

	"github.com/fogleman/gg"
)

// EvalChart is the chart of a game's computer analysis: White's winning
// chances after each ply, the judged moves' points coloured by their
// judgement, the worst ones labelled.
type EvalChart struct {
	Title  string
	Points []EvalPoint // one per ply, in order
}

// EvalPoint is one ply of an EvalChart.
type EvalPoint struct {
	// WhiteWin is White's winning percentage after the ply, 0..100.
	WhiteWin float64
	// Mark is the ply's judgement: "", "inaccuracy", "mistake" or
	// "blunder".
	Mark string
	// Label, when not "", is written by the point (a worst move).
	Label string
}

// MaxEvalPoints is the most plies an EvalChart draws.
const MaxEvalPoints = 2000

// markColors are the points' colours by judgement.
var markColors = map[string]color.RGBA{
	"inaccuracy": {230, 200, 60, 255},
	"mistake":    {240, 140, 40, 255},
	"blunder":    {225, 60, 50, 255},
}

// EvalChartImage draws c at width w (MinSize..MaxSize), half as high.
// Errors wrap ErrInvalid: a width out of range, no point or more than
// MaxEvalPoints, a percentage outside 0..100 or not a number, an unknown
// mark.
func (r *Renderer) EvalChartImage(c EvalChart, w int) (*image.RGBA, error) {
	if err := checkWidth(w); err != nil {
		return nil, err
	}
	if len(c.Points) == 0 || len(c.Points) > MaxEvalPoints {
		return nil, fmt.Errorf("%w: an evaluation chart has 1 to %d points, not %d", ErrInvalid, MaxEvalPoints, len(c.Points))
	}
	for i, p := range c.Points {
		if !(p.WhiteWin >= 0 && p.WhiteWin <= 100) {
			return nil, fmt.Errorf("%w: point %d: White's chances %v are not 0 to 100", ErrInvalid, i+1, p.WhiteWin)
		}
		if _, ok := markColors[p.Mark]; p.Mark != "" && !ok {
			return nil, fmt.Errorf("%w: point %d: unknown mark %q", ErrInvalid, i+1, p.Mark)
		}
	}
	u := float64(w) / 800
	h := w / 2
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(backgroundColor), image.Point{}, draw.Src)
	title := face(r.fonts.bold, 22*u)
	small := face(r.fonts.text, 16*u)
	pad := 16 * u
	top := pad
	if c.Title != "" {
		drawText(img, title, c.Title, pad, top+12*u, 0, 0.35, textColor)
		top += 34 * u
	}
	axisW := textWidth(small, "100%") + 10*u
	x0, x1 := pad+axisW, float64(w)-pad
	y0, y1 := top+8*u, float64(h)-pad-24*u // y0 is 100%, y1 is 0%
	px := func(i int) float64 {
		if len(c.Points) == 1 {
			return (x0 + x1) / 2
		}
		return x0 + float64(i)/float64(len(c.Points)-1)*(x1-x0)
	}
	py := func(v float64) float64 { return y1 - v/100*(y1-y0) }
	dc := gg.NewContextForRGBA(img)
	// White's area: from the curve down to 0%.
	dc.MoveTo(px(0), py(0))
	for i, p := range c.Points {
		dc.LineTo(px(i), py(p.WhiteWin))
	}
	dc.LineTo(px(len(c.Points)-1), py(0))
	dc.ClosePath()
	dc.SetColor(color.NRGBA{200, 196, 188, 50})
	dc.Fill()
	dc.SetColor(ruleColor)
	dc.SetLineWidth(math.Max(1, 1.5*u))
	for _, v := range []float64{0, 50, 100} {
		dc.DrawLine(x0, py(v), x1, py(v))
		dc.Stroke()
		drawText(img, small, fmt.Sprintf("%.0f%%", v), x0-6*u, py(v), 1, 0.35, dimTextColor)
	}
	drawText(img, small, "ply 1", x0, y1+16*u, 0, 0.35, dimTextColor)
	drawText(img, small, fmt.Sprintf("ply %d", len(c.Points)), x1, y1+16*u, 1, 0.35, dimTextColor)
	dc.SetColor(textColor)
	dc.SetLineWidth(math.Max(1, 2.5*u))
	for i, p := range c.Points {
		if i == 0 {
			dc.MoveTo(px(i), py(p.WhiteWin))
		} else {
			dc.LineTo(px(i), py(p.WhiteWin))
		}
	}
	dc.Stroke()
	for i, p := range c.Points {
		col, ok := markColors[p.Mark]
		if !ok {
			continue
		}
		dc.SetColor(col)
		dc.DrawCircle(px(i), py(p.WhiteWin), 6*u)
		dc.Fill()
	}
	for i, p := range c.Points {
		if p.Label == "" {
			continue
		}
		x, y := px(i), py(p.WhiteWin)
		ay := -0.6 // above the point
		if p.WhiteWin > 75 {
			ay = 1.4 // below it near the top
		}
		ax := 0.5
		tw := textWidth(small, p.Label)
		if x-tw/2 < x0 {
			ax = 0
		} else if x+tw/2 > x1 {
			ax = 1
		}
		drawText(img, small, p.Label, x, y, ax, ay, textColor)
	}
	return img, nil
}

// EvalChartPNG draws c as EvalChartImage does and writes it to w as a
// PNG.
func (r *Renderer) EvalChartPNG(w io.Writer, c EvalChart, width int) error {
	img, err := r.EvalChartImage(c, width)
	if err != nil {
		return err
	}
	return r.encodePNG(w, img)
}
