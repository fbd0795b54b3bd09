package render

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/fairypost/fairypost/rules"
	"github.com/fogleman/gg"
)

// Image sizes, in pixels of width.
const (
	DefaultSize = 800
	MinSize     = 160
	MaxSize     = 2400
)

// MaxBoard is the largest number of files or ranks a board may have.
const MaxBoard = 12

// ErrInvalid is wrapped by every error about what was asked to be drawn:
// a board larger than MaxBoard, a piece code the variant does not have, a
// size out of range, a zero Position. Other errors (a failing writer) do
// not wrap it.
var ErrInvalid = errors.New("cannot draw")

// Renderer draws board images. It is safe for concurrent use: keep one and
// share it, since it caches piece sprites and the parts of an image that
// depend only on the variant, size and orientation.
type Renderer struct {
	fonts   fontSet
	arts    artTable
	pngPool pngBufferPool
	scratch sync.Pool // *scratch

	mu         sync.Mutex
	sprites    map[spriteKey]*image.RGBA
	frames     map[frameKey]*frame
	frameOrder []frameKey // oldest first
	legends    map[legendKey]*legend
}

// NewRenderer returns a Renderer using the embedded fonts.
func NewRenderer() (*Renderer, error) {
	fs, err := loadFonts()
	if err != nil {
		return nil, err
	}
	return &Renderer{
		fonts:   fs,
		arts:    newArtTable(),
		sprites: map[spriteKey]*image.RGBA{},
		frames:  map[frameKey]*frame{},
		legends: map[legendKey]*legend{},
	}, nil
}

// Option changes what an image shows.
type Option func(*settings)

// settings are the options of one image.
type settings struct {
	size     int
	bottom   rules.Color
	previous *rules.Position
	turn     []rules.Position // the positions before each move of the last turn
	status   string           // the status bar's words instead of who acts
	outcome  *rules.Outcome
	types    *typeSet // the pieces the legend lists; nil: those the image shows
	gifBytes int      // the byte budget of a game GIF (GIFBytes)
}

// Size sets the image width in pixels (MinSize..MaxSize; default
// DefaultSize). The height follows from the board, the pockets and the
// legend, which lists the fairy pieces the image shows, so it may change
// when such a piece appears or goes.
func Size(px int) Option { return func(s *settings) { s.size = px } }

// Perspective sets the side shown at the bottom of the board (default
// White): the player who receives the image sees their own side there.
func Perspective(c rules.Color) Option { return func(s *settings) { s.bottom = c } }

// Previous gives the position before the last move. The image then marks
// what the variant says the move did (rules.Position.Effect): the squares
// of the pieces moved (the square of a drop), pieces that moved with them
// (a castling rook, a pushed line), pieces removed (faded on an empty
// square, small in the corner of an occupied one: an en-passant victim,
// a capture, a blast), a piece pushed off the board (drawn small at the
// edge), the area of a blast, a swap as a two-headed arrow, and a sign
// for a blast, a fusion, a split or a pocketing. Without it only the
// squares of Position.LastMove are marked.
func Previous(p rules.Position) Option { return func(s *settings) { s.previous = &p } }

// Turn gives the positions before each move of the last turn, oldest
// first: before[0] began the turn, and the position drawn follows the
// last of them. The image then marks the whole turn instead of the last
// move (Previous is ignored): every move's squares, as Previous marks
// them; the moves of the other player inside the turn (a Winning Chess
// Defender answer) in their own colour; every piece the turn removed,
// faded on its square when it is empty, small in the corner of the
// square of its capturer, at the board's edge when pushed off; and, when
// two or more moves show on the board (passes do not), a numbered arrow
// (two-headed for a swap; for a drop or a detonation, a numbered disc)
// for each, in order, the numbers placed clear of every other mark.
// Without positions it does nothing.
func Turn(before ...rules.Position) Option {
	before = append([]rules.Position(nil), before...)
	return func(s *settings) { s.turn = before }
}

