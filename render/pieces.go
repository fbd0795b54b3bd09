package render

import (
	"strings"
	"unicode"

	"github.com/fairypost/fairypost/rules"
)

// How pieces are drawn. Every piece is drawn from one set: the chess
// pieces of Noto Sans Symbols 2 (standard pieces and the knight
// compounds), plus tokens (a disc in the piece's colours around a symbol)
// for pieces that have no chess shape. Fairy pieces are decorations of
// these bodies: a split (left half of one body, right half of another), a
// turn, a corner badge, movement marks. The table is keyed by the piece's
// Name (rules.PieceDef.Name), so a new piece is one row; a name that is
// not in the table is drawn as its letter in a token and is listed in the
// legend by name.

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
	noShape   shape = iota
	shapeTank       // a tank seen from the side
)

// isToken reports whether b is drawn as a token.
func (b body) isToken() bool { return b.white == 0 }

// Marks are small arrowheads at the edge of a piece, showing directions it
// moves in that its body does not. The glyphs are always drawn upright;
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
	marksSergeant = markForwardLeft | markForward | markForwardRight
	marksFerz     = markForwardLeft | markForwardRight | markBackLeft | markBackRight
)

// art says how one kind of piece is drawn.
type art struct {
	body  body
	right body // a split piece: the right half is drawn from this body; zero = not split
	turn  int  // quarter turns clockwise (0..3)
	// double draws the body twice, overlapping: a piece fused from two of
	// the same kind.
	double bool
	badge  rune // a symbol in a disc in the top right corner; 0 = none
	marks  marks
	// legend describes the piece under the board, briefly: its parts in
	// piece letters ("R+N") or what it does; empty for the standard chess
	// pieces, which need no explanation.
	legend string
}

// Symbols used in tokens and badges.
const (
	symbolBomb          = '\U0001F4A3' // BOMB
	symbolRadioactive   = '☢'          // RADIOACTIVE SIGN
	symbolShield        = '\U0001F6E1' // SHIELD
	symbolCrossedSwords = '⚔'          // CROSSED SWORDS (DejaVu Sans)
	symbolPlus          = '+'
)

// split returns the art of a compound drawn as the left half of a and the
// right half of b.
func split(a, b body, legend string) art {
	return art{body: a, right: b, legend: legend}
}

// pieceRow is one row of the piece table.
type pieceRow struct {
	name string
	// betza, when set, restricts the row to a piece with this Betza
	// description: a piece that keeps a standard name but moves otherwise
	// (the Ferz "Queen" of Making Checkmate Trivially Easy, the Berolina
	// "Pawn" of Berolina Train Wreck). Such rows are matched first.
	betza string
	art   art
}

