package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/fairypost/fairypost/rules"
	"github.com/fogleman/gg"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Piece colours: both sides are drawn in black ink; White's pieces are
// filled white, Black's are solid ink with white detail lines.
var (
	inkColor   = color.RGBA{0, 0, 0, 255}
	paperColor = color.RGBA{255, 255, 255, 255}
	tokenBlack = color.RGBA{28, 28, 28, 255}
	badgeColor = color.RGBA{190, 32, 32, 255}
)

// spriteKey identifies a cached sprite.
type spriteKey struct {
	name   string // the drawing's name (rules.PieceDef.Art), "" for a letter token; "#check" for the check glow
	letter byte
	color  rules.Color
	size   int
	down   bool // the piece's forward is down the image
}

// maxSprites bounds the sprite cache (40 KB a sprite at 800 px); it is
// emptied when full. A variant at one size and orientation needs a few
// dozen, so this only guards against many sizes in use.
const maxSprites = 1024

// pieceSprite returns the cached sprite of def in colour c, size px
// square. down says that the piece's forward direction is down the image
// (its owner sits at the top): glyphs stay upright, movement marks follow
// the direction the piece really moves in.
func (r *Renderer) pieceSprite(def rules.PieceDef, c rules.Color, size int, down bool) *image.RGBA {
	a, known := r.arts.lookup(def)
	if a.marks == 0 {
		down = false // the same picture either way: one cache entry
	}
	key := spriteKey{color: c, size: size, down: down}
	if known {
		key.name = def.Art
	} else {
		key.letter = def.Letter
	}
	return r.cachedSprite(key, func() *image.RGBA { return r.fonts.drawArt(a, def.Letter, c, size, down) })
}

// cachedSprite returns the sprite for key, drawing it with draw the first
// time. Two goroutines may both draw a missing sprite; either result is kept.
func (r *Renderer) cachedSprite(key spriteKey, draw func() *image.RGBA) *image.RGBA {
	r.mu.Lock()
	s := r.sprites[key]
	r.mu.Unlock()
	if s != nil {
		return s
	}
	s = draw()
	r.mu.Lock()
	if len(r.sprites) >= maxSprites {
		clear(r.sprites)
	}
	r.sprites[key] = s
	r.mu.Unlock()
	return s
}

// checkSprite returns the red glow drawn under a King in check.
func (r *Renderer) checkSprite(size int) *image.RGBA {
	return r.cachedSprite(spriteKey{name: "#check", size: size}, func() *image.RGBA {
		dc := gg.NewContext(size, size)
		c := float64(size) / 2
		g := gg.NewRadialGradient(c, c, 0, c, c, float64(size)*0.72)
		g.AddColorStop(0, color.RGBA{255, 0, 0, 255})
		g.AddColorStop(0.3, color.RGBA{230, 0, 0, 230})
		g.AddColorStop(0.9, color.RGBA{0, 0, 0, 0})
		g.AddColorStop(1, color.RGBA{0, 0, 0, 0})
		dc.SetFillStyle(g)
		dc.DrawRectangle(0, 0, float64(size), float64(size))
		dc.Fill()
		return dc.Image().(*image.RGBA)
	})
}

