package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"time"

	"github.com/fogleman/gg"
)

// Card is a player card: a table (the player's ratings, one row per
// variant, with the table's title and subtitle as the card's), a line
// chart of rating histories and lines of text under them.
type Card struct {
	Table Table
	// Chart is drawn under the table when it has a series with a point.
	Chart Chart
	// Footer lines are written at the bottom (current games, streaks).
	Footer []string
}

// Chart is a line chart of values over time, one line per series, each
// in its own colour with its name in a legend.
type Chart struct {
	Title  string
	Series []Series
}

// Series is one line of a Chart. Points must be in time order; a series
// of one point is drawn as a dot.
type Series struct {
	Name   string
	Points []ChartPoint
}

// ChartPoint is one point of a Series.
type ChartPoint struct {
	At    time.Time
	Value float64
}

// Chart limits.
const (
	MaxSeries      = 8
	MaxChartPoints = 1000 // per series
	MaxFooterLines = 8
)

// seriesColors are the lines' colours, in the order of the series.
var seriesColors = []color.RGBA{
	{226, 184, 66, 255}, {110, 180, 255, 255}, {120, 210, 110, 255}, {255, 120, 100, 255},
	{200, 140, 255, 255}, {90, 220, 210, 255}, {255, 170, 60, 255}, {220, 220, 220, 255},
}

// CardImage draws c at width w (MinSize..MaxSize). Errors wrap ErrInvalid:
// a width out of range, a table TableImage refuses, more than MaxSeries
// series or MaxChartPoints points in one, points out of time order or not
// finite, more than MaxFooterLines footer lines.
func (r *Renderer) CardImage(c Card, w int) (*image.RGBA, error) {
	if err := checkWidth(w); err != nil {
		return nil, err
	}
	if err := checkTable(&c.Table); err != nil {
		return nil, err
	}
	if len(c.Chart.Series) > MaxSeries {
		return nil, fmt.Errorf("%w: a chart has at most %d series, not %d", ErrInvalid, MaxSeries, len(c.Chart.Series))
	}
	points := 0
	for _, s := range c.Chart.Series {
		if len(s.Points) > MaxChartPoints {
			return nil, fmt.Errorf("%w: series %q has %d points, at most %d", ErrInvalid, s.Name, len(s.Points), MaxChartPoints)
		}
		for i, p := range s.Points {
			if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
				return nil, fmt.Errorf("%w: series %q: point %d is not a number", ErrInvalid, s.Name, i+1)
			}
			if i > 0 && p.At.Before(s.Points[i-1].At) {
				return nil, fmt.Errorf("%w: series %q: point %d is older than point %d", ErrInvalid, s.Name, i+1, i)
			}
		}
		points += len(s.Points)
	}
	if len(c.Footer) > MaxFooterLines {
		return nil, fmt.Errorf("%w: a card has at most %d footer lines, not %d", ErrInvalid, MaxFooterLines, len(c.Footer))
	}
	g := r.layoutTable(&c.Table, w)
	u := g.u
	chartH := 0
	if points > 0 {
		chartH = int(360 * u)
	}
	lineH := int(32 * u)
	f := face(r.fonts.text, 21*u)
	var footer []string
	for _, line := range c.Footer {
		footer = append(footer, breakLines(f, line, float64(w-2*g.pad))...)
	}
	footH := 0
	if len(footer) > 0 {
		footH = len(footer)*lineH + g.pad
	}
	img := image.NewRGBA(image.Rect(0, 0, w, g.height+chartH+footH))
	draw.Draw(img, img.Bounds(), image.NewUniform(backgroundColor), image.Point{}, draw.Src)
	y := r.drawTable(img, &c.Table, g, 0)
	if chartH > 0 {
		r.drawChart(img, c.Chart, image.Rect(g.pad, y, w-g.pad, y+chartH-g.pad), u)
		y += chartH
	}
	for _, line := range footer {
		drawText(img, f, line, float64(g.pad), float64(y+lineH/2), 0, 0.35, textColor)
		y += lineH
	}
	return img, nil
}

// CardPNG draws c as CardImage does and writes it to w as a PNG.
func (r *Renderer) CardPNG(w io.Writer, c Card, width int) error {
	img, err := r.CardImage(c, width)
	if err != nil {
		return err
	}
	return r.encodePNG(w, img)
}

