package render

import (
	"fmt"
	"image"
	"math"

	"github.com/fairypost/fairypost/rules"
	"github.com/fogleman/gg"
)

// pocketEntry is one kind of piece in a hand and how many there are.
type pocketEntry struct {
	def  rules.PieceDef
	n    int
	mark byte // the slot's FEN mark (rules.PocketSlot.Mark), 0 for none
}

// pocketGroup is one pocket of a side's hand. Variants with one pocket a
// side have one group without a label.
type pocketGroup struct {
	label   string
	entries []pocketEntry
}

// pocketsOf returns side c's hand in p. With one pocket a side (Drops
// without Slots): one group, kinds in the variant's order. With pocket
// slots (Cold Fusion's Safe and Demotion pockets): one group per pocket,
// labelled with its FEN letter, in the order of Drops.Slots; every pocket
// is listed, empty or not, so players see them all.
func pocketsOf(p rules.Position, c rules.Color) []pocketGroup {
	v := p.Variant()
	if len(v.Drops.Slots) == 0 {
		var g pocketGroup
		for t := 1; t <= len(v.Pieces); t++ {
			if n := p.Pocket(c, rules.PieceType(t)); n > 0 {
				g.entries = append(g.entries, pocketEntry{def: v.Pieces[t-1], n: n})
			}
		}
		return []pocketGroup{g}
	}
	var groups []pocketGroup
	index := map[byte]int{}
	for i, sl := range v.Drops.Slots {
		gi, ok := index[sl.Pocket]
		if !ok {
			gi = len(groups)
			index[sl.Pocket] = gi
			groups = append(groups, pocketGroup{label: string(sl.Pocket) + ":"})
		}
		t := v.Type(sl.Letter)
		if n := p.Slot(c, i); n > 0 && t != rules.NoPieceType {
			groups[gi].entries = append(groups[gi].entries, pocketEntry{def: v.Def(t), n: n, mark: sl.Mark})
		}
	}
	return groups
}

// hasPockets reports whether images of v show the hands.
func hasPockets(v *rules.Variant) bool { return v.Drops.Enabled || len(v.Drops.Slots) > 0 }

// drawPocket draws side c's hand in the box b: each kind of piece, with its
// count when it is two or more; smaller when many kinds must fit.
func (r *Renderer) drawPocket(dc *gg.Context, img *image.RGBA, lay *layout, p rules.Position, c rules.Color, b image.Rectangle) {
	u := lay.u
	groups := pocketsOf(p, c)
	kinds := 0
	labels := 0.0
	labelFace := face(r.fonts.bold, 20*u)
	emptyText := "no pieces in hand"
	for _, g := range groups {
		kinds += len(g.entries)
		if g.label != "" {
			labels += textWidth(labelFace, g.label) + 12*u
			emptyText = "empty"
		}
		if len(g.entries) == 0 && g.label != "" {
			labels += textWidth(labelFace, "–") + 24*u
		}
	}
	x0 := float64(b.Min.X) + 36*u
	if kinds == 0 && len(groups) == 1 {
		drawText(img, face(r.fonts.text, 18*u), emptyText, x0, float64(b.Min.Y+b.Dy()/2), 0, 0.35, pocketTextColor)
		return
	}
	// Many kinds: first the gaps shrink, then the icons.
	icon := lay.pocketIcon
	gap := 30 * u
	avail := float64(b.Max.X) - x0 - labels - 14*u
	if kinds > 0 && float64(kinds)*(float64(icon)+gap) > avail {
		gap = math.Max(6*u, avail/float64(kinds)-float64(icon))
		if per := avail / float64(kinds); float64(icon)+gap > per {
			icon = int(math.Floor(per - gap))
		}
	}
	count := face(r.fonts.bold, math.Max(11, 17*u*float64(icon)/float64(lay.pocketIcon)))
	rad := 11 * u * float64(icon) / float64(lay.pocketIcon)
	x := x0
	y := b.Min.Y + (b.Dy()-icon)/2
	for _, g := range groups {
		if g.label != "" {
			drawText(img, labelFace, g.label, x, float64(b.Min.Y+b.Dy()/2), 0, 0.35, pocketTextColor)
			x += textWidth(labelFace, g.label) + 12*u
			if len(g.entries) == 0 {
				drawText(img, labelFace, "–", x, float64(b.Min.Y+b.Dy()/2), 0, 0.35, pocketTextColor)
				x += textWidth(labelFace, "–") + 24*u
			}
		}
		for _, e := range g.entries {
			ix := int(math.Round(x))
			blit(img, image.Pt(ix, y), r.pieceSprite(e.def, c, icon, c != lay.bottom))
			if e.mark != 0 {
				// The slot's mark (a captured piece's history) at the
				// icon's upper right.
				drawText(img, labelFace, string(rune(e.mark)), float64(ix+icon), float64(y)+8*u, 0.5, 0.35, pocketTextColor)
			}
			x += float64(icon) + gap
			if e.n < 2 {
				continue // as in shogi diagrams: no number means one
			}
			// The count in a small dark disc at the icon's lower right.
			label := fmt.Sprint(e.n)
			cx, cy := float64(ix+icon)+rad*0.6, float64(y+icon)-rad*0.8
			half := max(rad, textWidth(count, label)/2+5*u)
			dc.DrawRoundedRectangle(cx-half, cy-rad, 2*half, 2*rad, rad)
			dc.SetColor(tokenBlack)
			dc.FillPreserve()
			dc.SetColor(paperColor)
			dc.SetLineWidth(1.5 * u)
			dc.Stroke()
			drawText(img, count, label, cx, cy, 0.5, 0.35, paperColor)
		}
	}
}