// drawArt draws a piece: its body, split, doubled or turned, then marked
// and badged. letter is shown by letter tokens (the zero art); down turns
// the marks upside down, for a piece moving down the image.
func (fs fontSet) drawArt(a art, letter byte, c rules.Color, size int, down bool) *image.RGBA {
	if a.marks == 0 {
		img := fs.drawFigure(a, letter, c, size)
		if a.badge != 0 {
			fs.drawBadge(img, a.badge)
		}
		return img
	}
	// Marks need room at the edge: the figure is drawn smaller, away from
	// the marks when they point only forward.
	inner := int(math.Round(0.80 * float64(size)))
	fig := fs.drawFigure(a, letter, c, inner)
	x, y := (size-inner)/2, (size-inner)/2
	if a.marks&(markBackLeft|markBackRight) == 0 {
		y = size - inner - int(math.Round(0.02*float64(size)))
		if down {
			y = int(math.Round(0.02 * float64(size)))
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	draw.Draw(img, fig.Rect.Add(image.Pt(x, y)), fig, image.Point{}, draw.Over)
	drawMarks(img, a.marks, c, down)
	if a.badge != 0 {
		fs.drawBadge(img, a.badge)
	}
	return img
}

// drawFigure draws a piece's body, split, copied, turned or with its
// parts in front, without marks or badge.
func (fs fontSet) drawFigure(a art, letter byte, c rules.Color, size int) *image.RGBA {
	var img *image.RGBA
	if a.copies >= 2 {
		img = fs.drawCopies(a.body, letter, c, size, a.copies)
	} else {
		img = fs.drawBody(a.body, letter, c, size)
	}
	if a.right != (body{}) {
		right := fs.drawBody(a.right, letter, c, size)
		if a.right.facesLeft {
			right = mirrorSprite(right)
		}
		img = splitSprite(img, right, c)
	}
	if a.turn%4 != 0 {
		img = turnSprite(centerSprite(img), a.turn%4)
	}
	if a.parts > 0 {
		img = fs.drawParts(img, a.part, letter, c, a.parts)
	}
	return img
}

// drawCopies draws n (2 or 3) overlapping copies of b, each smaller than
// the square: two go from the upper left to the lower right, three stand
// two behind and one in front. Each copy is cut out of the ones behind
// it by a thin light edge, so that Black's solid pieces stay apart.
func (fs fontSet) drawCopies(b body, letter byte, c rules.Color, size, n int) *image.RGBA {
	k := 0.78
	if n >= 3 {
		k = 0.70
	}
	small := int(math.Round(k * float64(size)))
	one := haloSprite(fs.drawBody(b, letter, c, small), haloWidth(size))
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	off := size - small
	var at []image.Point
	if n >= 3 {
		at = []image.Point{{0, -off / 4}, {off, -off / 4}, {off / 2, off * 3 / 4}}
	} else {
		at = []image.Point{{off / 6, -off / 8}, {off * 5 / 6, off * 3 / 4}}
	}
	for _, p := range at {
		draw.Draw(img, one.Rect.Add(p), one, image.Point{}, draw.Over)
	}
	return img
}

// drawParts draws n small copies of part in front of img's lower right
// corner, each cut out by a thin light edge and overlapping the next by
// under half its width, so that one, two and three read apart at 400 px;
// img is drawn a little smaller and up to the left first, so that both
// read.
func (fs fontSet) drawParts(img *image.RGBA, part body, letter byte, c rules.Color, n int) *image.RGBA {
	size := img.Rect.Dx()
	s := float64(size)
	main := int(math.Round(0.90 * s))
	out := image.NewRGBA(img.Rect)
	scaled := scaleSprite(img, main)
	draw.Draw(out, scaled.Rect.Add(image.Pt(0, -int(math.Round(0.02*s)))), scaled, image.Point{}, draw.Over)
	ps := int(math.Round(0.52 * s))
	small := haloSprite(fs.drawBody(part, letter, c, ps), haloWidth(size))
	step := int(math.Round(0.28 * s))
	x := size - ps + int(math.Round(0.10*s)) - (n-1)*step
	y := size - ps + int(math.Round(0.06*s))
	for i := 0; i < n; i++ {
		draw.Draw(out, small.Rect.Add(image.Pt(x+i*step, y)), small, image.Point{}, draw.Over)
	}
	return out
}

// haloWidth is the width of the light edge that cuts overlapping parts of
// a size-pixel sprite apart.
func haloWidth(size int) int { return max(1, int(math.Round(float64(size)/30))) }

// haloSprite returns img on a light outline w pixels wide around its
// opaque part.
func haloSprite(img *image.RGBA, w int) *image.RGBA {
	b := img.Rect
	mask := image.NewAlpha(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var a uint8
			for dy := -w; dy <= w; dy++ {
				for dx := -w; dx <= w; dx++ {
					if dx*dx+dy*dy > w*w+w || !image.Pt(x+dx, y+dy).In(b) {
						continue
					}
					a = max(a, img.Pix[img.PixOffset(x+dx, y+dy)+3])
				}
			}
			mask.Pix[mask.PixOffset(x, y)] = a
		}
	}
	out := image.NewRGBA(b)
	paint(out, mask, paperColor)
	draw.Draw(out, b, img, b.Min, draw.Over)
	return out
}

// scaleSprite returns img scaled to n x n pixels, by area averaging.
func scaleSprite(img *image.RGBA, n int) *image.RGBA {
	src := img.Rect.Dx()
	out := image.NewRGBA(image.Rect(0, 0, n, n))
	k := float64(src) / float64(n)
	for y := 0; y < n; y++ {
		y0, y1 := int(float64(y)*k), max(int(float64(y)*k)+1, int(float64(y+1)*k))
		for x := 0; x < n; x++ {
			x0, x1 := int(float64(x)*k), max(int(float64(x)*k)+1, int(float64(x+1)*k))
			var sum [4]int
			cnt := 0
			for sy := y0; sy < min(y1, src); sy++ {
				for sx := x0; sx < min(x1, src); sx++ {
					o := img.PixOffset(sx, sy)
					for i := range sum {
						sum[i] += int(img.Pix[o+i])
					}
					cnt++
				}
			}
			if cnt == 0 {
				continue
			}
			o := out.PixOffset(x, y)
			for i := range sum {
				out.Pix[o+i] = uint8(sum[i] / cnt)
			}
		}
	}
	return out
}

// drawBody draws one body filling a size x size sprite.
func (fs fontSet) drawBody(b body, letter byte, c rules.Color, size int) *image.RGBA {
	if b.isToken() {
		return fs.drawToken(b, letter, c, size)
	}
	r := b.white
	if c == rules.Black {
		r = b.black
	}
	px, baseline := fs.chessMetrics(size)
	s := float64(size)
	bounds, ok := glyphBounds(fs.symbols, r, px)
	if !ok {
		return fs.drawToken(body{}, letter, c, size)
	}
	w := fix2f(bounds.Max.X - bounds.Min.X)
	if limit := 0.94 * s; w > limit {
		// A wide glyph (the knight compounds) is scaled down about the
		// middle of the square.
		k := limit / w
		px *= k
		baseline = s/2 + (baseline-s/2)*k
		bounds, _ = glyphBounds(fs.symbols, r, px)
	}
	x := s/2 - fix2f(bounds.Min.X+bounds.Max.X)/2
	ink := glyphMask(fs.symbols, r, px, x, baseline, size)
	img := image.NewRGBA(ink.Rect)
	paint(img, silhouette(ink), paperColor)
	paint(img, ink, inkColor)
	return img
}

// chessMetrics returns the font size and baseline that draw the King of
// the symbol font 80% of a size-pixel square high, centred; every chess
// glyph shares them, so pieces stand on one baseline.
func (fs fontSet) chessMetrics(size int) (px, baseline float64) {
	const ref = 100
	b, ok := glyphBounds(fs.symbols, '♔', ref)
	if !ok {
		return float64(size) * 0.8, float64(size) * 0.85
	}
	s := float64(size)
	h := fix2f(b.Max.Y - b.Min.Y)
	k := 0.80 * s / h
	px = ref * k
	baseline = s/2 - fix2f(b.Min.Y+b.Max.Y)/2*k + 0.01*s
	return px, baseline
}

// drawToken draws a disc in the piece's colours with the body's symbol in
// it (or the letter, for the zero body).
func (fs fontSet) drawToken(b body, letter byte, c rules.Color, size int) *image.RGBA {
	s := float64(size)
	dc := gg.NewContext(size, size)
	fill, ink := color.Color(paperColor), color.Color(inkColor)
	if c == rules.Black {
		fill, ink = tokenBlack, paperColor
	}
	cx, cy, rad := s/2, s/2, 0.42*s
	dc.DrawCircle(cx, cy, rad)
	dc.SetColor(fill)
	dc.FillPreserve()
	dc.SetColor(inkColor)
	dc.SetLineWidth(math.Max(1.5, s/22))
	dc.Stroke()
	dc.DrawCircle(cx, cy, rad*0.84)
	dc.SetColor(ink)
	dc.SetLineWidth(math.Max(1, s/50))
	dc.Stroke()
	img := dc.Image().(*image.RGBA)
	box := rad * 0.84 * 2 * 0.74
	switch {
	case b.shape != noShape:
		drawShape(dc, b.shape, cx, cy, box, fill, ink)
	case b.symbol != 0:
		paint(img, fs.symbolMask(fs.symbolFont(b.symbol), b.symbol, box, cx, cy, size), ink)
	default:
		paint(img, fs.symbolMask(fs.bold, rune(letter), box*0.8, cx, cy, size), ink)
	}
	return img
}

// symbolMask draws r of f scaled so that its ink fits a box x box square
// centred on (cx, cy).
func (fs fontSet) symbolMask(f *opentype.Font, r rune, box, cx, cy float64, size int) *image.Alpha {
	const ref = 100
	b, ok := glyphBounds(f, r, ref)
	if !ok {
		return image.NewAlpha(image.Rect(0, 0, size, size))
	}
	w, h := fix2f(b.Max.X-b.Min.X), fix2f(b.Max.Y-b.Min.Y)
	px := ref * box / math.Max(math.Max(w, h), 1)
	b, _ = glyphBounds(f, r, px)
	x := cx - fix2f(b.Min.X+b.Max.X)/2
	y := cy - fix2f(b.Min.Y+b.Max.Y)/2
	return glyphMask(f, r, px, x, y, size)
}

// glyphMask draws r of f at px pixels with its origin at (x, baseline)
// into a new size x size alpha mask.
func glyphMask(f *opentype.Font, r rune, px, x, baseline float64, size int) *image.Alpha {
	out := image.NewAlpha(image.Rect(0, 0, size, size))
	fc := face(f, px)
	dot := fixed.Point26_6{X: fixed.Int26_6(x*64 + 0.5), Y: fixed.Int26_6(baseline*64 + 0.5)}
	dr, mask, mp, _, ok := fc.Glyph(dot, r)
	if ok && mask != nil {
		draw.Draw(out, dr, mask, mp, draw.Over)
	}
	return out
}

// silhouette returns ink with everything it encloses filled: the pixels
// that cannot be reached from the border without crossing ink.
func silhouette(ink *image.Alpha) *image.Alpha {
	b := ink.Rect
	w, h := b.Dx(), b.Dy()
	const wall = 40 // ink at least this opaque stops the flood
	outside := make([]bool, w*h)
	stack := make([]int, 0, 4*(w+h))
	push := func(x, y int) {
		i := y*w + x
		if outside[i] || ink.Pix[y*ink.Stride+x] >= wall {
			return
		}
		outside[i] = true
		stack = append(stack, i)
	}
	for x := 0; x < w; x++ {
		push(x, 0)
		push(x, h-1)
	}
	for y := 0; y < h; y++ {
		push(0, y)
		push(w-1, y)
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%w, i/w
		if x > 0 {
			push(x-1, y)
		}
		if x < w-1 {
			push(x+1, y)
		}
		if y > 0 {
			push(x, y-1)
		}
		if y < h-1 {
			push(x, y+1)
		}
	}
	out := image.NewAlpha(b)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := ink.Pix[y*ink.Stride+x]
			if !outside[y*w+x] {
				a = 255
			}
			out.Pix[y*out.Stride+x] = a
		}
	}
	return out
}