// LastTurn is Turn with the positions of the last turn of g
// (rules.Game.LastTurn): the turn in progress, or the one just ended.
// It does nothing when g has no move.
func LastTurn(g *rules.Game) Option {
	n := len(g.Moves())
	var before []rules.Position
	for i := g.LastTurn(); i < n; i++ {
		before = append(before, g.PositionAt(i))
	}
	return Turn(before...)
}

// Status replaces the status bar's words, who acts and how, with text,
// for a position that is not being played yet (a pre-game choice
// pending); the move number, the side's disc and the check warning are
// left out. An empty text changes nothing. The result banner of a game
// that is over is shown as always.
func Status(text string) Option { return func(s *settings) { s.status = text } }

// Outcome sets the result shown in the banner, for results the position
// alone cannot know (a draw by repetition, a resignation). By default the
// banner shows Position.Outcome.
func Outcome(o rules.Outcome) Option { return func(s *settings) { s.outcome = &o } }

// Image draws p.
func (r *Renderer) Image(p rules.Position, opts ...Option) (*image.RGBA, error) {
	return r.draw(nil, p, opts)
}

// draw draws p into dst, or into a new image when dst is nil or of another
// size, and returns the image.
func (r *Renderer) draw(dst *image.RGBA, p rules.Position, opts []Option) (*image.RGBA, error) {
	img, _, _, err := r.compose(dst, p, opts)
	return img, err
}

// compose draws p: the frame, the legend under it, then the position. It
// returns the image, the frame, and the rectangles it drew in after
// copying the frame (the position's and the legend's).
func (r *Renderer) compose(dst *image.RGBA, p rules.Position, opts []Option) (*image.RGBA, *frame, []image.Rectangle, error) {
	st, err := r.settings(p, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	v := p.Variant()
	fr := r.frame(v, st.size, st.bottom)
	var mm *moveMarks
	if len(st.turn) > 0 {
		mm = turnMarks(p, st.turn)
	} else {
		mm = lastMoveMarks(p, st.previous)
	}
	types := shownTypes(p, mm)
	if st.types != nil {
		types = *st.types
	}
	lg := r.legend(v, st.size, types)
	bounds := image.Rect(0, 0, fr.img.Rect.Dx(), fr.img.Rect.Dy()+lg.img.Rect.Dy())
	if dst == nil || dst.Rect != bounds {
		dst = image.NewRGBA(bounds)
	}
	n := copy(dst.Pix, fr.img.Pix)
	copy(dst.Pix[n:], lg.img.Pix)
	dirty := r.drawPosition(dst, fr, p, st, mm)
	if lg.img.Rect.Dy() > 0 {
		dirty = append(dirty, image.Rect(0, fr.img.Rect.Dy(), bounds.Dx(), bounds.Dy()))
	}
	return dst, fr, dirty, nil
}

// drawPaletted draws p into sc's memory and returns it with at most 256
// colours. The frame was quantized once (frame.pal, frame.idx); only the
// rectangles drawn after it (the position and the legend) are quantized
// now, to the frame's palette extended by the colours they add.
func (r *Renderer) drawPaletted(sc *scratch, p rules.Position, opts []Option) (*image.Paletted, error) {
	img, fr, dirty, err := r.compose(sc.rgba, p, opts)
	if err != nil {
		return nil, err
	}
	sc.rgba = img
	if sc.pal == nil || sc.pal.Rect != img.Rect {
		sc.pal = image.NewPaletted(img.Rect, nil)
	}
	q := &sc.q
	q.reset()
	for _, d := range dirty {
		q.add(img, d, 1)
	}
	out := sc.pal
	out.Palette = q.extend(fr.pal, 256)
	copy(out.Pix, fr.idx)
	for _, d := range dirty {
		q.paletted(img, d, out)
	}
	return out, nil
}

// PNG draws p and writes it to w as a PNG. The image is written with a
// palette of at most 256 colours, which loses nothing visible on a board
// and makes encoding fast and the file small (see quantize.go).
func (r *Renderer) PNG(w io.Writer, p rules.Position, opts ...Option) error {
	sc, _ := r.scratch.Get().(*scratch)
	if sc == nil {
		sc = new(scratch)
	}
	defer r.scratch.Put(sc)
	img, err := r.drawPaletted(sc, p, opts)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &r.pngPool}
	return enc.Encode(w, img)
}