// pieceTable lists how every known piece is drawn, by rules.PieceDef.Name
// (and Betza, for the rows that give one). Names are matched ignoring
// case, spaces and hyphens.
//
// Conventions: a compound of two kinds is split, the Knight on the left
// (or mirrored, on the right) so that its head shows (the Tiger, which
// moves as a Bishop and captures as a Knight, is Bishop | Knight: the
// mirror image of the Cardinal, Knight | Bishop); the Knightrider is
// an upside-down Knight, as fairy-chess diagrams show the Nightrider, and
// the reflecting Archbishop an upside-down Bishop; the Chariot (Rook +
// Rook) is two overlapping Rooks (a Rook upside down looks like a Rook);
// the xiangqi-style Cannon is a Rook turned a quarter, as diagrams show
// the Pao; a compound with a pawn part is split with a Pawn, and a
// Berolina or Sergeant pawn part adds that pawn's marks.
func pieceTable() []pieceRow {
	var (
		king   = body{white: '♔', black: '♚'}
		queen  = body{white: '♕', black: '♛'}
		rook   = body{white: '♖', black: '♜'}
		bishop = body{white: '♗', black: '♝'}
		knight = body{white: '♘', black: '♞', facesLeft: true}
		pawn   = body{white: '♙', black: '♟'}
	)
	rows := []pieceRow{
		// Standard chess.
		{"King", "", art{body: king}},
		{"Queen", "", art{body: queen}},
		{"Rook", "", art{body: rook}},
		{"Bishop", "", art{body: bishop}},
		{"Knight", "", art{body: knight}},
		{"Pawn", "", art{body: pawn}},

		// Knight compounds (Grand Chess, Almost Chess, Cold Fusion).
		{"Marshal", "", split(knight, rook, "R+N")},
		{"Chancellor", "", split(knight, rook, "R+N")},
		{"Cardinal", "", split(knight, bishop, "B+N")},
		{"Amazon", "", split(knight, queen, "Q+N")},

		// Tank Chess.
		{"Bomb", "", art{body: body{symbol: symbolBomb}, legend: "steps 1, never captures; may explode (radius 1)"}},
		{"Atomic bomb", "", art{body: body{symbol: symbolRadioactive}, legend: "steps 1, never captures; may explode (radius 2)"}},
		{"Tank", "", art{body: body{shape: shapeTank}, legend: "steps 1, never captures; pushes the line it steps into"}},

		// Winning Chess and Making Checkmate Trivially Easy.
		{"Tiger", "", split(bishop, knight, "moves as B, captures as N")},
		{"Augmented Tiger", "", art{body: bishop, right: knight, badge: symbolPlus,
			legend: "moves as B, captures as N, also checks as B"}},
		{"Cannon", "", art{body: rook, turn: 1, legend: "moves as R, captures by jumping 1 piece"}},
		{"Attacker", "", art{body: knight, right: bishop, badge: symbolCrossedSwords, legend: "B or N step, may step twice"}},
		{"Defender", "", art{body: body{symbol: symbolShield}, legend: "K step, may swap with its King"}},
		{"Ferz-Queen", "", art{body: queen, marks: marksFerz, legend: "one step diagonally"}},
		{"Queen", "F", art{body: queen, marks: marksFerz, legend: "one step diagonally"}},

		// Cold Fusion compounds.
		{"Dragon King", "", split(king, rook, "K+R, royal")},
		{"Pope", "", split(king, bishop, "K+B, royal")},
		{"Eques Rex", "", split(king, knight, "K+N, royal")},
		{"Chariot", "", art{body: rook, double: true, legend: "R+R, turns"}},
		{"Archbishop", "", art{body: bishop, turn: 2, legend: "B+B, reflects"}},
		{"Knightrider", "", art{body: knight, turn: 2, legend: "N+N, rides"}},
		{"Nightrider", "", art{body: knight, turn: 2, legend: "rides on N leaps"}},
		{"Berolina pawn", "", art{body: pawn, marks: marksBerolina, legend: "P+P"}},
		// Berolina Train Wreck's pawn (RULES.md §1.8), without en passant.
		{"Pawn", "mfFcfWifmnA", art{body: pawn, marks: marksBerolina, legend: "Berolina, moves diagonally, captures straight"}},
		{"Sergeant", "", art{body: pawn, marks: marksSergeant, legend: "P+P+P"}},
	}
	for _, h := range []struct {
		name string
		b    body
		what string
	}{
		{"Guard", rook, "R"},
		{"Templar", bishop, "B"},
		{"Cavalry", knight, "N"},
	} {
		rows = append(rows,
			pieceRow{h.name, "", split(h.b, pawn, h.what+"+P")},
			pieceRow{"Berolina " + h.name, "", art{body: h.b, right: pawn, marks: marksBerolina, legend: h.what + "+P+P"}},
			pieceRow{h.name + " Sergeant", "", art{body: h.b, right: pawn, marks: marksSergeant, legend: h.what + "+P+P+P"}},
		)
	}
	return rows
}

// artTable is the piece table by normalised name, and by normalised name
// and Betza for the rows that give one.
type artTable map[artKey]art

type artKey struct{ name, betza string }

// newArtTable indexes pieceTable.
func newArtTable() artTable {
	t := artTable{}
	for _, r := range pieceTable() {
		t[artKey{normalizeName(r.name), r.betza}] = r.art
	}
	return t
}

// lookup returns the art of the piece d, or false.
func (t artTable) lookup(d rules.PieceDef) (art, bool) {
	n := normalizeName(d.Name)
	if a, ok := t[artKey{n, d.Betza}]; ok && d.Betza != "" {
		return a, true
	}
	a, ok := t[artKey{n, ""}]
	return a, ok
}

// normalizeName folds case and drops spaces, hyphens and underscores, so
// that "Berolina Pawn", "berolina-pawn" and "Berolina pawn" are one name.
func normalizeName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == ' ' || r == '-' || r == '_':
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
