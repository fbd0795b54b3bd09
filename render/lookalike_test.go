package render

import (
	"image"
	"image/draw"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// lookAlikes are pairs of pieces of one variant that a player must tell
// apart on the board: compounds of the same parts (Cardinal and Marshal),
// a fairy piece and the chess piece its drawing is built on (Tiger and
// Knight, Chariot and Rook), and pieces that differ by a small part (a
// Guard's one, two or three pawns).
var lookAlikes = []struct {
	variant, options string
	a, b             byte
	parts            bool // they differ only by the number of small pawns in front
}{
	{"grand", "", 'A', 'C', false},
	{"coldfusion", "", 'A', 'C', false},
	{"winning", "", 'T', 'N', false},
	{"winning", "", 'C', 'R', false},
	{"winning", "", 'A', 'D', false},
	{"easymate", "tigers=on", 'T', 'N', false},
	{"tank", "", 'M', 'A', false},
	{"coldfusion", "", 'W', 'R', false},
	{"coldfusion", "", 'F', 'B', false},
	{"coldfusion", "", 'J', 'N', false},
	{"coldfusion", "", 'D', 'O', false},
	{"coldfusion", "", 'D', 'E', false},
	{"coldfusion", "", 'O', 'E', false},
	{"coldfusion", "", 'E', 'N', false},
	{"coldfusion", "", 'P', 'L', false},
	{"coldfusion", "", 'L', 'S', false},
	{"coldfusion", "", 'G', 'H', true},
	{"coldfusion", "", 'H', 'I', true},
	{"coldfusion", "", 'T', 'U', true},
	{"coldfusion", "", 'X', 'Y', true},
	{"coldfusion", "", 'Y', 'Z', true},
}

// The least share of a square's pixels that must differ clearly between
// the two pieces of a look-alike pair at 400 px: 13% for pieces of
// different bodies (chess pieces differ in 17% to 35%: a Bishop and a
// Rook in 22%; a Dragon King and an Eques Rex, King | Rook and King |
// Knight, in 13.3%), 7.5% for pieces that differ only by their small pawns
// (one small pawn more is about 50 pixels of a 37-pixel square). The art
// of issue 24 failed both: the Cardinal and the Marshal differed in 9.5%,
// a Guard and a Berolina Guard in 5%.
const (
	minBodyDiff  = 0.13
	minPartsDiff = 0.075
)

// squareDiff draws pieces a and b of colour c each on a light square of
// v's board at size px and returns the share of the square's pixels whose
// colour differs by more than a clear step in some channel.
func squareDiff(r *Renderer, v *rules.Variant, a, b rules.PieceDef, c rules.Color, size int) float64 {
	cell := r.layout(v, size, rules.White).cell
	tile := func(d rules.PieceDef) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, cell, cell))
		draw.Draw(img, img.Rect, image.NewUniform(lightSquare), image.Point{}, draw.Src)
		blit(img, image.Point{}, r.pieceSprite(d, c, cell, false))
		return img
	}
	ta, tb := tile(a), tile(b)
	differ := 0
	for i := 0; i < len(ta.Pix); i += 4 {
		for k := 0; k < 3; k++ {
			d := int(ta.Pix[i+k]) - int(tb.Pix[i+k])
			if d > 64 || d < -64 {
				differ++
				break
			}
		}
	}
	return float64(differ) / float64(cell*cell)
}

// TestLookAlikesDiffer draws each look-alike pair at 400 px (Discord's
// width) in both colours and requires that the two pieces' squares differ
// clearly: at least minBodyDiff of their pixels (minPartsDiff for pieces
// told apart by their small pawns).
func TestLookAlikesDiffer(t *testing.T) {
	reg := newTestRegistry(t)
	r := newTestRenderer(t)
	for _, p := range lookAlikes {
		v, err := reg.Variant(p.variant, p.options)
		if err != nil {
			t.Fatal(err)
		}
		ta, tb := v.Type(p.a), v.Type(p.b)
		if ta == rules.NoPieceType || tb == rules.NoPieceType {
			t.Fatalf("%s has no %c or %c", p.variant, p.a, p.b)
		}
		a, b := v.Def(ta), v.Def(tb)
		for _, c := range []rules.Color{rules.White, rules.Black} {
			d := squareDiff(r, v, a, b, c, 400)
			want := minBodyDiff
			if p.parts {
				want = minPartsDiff
			}
			if d < want {
				t.Errorf("%s: %s %s and %s differ in %.1f%% of their squares at 400 px, want at least %.1f%%",
					p.variant, c, a.Name, b.Name, 100*d, 100*want)
			}
		}
	}
}
