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
	swapStop    = 0.1  // how far before either centre a swap's two-headed arrow ends
	stepRadius  = 0.19 // a step's numbered disc
)

// drawTurn draws the marks of mm that go over the pieces: the arrows of
// the steps, the marks of drawMarks, and last the steps' numbers, placed
// where they cover none of those marks (numberSpots). It returns the
// rectangles it drew in.
func (r *Renderer) drawTurn(dc *gg.Context, img *image.RGBA, lay *layout, v *rules.Variant, bottom rules.Color, mm *moveMarks) []image.Rectangle {
	dirty := r.drawArrows(dc, img, lay, v, mm)
	marks := r.drawMarks(dc, img, lay, v, bottom, mm)
	dirty = append(dirty, marks...)
	return append(dirty, r.drawNumbers(dc, img, lay, v, mm, marks)...)
}

// drawMarks draws the pieces of mm removed from squares that are
// occupied now and those pushed off the board, small, and the badges of
// the moves; it returns the rectangles it drew in, which the numbers of
// the steps keep clear of.
func (r *Renderer) drawMarks(dc *gg.Context, img *image.RGBA, lay *layout, v *rules.Variant, bottom rules.Color, mm *moveMarks) []image.Rectangle {
	var marks []image.Rectangle
	cell := float64(lay.cell)
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
		marks = append(marks, r.drawMini(dc, img, v, pc, bottom, cx, cy, c))
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
		marks = append(marks, r.drawMini(dc, img, v, o.piece, bottom, cx, cy, c))
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
		marks = append(marks, box(bx, by, tip+2).Intersect(img.Rect))
	}
	for _, b := range mm.badges {
		if v.OnBoard(b.sq) {
			marks = append(marks, drawBadge(dc, lay, b, bottom).Intersect(img.Rect))
		}
	}
	return marks
}

// drawArrows draws the arrows of mm's steps: every step's when they are
// numbered, else only a swap's (two-headed). It returns the rectangles it
// drew in.
func (r *Renderer) drawArrows(dc *gg.Context, img *image.RGBA, lay *layout, v *rules.Variant, mm *moveMarks) []image.Rectangle {
	var dirty []image.Rectangle
	cell := float64(lay.cell)
	for _, st := range mm.steps {
		if !v.OnBoard(st.to) || st.from == st.to || !v.OnBoard(st.from) || !mm.numbered && !st.swap {
			continue
		}
		fx, fy := squareCenter(lay, st.from)
		tx, ty := squareCenter(lay, st.to)
		dirty = append(dirty, drawArrow(dc, fx, fy, tx, ty, cell, stepFill(st), st.swap).Intersect(img.Rect))
	}
	return dirty
}

// stepFill returns the colour of st's arrow and number.
func stepFill(st step) color.NRGBA {
	if st.answer {
		return answerStep
	}
	return stepColor
}

// squareCenter returns the centre of s on the image.
func squareCenter(lay *layout, s rules.Square) (float64, float64) {
	sq := lay.square(s)
	return float64(sq.Min.X+sq.Max.X) / 2, float64(sq.Min.Y+sq.Max.Y) / 2
}

// drawNumbers draws the numbers of mm's steps, when numbered, on discs
// placed by numberSpots, and returns the rectangles it drew in.
func (r *Renderer) drawNumbers(dc *gg.Context, img *image.RGBA, lay *layout, v *rules.Variant, mm *moveMarks, marks []image.Rectangle) []image.Rectangle {
	var dirty []image.Rectangle
	rad := numberRadius(lay)
	f := face(r.fonts.bold, rad*1.45)
	for _, sp := range numberSpots(lay, v, mm, marks, img.Rect) {
		col := stepFill(sp.step)
		dc.DrawCircle(sp.x, sp.y, rad)
		dc.SetColor(color.NRGBA{col.R, col.G, col.B, 255})
		dc.FillPreserve()
		dc.SetColor(numberColor)
		dc.SetLineWidth(math.Max(1, rad*0.16))
		dc.Stroke()
		drawText(img, f, strconv.Itoa(sp.step.n), sp.x, sp.y, 0.5, 0.35, numberColor)
		dirty = append(dirty, box(sp.x, sp.y, rad+2).Intersect(img.Rect))
	}
	return dirty
}

