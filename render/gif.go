package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"slices"

	"github.com/fairypost/fairypost/rules"
)

// Frame delays of a game GIF, in hundredths of a second.
const (
	gifFirstDelay = 150 // the first position shown
	gifMoveDelay  = 100 // each move
	gifLastDelay  = 600 // the final position is held
)

// Budgets of a game GIF. Drawing, comparing and encoding a frame each
// cost time in proportion to its pixels, so frames × pixels per frame
// bounds the time a GIF takes; the memory is that of two frames (at most
// MaxSize wide) and of the encoded GIF (at most its byte budget), whatever
// the game's length.
const (
	// GIFMaxMoves is the most moves a GIF shows: a longer game shows its
	// last GIFMaxMoves moves (GIFInfo.FirstPly says where it starts).
	GIFMaxMoves = 300
	// GIFMaxPixels bounds the frames of a GIF times the pixels of a frame
	// (about a second of work on one core). A game whose frames would
	// exceed it at the width asked for is drawn narrower, down to
	// GIFMinWidth, then shows fewer moves: GIFMaxMoves moves on an 8x8
	// board with pockets fit at the bot's default width (400 px) and are
	// drawn about 500 px wide when 2400 px are asked for.
	GIFMaxPixels = 100_000_000
	// GIFMinWidth is the narrowest a GIF is drawn to fit GIFMaxPixels
	// (unless a narrower width was asked for).
	GIFMinWidth = 320
	// DefaultGIFBytes is the default byte budget of a GIF (see GIFBytes):
	// Discord refuses files over 10 MiB; this leaves a margin.
	DefaultGIFBytes = 8 << 20
	// minGIFBytes is the smallest byte budget accepted: a header and a
	// frame of a few pixels.
	minGIFBytes = 1 << 10
)

// ErrTooLarge is wrapped by the error of a GIF that cannot show even the
// game's last move within its byte budget. Nothing is written then.
var ErrTooLarge = errors.New("too large for its budget")

// GIFBytes sets the byte budget of a game GIF (default DefaultGIFBytes,
// at least 1 KiB): a game whose frames would exceed it shows fewer moves,
// its last ones, and GIF fails with ErrTooLarge when not even the last
// move fits. Image and PNG ignore it.
func GIFBytes(n int) Option { return func(s *settings) { s.gifBytes = n } }

// GIFInfo describes a GIF written by WriteGIF.
type GIFInfo struct {
	// FirstPly is the ply of the first position shown: 0 for the start
	// position, more when the game was too long to be shown whole.
	FirstPly int
	// Plies is the number of moves of the game; the GIF shows
	// Plies-FirstPly of them, always the last ones.
	Plies int
	// Frames is the number of frames: Plies-FirstPly+1.
	Frames int
	// Width and Height are the GIF's size in pixels; Width may be less
	// than the size asked for (see GIFMaxPixels).
	Width, Height int
	// Bytes is the size of the encoded GIF.
	Bytes int
}

// Shortened reports whether the GIF leaves out the start of the game.
func (i GIFInfo) Shortened() bool { return i.FirstPly > 0 }

// GIF writes an animated GIF of g as WriteGIF does, without saying what it
// left out.
func (r *Renderer) GIF(w io.Writer, g *rules.Game, opts ...Option) error {
	_, err := r.WriteGIF(w, g, opts...)
	return err
}

