package render

import (
	"fmt"
	"image"
	"image/draw"
	"math"

	"github.com/fairypost/fairypost/rules"
)

// The legend under the board explains the pieces that are not standard
// chess pieces, one entry each (icon, letter, name, a few words), for the
// pieces the image shows: on the board, in hand, or removed by the last
// move. A variant with many kinds (Cold Fusion has 25) would otherwise
// carry a legend taller than its board. A game's GIF lists every piece of
// the game, so that its frames keep one size.

// legendText is the size of the legend's text at DefaultSize.
const legendText = 21

// typeSet is a set of piece types (rules allows at most 31 a variant).
type typeSet uint64

func (s typeSet) has(t rules.PieceType) bool { return s&(1<<t) != 0 }

// shownTypes returns the piece types p shows: on the board, in either hand
// and, from the last move's marks, faded on their squares.
func shownTypes(p rules.Position, mm *moveMarks) typeSet {
	v := p.Variant()
	var s typeSet
	for _, sq := range v.Squares() {
		if pc := p.At(sq); pc != rules.NoPiece {
			s |= 1 << pc.Type()
		}
		if mm != nil {
			if g := mm.ghost[sq]; g != rules.NoPiece {
				s |= 1 << g.Type()
			}
		}
	}
	for t := 1; t <= len(v.Pieces); t++ {
		if p.Pocket(rules.White, rules.PieceType(t)) > 0 || p.Pocket(rules.Black, rules.PieceType(t)) > 0 {
			s |= 1 << t
		}
	}
	return s
}

// gameTypes returns the piece types shown anywhere in g.
func gameTypes(g *rules.Game) typeSet {
	var s typeSet
	for i := 0; i <= len(g.Moves()); i++ {
		s |= shownTypes(g.PositionAt(i), nil)
	}
	return s
}

// legendItem is one entry of the legend: a piece icon and its text.
type legendItem struct {
	icon image.Rectangle
	def  rules.PieceDef
	text string
	x, y float64 // text origin (left, middle)
}

// legend is a drawn legend: the strip under the frame.
type legend struct {
	items []legendItem
	img   *image.RGBA // size wide; zero height when there are no items
}

// legendKey identifies a cached legend.
type legendKey struct {
	v     *rules.Variant
	size  int
	types typeSet
}

// maxLegends bounds the legend cache (a legend is a strip of a few rows).
const maxLegends = 128

// legend returns the cached legend of v's pieces in types at size px wide.
func (r *Renderer) legend(v *rules.Variant, size int, types typeSet) *legend {
	key := legendKey{v, size, types}
	r.mu.Lock()
	lg := r.legends[key]
	r.mu.Unlock()
	if lg != nil {
		return lg
	}
	lg = r.drawLegend(v, size, types)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.legends) >= maxLegends {
		clear(r.legends)
	}
	r.legends[key] = lg
	return lg
}

// legendEntries returns the entries v needs for the types in types: only
// pieces that are not standard chess pieces, in the variant's order.
func (r *Renderer) legendEntries(v *rules.Variant, types typeSet) []legendItem {
	var items []legendItem
	for i, d := range v.Pieces {
		if !types.has(rules.PieceType(i + 1)) {
			continue
		}
		a, known := r.arts.lookup(d)
		text := fmt.Sprintf("%c %s", d.Letter, d.Name)
		switch {
		case !known:
			text += fmt.Sprintf(" (Betza %s)", d.Betza)
		case a.legend == "":
			continue
		default:
			text += ": " + a.legend
		}
		items = append(items, legendItem{def: d, text: text})
	}
	return items
}

// drawLegend lays out the entries in as many equal columns as the widest
// allows, row by row, and draws them.
func (r *Renderer) drawLegend(v *rules.Variant, size int, types typeSet) *legend {
	u := float64(size) / DefaultSize
	items := r.legendEntries(v, types)
	if len(items) == 0 {
		return &legend{img: image.NewRGBA(image.Rect(0, 0, size, 0))}
	}
	f := face(r.fonts.text, legendText*u)
	pad := int(math.Round(14 * u))
	icon := int(math.Round(34 * u))
	lineH := int(math.Round(38 * u))
	space := 26 * u
	widest := 0.0
	for _, it := range items {
		widest = max(widest, float64(icon)+6*u+textWidth(f, it.text))
	}
	avail := float64(size - 2*pad)
	cols := max(1, min(len(items), int((avail+space)/(widest+space))))
	colW := (avail + space) / float64(cols)
	rows := (len(items) + cols - 1) / cols
	img := image.NewRGBA(image.Rect(0, 0, size, rows*lineH+pad))
	draw.Draw(img, img.Rect, image.NewUniform(backgroundColor), image.Point{}, draw.Src)
	for i := range items {
		it := &items[i]
		x := float64(pad) + float64(i%cols)*colW
		top := i / cols * lineH
		iy := top + (lineH-icon)/2
		ix := int(math.Round(x))
		it.icon = image.Rect(ix, iy, ix+icon, iy+icon)
		it.x = x + float64(icon) + 6*u
		it.y = float64(top) + float64(lineH)/2
		blit(img, it.icon.Min, r.pieceSprite(it.def, rules.White, icon, false))
		drawText(img, f, it.text, it.x, it.y, 0, 0.35, textColor)
	}
	return &legend{items: items, img: img}
}