// numberRadius returns the radius of a step's numbered disc.
func numberRadius(lay *layout) float64 {
	return math.Max(float64(lay.cell)*stepRadius, 16*lay.u)
}

// numberSpot is where the number of a step is drawn.
type numberSpot struct {
	step step
	x, y float64
}

// numberSpots places the numbers of mm's steps, when numbered: each at
// the square its step starts from (the to square's corner for a drop or
// a detonation; behind the tail of a swap's arrow), moved aside so that
// it covers none of the rectangles of marks, no other number and, for a
// swap, not its arrow.
func numberSpots(lay *layout, v *rules.Variant, mm *moveMarks, marks []image.Rectangle, bounds image.Rectangle) []numberSpot {
	if !mm.numbered {
		return nil
	}
	var spots []numberSpot
	cell := float64(lay.cell)
	rad := numberRadius(lay)
	taken := append([]image.Rectangle(nil), marks...)
	for _, st := range mm.steps {
		if !v.OnBoard(st.to) {
			continue
		}
		var x, y float64
		away := 0.0 // the direction in which to look first for a free spot
		if st.from == st.to || !v.OnBoard(st.from) {
			sq := lay.square(st.to)
			x, y = float64(sq.Min.X)+cell*0.24, float64(sq.Min.Y)+cell*0.24
		} else {
			x, y = squareCenter(lay, st.from) // at the tail: the number says where the step starts
			tx, ty := squareCenter(lay, st.to)
			away = math.Atan2(y-ty, x-tx)
		}
		avoid := taken
		if st.swap {
			fx, fy := squareCenter(lay, st.from)
			tx, ty := squareCenter(lay, st.to)
			avoid = append(append([]image.Rectangle(nil), taken...), arrowBounds(fx, fy, tx, ty, cell))
		}
		x, y = freeSpot(x, y, away, rad, cell, avoid, bounds)
		spots = append(spots, numberSpot{step: st, x: x, y: y})
		taken = append(taken, box(x, y, rad+2))
	}
	return spots
}

// freeSpot returns the point nearest (x, y), among it and rings of
// points around it, at which a disc of radius rad overlaps none of the
// rectangles taken and stays inside bounds; (x, y) when there is none.
// The points of a ring are tried from the direction away (radians, on
// the image) round.
func freeSpot(x, y, away, rad, cell float64, taken []image.Rectangle, bounds image.Rectangle) (float64, float64) {
	free := func(cx, cy float64) bool {
		b := box(cx, cy, rad+1)
		if !b.In(bounds) {
			return false
		}
		for _, t := range taken {
			if b.Overlaps(t) {
				return false
			}
		}
		return true
	}
	if free(x, y) {
		return x, y
	}
	for ring := 1; ring <= 4; ring++ {
		d := float64(ring) * cell * 0.22
		for i := 0; i < 16; i++ {
			a := away + float64((i+1)/2)*math.Pi/8*float64(1-2*(i%2)) // away, then either side of it
			cx, cy := x+d*math.Cos(a), y+d*math.Sin(a)
			if free(cx, cy) {
				return cx, cy
			}
		}
	}
	return x, y
}

// Colours of the badges of moves.
var (
	badgeBack = color.NRGBA{250, 248, 240, 240}
	blastFill = color.NRGBA{236, 88, 24, 235}
	blastCore = color.NRGBA{255, 214, 64, 245}
	badgeInk  = color.NRGBA{30, 30, 34, 255}
)

