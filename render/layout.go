package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/fairypost/fairypost/rules"
	"github.com/fogleman/gg"
)

// layout places the parts of an image above the legend. It depends only
// on the variant, the width and the orientation.
type layout struct {
	w, h         int
	u            float64 // scale: w / DefaultSize; text and margins grow with it
	files, ranks int
	bottom       rules.Color
	cell         int
	status       image.Rectangle
	board        image.Rectangle
	pockets      bool
	pocketTop    image.Rectangle // the pocket of the side at the top
	pocketBottom image.Rectangle
	pocketIcon   int
}

// square returns the pixel rectangle of s.
func (l *layout) square(s rules.Square) image.Rectangle {
	col, row := s.File(), l.ranks-1-s.Rank()
	if l.bottom == rules.Black {
		col, row = l.files-1-s.File(), s.Rank()
	}
	x := l.board.Min.X + col*l.cell
	y := l.board.Min.Y + row*l.cell
	return image.Rect(x, y, x+l.cell, y+l.cell)
}

// frameKey identifies a cached frame.
type frameKey struct {
	v      *rules.Variant
	size   int
	bottom rules.Color
}

// frame is the part of an image that does not depend on the position:
// background, board, coordinates and pocket boxes (everything above the
// legend); with it quantized to at most framePalette colours, for PNGs.
type frame struct {
	lay layout
	img *image.RGBA
	pal color.Palette
	idx []uint8 // img's pixels as indexes into pal
}

// framePalette is how many of a PNG's 256 colours the frame may take; the
// rest are for what a position adds (pieces, highlights, text).
const framePalette = 160

// maxFrames bounds the frame cache: a frame takes 5 bytes a pixel (about
// 4 MB at 800 px), and the bot needs one per variant, orientation and
// size in use. The oldest frame goes first.
const maxFrames = 24

// frame returns the cached frame for v at size px wide with bottom at the
// bottom, drawing it the first time.
func (r *Renderer) frame(v *rules.Variant, size int, bottom rules.Color) *frame {
	key := frameKey{v, size, bottom}
	r.mu.Lock()
	fr := r.frames[key]
	r.mu.Unlock()
	if fr != nil {
		return fr
	}
	fr = r.drawFrame(v, size, bottom)
	r.mu.Lock()
	defer r.mu.Unlock()
	if old := r.frames[key]; old != nil {
		return old // another goroutine drew it meanwhile
	}
	if len(r.frameOrder) >= maxFrames {
		delete(r.frames, r.frameOrder[0])
		r.frameOrder = r.frameOrder[1:]
	}
	r.frames[key] = fr
	r.frameOrder = append(r.frameOrder, key)
	return fr
}

// drawFrame lays out and draws the frame.
func (r *Renderer) drawFrame(v *rules.Variant, size int, bottom rules.Color) *frame {
	lay := r.layout(v, size, bottom)
	img := image.NewRGBA(image.Rect(0, 0, lay.w, lay.h))
	draw.Draw(img, img.Rect, image.NewUniform(backgroundColor), image.Point{}, draw.Src)
	dc := gg.NewContextForRGBA(img)
	u := lay.u

	// The board, with a dark edge.
	edge := int(math.Max(2, math.Round(3*u)))
	draw.Draw(img, lay.board.Inset(-edge), image.NewUniform(boardEdge), image.Point{}, draw.Src)
	for _, s := range v.Squares() {
		c := lightSquare
		if (s.File()+s.Rank())%2 == 0 {
			c = darkSquare
		}
		draw.Draw(img, lay.square(s), image.NewUniform(c), image.Point{}, draw.Src)
	}

	// Coordinates: files under the board, ranks to its left.
	coord := face(r.fonts.bold, 21*u)
	for f := 0; f < v.Files; f++ {
		sq := lay.square(rules.NewSquare(f, 0))
		x := float64(sq.Min.X+sq.Max.X) / 2
		drawText(img, coord, string(rune('a'+f)), x, float64(lay.board.Max.Y+edge)+15*u, 0.5, 0.35, dimTextColor)
	}
	for rk := 0; rk < v.Ranks; rk++ {
		sq := lay.square(rules.NewSquare(0, rk))
		y := float64(sq.Min.Y+sq.Max.Y) / 2
		drawText(img, coord, fmt.Sprint(rk+1), float64(lay.board.Min.X-edge)-8*u, y, 1, 0.35, dimTextColor)
	}

	// Pocket boxes, each with a disc of its owner's colour.
	if lay.pockets {
		for _, pb := range []struct {
			b image.Rectangle
			c rules.Color
		}{{lay.pocketTop, bottom.Other()}, {lay.pocketBottom, bottom}} {
			dc.DrawRoundedRectangle(float64(pb.b.Min.X), float64(pb.b.Min.Y), float64(pb.b.Dx()), float64(pb.b.Dy()), 8*u)
			dc.SetColor(pocketColor)
			dc.Fill()
			rad := 9 * u
			dc.DrawCircle(float64(pb.b.Min.X)+18*u, float64(pb.b.Min.Y+pb.b.Dy()/2), rad)
			if pb.c == rules.Black {
				dc.SetColor(tokenBlack)
			} else {
				dc.SetColor(paperColor)
			}
			dc.FillPreserve()
			dc.SetColor(inkColor)
			dc.SetLineWidth(1.5 * u)
			dc.Stroke()
		}
	}

	fr := &frame{lay: lay, img: img}
	q := new(quantizer)
	q.reset()
	q.add(img, img.Rect, 1)
	fr.pal = q.extend(nil, framePalette)
	p := image.NewPaletted(img.Rect, fr.pal)
	q.paletted(img, img.Rect, p)
	fr.idx = p.Pix
	return fr
}

// layout computes where everything goes.
func (r *Renderer) layout(v *rules.Variant, size int, bottom rules.Color) layout {
	u := float64(size) / DefaultSize
	px := func(f float64) int { return int(math.Round(f * u)) }
	l := layout{w: size, u: u, files: v.Files, ranks: v.Ranks, bottom: bottom, pockets: hasPockets(v)}
	pad := px(14)
	gutter := px(30) // rank numbers
	gap := px(8)
	l.cell = (size - 2*pad - gutter) / v.Files
	boardW := l.cell * v.Files
	x0 := pad + gutter + (size-2*pad-gutter-boardW)/2
	y := pad
	l.status = image.Rect(pad, y, size-pad, y+px(46))
	y = l.status.Max.Y + gap
	pocketH := px(72)
	l.pocketIcon = px(66)
	if l.pockets {
		l.pocketTop = image.Rect(x0, y, x0+boardW, y+pocketH)
		y += pocketH + gap
	}
	y += px(3) // the board's edge
	l.board = image.Rect(x0, y, x0+boardW, y+l.cell*v.Ranks)
	y = l.board.Max.Y + px(3) + px(30) // edge and file letters
	if l.pockets {
		y += gap
		l.pocketBottom = image.Rect(x0, y, x0+boardW, y+pocketH)
		y += pocketH
	}
	l.h = y + pad
	return l
}