// scratch is the memory one encoding needs, reused through a pool.
type scratch struct {
	rgba *image.RGBA
	pal  *image.Paletted
	q    quantizer
}

// settings applies opts and checks them and p.
func (r *Renderer) settings(p rules.Position, opts []Option) (settings, error) {
	st := settings{size: DefaultSize, bottom: rules.White}
	for _, o := range opts {
		o(&st)
	}
	if st.size < MinSize || st.size > MaxSize {
		return st, fmt.Errorf("%w: size %d px is outside %d..%d", ErrInvalid, st.size, MinSize, MaxSize)
	}
	if st.bottom != rules.White && st.bottom != rules.Black {
		return st, fmt.Errorf("%w: perspective must be white or black", ErrInvalid)
	}
	if err := checkPosition(p); err != nil {
		return st, err
	}
	if st.previous != nil {
		if st.previous.Variant() != p.Variant() {
			return st, fmt.Errorf("%w: the previous position is of another variant", ErrInvalid)
		}
	}
	for i := range st.turn {
		if st.turn[i].Variant() != p.Variant() {
			return st, fmt.Errorf("%w: a position of the turn is of another variant", ErrInvalid)
		}
	}
	return st, nil
}

// checkPosition reports what in p cannot be drawn.
func checkPosition(p rules.Position) error {
	v := p.Variant()
	if v == nil {
		return fmt.Errorf("%w: the position has no variant (a zero Position)", ErrInvalid)
	}
	if v.Files < 1 || v.Ranks < 1 || v.Files > MaxBoard || v.Ranks > MaxBoard {
		return fmt.Errorf("%w: a %dx%d board is larger than %dx%d", ErrInvalid, v.Files, v.Ranks, MaxBoard, MaxBoard)
	}
	for f := 0; f < v.Files; f++ {
		for rk := 0; rk < v.Ranks; rk++ {
			s := rules.NewSquare(f, rk)
			pc := p.At(s)
			if pc == rules.NoPiece {
				continue
			}
			if t := pc.Type(); t == rules.NoPieceType || int(t) > len(v.Pieces) || pc.Color() == rules.NoColor {
				return fmt.Errorf("%w: unknown piece code %d on %s (variant %s has %d piece kinds)", ErrInvalid, pc, s, v.Key, len(v.Pieces))
			}
		}
	}
	return nil
}

// Colours of the image. The background is opaque, so the image reads the
// same in Discord's light and dark themes.
var (
	backgroundColor = color.RGBA{38, 36, 33, 255}
	pocketColor     = color.RGBA{158, 150, 138, 255} // mid-tone: White's and Black's pieces both stand out
	pocketTextColor = color.RGBA{40, 38, 35, 255}
	textColor       = color.RGBA{240, 238, 234, 255}
	dimTextColor    = color.RGBA{176, 172, 166, 255}
	lightSquare     = color.RGBA{240, 217, 181, 255}
	darkSquare      = color.RGBA{181, 136, 99, 255}
	boardEdge       = color.RGBA{14, 13, 12, 255}
	moveColor       = color.NRGBA{155, 199, 0, 110}  // from and to squares
	shiftColor      = color.NRGBA{40, 150, 255, 100} // pieces that moved with the move
	removedColor    = color.NRGBA{235, 45, 35, 120}  // pieces the move removed
	answerColor     = color.NRGBA{150, 70, 230, 110} // from and to squares of the opponent's answer inside a turn
	blastColor      = color.NRGBA{235, 120, 35, 70}  // squares a blast reached that held no piece
	checkTextColor  = color.RGBA{255, 96, 80, 255}
	winColor        = color.RGBA{226, 184, 66, 255} // the result banner of a win
	drawColor       = color.RGBA{190, 186, 178, 255}
)

