package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"

	"github.com/fairypost/fairypost/rules"
	"github.com/fogleman/gg"
)

// Colours of a turn's marks.
var (
	stepColor   = color.NRGBA{24, 104, 40, 215}  // the arrows and numbers of the turn owner's moves
	answerStep  = color.NRGBA{112, 44, 190, 225} // those of the opponent's answer
	takenBack   = color.NRGBA{214, 40, 32, 235}  // the disc under a removed piece drawn small
	numberColor = color.RGBA{255, 255, 255, 255}
)

// Proportions of a turn's marks, in cells.
const (
	miniPiece   = 0.46 // a removed piece drawn small
	arrowWidth  = 0.13
	arrowHead   = 0.34 // the head's length
	arrowSpread = 0.24 // half the head's width
	arrowStop   = 0.22 // how far before the centre of the to square the head ends
	stepRadius  = 0.19 // a step's numbered disc
)

// drawTurn draws the marks of mm that go over the pieces: the numbered
// steps of a turn, then the pieces removed from squares that are
// occupied now and those pushed off the board, drawn small. It returns
// the rectangles it drew in.
func (r *Renderer) drawTurn(dc *gg.Context, img *image.RGBA, lay *layout, v *rules.Variant, bottom rules.Color, mm *moveMarks) []image.Rectangle {
	var dirty []image.Rectangle
	cell := float64(lay.cell)
	dirty = append(dirty, r.drawSteps(dc, img, lay, v, mm)...)
	c := cell * miniPiece
	for _, s := range v.Squares() {
		pc := mm.taken[s]
		if pc == rules.NoPiece {
			continue
		}
		// The corner away from where the capturer came (its arrow).
		sx, sy := 1.0, -1.0
		if from := mm.takenFrom[s]; v.OnBoard(from) {
			x, y := screenDir(from.File()-s.File(), from.Rank()-s.Rank(), bottom)
			if x != 0 {
				sx = -sign(x)
			}
			if y != 0 {
				sy = -sign(y)
			}
		}
		cx, cy := corner(lay.square(s), sx, sy, c)
		dirty = append(dirty, r.drawMini(dc, img, v, pc, bottom, cx, cy, c))
	}
	for _, o := range mm.off {
		// The piece sits small in the edge square's corner on the side it
		// left by; a red head there points off the board.
		x, y := screenDir(o.df, o.dr, bottom)
		sx, sy := sign(x), sign(y)
		if sx == 0 {
			sx = 1
		}
		if sy == 0 {
			sy = -1
		}
		cx, cy := corner(lay.square(o.from), sx, sy, c)
		dirty = append(dirty, r.drawMini(dc, img, v, o.piece, bottom, cx, cy, c))
		n := math.Hypot(x, y)
		ux, uy := x/n, y/n
		bx, by := cx+ux*c*0.5, cy+uy*c*0.5 // the head's base, on the disc's rim
		tip := c * 0.45
		dc.SetColor(takenBack)
		dc.MoveTo(bx+ux*tip, by+uy*tip)
		dc.LineTo(bx-uy*c*0.32, by+ux*c*0.32)
		dc.LineTo(bx+uy*c*0.32, by-ux*c*0.32)
		dc.ClosePath()
		dc.Fill()
		dirty = append(dirty, box(bx, by, tip+2).Intersect(img.Rect))
	}
	return dirty
}

// drawSteps draws the numbered steps of mm, arrows first, then their
// numbers on the squares the steps start from, and returns the
// rectangles it drew in.
func (r *Renderer) drawSteps(dc *gg.Context, img *image.RGBA, lay *layout, v *rules.Variant, mm *moveMarks) []image.Rectangle {
	var dirty []image.Rectangle
	cell := float64(lay.cell)
	center := func(s rules.Square) (float64, float64) {
		sq := lay.square(s)
		return float64(sq.Min.X+sq.Max.X) / 2, float64(sq.Min.Y+sq.Max.Y) / 2
	}
	type disc struct {
		x, y float64
		n    int
		c    color.NRGBA
	}
	var discs []disc
	for _, st := range mm.steps {
		col := stepColor
		if st.answer {
			col = answerStep
		}
		if !v.OnBoard(st.to) {
			continue
		}
		tx, ty := center(st.to)
		if st.from == st.to || !v.OnBoard(st.from) {
			sq := lay.square(st.to)
			discs = append(discs, disc{float64(sq.Min.X) + cell*0.24, float64(sq.Min.Y) + cell*0.24, st.n, col})
			continue
		}
		fx, fy := center(st.from)
		dirty = append(dirty, drawArrow(dc, fx, fy, tx, ty, cell, col).Intersect(img.Rect))
		discs = append(discs, disc{fx, fy, st.n, col}) // at the tail: the number says where the step starts
	}
	rad := math.Max(cell*stepRadius, 16*lay.u)
	f := face(r.fonts.bold, rad*1.45)
	for i := range discs {
		d := &discs[i]
		for j := 0; j < i; j++ { // move a disc off one drawn already
			if math.Hypot(d.x-discs[j].x, d.y-discs[j].y) < rad*1.6 {
				d.x += rad * 1.8
			}
		}
		dc.DrawCircle(d.x, d.y, rad)
		dc.SetColor(color.NRGBA{d.c.R, d.c.G, d.c.B, 255})
		dc.FillPreserve()
		dc.SetColor(numberColor)
		dc.SetLineWidth(math.Max(1, rad*0.16))
		dc.Stroke()
		drawText(img, f, strconv.Itoa(d.n), d.x, d.y, 0.5, 0.35, numberColor)
		dirty = append(dirty, box(d.x, d.y, rad+2).Intersect(img.Rect))
	}
	return dirty
}