// paint draws c through mask onto img.
func paint(img *image.RGBA, mask *image.Alpha, c color.Color) {
	draw.DrawMask(img, img.Rect, image.NewUniform(c), image.Point{}, mask, mask.Rect.Min, draw.Over)
}

// splitSprite joins the left half of l and the right half of r, with a
// seam line where the halves meet.
func splitSprite(l, r *image.RGBA, c rules.Color) *image.RGBA {
	b := l.Rect
	mid := b.Dx() / 2
	out := image.NewRGBA(b)
	draw.Draw(out, image.Rect(0, 0, mid, b.Dy()), l, image.Point{}, draw.Src)
	draw.Draw(out, image.Rect(mid, 0, b.Dx(), b.Dy()), r, image.Point{X: mid}, draw.Src)
	seam := inkColor
	if c == rules.Black {
		seam = paperColor
	}
	t := max(1, b.Dx()/45)
	for y := 0; y < b.Dy(); y++ {
		for x := mid - t/2; x < mid-t/2+t; x++ {
			if l.RGBAAt(x, y).A > 160 && r.RGBAAt(x, y).A > 160 {
				out.SetRGBA(x, y, seam)
			}
		}
	}
	return out
}

// centerSprite moves the opaque part of img to the middle of the sprite.
func centerSprite(img *image.RGBA) *image.RGBA {
	b := img.Rect
	minX, minY, maxX, maxY := b.Dx(), b.Dy(), -1, -1
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			if img.Pix[y*img.Stride+4*x+3] > 0 {
				minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
			}
		}
	}
	if maxX < 0 {
		return img
	}
	dx := (b.Dx()-1-maxX-minX)/2 - 0
	dy := (b.Dy() - 1 - maxY - minY) / 2
	out := image.NewRGBA(b)
	draw.Draw(out, b.Add(image.Pt(dx, dy)), img, image.Point{}, draw.Src)
	return out
}

