package render

import (
	"github.com/fairypost/fairypost/rules"
)

// How pieces are drawn. Every piece is drawn from one set: the chess
// pieces of Noto Sans Symbols 2 (standard pieces and the knight
// compounds), plus tokens (a disc in the piece's colours around a symbol)
// for pieces that have no chess shape. Fairy pieces are decorations of
// these bodies: a split (left half of one body, right half of another), a
// turn, copies, small Pawns in front, a corner badge, movement marks. The
// table is keyed by the drawing's name, which each piece's definition
// gives (rules.PieceDef.Art); a piece whose drawing is not in the table
// is drawn as its letter in a token.

// body is the shape a piece is drawn from. Exactly one kind is set; the
// zero body is a token showing the piece's letter.
type body struct {
	// white and black are a glyph pair of the symbol font: the outline
	// glyph drawn for White, the solid one for Black.
	white, black rune
	// facesLeft marks a glyph that looks to the left (the Knight): as the
	// right half of a split it is mirrored, so that both halves show the
	// head.
	facesLeft bool
	// symbol, when set, is drawn inside a token.
	symbol rune
	// shape, when set, draws a symbol inside a token (see shapes.go).
	shape shape
}

// shape names a symbol drawn with vector paths, for pieces whose symbol no
// embedded font has.
type shape uint8

const (
	noShape     shape = iota
	shapeTank         // a tank seen from the side
	shapeSwords       // two crossed swords
)

// isToken reports whether b is drawn as a token.
func (b body) isToken() bool { return b.white == 0 }

// Marks are small arrowheads at the edge of a piece, showing directions it
// moves in that its body does not, or that half a body shows too faintly
// at small sizes (the diagonals of a compound split with a Bishop half). The glyphs are always drawn upright;
// the marks point the way the piece moves on the image (forward is down
// for the side at the top).
type marks uint8

const (
	markForwardLeft marks = 1 << iota
	markForward
	markForwardRight
	markBackLeft
	markBackRight

	marksBerolina = markForwardLeft | markForwardRight
	marksFerz     = markForwardLeft | markForwardRight | markBackLeft | markBackRight
)

// art says how one kind of piece is drawn.
type art struct {
	body  body
	right body // a split piece: the right half is drawn from this body; zero = not split
	turn  int  // quarter turns clockwise (0..3)
	// copies draws the body 2 or 3 times, smaller and overlapping (0 and 1
	// draw it once): a piece fused from several of the same kind.
	copies int
	// part is drawn small, parts times side by side, in front of the
	// body's lower right corner: Cold Fusion's hybrids show their pawn
	// part as one, two or three small Pawns.
	part  body
	parts int
	badge rune // a symbol in a disc in the top right corner; 0 = none
	marks marks
	// plain marks the standard chess pieces, which everybody knows: the
	// legend under the board leaves them out.
	plain bool
}

// Symbols used in tokens and badges.
const (
	symbolBomb        = '\U0001F4A3' // BOMB
	symbolRadioactive = '☢'          // RADIOACTIVE SIGN
	symbolShield      = '\U0001F6E1' // SHIELD
	symbolPlus        = '+'
)

// split returns the art of a compound drawn as the left half of a and the
// right half of b.
func split(a, b body) art {
	return art{body: a, right: b}
}

// withMarks returns a with movement marks m.
func withMarks(a art, m marks) art {
	a.marks = m
	return a
}

// artRow is one drawing of the piece table.
type artRow struct {
	key string // rules.PieceDef.Art
	art art
}