// drawMini draws pc small (size px) centred on (cx, cy) over a red disc,
// and returns the rectangle it drew in.
func (r *Renderer) drawMini(dc *gg.Context, img *image.RGBA, v *rules.Variant, pc rules.Piece, bottom rules.Color, cx, cy, size float64) image.Rectangle {
	dc.DrawCircle(cx, cy, size*0.55)
	dc.SetColor(takenBack)
	dc.Fill()
	n := int(math.Round(size))
	sp := r.pieceSprite(v.Def(pc.Type()), pc.Color(), n, pc.Color() != bottom)
	at := image.Pt(int(math.Round(cx))-n/2, int(math.Round(cy))-n/2)
	draw.DrawMask(img, sp.Rect.Add(at), sp, image.Point{}, image.NewUniform(color.Alpha{225}), image.Point{}, draw.Over)
	return box(cx, cy, size*0.55+2).Intersect(img.Rect)
}

// drawArrow fills an arrow from the centre (fx, fy) of one square to that
// of another, (tx, ty), stopping short of it, cells cell pixels wide, and
// returns the rectangle it covers.
func drawArrow(dc *gg.Context, fx, fy, tx, ty, cell float64, c color.NRGBA) image.Rectangle {
	dx, dy := tx-fx, ty-fy
	n := math.Hypot(dx, dy)
	ux, uy := dx/n, dy/n // along the arrow
	px, py := -uy, ux    // across it
	end := n - arrowStop*cell
	base := end - arrowHead*cell
	w, h := arrowWidth*cell/2, arrowSpread*cell
	at := func(along, across float64) (float64, float64) {
		return fx + ux*along + px*across, fy + uy*along + py*across
	}
	pts := [][2]float64{}
	for _, p := range [][2]float64{{0, w}, {base, w}, {base, h}, {end, 0}, {base, -h}, {base, -w}, {0, -w}} {
		x, y := at(p[0], p[1])
		pts = append(pts, [2]float64{x, y})
	}
	dc.MoveTo(pts[0][0], pts[0][1])
	for _, p := range pts[1:] {
		dc.LineTo(p[0], p[1])
	}
	dc.ClosePath()
	dc.SetColor(c)
	dc.Fill()
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		minX, maxX = math.Min(minX, p[0]), math.Max(maxX, p[0])
		minY, maxY = math.Min(minY, p[1]), math.Max(maxY, p[1])
	}
	return image.Rect(int(minX)-2, int(minY)-2, int(maxX)+3, int(maxY)+3)
}

// screenDir turns a direction in files and ranks into one on the image
// (x to the right, y down) for the side at the bottom.
func screenDir(df, dr int, bottom rules.Color) (float64, float64) {
	if bottom == rules.Black {
		return float64(-df), float64(dr)
	}
	return float64(df), float64(-dr)
}

// corner returns the centre of a disc of diameter size*1.1 in the corner
// of sq given by sx (-1 left, 1 right) and sy (-1 top, 1 bottom).
func corner(sq image.Rectangle, sx, sy, size float64) (float64, float64) {
	off := float64(sq.Dx())/2 - size*0.55 - 1
	return float64(sq.Min.X+sq.Max.X)/2 + sx*off, float64(sq.Min.Y+sq.Max.Y)/2 + sy*off
}

// sign returns -1, 0 or 1.
func sign(x float64) float64 {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// box returns the square of half-side half around (cx, cy).
func box(cx, cy, half float64) image.Rectangle {
	return image.Rect(int(cx-half), int(cy-half), int(math.Ceil(cx+half)), int(math.Ceil(cy+half)))
}