// mirrorSprite flips img left to right.
func mirrorSprite(img *image.RGBA) *image.RGBA {
	n := img.Rect.Dx()
	out := image.NewRGBA(img.Rect)
	for y := 0; y < img.Rect.Dy(); y++ {
		row := y * img.Stride
		for x := 0; x < n; x++ {
			copy(out.Pix[row+4*x:row+4*x+4], img.Pix[row+4*(n-1-x):row+4*(n-1-x)+4])
		}
	}
	return out
}

// turnSprite turns img (square) by quarter turns clockwise.
func turnSprite(img *image.RGBA, quarters int) *image.RGBA {
	n := img.Rect.Dx()
	out := image.NewRGBA(img.Rect)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			var sx, sy int
			switch quarters {
			case 1:
				sx, sy = y, n-1-x
			case 2:
				sx, sy = n-1-x, n-1-y
			default:
				sx, sy = n-1-y, x
			}
			copy(out.Pix[y*out.Stride+4*x:y*out.Stride+4*x+4], img.Pix[sy*img.Stride+4*sx:sy*img.Stride+4*sx+4])
		}
	}
	return out
}

// drawMarks draws movement arrowheads at the edge of the sprite, pointing
// up for forward, or down when down is set.
func drawMarks(img *image.RGBA, m marks, c rules.Color, down bool) {
	s := float64(img.Rect.Dx())
	dc := gg.NewContextForRGBA(img)
	fill, edge := color.Color(paperColor), color.Color(inkColor)
	if c == rules.Black {
		fill, edge = inkColor, paperColor
	}
	for _, d := range []struct {
		m              marks
		dx, dy, tx, ty float64 // screen direction (y down) and where the tip is, in sprite widths
	}{
		{markForwardLeft, -1, -1, 0.05, 0.05}, {markForward, 0, -1, 0.5, 0.02}, {markForwardRight, 1, -1, 0.95, 0.05},
		{markBackLeft, -1, 1, 0.05, 0.95}, {markBackRight, 1, 1, 0.95, 0.95},
	} {
		if m&d.m == 0 {
			continue
		}
		if down {
			d.dy, d.ty = -d.dy, 1-d.ty
		}
		l := math.Hypot(d.dx, d.dy)
		ux, uy := d.dx/l, d.dy/l
		tx, ty := d.tx*s, d.ty*s
		length, half := 0.17*s, 0.10*s
		bx, by := tx-ux*length, ty-uy*length
		dc.MoveTo(tx, ty)
		dc.LineTo(bx-uy*half, by+ux*half)
		dc.LineTo(bx+uy*half, by-ux*half)
		dc.ClosePath()
		dc.SetColor(fill)
		dc.FillPreserve()
		dc.SetColor(edge)
		dc.SetLineWidth(math.Max(1, s/45))
		dc.Stroke()
	}
}