// drawBadge draws the sign of the move b on its square and returns the
// rectangle it covers: a blast as a starburst over the bomb's square; a
// fusion as a "+", a split as a fork, a pocketing as an arrow toward the
// pocket of the side that took the piece back, each on a small disc in
// the square's upper right corner.
func drawBadge(dc *gg.Context, lay *layout, b badge, bottom rules.Color) image.Rectangle {
	cell := float64(lay.cell)
	if b.kind == rules.EffectBlast {
		cx, cy := squareCenter(lay, b.sq)
		star := func(outer, inner float64, c color.NRGBA) {
			for i := 0; i < 24; i++ {
				rr := outer
				if i%2 == 1 {
					rr = inner
				}
				a := float64(i)*math.Pi/12 - math.Pi/2
				if i == 0 {
					dc.MoveTo(cx+rr*math.Cos(a), cy+rr*math.Sin(a))
				} else {
					dc.LineTo(cx+rr*math.Cos(a), cy+rr*math.Sin(a))
				}
			}
			dc.ClosePath()
			dc.SetColor(c)
			dc.Fill()
		}
		star(cell*0.4, cell*0.24, blastFill)
		star(cell*0.22, cell*0.12, blastCore)
		return box(cx, cy, cell*0.4+2)
	}
	size := cell * 0.3
	cx, cy := corner(lay.square(b.sq), 1, -1, size)
	rad := size * 0.55
	dc.DrawCircle(cx, cy, rad)
	dc.SetColor(badgeBack)
	dc.FillPreserve()
	dc.SetColor(badgeInk)
	w := math.Max(1.5, rad*0.22)
	dc.SetLineWidth(w)
	dc.Stroke()
	dc.SetLineCapRound()
	l := rad * 0.55
	switch b.kind {
	case rules.EffectFusion:
		dc.DrawLine(cx-l, cy, cx+l, cy)
		dc.DrawLine(cx, cy-l, cx, cy+l)
	case rules.EffectSplit:
		dc.DrawLine(cx, cy+l, cx, cy)
		dc.DrawLine(cx, cy, cx-l*0.8, cy-l)
		dc.DrawLine(cx, cy, cx+l*0.8, cy-l)
	case rules.EffectPocket:
		dir := 1.0 // down, to the bottom pocket
		if b.hand != bottom {
			dir = -1
		}
		dc.DrawLine(cx, cy-dir*l, cx, cy+dir*l)
		dc.DrawLine(cx, cy+dir*l, cx-l*0.7, cy+dir*l*0.2)
		dc.DrawLine(cx, cy+dir*l, cx+l*0.7, cy+dir*l*0.2)
	}
	dc.Stroke()
	return box(cx, cy, rad+w+2)
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
// returns the rectangle it covers. A double arrow (a swap) has a head at
// both ends and stops short of both centres; its heads shrink to fit
// between neighbouring squares.
func drawArrow(dc *gg.Context, fx, fy, tx, ty, cell float64, c color.NRGBA, double bool) image.Rectangle {
	dx, dy := tx-fx, ty-fy
	n := math.Hypot(dx, dy)
	ux, uy := dx/n, dy/n // along the arrow
	px, py := -uy, ux    // across it
	start, end := 0.0, n-arrowStop*cell
	head := arrowHead * cell
	if double {
		start, end = swapStop*cell, n-swapStop*cell
		head = math.Min(head, (end-start)*0.42)
	}
	w, h := arrowWidth*cell/2, arrowSpread*cell
	at := func(along, across float64) [2]float64 {
		return [2]float64{fx + ux*along + px*across, fy + uy*along + py*across}
	}
	var pts [][2]float64
	if double {
		b0, b1 := start+head, end-head
		pts = [][2]float64{at(start, 0), at(b0, h), at(b0, w), at(b1, w), at(b1, h), at(end, 0), at(b1, -h), at(b1, -w), at(b0, -w), at(b0, -h)}
	} else {
		base := end - head
		pts = [][2]float64{at(0, w), at(base, w), at(base, h), at(end, 0), at(base, -h), at(base, -w), at(0, -w)}
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

// arrowBounds returns the rectangle a two-headed arrow between the
// centres (fx, fy) and (tx, ty) covers.
func arrowBounds(fx, fy, tx, ty, cell float64) image.Rectangle {
	h := arrowSpread * cell
	n := math.Hypot(tx-fx, ty-fy)
	ux, uy := (tx-fx)/n, (ty-fy)/n
	ax, ay := fx+ux*swapStop*cell, fy+uy*swapStop*cell
	bx, by := tx-ux*swapStop*cell, ty-uy*swapStop*cell
	return image.Rect(int(math.Min(ax, bx)-h), int(math.Min(ay, by)-h), int(math.Max(ax, bx)+h)+1, int(math.Max(ay, by)+h)+1)
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
