package render

import (
	"fmt"
	"image"
	"image/draw"
	"math"
	"strings"

	"github.com/fairypost/fairypost/rules"
	"golang.org/x/image/font"
)

// The legend under the board explains the pieces that are not standard
// chess pieces, one entry each (icon, letter, name and how it moves, in
// the words of rules.Describe), for the pieces the image shows: on the
// board, in hand, or removed by the last move. A variant with many kinds
// (Cold Fusion has 25) would otherwise carry a legend taller than its
// board; when the entries would make the image taller than maxAspect
// times its width, they give the names alone (see drawLegend), never
// less: every piece shown is named, in more rows if need be. A game's GIF
// lists every piece of the game, so that its frames keep one size.

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
	icon  image.Rectangle
	def   rules.PieceDef
	text  string   // the letter, name and legend, as the widest style shows it
	lines []string // the text drawn, one entry a line
	x, y  float64  // origin of the first line (left, middle)
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

// legendEntries returns the entries v needs for the types in types: the
// pieces whose drawing is not a standard chess piece, in the variant's
// order, each with its letter, name and movement (rules.Describe).
func (r *Renderer) legendEntries(v *rules.Variant, types typeSet) []legendItem {
	var items []legendItem
	for i, d := range v.Pieces {
		if !types.has(rules.PieceType(i + 1)) {
			continue
		}
		if a, known := r.arts.lookup(d); known && a.plain {
			continue
		}
		items = append(items, legendItem{def: d, text: entryText(d, legendFull)})
	}
	return items
}

// legendStyle is how much an entry of the legend says.
type legendStyle uint8

const (
	legendFull  legendStyle = iota // "T Tiger: moves like a Bishop; captures like a Knight"
	legendNames                    // "T Tiger"
)

// entryText is the text of d's entry in style st.
func entryText(d rules.PieceDef, st legendStyle) string {
	if st == legendFull {
		return fmt.Sprintf("%c %s: %s", d.Letter, d.Name, rules.Describe(d))
	}
	return fmt.Sprintf("%c %s", d.Letter, d.Name)
}

// maxAspect bounds an image's height as a multiple of its width: the
// legend gives names only when saying everything would make the image
// taller. A board image should fit a chat window (Discord shows images
// 400-550 px wide); only a legend of many pieces by name may still exceed
// it, as every piece shown keeps its name.
const maxAspect = 1.35

// legendGrid is the arrangement of the legend in one style: equal columns,
// each entry's text broken into lines that fit its column.
type legendGrid struct {
	cols   int
	colW   float64
	lines  [][]string
	height int
}

// drawLegend lays out the entries in as many equal columns as the widest
// allows, row by row, with their movement when that keeps the image within
// maxAspect (v's frame is above it), else by name, and draws them.
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
	textH := int(math.Round(legendText * 1.2 * u))
	budget := int(maxAspect*float64(size)) - r.layout(v, size, rules.White).h
	var g legendGrid
	for st := legendFull; st <= legendNames; st++ {
		g = r.legendGrid(items, st, f, size, u, pad, icon, lineH, textH)
		if g.height <= budget {
			break
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, size, g.height))
	draw.Draw(img, img.Rect, image.NewUniform(backgroundColor), image.Point{}, draw.Src)
	top := 0
	for row := 0; row*g.cols < len(items); row++ {
		rowH := 0
		for i := row * g.cols; i < min(len(items), (row+1)*g.cols); i++ {
			rowH = max(rowH, entryHeight(len(g.lines[i]), lineH, textH))
		}
		for i := row * g.cols; i < min(len(items), (row+1)*g.cols); i++ {
			it := &items[i]
			it.lines = g.lines[i]
			x := float64(pad) + float64(i%g.cols)*g.colW
			ix := int(math.Round(x))
			it.icon = image.Rect(ix, top+(lineH-icon)/2, ix+icon, top+(lineH-icon)/2+icon)
			it.x = x + float64(icon) + 6*u
			it.y = float64(top) + float64(entryHeight(len(it.lines), lineH, textH)-(len(it.lines)-1)*textH)/2
			blit(img, it.icon.Min, r.pieceSprite(it.def, rules.White, icon, false))
			for k, l := range it.lines {
				drawText(img, f, l, it.x, it.y+float64(k*textH), 0, 0.35, textColor)
			}
		}
		top += rowH
	}
	return &legend{items: items, img: img}
}

// entryHeight is the height of a legend entry of n lines of text.
func entryHeight(n, lineH, textH int) int { return lineH + (n-1)*textH }

// legendGrid arranges items in style st: as many equal columns as the
// widest entry allows, an entry wider than the whole legend broken into
// lines at spaces.
func (r *Renderer) legendGrid(items []legendItem, st legendStyle, f font.Face, size int, u float64, pad, icon, lineH, textH int) legendGrid {
	space := 26 * u
	avail := float64(size - 2*pad)
	textAvail := avail - float64(icon) - 6*u
	texts := make([]string, len(items))
	widest := 0.0
	for i := range items {
		texts[i] = entryText(items[i].def, st)
		widest = max(widest, math.Min(textWidth(f, texts[i]), textAvail))
	}
	widest += float64(icon) + 6*u
	g := legendGrid{cols: max(1, min(len(items), int((avail+space)/(widest+space))))}
	g.colW = (avail + space) / float64(g.cols)
	g.lines = make([][]string, len(items))
	for i, t := range texts {
		g.lines[i] = wrapText(f, t, textAvail)
	}
	for row := 0; row*g.cols < len(items); row++ {
		rowH := 0
		for i := row * g.cols; i < min(len(items), (row+1)*g.cols); i++ {
			rowH = max(rowH, entryHeight(len(g.lines[i]), lineH, textH))
		}
		g.height += rowH
	}
	g.height += pad
	return g
}

// wrapText breaks s at spaces into lines at most w wide (a single word
// wider than w stays whole).
func wrapText(f font.Face, s string, w float64) []string {
	words := strings.Fields(s)
	var lines []string
	line := ""
	for _, word := range words {
		switch {
		case line == "":
			line = word
		case textWidth(f, line+" "+word) <= w:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}