// pieceTable lists every drawing by its name, rules.PieceDef.Art: a
// variant names the drawing of each of its pieces, so a new piece that
// looks like a known one needs no row here, and a new drawing is one row.
// The name of a compound's drawing is the names of its parts joined by
// '+' ("rook+knight").
//
// Conventions: a compound of two kinds is split, the Knight on the left
// (or mirrored, on the right) so that its head shows (the Tiger, which
// moves as a Bishop and captures as a Knight, is Bishop | Knight: the
// mirror image of the Cardinal, Knight | Bishop); a compound with a
// Bishop half (the Cardinal, the Pope) also has the four diagonal marks,
// so that at 400 px it does not pass for its Rook counterpart (the
// Marshal, the Dragon King; TestLookAlikesDiffer); the Knightrider (Knight
// + Knight) is an upside-down Knight, as fairy-chess diagrams show the
// Nightrider, and Cold Fusion's reflecting Archbishop (Bishop + Bishop) an
// upside-down Bishop; the Chariot (Rook + Rook) is two overlapping Rooks
// (a Rook upside down looks like a Rook); the xiangqi-style Cannon is a
// Rook turned a quarter, as diagrams show the Pao. Cold Fusion's pawn
// parts are counted in pawns: a Berolina pawn is two overlapping Pawns, a
// Sergeant three, and a Rook, Bishop or Knight fused with a pawn part
// stands whole with one, two or three small Pawns in front of it. Pieces
// with no chess shape are tokens: Winning Chess's Attacker and Defender
// are crossed swords and a shield, a pair that reads at a glance.
func pieceTable() []artRow {
	var (
		king   = body{white: '♔', black: '♚'}
		queen  = body{white: '♕', black: '♛'}
		rook   = body{white: '♖', black: '♜'}
		bishop = body{white: '♗', black: '♝'}
		knight = body{white: '♘', black: '♞', facesLeft: true}
		pawn   = body{white: '♙', black: '♟'}
	)
	rows := []artRow{
		// Standard chess.
		{"king", art{body: king, plain: true}},
		{"queen", art{body: queen, plain: true}},
		{"rook", art{body: rook, plain: true}},
		{"bishop", art{body: bishop, plain: true}},
		{"knight", art{body: knight, plain: true}},
		{"pawn", art{body: pawn, plain: true}},

		// Knight compounds (Grand Chess, Almost Train Wreck, Cold Fusion).
		{"rook+knight", split(knight, rook)},
		{"bishop+knight", withMarks(split(knight, bishop), marksFerz)},

		// Tank Chess.
		{"bomb", art{body: body{symbol: symbolBomb}}},
		{"atomic-bomb", art{body: body{symbol: symbolRadioactive}}},
		{"tank", art{body: body{shape: shapeTank}}},

		// Winning Chess and Making Checkmate Trivially Easy.
		{"tiger", split(bishop, knight)},
		{"augmented-tiger", art{body: bishop, right: knight, badge: symbolPlus}},
		{"cannon", art{body: rook, turn: 1}},
		{"attacker", art{body: body{shape: shapeSwords}}},
		{"defender", art{body: body{symbol: symbolShield}}},
		{"ferz-queen", art{body: queen, marks: marksFerz}},

		// Berolina Train Wreck's pawn, one pawn that moves diagonally.
		{"berolina-pawn", art{body: pawn, marks: marksBerolina}},

		// Cold Fusion compounds.
		{"king+rook", split(king, rook)},
		{"king+bishop", withMarks(split(king, bishop), marksFerz)},
		{"king+knight", split(king, knight)},
		{"rook+rook", art{body: rook, copies: 2}},
		{"bishop+bishop", art{body: bishop, turn: 2}},
		{"knight+knight", art{body: knight, turn: 2}},
		{"pawn+pawn", art{body: pawn, copies: 2}},
		{"pawn+pawn+pawn", art{body: pawn, copies: 3}},
	}
	for _, h := range []struct {
		name string
		b    body
	}{{"rook", rook}, {"bishop", bishop}, {"knight", knight}} {
		key := h.name
		for n := 1; n <= 3; n++ {
			key += "+pawn"
			rows = append(rows, artRow{key, art{body: h.b, part: pawn, parts: n}})
		}
	}
	return rows
}

// artTable is the piece table by drawing name.
type artTable map[string]art

// newArtTable indexes pieceTable.
func newArtTable() artTable {
	t := artTable{}
	for _, r := range pieceTable() {
		t[r.key] = r.art
	}
	return t
}

// lookup returns the drawing of the piece d, by d.Art, or false when
// there is none of that name (the piece is then drawn as its letter).
func (t artTable) lookup(d rules.PieceDef) (art, bool) {
	a, ok := t[d.Art]
	return a, ok
}