// drawPosition draws everything that depends on the position onto img,
// which holds the frame, and returns the rectangles it drew in (the rest
// of the frame's part of img is the frame's). mm are the last move's marks.
func (r *Renderer) drawPosition(img *image.RGBA, fr *frame, p rules.Position, st settings, mm *moveMarks) []image.Rectangle {
	v := p.Variant()
	lay := &fr.lay
	dirty := []image.Rectangle{lay.status.Inset(-int(math.Ceil(4 * lay.u))).Intersect(img.Rect)} // strokes overhang a little
	if lay.pockets {
		m := int(30 * lay.u) // a count badge may stick out of its box
		dirty = append(dirty, lay.pocketTop.Inset(-m).Intersect(img.Rect), lay.pocketBottom.Inset(-m).Intersect(img.Rect))
	}
	for _, s := range v.Squares() {
		if mm.kind[s] != markNone || p.At(s) != rules.NoPiece {
			dirty = append(dirty, lay.square(s))
		}
	}
	for _, s := range v.Squares() {
		var c color.NRGBA
		switch mm.kind[s] {
		case markMove:
			c = moveColor
		case markShift:
			c = shiftColor
		case markRemoved:
			c = removedColor
		case markAnswer:
			c = answerColor
		case markBlast:
			c = blastColor
		default:
			continue
		}
		draw.Draw(img, lay.square(s), image.NewUniform(c), image.Point{}, draw.Over)
	}
	if p.InCheck() {
		for _, s := range v.Squares() {
			pc := p.At(s)
			if pc.Color() == p.ToAct() && v.Def(pc.Type()).Royal {
				blit(img, lay.square(s).Min, r.checkSprite(lay.cell))
			}
		}
	}
	for _, s := range v.Squares() {
		pc := p.At(s)
		if pc == rules.NoPiece {
			if g := mm.ghost[s]; g != rules.NoPiece {
				sp := r.pieceSprite(v.Def(g.Type()), g.Color(), lay.cell, g.Color() != st.bottom)
				draw.DrawMask(img, lay.square(s), sp, image.Point{}, image.NewUniform(color.Alpha{95}), image.Point{}, draw.Over)
			}
			continue
		}
		blit(img, lay.square(s).Min, r.pieceSprite(v.Def(pc.Type()), pc.Color(), lay.cell, pc.Color() != st.bottom))
	}
	dc := gg.NewContextForRGBA(img)
	dirty = append(dirty, r.drawTurn(dc, img, lay, v, st.bottom, mm)...)
	if lay.pockets {
		r.drawPocket(dc, img, lay, p, st.bottom.Other(), lay.pocketTop)
		r.drawPocket(dc, img, lay, p, st.bottom, lay.pocketBottom)
	}
	o := p.Outcome()
	if st.outcome != nil {
		o = *st.outcome
	}
	r.drawStatus(dc, img, lay, p, o, st.status)
	return dirty
}

// drawStatus writes who acts and how in the status bar (words instead,
// when not empty), or, once the game is over, turns the bar into the
// result banner.
func (r *Renderer) drawStatus(dc *gg.Context, img *image.RGBA, lay *layout, p rules.Position, o rules.Outcome, words string) {
	u := lay.u
	b := lay.status
	cy := float64(b.Min.Y + b.Dy()/2)
	x, right := float64(b.Min.X), float64(b.Max.X)
	big := face(r.fonts.bold, 28*u)
	small := face(r.fonts.text, 20*u)
	rad := 11 * u
	disc := func(c rules.Color, x float64) {
		dc.DrawCircle(x+rad, cy, rad)
		if c == rules.Black {
			dc.SetColor(tokenBlack)
		} else {
			dc.SetColor(paperColor)
		}
		dc.FillPreserve()
		dc.SetColor(dimTextColor)
		if o.Over() {
			dc.SetColor(inkColor)
		}
		dc.SetLineWidth(2 * u)
		dc.Stroke()
	}
	if o.Over() {
		bg := drawColor
		if o.Result == rules.WhiteWins || o.Result == rules.BlackWins {
			bg = winColor
		}
		dc.DrawRoundedRectangle(float64(b.Min.X), float64(b.Min.Y), float64(b.Dx()), float64(b.Dy()), 10*u)
		dc.SetColor(bg)
		dc.Fill()
		x += 12 * u
		right -= 14 * u
		switch o.Result {
		case rules.WhiteWins:
			disc(rules.White, x)
			x += 2*rad + 10*u
		case rules.BlackWins:
			disc(rules.Black, x)
			x += 2*rad + 10*u
		}
		text := resultWords(o.Result)
		if o.Reason != "" {
			text += " · " + string(o.Reason)
		}
		drawText(img, big, text, x, cy, 0, 0.35, inkColor)
		drawText(img, big, o.Result.String(), right, cy, 1, 0.35, inkColor)
		return
	}
	if words != "" {
		r.drawFitted(img, words, x+4*u, right, cy, 28*u, b.Dy(), textColor)
		return
	}
	// A disc in the colour of the player who acts.
	disc(p.ToAct(), x)
	x += 2*rad + 10*u
	label, labelFace, labelColor := fmt.Sprintf("move %d", p.Fullmove()), small, dimTextColor
	if p.InCheck() {
		label, labelFace, labelColor = "Check!", big, checkTextColor
	}
	drawText(img, labelFace, label, right, cy, 1, 0.35, labelColor)
	r.drawFitted(img, turnText(p), x, right-textWidth(labelFace, label)-14*u, cy, 28*u, b.Dy(), textColor)
}

