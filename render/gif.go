package render

import (
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"slices"

	"github.com/fairypost/fairypost/rules"
)

// Frame delays of a game GIF, in hundredths of a second.
const (
	gifFirstDelay = 150 // the start position
	gifMoveDelay  = 100 // each move
	gifLastDelay  = 600 // the final position is held
)

// GIF writes an animated GIF of g: the start position, then one frame per
// move (each marking its move as Image does), the final position held for
// six seconds before the animation starts again. The last frame shows
// g.Outcome() unless the Outcome option says otherwise; Previous and Turn
// are ignored. Each frame after the first stores only the rectangle that
// changed, with its own palette, and is transparent where the pixels did
// not change.
func (r *Renderer) GIF(w io.Writer, g *rules.Game, opts ...Option) error {
	if g == nil {
		return fmt.Errorf("%w: no game", ErrInvalid)
	}
	moves := len(g.Moves())
	var given settings
	for _, o := range opts {
		o(&given)
	}
	final := g.Outcome()
	if given.outcome != nil {
		final = *given.outcome
	}
	types := gameTypes(g) // one legend for every frame: frames keep one size
	out := &gif.GIF{}
	var prev, cur *image.RGBA
	var q quantizer
	for i := 0; i <= moves; i++ {
		p := g.PositionAt(i)
		o := append(slices.Clip(opts), func(s *settings) { s.previous, s.turn, s.outcome, s.types = nil, nil, nil, &types })
		if i > 0 {
			o = append(o, Previous(g.PositionAt(i-1)))
		}
		if i == moves {
			o = append(o, Outcome(final))
		}
		img, err := r.draw(cur, p, o)
		if err != nil {
			return err
		}
		rect := img.Rect
		if prev != nil {
			rect = changedRect(prev, img)
			if rect.Empty() {
				rect = image.Rect(0, 0, 1, 1)
			}
		}
		var frame *image.Paletted
		if prev == nil {
			q.reset()
			q.add(img, rect, 1)
			frame = image.NewPaletted(rect, q.palette(256))
			q.paletted(img, rect, frame)
		} else {
			frame = deltaFrame(&q, prev, img, rect)
		}
		delay := gifMoveDelay
		switch {
		case i == moves:
			delay = gifLastDelay
		case i == 0:
			delay = gifFirstDelay
		}
		out.Image = append(out.Image, frame)
		out.Delay = append(out.Delay, delay)
		out.Disposal = append(out.Disposal, gif.DisposalNone)
		prev, cur = img, prev
	}
	out.Config = image.Config{Width: out.Image[0].Rect.Dx(), Height: out.Image[0].Rect.Dy()}
	return gif.EncodeAll(w, out)
}

// deltaFrame returns the part rect of cur as a frame drawn over prev: the
// pixels that did not change are transparent (so the frame compresses to
// little more than what changed), the others in a palette of the changed
// pixels' colours.
func deltaFrame(q *quantizer, prev, cur *image.RGBA, rect image.Rectangle) *image.Paletted {
	q.reset()
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		a := prev.Pix[prev.PixOffset(rect.Min.X, y):prev.PixOffset(rect.Max.X, y)]
		b := cur.Pix[cur.PixOffset(rect.Min.X, y):cur.PixOffset(rect.Max.X, y)]
		for i := 0; i < len(b); i += 4 {
			if a[i] != b[i] || a[i+1] != b[i+1] || a[i+2] != b[i+2] {
				k := quantBin(b[i], b[i+1], b[i+2])
				q.count[k]++
				s := &q.sum[k]
				s[0] += uint32(b[i])
				s[1] += uint32(b[i+1])
				s[2] += uint32(b[i+2])
			}
		}
	}
	pal := q.palette(255)
	transparent := uint8(len(pal))
	pal = append(pal, color.RGBA{})
	frame := image.NewPaletted(rect, pal)
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		a := prev.Pix[prev.PixOffset(rect.Min.X, y):prev.PixOffset(rect.Max.X, y)]
		b := cur.Pix[cur.PixOffset(rect.Min.X, y):cur.PixOffset(rect.Max.X, y)]
		dst := frame.Pix[frame.PixOffset(rect.Min.X, y):frame.PixOffset(rect.Max.X, y)]
		for i := range dst {
			j := 4 * i
			if a[j] == b[j] && a[j+1] == b[j+1] && a[j+2] == b[j+2] {
				dst[i] = transparent
				continue
			}
			dst[i] = q.lookup(quantBin(b[j], b[j+1], b[j+2]))
		}
	}
	return frame
}

// changedRect returns the smallest rectangle holding every pixel in which
// a and b (same bounds) differ.
func changedRect(a, b *image.RGBA) image.Rectangle {
	r := image.Rectangle{}
	w := a.Rect.Dx() * 4
	for y := a.Rect.Min.Y; y < a.Rect.Max.Y; y++ {
		ra := a.Pix[a.PixOffset(a.Rect.Min.X, y):][:w]
		rb := b.Pix[b.PixOffset(b.Rect.Min.X, y):][:w]
		if string(ra) == string(rb) {
			continue
		}
		lo, hi := 0, w-1
		for ra[lo] == rb[lo] {
			lo++
		}
		for ra[hi] == rb[hi] {
			hi--
		}
		r = r.Union(image.Rect(a.Rect.Min.X+lo/4, y, a.Rect.Min.X+hi/4+1, y+1))
	}
	return r
}