// drawChart draws ch into box: a title, the legend, axes with the value
// range and the first and last dates, and each series.
func (r *Renderer) drawChart(img *image.RGBA, ch Chart, box image.Rectangle, u float64) {
	title := face(r.fonts.bold, 22*u)
	small := face(r.fonts.text, 17*u)
	y := float64(box.Min.Y)
	if ch.Title != "" {
		for _, l := range breakLines(title, ch.Title, float64(box.Dx())) {
			drawText(img, title, l, float64(box.Min.X), y+14*u, 0, 0.35, textColor)
			y += 28 * u
		}
		y += 6 * u
	}
	// Legend: a swatch and the name of each series (on several lines
	// when it is wider than the box), wrapping.
	x := float64(box.Min.X)
	extra := 0.0 // the height the current legend row's longest name adds
	for i, s := range ch.Series {
		if len(s.Points) == 0 {
			continue
		}
		lines := breakLines(small, s.Name, float64(box.Dx())-22*u)
		nameW := 0.0
		for _, l := range lines {
			nameW = max(nameW, textWidth(small, l))
		}
		wd := 22*u + nameW + 20*u
		if x+wd > float64(box.Max.X) && x > float64(box.Min.X) {
			x = float64(box.Min.X)
			y += 26*u + extra
			extra = 0
		}
		c := seriesColors[i%len(seriesColors)]
		draw.Draw(img, image.Rect(int(x), int(y+4*u), int(x+16*u), int(y+16*u)), image.NewUniform(c), image.Point{}, draw.Src)
		for j, l := range lines {
			drawText(img, small, l, x+22*u, y+10*u+float64(j)*22*u, 0, 0.35, dimTextColor)
		}
		extra = max(extra, float64(len(lines)-1)*22*u)
		x += wd
	}
	y += 30*u + extra
	// Ranges, with a margin, over every point.
	var t0, t1 time.Time
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range ch.Series {
		for _, p := range s.Points {
			if t0.IsZero() || p.At.Before(t0) {
				t0 = p.At
			}
			if p.At.After(t1) {
				t1 = p.At
			}
			lo, hi = math.Min(lo, p.Value), math.Max(hi, p.Value)
		}
	}
	if hi-lo < 50 {
		mid := (hi + lo) / 2
		lo, hi = mid-25, mid+25
	}
	margin := (hi - lo) * 0.08
	lo, hi = math.Floor((lo-margin)/10)*10, math.Ceil((hi+margin)/10)*10
	axisW := math.Max(textWidth(small, fmt.Sprintf("%.0f", hi)), textWidth(small, fmt.Sprintf("%.0f", lo))) + 10*u
	plot := image.Rect(box.Min.X+int(axisW), int(y), box.Max.X-int(8*u), box.Max.Y-int(28*u))
	if plot.Dx() < 10 || plot.Dy() < 10 {
		return
	}
	dc := gg.NewContextForRGBA(img)
	dc.SetColor(ruleColor)
	dc.SetLineWidth(math.Max(1, 1.5*u))
	for _, v := range []float64{lo, (lo + hi) / 2, hi} {
		py := float64(plot.Max.Y) - (v-lo)/(hi-lo)*float64(plot.Dy())
		dc.DrawLine(float64(plot.Min.X), py, float64(plot.Max.X), py)
		dc.Stroke()
		drawText(img, small, fmt.Sprintf("%.0f", v), float64(plot.Min.X)-6*u, py, 1, 0.35, dimTextColor)
	}
	span := t1.Sub(t0)
	px := func(t time.Time) float64 {
		if span <= 0 {
			return float64(plot.Min.X+plot.Max.X) / 2
		}
		return float64(plot.Min.X) + float64(t.Sub(t0))/float64(span)*float64(plot.Dx())
	}
	py := func(v float64) float64 { return float64(plot.Max.Y) - (v-lo)/(hi-lo)*float64(plot.Dy()) }
	drawText(img, small, t0.UTC().Format("2 Jan 2006"), float64(plot.Min.X), float64(plot.Max.Y)+16*u, 0, 0.35, dimTextColor)
	if span > 0 {
		drawText(img, small, t1.UTC().Format("2 Jan 2006"), float64(plot.Max.X), float64(plot.Max.Y)+16*u, 1, 0.35, dimTextColor)
	}
	for i, s := range ch.Series {
		if len(s.Points) == 0 {
			continue
		}
		dc.SetColor(seriesColors[i%len(seriesColors)])
		dc.SetLineWidth(3 * u)
		for j, p := range s.Points {
			if j == 0 {
				dc.MoveTo(px(p.At), py(p.Value))
			} else {
				dc.LineTo(px(p.At), py(p.Value))
			}
		}
		dc.Stroke()
		for _, p := range s.Points {
			dc.DrawCircle(px(p.At), py(p.Value), 4*u)
			dc.Fill()
		}
	}
}