// drawFitted writes s in bold between x0 and x1, centred on cy: at size
// px if it fits, else smaller, down to 60% of px; then on two lines (in a
// box h pixels high); then cut short with an ellipsis.
func (r *Renderer) drawFitted(img *image.RGBA, s string, x0, x1, cy, px float64, h int, c color.Color) {
	avail := x1 - x0
	f := face(r.fonts.bold, px)
	w := textWidth(f, s)
	if w <= avail {
		drawText(img, f, s, x0, cy, 0, 0.35, c)
		return
	}
	if k := avail / w; k >= 0.6 {
		drawText(img, face(r.fonts.bold, px*k), s, x0, cy, 0, 0.35, c)
		return
	}
	// Two lines, each at most avail wide, split at a space near the middle.
	small := math.Min(px*0.6, float64(h)*0.42)
	f = face(r.fonts.bold, small)
	words := strings.Fields(s)
	best := -1
	for i := 1; i < len(words); i++ {
		a, b := strings.Join(words[:i], " "), strings.Join(words[i:], " ")
		if textWidth(f, a) <= avail && textWidth(f, b) <= avail {
			if best < 0 || abs(len(a)-len(b)) < abs(len(strings.Join(words[:best], " "))-len(strings.Join(words[best:], " "))) {
				best = i
			}
		}
	}
	if best > 0 {
		gap := small * 0.55
		drawText(img, f, strings.Join(words[:best], " "), x0, cy-gap, 0, 0.35, c)
		drawText(img, f, strings.Join(words[best:], " "), x0, cy+gap, 0, 0.35, c)
		return
	}
	rs := []rune(s)
	for len(rs) > 1 && textWidth(f, string(rs)+"…") > avail {
		rs = rs[:len(rs)-1]
	}
	drawText(img, f, string(rs)+"…", x0, cy, 0, 0.35, c)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// turnText says who acts and, in multi-part turns, what they do.
func turnText(p rules.Position) string {
	phase := strings.TrimSpace(p.PhaseName())
	if phase == "" || phase == "move" {
		return colorName(p.ToAct()) + " to move"
	}
	return strings.ToUpper(phase[:1]) + phase[1:]
}

// colorName returns "White" or "Black".
func colorName(c rules.Color) string {
	if c == rules.Black {
		return "Black"
	}
	return "White"
}

// resultWords says who won.
func resultWords(r rules.Result) string {
	switch r {
	case rules.WhiteWins:
		return "White wins"
	case rules.BlackWins:
		return "Black wins"
	case rules.Draw:
		return "Draw"
	}
	return r.String()
}

// pngBufferPool lets PNG encodings reuse their buffers.
type pngBufferPool struct{ p sync.Pool }

func (b *pngBufferPool) Get() *png.EncoderBuffer {
	e, _ := b.p.Get().(*png.EncoderBuffer)
	return e
}

func (b *pngBufferPool) Put(e *png.EncoderBuffer) { b.p.Put(e) }