// WriteGIF writes an animated GIF of g: a position, then one frame per
// move (each marking its move as Image does), the final position held for
// six seconds before the animation starts again. The last frame shows
// g.Outcome() unless the Outcome option says otherwise; Previous and Turn
// are ignored. Each frame after the first stores only the rectangle that
// changed, with its own palette, and is transparent where the pixels did
// not change.
//
// The GIF keeps to its budgets: at most GIFMaxMoves moves, the frames
// within GIFMaxPixels (a long game is drawn narrower than asked), and at
// most GIFBytes bytes. A game that does not fit shows its last moves
// (the first frame is then a position in the middle of the game), and
// GIFInfo says so. When not even the last move fits the byte budget,
// WriteGIF writes nothing and returns an error wrapping ErrTooLarge.
// Nothing is written to w before the whole GIF is built, so an error
// leaves w untouched.
func (r *Renderer) WriteGIF(w io.Writer, g *rules.Game, opts ...Option) (GIFInfo, error) {
	if g == nil {
		return GIFInfo{}, fmt.Errorf("%w: no game", ErrInvalid)
	}
	moves := len(g.Moves())
	given := settings{size: DefaultSize, gifBytes: DefaultGIFBytes}
	for _, o := range opts {
		o(&given)
	}
	if given.gifBytes < minGIFBytes {
		return GIFInfo{}, fmt.Errorf("%w: a GIF budget of %d bytes is below %d", ErrInvalid, given.gifBytes, minGIFBytes)
	}
	final := g.Outcome()
	if given.outcome != nil {
		final = *given.outcome
	}
	types := gameTypes(g) // one legend for every frame: frames keep one size
	// frameOpts are the options of the image of ply i at width size.
	frameOpts := func(i, size int) []Option {
		o := append(slices.Clip(opts), Size(size), func(s *settings) { s.previous, s.turn, s.outcome, s.types = nil, nil, nil, &types })
		if i > 0 {
			o = append(o, Previous(g.PositionAt(i-1)))
		}
		if i == moves {
			o = append(o, Outcome(final))
		}
		return o
	}

	// Plan: how many frames, at which width. Every frame has the size of
	// the last one (same legend), so one drawing tells the pixels.
	frames := min(moves, GIFMaxMoves) + 1
	size := given.size
	last, err := r.draw(nil, g.PositionAt(moves), frameOpts(moves, size))
	if err != nil {
		return GIFInfo{}, err
	}
	floor := min(size, GIFMinWidth)
	for tries := 0; frames*pixels(last) > GIFMaxPixels && size > floor && tries < 8; tries++ {
		scale := math.Sqrt(float64(GIFMaxPixels) / float64(frames*pixels(last)))
		next := int(float64(size)*scale) &^ 15 // a multiple of 16: few cached frame sizes
		size = max(floor, min(next, size-16))
		if last, err = r.draw(last, g.PositionAt(moves), frameOpts(moves, size)); err != nil {
			return GIFInfo{}, err
		}
	}
	if frames*pixels(last) > GIFMaxPixels {
		frames = max(min(moves, 1)+1, GIFMaxPixels/pixels(last))
	}

	// Encode from the end backwards, each move as the change from the
	// position before, until the frames or the byte budget run out; then
	// the oldest position kept becomes the full first frame.
	budget := given.gifBytes - gifHeaderLen - 1 // the trailer
	var (
		q      quantizer
		pix    []byte   // the pixels of the frame being encoded
		deltas [][]byte // deltas[k]: the frame of ply moves-k
		total  int
		enc    frameEncoder
	)
	cur, other := last, (*image.RGBA)(nil)
	first := moves // the ply whose image cur holds
	for first > moves-frames+1 {
		prev, err := r.draw(other, g.PositionAt(first-1), frameOpts(first-1, size))
		if err != nil {
			return GIFInfo{}, err
		}
		rect := changedRect(prev, cur)
		if rect.Empty() {
			rect = image.Rect(0, 0, 1, 1)
		}
		chunk := enc.encode(deltaFrame(&q, &pix, prev, cur, rect), gifDelay(first, first-1, moves), true)
		if total+len(chunk) > budget {
			break
		}
		deltas = append(deltas, chunk)
		total += len(chunk)
		first--
		cur, other = prev, cur
	}
	var head []byte
	for {
		head = enc.encode(fullFrame(&q, &pix, cur), gifDelay(first, first, moves), false)
		if total+len(head) <= budget {
			break
		}
		if len(deltas) == 0 {
			return GIFInfo{}, fmt.Errorf("render: game GIF: %w: not even the last move fits in %d bytes", ErrTooLarge, given.gifBytes)
		}
		// Drop the oldest moves until the first frame's last size would
		// fit, then draw the new first position.
		for len(deltas) > 0 && total+len(head) > budget {
			total -= len(deltas[len(deltas)-1])
			deltas = deltas[:len(deltas)-1]
			first++
		}
		if cur, err = r.draw(cur, g.PositionAt(first), frameOpts(first, size)); err != nil {
			return GIFInfo{}, err
		}
	}
	if moves > 0 && first == moves {
		return GIFInfo{}, fmt.Errorf("render: game GIF: %w: not even the last move fits in %d bytes", ErrTooLarge, given.gifBytes)
	}

	var out bytes.Buffer
	out.Grow(gifHeaderLen + len(head) + total + 1)
	writeGIFHeader(&out, cur.Rect.Dx(), cur.Rect.Dy())
	out.Write(head)
	for k := len(deltas) - 1; k >= 0; k-- {
		out.Write(deltas[k])
	}
	out.WriteByte(0x3B) // trailer
	info := GIFInfo{FirstPly: first, Plies: moves, Frames: moves - first + 1, Width: cur.Rect.Dx(),
		Height: cur.Rect.Dy(), Bytes: out.Len()}
	if _, err := w.Write(out.Bytes()); err != nil {
		return GIFInfo{}, err
	}
	return info, nil
}

// gifDelay returns the delay of the frame of ply i in a GIF whose first
// frame is ply first and whose last is ply moves.
func gifDelay(i, first, moves int) int {
	switch {
	case i == moves:
		return gifLastDelay
	case i == first:
		return gifFirstDelay
	}
	return gifMoveDelay
}

// pixels returns the number of pixels of img.
func pixels(img *image.RGBA) int { return img.Rect.Dx() * img.Rect.Dy() }

// paletted returns an image of bounds r in palette pal whose pixels are
// *pix, grown as needed (and kept for the next frame).
func paletted(pix *[]byte, r image.Rectangle, pal color.Palette) *image.Paletted {
	n := r.Dx() * r.Dy()
	if cap(*pix) < n {
		*pix = make([]byte, n)
	}
	return &image.Paletted{Pix: (*pix)[:n], Stride: r.Dx(), Rect: r, Palette: pal}
}

// fullFrame returns img whole in a palette of its colours, its pixels in
// *pix.
func fullFrame(q *quantizer, pix *[]byte, img *image.RGBA) *image.Paletted {
	q.reset()
	q.add(img, img.Rect, 1)
	frame := paletted(pix, img.Rect, q.palette(256))
	q.paletted(img, img.Rect, frame)
	return frame
}

// deltaFrame returns the part rect of cur as a frame drawn over prev: the
// pixels that did not change are transparent (so the frame compresses to
// little more than what changed), the others in a palette of the changed
// pixels' colours. The transparent colour is the palette's last. The
// frame's pixels are *pix.
func deltaFrame(q *quantizer, pix *[]byte, prev, cur *image.RGBA, rect image.Rectangle) *image.Paletted {
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
	frame := paletted(pix, rect, pal)
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