// drawBadge draws sym in a red disc in the top right corner.
func (fs fontSet) drawBadge(img *image.RGBA, sym rune) {
	s := float64(img.Rect.Dx())
	dc := gg.NewContextForRGBA(img)
	cx, cy, rad := s*0.80, s*0.20, s*0.17
	dc.DrawCircle(cx, cy, rad)
	dc.SetColor(badgeColor)
	dc.FillPreserve()
	dc.SetColor(paperColor)
	dc.SetLineWidth(math.Max(1, s/40))
	dc.Stroke()
	f := fs.symbolFont(sym)
	if sym < 0x80 {
		f = fs.bold
	}
	paint(img, fs.symbolMask(f, sym, rad*1.2, cx, cy, img.Rect.Dx()), paperColor)
}

// blit draws the sprite sp over dst with its top left corner at pt. It is
// draw.Draw(dst, ..., sp, ..., draw.Over) for premultiplied sprites, with
// fast paths for the transparent and opaque pixels that make up most of
// a sprite.
func blit(dst *image.RGBA, pt image.Point, sp *image.RGBA) {
	r := sp.Rect.Sub(sp.Rect.Min).Add(pt).Intersect(dst.Rect)
	if r.Empty() {
		return
	}
	so := r.Min.Sub(pt).Add(sp.Rect.Min)
	w := r.Dx() * 4
	for y := 0; y < r.Dy(); y++ {
		d := dst.Pix[dst.PixOffset(r.Min.X, r.Min.Y+y):][:w]
		s := sp.Pix[sp.PixOffset(so.X, so.Y+y):][:w]
		for i := 0; i < w; i += 4 {
			switch a := uint32(s[i+3]); a {
			case 0:
			case 255:
				copy(d[i:i+4], s[i:i+4])
			default:
				k := 255 - a
				d[i] = uint8((uint32(d[i])*k+127)/255 + uint32(s[i]))
				d[i+1] = uint8((uint32(d[i+1])*k+127)/255 + uint32(s[i+1]))
				d[i+2] = uint8((uint32(d[i+2])*k+127)/255 + uint32(s[i+2]))
				d[i+3] = uint8((uint32(d[i+3])*k+127)/255 + a)
			}
		}
	}
}

// fix2f converts a 26.6 fixed-point value to a float.
func fix2f(v fixed.Int26_6) float64 { return float64(v) / 64 }
