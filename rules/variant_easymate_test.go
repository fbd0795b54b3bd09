package rules

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// Tests of Making Checkmate Trivially Easy (docs/variants/easymate.md). Positions
// are FEN with an optional seventh field, the variant state (see
// newEasymate). Hand-counted move numbers are explained in the comments
// next to them.

// emVariant returns easymate with options ("" = the defaults).
func emVariant(tb testing.TB, options string) *Variant {
	tb.Helper()
	return mustVariantWith(tb, "easymate", options)
}

// emPos parses fen as an easymate position with options.
func emPos(tb testing.TB, options, fen string) Position {
	tb.Helper()
	return mustFEN(tb, emVariant(tb, options), fen)
}

// emWantLegal checks that the legal moves of p are exactly want.
func emWantLegal(t *testing.T, p Position, want ...string) {
	t.Helper()
	slices.Sort(want)
	if got := legalTexts(&p); !slices.Equal(got, want) {
		t.Errorf("legal moves of %s:\n got %v\nwant %v", p.FEN(), got, want)
	}
}

// emHas reports whether text is a legal move of p.
func emHas(p Position, text string) bool { return slices.Contains(legalTexts(&p), text) }

// emWantFEN checks p's FEN.
func emWantFEN(t *testing.T, p Position, want string) {
	t.Helper()
	if got := p.FEN(); got != want {
		t.Errorf("FEN %q, want %q", got, want)
	}
}

// emKingMoves returns the legal moves of p that move the King (castling included).
func emKingMoves(p Position) []string {
	var out []string
	for _, m := range p.Legal(nil) {
		if p.At(m.From).Type() == p.v.Type('K') {
			out = append(out, FormatMove(&p, m))
		}
	}
	slices.Sort(out)
	return out
}

// TestEasymatePerftStart pins the counts from the start position. Depths
// 1-5 are Fairy-Stockfish's "go perft" for chess with the Queen as a Ferz
// ([easyq:chess] queen = -, fers = q, promotionPieceTypes = qrbn): no rule
// of the variant changes a move before ply 5, and at ply 5 the 54 King
// moves the freeze forbids happen to equal the 54 re-placing captures it
// adds (TestEasymatePly5). Queen castling and the penalty cannot arise
// before ply 7, so those options give the same counts. With Tigers, depth
// 3 has 12 moves fewer: a Tiger cannot capture as a Bishop on White's
// second move (Bxa6 and Bxb5 after e3 or e4, Bxg5 and Bxh6 after d3 or d4,
// and Bxa6 after ...Na6 or Bxh6 after ...Nh6, each after two White pawn
// moves), and nothing else differs at ply 3.
func TestEasymatePerftStart(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		options string
		want    []uint64
	}{
		{"", []uint64{20, 400, 8642, 186199, 4322832}},
		{"queencastle=both,penalty=on", []uint64{20, 400, 8642, 186199}},
		{"queencastle=black,penalty=white", []uint64{20, 400, 8642}},
		{"tigers=on", []uint64{20, 400, 8630}},
	} {
		t.Run(c.options, func(t *testing.T) {
			p := emVariant(t, c.options).Start()
			for i, want := range c.want {
				if testing.Short() && want > 1_000_000 {
					t.Skipf("depth %d skipped with -short", i+1)
				}
				checkPerft(t, &p, i+1, want)
			}
		})
	}
}

// TestEasymatePly5 pins what the variant's rules change at ply 5 from the
// start: in 163 positions after four plies a Queen of the player to act is
// attacked (by a Bishop on g4 or b4, or a Knight on d4, ...), and 54 King
// moves that chess with a Ferz-Queen allows are forbidden there (e1d1 in
// rn1qkbnr/ppp1pppp/3p4/8/4P1b1/8/PPPPQPPP/RNB1KBNR w, ...); and 54
// captures of the Queen have a re-placing twin (g5d8@b8 after d2d4 e7e6
// c1g5 b8c6, ...).
func TestEasymatePly5(t *testing.T) {
	if testing.Short() {
		t.Skip("walks 186,199 positions")
	}
	t.Parallel()
	v := emVariant(t, "")
	var frozen, forbidden, places int
	var walk func(p *Position, depth int)
	walk = func(p *Position, depth int) {
		moves := p.Legal(nil)
		if depth > 0 {
			for _, m := range moves {
				next, _ := p.After(m)
				walk(&next, depth-1)
			}
			return
		}
		for _, m := range moves {
			if m.Place() != NoSquare {
				places++
			}
		}
		if !emFrozen(p, p.ToAct()) {
			return
		}
		frozen++
		legal := map[Move]bool{}
		for _, m := range moves {
			legal[m] = true
		}
		for _, m := range p.pseudoLegal(nil) {
			if m.Kind != KindCastle && p.At(m.From).Type() != emKing || legal[m] {
				continue
			}
			var after Position
			p.playInto(m, &after)
			if k := after.royal[p.ToAct().index()]; !after.attacked(k, p.ToAct().Other()) {
				forbidden++ // safe by the check rule: the freeze forbids it
			}
		}
	}
	p := v.Start()
	walk(&p, 4)
	if frozen != 163 || forbidden != 54 || places != 54 {
		t.Errorf("ply 5: %d frozen positions, %d King moves forbidden, %d re-placing captures; want 163, 54, 54", frozen, forbidden, places)
	}
}

// emPerftCase is a hand-counted perft row.
type emPerftCase struct {
	name, options, fen string
	want               []uint64 // depth 1, 2, ...
}

// emHandPerft are positions where the variant's rules decide the count,
// each counted by hand (the comments give the count).
var emHandPerft = []emPerftCase{
	// Freeze (§2.6, REC 1, 4).
	// Rook a1 checks; Nb4 attacks the Queen on d3, so the King may not step
	// to d2, e2 or f2; the Queen's c2, e2, c4, e4 block nothing: mate, 0.
	{"frozen-king-checkmated", "", "4k3/8/8/8/1n6/3Q4/8/r3K3 w - - 0 1", []uint64{0}},
	// Rook a1 checks; Kd2, Ke2, Kf2 escape (d1, f1 stay on the rook's
	// rank); the Queen on d3 cannot block: 3.
	{"unfrozen-king-escapes", "", "4k3/8/8/8/8/3Q4/8/r3K3 w - - 0 1", []uint64{3}},
	// Nb3 attacks a1: no King move; the Queen's only square b2 is White's;
	// the pawn is blocked: stalemate, 0.
	{"frozen-king-stalemated", "", "4k3/8/8/8/8/1n6/1P6/Q3K3 w - - 0 1", []uint64{0}},
	// A pawn on b3 attacks a2 and c2, not a1: King d1 d2 e2 f1 f2: 5.
	{"queen-not-attacked", "", "4k3/8/8/8/8/1p6/1P6/Q3K3 w - - 0 1", []uint64{5}},
	// Rook a1 checks, Bf4 attacks the Queen on d2: only Qc1 (blocks): 1.
	// Then Black: King g8 g7 h7 (3); Bishop e3 d2 g3 h2 g5 h6 e5 d6 c7 b8
	// (10), Bxc1 (1) and Bxc1 re-placing on b1 d1 f1 g1 h1 (5); Rook a2-a8
	// (7), b1 (1), Rxc1 (1) and Rxc1 re-placing on a1 b1 d1 f1 g1 h1 (6):
	// 3 + 16 + 15 = 34.
	{"frozen-king-blocks", "", "7k/8/8/8/5b2/8/3Q4/r3K3 w - - 0 1", []uint64{1, 34}},
	// The Knight on b3 is pinned to its King by Rb1 and still freezes
	// White's King (REC 1): Queen c1 c3 e3 (3), Rook a1 c1 d1 b2 xb3 (5): 8.
	{"pinned-attacker-freezes", "", "1k6/8/8/8/8/1n6/3Q4/1R2K3 w - - 0 1", []uint64{8}},
	// Two Queens, only a7 attacked (REC 2): Qb8 Qb6, Qc1 Qc3 Qe3: 5.
	{"one-of-two-queens", "", "r3k3/Q7/8/8/8/8/3Q4/4K3 w - - 0 1", []uint64{5}},
	// Frozen, so no O-O: Queen c1 c3 e3 (3), Rook g1 f1 h2-h8 (9): 12.
	{"frozen-no-castling", "", "4k3/8/8/8/8/1n6/3Q4/4K2R w K - 0 1", []uint64{12}},
	// The same without the Knight: also Kd1 Ke2 Kf1 Kf2 and O-O: 17.
	{"unfrozen-castling", "", "4k3/8/8/8/8/8/3Q4/4K2R w K - 0 1", []uint64{17}},

	// Re-placement (§2.6, REC 3, 6).
	// King d1 d2 e2 f1 f2 (5); Bishop b5 a6 b3 a2 d3 e2 f1 (7) and Bxd5
	// (1); Bxd5 re-placing on b8 c8 d8 f8 g8 h8 (6): 19.
	{"replace-captured-queen", "", "r3k3/8/8/3q4/2B5/8/8/4K3 w - - 0 1", []uint64{19}},
	// Rook a7-a1 (7), Rxb8 (1), re-placing on a8 (emptied by the capture:
	// REC 6) c8 d8 f8 g8 h8 (6); King 5: 19.
	{"replace-on-emptied-square", "", "Rq2k3/8/8/8/8/8/8/4K3 w - - 0 1", []uint64{19}},
	// cxd8 with each of 4 promotions leaves no empty square on rank 8
	// (REC 3), cxb8 4, King 5: 13.
	{"no-square-to-replace", "", "rnbqkbnr/2P5/8/8/8/8/8/4K3 w - - 0 1", []uint64{13}},
	// c8 4, cxb8 4, cxd8 4 and cxd8 re-placing on c8 4, King 5: 21.
	{"promote-and-replace", "", "rn1qkbnr/2P5/8/8/8/8/8/4K3 w - - 0 1", []uint64{21}},
	// White in check from a8 along rank 8: Kg7, Kh7, and Bxd5 re-placing
	// the Queen on b8 c8 d8 e8 f8 g8, which blocks the check; the plain
	// Bxd5 leaves the King in check: 8.
	{"replacing-blocks-check", "", "r6K/8/8/3q4/2B5/8/8/k7 w - - 0 1", []uint64{8}},
	// King c8 d8 e8 c7 e7 d6 (c6, e6 are the Queen's) 6; Bishop 7 quiet and
	// Bxd5 1; re-placing on a8 b8 d8 f8 g8 h8, not c8 or e8, where the
	// Queen would attack the King: 6. Total 20.
	{"replacing-must-not-check", "", "8/3K4/8/3q4/2B5/8/8/k7 w - - 0 1", []uint64{20}},

	// Queen castling and queen en passant (§2.7).
	// Black: Rook a7-a1 b8 c8 (9), Queen c7 e7 (2), d8b8 (1), King d7 e7
	// f7 f8 (4): 16. White's replies: 15 after each of Ra7-Ra3, Rb8, Rc8,
	// Qe7 and the 4 King moves (Rook c2-c8 or c2-c7 and Rxc8, b1 a1 d1:
	// 10; King 5); 12 after Ra2 (the King only to d1, f1); 8 after Ra1
	// (the Rook, pinned, b1 xa1 d1; King 5); 20 after Qc7 (Rook c2-c6,
	// Rxc7 and Rxc7 re-placing on b8 c8 d8 f8 g8 h8, b1 a1 d1: 15; King
	// 5); 21 after d8b8 (see the next row): 5*15 + 12 + 8 + 15 + 15 + 20 +
	// 15 + 21 + 4*15 = 241.
	{"queen-castling-black", "queencastle=black", "r2qk3/8/8/8/8/8/8/2R1K3 b a - 0 1", []uint64{16, 241}},
	// After d8b8 (queen en passant pending on c8): Rook c2-c7 (6), Rxc8
	// taking the Queen too (1) and re-placing it on a8 b8 d8 f8 g8 h8 (6,
	// b8 emptied by the capture: REC 6), b1 a1 d1 (3); King 5: 21.
	{"queen-en-passant", "queencastle=black", "1qr1k3/8/8/8/8/8/8/2R1K3 w - - 1 2 qep=c8", []uint64{21}},
	// The same position without the pending right: Rxc8 takes the Rook
	// only: 6 + 1 + 3 + 5 = 15.
	{"no-queen-en-passant", "queencastle=black", "1qr1k3/8/8/8/8/8/8/2R1K3 w - - 1 2", []uint64{15}},

	// Penalty (§2.7).
	// Black owes a Queen promotion: a1=Q only, King 5: 6 (9 without the debt).
	{"owed-queen-promotion", "penalty=on", "4k3/8/8/8/8/8/p7/4K3 b - - 0 1 mustqueen=b", []uint64{6}},
	{"no-debt", "penalty=on", "4k3/8/8/8/8/8/p7/4K3 b - - 0 1", []uint64{9}},

	// Augmented Tigers (§2.7, REC 5, 7).
	// The Tiger on a5 checks along a5-e1: King d1 e2 f1 f2, not d2 on
	// the diagonal; Rxa5 (the Rook cannot block): 5. Then Black: after
	// Rxa5 the King's 5 moves; after each King move Tiger b6 c7 d8 b4
	// c3 d2 e1 (7, no capture) and King 5: 5 + 4*12 = 53.
	{"tiger-checks-as-bishop", "tigers=on", "4k3/8/8/t6R/8/8/8/4K3 w - - 0 1", []uint64{5, 53}},
	// The Knight on d2 is pinned by the Tiger's diagonal: King d1 e2 f1 f2: 4.
	{"tiger-pins", "tigers=on", "4k3/8/8/t7/8/8/3N4/4K3 w - - 0 1", []uint64{4}},
	// The Queen on the Tiger's diagonal is not en prise (REC 5): King 5;
	// Queen b4 d2 (staying on the diagonal; b2 and d4 would expose the
	// King): 7.
	{"tiger-diagonal-not-en-prise", "tigers=on", "4k3/8/8/t7/8/2Q5/8/4K3 w - - 0 1", []uint64{7}},
	// The Tiger on a4 attacks the Queen as a Knight: frozen (d1 is on
	// the Tiger's diagonal anyway); Queen b2 d2 b4 d4: 4.
	{"tiger-knight-attack-freezes", "tigers=on", "4k3/8/8/8/t7/2Q5/8/4K3 w - - 0 1", []uint64{4}},
	// f1 is on the Tiger's diagonal a6-f1: no O-O (REC 7); King d1 d2 f2
	// (e2, f1 on the diagonal) 3; Rook g1 f1 h2-h8 9: 12.
	{"tiger-diagonal-stops-castling", "tigers=on", "4k3/8/t7/8/8/8/8/4K2R w K - 0 1", []uint64{12}},
	// a8=Q, a8=R, a8=T, a8=N (no Bishop), King 5: 9.
	{"promote-to-tiger", "tigers=on", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", []uint64{9}},
}

// TestEasymateHandPerft runs the hand-counted rows, and checks every
// position of their trees against the reference (emRef).
func TestEasymateHandPerft(t *testing.T) {
	for _, c := range emHandPerft {
		t.Run(c.name, func(t *testing.T) {
			p := emPos(t, c.options, c.fen)
			for i, want := range c.want {
				checkPerft(t, &p, i+1, want)
			}
			ref := newEmRef(t, c.options)
			var walk func(p *Position, depth int)
			walk = func(p *Position, depth int) {
				ref.check(t, p)
				if depth == 0 {
					return
				}
				for _, m := range p.Legal(nil) {
					next, _ := p.After(m)
					walk(&next, depth-1)
				}
			}
			walk(&p, len(c.want))
		})
	}
}

// TestEasymateQueenIsFerz pins §2.6: the Queen moves and captures one
// square diagonally, nothing else; the Bishop is unchanged.
func TestEasymateQueenIsFerz(t *testing.T) {
	v := emVariant(t, "")
	for _, c := range []struct{ board, want string }{
		{`
			. . . . k . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . *Q . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . K . . .`, `
			. . . . k . . .
			. . . . . . . .
			. . . . . . . .
			. . x . x . . .
			. . . *Q . . . .
			. . x . x . . .
			. . . . . . . .
			. . . . K . . .`},
		{`
			. . . . k . . .
			. . . . . . . .
			. . . . . . . .
			. . p . P . . .
			. . . *Q p . . .
			. . . . . . . .
			. . . . . . . .
			. . . . K . . .`, `
			. . . . k . . .
			. . . . . . . .
			. . . . . . . .
			. . x . P . . .
			. . . *Q p . . .
			. . x . x . . .
			. . . . . . . .
			. . . . K . . .`},
		{`
			. . . . k . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . *B . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . K . . .`, `
			. . . . k . . x
			x . . . . . x .
			. x . . . x . .
			. . x . x . . .
			. . . *B . . . .
			. . x . x . . .
			. x . . . x . .
			x . . . K . x .`},
	} {
		fen, from := diagramFEN(t, v, c.board)
		p := mustFEN(t, v, fen)
		if got, want := renderDestinations(&p, from), parseDiagram(t, v, c.want).render(); got != want {
			t.Errorf("%s:\ngot:\n%swant:\n%s", fen, got, want)
		}
	}
	if start := v.Start(); start.FEN() != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" {
		t.Errorf("start %s", start.FEN())
	}
}

// TestEasymateReplacement pins the re-placement of a captured Queen (§2.6,
// REC 3, 6): optional, part of the capturing move, on an empty square of
// the owner's back rank, and its canonical text.
func TestEasymateReplacement(t *testing.T) {
	p := emPos(t, "", "r3k3/8/8/3q4/2B5/8/8/4K3 w - - 0 1")
	var texts []string
	for _, s := range legalTexts(&p) {
		if strings.HasPrefix(s, "c4d5") {
			texts = append(texts, s)
		}
	}
	want := []string{"c4d5", "c4d5@b8", "c4d5@c8", "c4d5@d8", "c4d5@f8", "c4d5@g8", "c4d5@h8"}
	if !slices.Equal(texts, want) {
		t.Errorf("captures of the Queen %v, want %v", texts, want)
	}
	plain := mustPlay(t, p, "c4d5")
	emWantFEN(t, plain, "r3k3/8/8/3B4/8/8/8/4K3 b - - 0 1")
	back := mustPlay(t, p, "c4d5@g8")
	emWantFEN(t, back, "r3k1q1/8/8/3B4/8/8/8/4K3 b - - 0 1")
	if back.Count(Black, emQueen) != 1 || back.HalfmoveClock() != 0 {
		t.Errorf("after c4d5@g8: %d black Queens, halfmove clock %d", back.Count(Black, emQueen), back.HalfmoveClock())
	}
	// The re-placed Queen is Black's and moves as a Ferz at once.
	if !emHas(back, "g8f7") || !emHas(back, "g8h7") {
		t.Errorf("the re-placed Queen cannot move: %v", legalTexts(&back))
	}
	// Parsing: any letter case; a square that is not empty, off the back
	// rank or not a square; '@' on a move that takes no Queen.
	for _, s := range []string{"C4D5@G8", "c4d5@G8"} {
		if m, err := ParseMove(&p, s); err != nil || FormatMove(&p, m) != "c4d5@g8" {
			t.Errorf("ParseMove(%q) = %v, %v", s, FormatMove(&p, m), err)
		}
	}
	for _, c := range []struct {
		text string
		kind error
		why  string
	}{
		{"c4d5@e8", ErrIllegalMove, "cannot put a piece on e8"},
		{"c4d5@d7", ErrIllegalMove, "cannot put a piece on d7"},
		{"e1e2@d8", ErrIllegalMove, "puts no piece anywhere (write e1e2)"},
		{"c4e6@d8", ErrIllegalMove, "cannot move to e6"},
		{"c4d5@z9", ErrBadMove, "after '@'"},
		{"c4d5@", ErrBadMove, "after '@'"},
	} {
		_, err := ParseMove(&p, c.text)
		if !errors.Is(err, c.kind) || !strings.Contains(fmt.Sprint(err), c.why) {
			t.Errorf("ParseMove(%q) = %v, want %v saying %q", c.text, err, c.kind, c.why)
		}
	}
	// A re-placed Queen has moved: it never castles (REC 3), even put on
	// d8 beside an unmoved Rook.
	q := emPos(t, "queencastle=black", "r3k3/8/8/8/8/8/2q5/2R1K3 w - - 0 1")
	q = mustPlay(t, q, "c1c2@d8")
	emWantFEN(t, q, "r2qk3/8/8/8/8/8/2R5/4K3 b - - 0 1")
	if emHas(q, "d8b8") {
		t.Errorf("the re-placed Queen castles: %v", legalTexts(&q))
	}
}

// TestEasymateFreeze pins the frozen King (§2.6, REC 1, 2, 4): it does not
// move while any of its side's Queens is attacked, not out of check, not
// by castling, whoever could capture the Queen and however it is defended.
func TestEasymateFreeze(t *testing.T) {
	for _, c := range []struct {
		name, fen string
		king      []string // the King's legal moves
	}{
		{"queen attacked by a pawn", "4k3/8/8/8/8/2p5/3Q4/4K3 w - - 0 1", nil},
		{"not even to take the attacker", "4k3/8/8/8/8/8/5n2/3QK3 w - - 0 1", nil},
		{"queen defended, still frozen (REC 1)", "4k3/8/8/8/8/2p5/3Q4/3RK3 w - - 0 1", nil},
		{"queen attacked by a bishop from afar", "4k3/8/8/7b/8/8/8/3QK3 w - - 0 1", nil},
		{"queen safe", "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1", []string{"e1d1", "e1e2", "e1f1", "e1f2"}},
		{"attacker blocked", "4k3/8/8/7b/6P1/8/8/3QK3 w - - 0 1", []string{"e1d2", "e1e2", "e1f1", "e1f2"}},
		{"pinned attacker (REC 1)", "1k6/8/8/8/8/1n6/3Q4/1R2K3 w - - 0 1", nil},
		{"one of two Queens (REC 2)", "r3k3/Q7/8/8/8/8/3Q4/4K3 w - - 0 1", nil},
		{"no castling", "4k3/8/8/8/8/1n6/3Q4/4K2R w K - 0 1", nil},
		{"castling when not frozen", "4k3/8/8/8/8/8/3Q4/4K2R w K - 0 1", []string{"e1d1", "e1e2", "e1f1", "e1f2", "e1g1"}},
		{"not out of check", "4k3/8/8/8/1n6/3Q4/8/r3K3 w - - 0 1", nil},
		{"Black frozen too", "4k3/3q4/8/1B6/8/8/8/4K3 b - - 0 1", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := emPos(t, "", c.fen)
			if got := emKingMoves(p); !slices.Equal(got, c.king) {
				t.Errorf("King moves %v, want %v", got, c.king)
			}
		})
	}
	// REC 4: frozen in check without another answer is checkmate; frozen
	// without moves and without check is stalemate.
	mate := emPos(t, "", "4k3/8/8/8/1n6/3Q4/8/r3K3 w - - 0 1")
	if o := mate.Outcome(); o != (Outcome{Result: BlackWins, Reason: "checkmate"}) {
		t.Errorf("frozen and in check: %+v, want checkmate", o)
	}
	stale := emPos(t, "", "4k3/8/8/8/8/1n6/1P6/Q3K3 w - - 0 1")
	if o := stale.Outcome(); o != (Outcome{Result: Draw, Reason: "stalemate"}) {
		t.Errorf("frozen without moves: %+v, want stalemate", o)
	}
	// A frozen King may answer check by another piece's move: the Queen
	// blocks on c1.
	block := emPos(t, "", "7k/8/8/8/5b2/8/3Q4/r3K3 w - - 0 1")
	emWantLegal(t, block, "d2c1")
	// Moving the Queen away, or capturing its attacker, thaws the King.
	g := emPos(t, "", "4k3/8/8/8/8/2p5/3Q4/4K3 w - - 0 1")
	g = mustPlay(t, g, "d2c3 e8d8")
	if got := emKingMoves(g); len(got) == 0 {
		t.Errorf("after Qxc3 the King is still frozen: %s", g.FEN())
	}
	// The illegal King move is explained.
	p := emPos(t, "", "4k3/8/8/8/8/2p5/3Q4/4K3 w - - 0 1")
	if _, err := ParseMove(&p, "e1f1"); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("Kf1 while frozen: %v", err)
	}
}

// TestEasymateQueenCastling pins queencastle=both and black (§2.7): the
// Queen castles toward either Rook ignoring attacks, and on the very next
// move taking the Rook on the crossed square takes the Queen too (queen en
// passant), which may be re-placed, also on the square it stood on.
func TestEasymateQueenCastling(t *testing.T) {
	// Rights: both sides with both, Black only with black, none without.
	for opts, want := range map[string]string{"": "KQkq", "queencastle=both": "KQkqHAha", "queencastle=black": "KQkqha"} {
		if start := emVariant(t, opts).Start(); start.CastlingRights() != want {
			t.Errorf("%q: start rights %s, want %s", opts, start.CastlingRights(), want)
		}
	}
	const empty = "r2qk2r/8/8/8/8/8/4K3/R2Q3R w HAha - 0 1"
	if p := emPos(t, "queencastle=both", empty); !emHas(p, "d1b1") || !emHas(p, "d1f1") {
		t.Errorf("White cannot castle its Queen: %v", legalTexts(&p))
	}
	if _, err := ParseFEN(emVariant(t, "queencastle=black"), empty); err == nil {
		t.Errorf("queencastle=black accepts White's Queen-castling rights")
	}
	p := emPos(t, "queencastle=black", "r2q3r/4k3/8/8/8/8/8/4K3 b ha - 0 1")
	if !emHas(p, "d8b8") || !emHas(p, "d8f8") {
		t.Errorf("Black cannot castle its Queen: %v", legalTexts(&p))
	}
	// The King side needs e8 empty too: here the King stands there.
	p = emPos(t, "queencastle=black", "r2qk2r/8/8/8/8/8/8/4K3 b ha - 0 1")
	if emHas(p, "d8f8") || !emHas(p, "d8b8") {
		t.Errorf("with the King on e8: %v", legalTexts(&p))
	}
	// Attacks are ignored: the Queen is attacked and crosses and lands on
	// attacked squares.
	p = emPos(t, "queencastle=both", "4k3/8/8/8/8/5b2/1n6/R2QK3 w A - 0 1")
	if !emHas(p, "d1b1") {
		t.Errorf("attacked squares stop the Queen's castling: %v", legalTexts(&p))
	}
	p = mustPlay(t, p, "d1b1")
	emWantFEN(t, p, "4k3/8/8/8/8/5b2/1n6/1QR1K3 b - - 1 1")
	// Queen castling does not freeze or move the King, and is a move of
	// a frozen side (the Queen on d1 is attacked by Bf3).
	p = emPos(t, "queencastle=both", "4k3/8/8/8/8/5b2/8/R2QK3 w A - 0 1")
	if got := emKingMoves(p); len(got) != 0 || !emHas(p, "d1b1") {
		t.Errorf("frozen side: King moves %v, d1b1 legal %v", got, emHas(p, "d1b1"))
	}

	// Queen en passant.
	p = emPos(t, "queencastle=black", "r2qk3/8/8/8/8/8/8/2R1K3 b a - 0 1")
	p = mustPlay(t, p, "d8b8")
	emWantFEN(t, p, "1qr1k3/8/8/8/8/8/8/2R1K3 w - - 1 2 qep=c8")
	take := mustPlay(t, p, "c1c8")
	emWantFEN(t, take, "2R1k3/8/8/8/8/8/8/4K3 b - - 0 2")
	if o := take.Outcome(); o.Over() {
		t.Errorf("after the queen en passant: %+v", o)
	}
	again := mustPlay(t, p, "c1c8@b8") // back on the square it was taken on (REC 6)
	emWantFEN(t, again, "1qR1k3/8/8/8/8/8/8/4K3 b - - 0 2")
	// Only on the immediately following move.
	later := mustPlay(t, p, "e1f1 e8f8")
	if emHas(later, "c1c8@b8") || later.Count(Black, emQueen) != 1 {
		t.Fatalf("queen en passant a move late: %v", legalTexts(&later))
	}
	later = mustPlay(t, later, "c1c8")
	emWantFEN(t, later, "1qR2k2/8/8/8/8/8/8/5K2 b - - 0 3")
	// No pending right when nobody attacks the Rook, and none in the FEN.
	p = emPos(t, "queencastle=black", "r2qk3/8/8/8/8/8/8/3RK3 b a - 0 1")
	p = mustPlay(t, p, "d8b8")
	emWantFEN(t, p, "1qr1k3/8/8/8/8/8/8/3RK3 w - - 1 2")
	// White's Queen castles toward h1 (e1, f1 and g1 empty): the Rook hops
	// to e1, which the Bishop on b4 may take; the Queen on f1 goes with it.
	p = emPos(t, "queencastle=both", "4k3/8/8/8/1b6/8/8/3Q1K1R w H - 0 1")
	if emHas(p, "d1f1") {
		t.Errorf("d1f1 with f1 occupied")
	}
	p = emPos(t, "queencastle=both", "4k3/8/8/8/1b6/8/6K1/3Q3R w H - 0 1")
	p = mustPlay(t, p, "d1f1")
	emWantFEN(t, p, "4k3/8/8/8/1b6/8/6K1/4RQ2 b - - 1 1 qep=e1")
	p = mustPlay(t, p, "b4e1@d1")
	emWantFEN(t, p, "4k3/8/8/8/8/8/6K1/3Qb3 w - - 0 2")
}

// TestEasymatePenalty pins penalty=on, castled and white (§2.7): when a
// captured Queen is not re-placed, its owner's next promotion must be to a
// Queen; the sub-options limit that to a side that had castled, and to
// White.
func TestEasymatePenalty(t *testing.T) {
	// on: any loss without re-placement; re-placing spares the debt.
	const lose = "3qk3/8/8/6B1/8/8/p7/4K3 w - - 0 1"
	p := mustPlay(t, emPos(t, "penalty=on", lose), "g5d8")
	emWantFEN(t, p, "3Bk3/8/8/8/8/8/p7/4K3 b - - 0 1 mustqueen=b")
	emWantLegal(t, p, "a2a1q", "e8d7", "e8d8", "e8f7", "e8f8")
	p = mustPlay(t, p, "a2a1q")
	emWantFEN(t, p, "3Bk3/8/8/8/8/8/8/q3K3 w - - 0 2")
	p = mustPlay(t, emPos(t, "penalty=on", lose), "g5d8@c8")
	emWantFEN(t, p, "2qBk3/8/8/8/8/8/p7/4K3 b - - 0 1")
	if !emHas(p, "a2a1n") {
		t.Errorf("a debt after a re-placement: %v", legalTexts(&p))
	}
	// With no empty square the Queen stays captured and the debt follows.
	p = mustPlay(t, emPos(t, "penalty=on", "rnbqkbnr/2P5/8/8/8/8/p7/4K3 w - - 0 1"), "c7d8r")
	emWantFEN(t, p, "rnbRkbnr/8/8/8/8/8/p7/4K3 b - - 0 1 mustqueen=b")
	// off: no debt.
	p = mustPlay(t, emPos(t, "", lose), "g5d8")
	if !emHas(p, "a2a1n") || strings.Count(p.FEN(), " ") != 5 {
		t.Errorf("penalty=off: %s %v", p.FEN(), legalTexts(&p))
	}
	// castled: only a side that had castled owes; castling (King or
	// Queen) is recorded.
	const castles = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"
	p = mustPlay(t, emPos(t, "penalty=castled", castles), "e8g8")
	emWantFEN(t, p, "r4rk1/8/8/8/8/8/8/R3K2R w KQ - 1 2 castled=b")
	p = mustPlay(t, emPos(t, "penalty=castled", "3qk3/8/8/8/8/8/8/3RK3 w - - 0 1 castled=b"), "d1d8")
	emWantFEN(t, p, "3Rk3/8/8/8/8/8/8/4K3 b - - 0 1 castled=b,mustqueen=b")
	p = mustPlay(t, emPos(t, "penalty=castled", "3qk3/8/8/8/8/8/8/3RK3 w - - 0 1 castled=w"), "d1d8")
	emWantFEN(t, p, "3Rk3/8/8/8/8/8/8/4K3 b - - 0 1 castled=w")
	p = mustPlay(t, emPos(t, "penalty=castled,queencastle=black", "r2qk3/8/8/8/8/8/8/2R1K3 b a - 0 1"), "d8b8 c1c8")
	emWantFEN(t, p, "2R1k3/8/8/8/8/8/8/4K3 b - - 0 2 castled=b,mustqueen=b")
	// white: only White's castling is recorded, and only White owes.
	p = mustPlay(t, emPos(t, "penalty=white", castles), "e8g8")
	emWantFEN(t, p, "r4rk1/8/8/8/8/8/8/R3K2R w KQ - 1 2")
	p = mustPlay(t, p, "e1c1")
	emWantFEN(t, p, "r4rk1/8/8/8/8/8/8/2KR3R b - - 2 2 castled=w")
	const whiteLoses = "4k3/P7/8/8/8/8/4p3/3Q3K b - - 0 1"
	p = mustPlay(t, emPos(t, "penalty=white", whiteLoses+" castled=w"), "e2d1n")
	emWantFEN(t, p, "4k3/P7/8/8/8/8/8/3n3K w - - 0 2 castled=w,mustqueen=w")
	emWantLegal(t, p, "a7a8q", "h1g1", "h1g2", "h1h2")
	p = mustPlay(t, emPos(t, "penalty=white", whiteLoses), "e2d1n")
	emWantFEN(t, p, "4k3/P7/8/8/8/8/8/3n3K w - - 0 2")
	p = mustPlay(t, emPos(t, "penalty=white", "3qk3/8/8/8/8/8/8/3RK3 w - - 0 1"), "d1d8")
	emWantFEN(t, p, "3Rk3/8/8/8/8/8/8/4K3 b - - 0 1")
}

// TestEasymateTigers pins tigers=on (§2.7, REC 5, 7): the Augmented Tiger
// moves as a Bishop without capturing, captures as a Knight, checks as
// either, pins along its diagonals, stops castling across them, is a
// promotion choice; only its knight pattern puts a piece en prise.
func TestEasymateTigers(t *testing.T) {
	v := emVariant(t, "tigers=on")
	if start := v.Start(); start.FEN() != "rntqktnr/pppppppp/8/8/8/8/PPPPPPPP/RNTQKTNR w KQkq - 0 1" {
		t.Errorf("start %s", start.FEN())
	}
	board, want := `
		. . . . k . . .
		. . . . . . . .
		. . p . n . . .
		. p . p . . . .
		. . . *T . . . .
		. . . . . . . .
		. . . . . . . .
		. . . . K . . .`, `
		. . . . k . . x
		x . . . . . x .
		. x x . x x . .
		. x x p x . . .
		. . . *T . . . .
		. . x . x . . .
		. x . . . x . .
		x . . . K . x .`
	fen, from := diagramFEN(t, v, board)
	p := mustFEN(t, v, fen)
	if got, w := renderDestinations(&p, from), parseDiagram(t, v, want).render(); got != w {
		t.Errorf("Tiger on d4 in %s:\ngot:\n%swant:\n%s", fen, got, w)
	}
	// Check as a Bishop: in check, answered by a King move, a block or a
	// capture of the Tiger (by a Knight-pattern capture of our Tiger too).
	p = emPos(t, "tigers=on", "4k3/8/8/t7/8/8/8/4K3 w - - 0 1")
	if !p.InCheck() {
		t.Errorf("the Tiger's diagonal gives no check")
	}
	emWantLegal(t, p, "e1d1", "e1e2", "e1f1", "e1f2")
	// A Knight blocks on c3 or d2; a3 blocks nothing.
	p = emPos(t, "tigers=on", "4k3/8/8/t7/8/8/8/1N2K3 w - - 0 1")
	emWantLegal(t, p, "b1c3", "b1d2", "e1d1", "e1e2", "e1f1", "e1f2")
	// White's own Tiger takes the checking Tiger as a Knight.
	p = emPos(t, "tigers=on", "4k3/8/8/t7/8/1T6/8/4K3 w - - 0 1")
	emWantLegal(t, p, "b3a5", "e1d1", "e1e2", "e1f1", "e1f2")
	// An adjacent Tiger checks and the King may take it.
	p = emPos(t, "tigers=on", "4k3/8/8/8/8/8/3t4/4K3 w - - 0 1")
	if !p.InCheck() || !emHas(p, "e1d2") {
		t.Errorf("an adjacent Tiger: in check %v, moves %v", p.InCheck(), legalTexts(&p))
	}
	// Checkmate by a diagonal check: Te4 checks a8 along e4-a8, Kb6 covers
	// a7 and b7, Nd7 covers b8.
	p = emPos(t, "tigers=on", "k7/3N4/1K6/8/4T3/8/8/8 b - - 0 1")
	if o := p.Outcome(); o != (Outcome{Result: WhiteWins, Reason: "checkmate"}) {
		t.Errorf("diagonal mate: %+v", o)
	}
	// REC 5: a Queen on an open Tiger diagonal (d5-c4-b3-a2) is not en prise.
	p = emPos(t, "tigers=on", "4k3/8/8/3t4/8/8/Q7/4K3 w - - 0 1")
	if got := emKingMoves(p); len(got) == 0 {
		t.Errorf("a Queen on a Tiger's diagonal freezes the King")
	}
	p = emPos(t, "tigers=on", "4k3/8/8/8/8/1t6/8/Q3K3 w - - 0 1") // b3 attacks a1 as a Knight
	if got := emKingMoves(p); len(got) != 0 {
		t.Errorf("a Queen attacked by a Tiger's knight pattern does not freeze: %v", got)
	}
	// REC 7: castling across a Tiger's diagonal.
	for _, c := range []struct {
		fen  string
		move string
		ok   bool
	}{
		{"4k3/8/t7/8/8/8/8/4K2R w K - 0 1", "e1g1", false},  // f1 on a6-f1
		{"4k3/8/8/8/8/8/8/t3K2R w K - 0 1", "e1g1", true},   // a1-h8 misses rank 1
		{"4k3/8/8/8/t7/8/8/R3K3 w Q - 0 1", "e1c1", false},  // d1 on a4-d1
		{"4k3/8/8/8/8/8/5t2/R3K3 w Q - 0 1", "e1c1", false}, // e1 in check from f2
		{"4k3/8/8/8/8/8/8/R3K1t1 w Q - 0 1", "e1c1", true},  // no diagonal of g1 reaches c1-e1
		{"4k3/8/8/7t/8/8/8/R3K3 w Q - 0 1", "e1c1", false},  // d1 on h5-d1
		{"4k3/8/8/8/8/t7/8/R3K3 w Q - 0 1", "e1c1", false},  // c1 on a3-c1
		{"4k3/8/8/8/8/t7/1P6/R3K3 w Q - 0 1", "e1c1", true}, // a3-c1 blocked on b2
	} {
		p := emPos(t, "tigers=on", c.fen)
		if got := emHas(p, c.move); got != c.ok {
			t.Errorf("%s: %s legal %v, want %v (%v)", c.fen, c.move, got, c.ok, legalTexts(&p))
		}
	}
	// Promotion offers the Tiger, not a Bishop.
	p = emPos(t, "tigers=on", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
	emWantLegal(t, p, "a7a8q", "a7a8r", "a7a8t", "a7a8n", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2")
	// Without the option there is no Tiger.
	if _, err := ParseFEN(emVariant(t, ""), "4k3/8/8/t7/8/8/8/4K3 w - - 0 1"); err == nil {
		t.Errorf("a Tiger without tigers=on")
	}
}

// TestEasymateStateFEN pins the seventh FEN field: written only when the
// state is not empty, read back exactly, items the options do not have
// refused, and a contradicted queen en passant dropped.
func TestEasymateStateFEN(t *testing.T) {
	for _, c := range []struct{ options, fen, want string }{
		{"penalty=castled", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 castled=wb,mustqueen=wb", ""},
		{"penalty=castled", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 mustqueen=b,castled=w", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 castled=w,mustqueen=b"},
		{"penalty=castled", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"penalty=white", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 castled=w,mustqueen=w", ""},
		{"penalty=on", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 mustqueen=wb", ""},
		{"queencastle=black", "1qr1k3/8/8/8/8/8/8/2R1K3 w - - 1 2 qep=c8", ""},
		{"queencastle=black,penalty=castled", "1qr1k3/8/8/8/8/8/8/2R1K3 w - - 1 2 castled=b,qep=c8", ""},
		// Dropped: nobody attacks the Rook; the Queen is not beside it.
		{"queencastle=black", "1qr1k3/8/8/8/8/8/8/3RK3 w - - 1 2 qep=c8", "1qr1k3/8/8/8/8/8/8/3RK3 w - - 1 2"},
		{"queencastle=black", "q1r1k3/8/8/8/8/8/8/2R1K3 w - - 1 2 qep=c8", "q1r1k3/8/8/8/8/8/8/2R1K3 w - - 1 2"},
	} {
		want := c.want
		if want == "" {
			want = c.fen
		}
		v := emVariant(t, c.options)
		p := mustFEN(t, v, c.fen)
		emWantFEN(t, p, want)
		q := mustFEN(t, v, p.FEN())
		if q.FEN() != p.FEN() || q.Hash() != p.Hash() {
			t.Errorf("%s: round trip %s", c.fen, q.FEN())
		}
	}
	// The state is part of the position: a debt or a pending queen en
	// passant changes the hash.
	v := emVariant(t, "penalty=on")
	a, b := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"), mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 mustqueen=w")
	if a.Hash() == b.Hash() {
		t.Errorf("a debt does not change the hash")
	}
	for _, c := range []struct{ options, field string }{
		{"", "castled=w"},
		{"penalty=on", "castled=w"},
		{"penalty=white", "castled=b"},
		{"", "mustqueen=w"},
		{"penalty=white", "mustqueen=b"},
		{"penalty=on", "mustqueen=x"},
		{"penalty=on", "mustqueen=w,mustqueen=b"},
		{"penalty=on", "debt=w"},
		{"penalty=on", "mustqueen"},
		{"", "qep=c8"},
		{"queencastle=black", "qep=c1"},
		{"queencastle=black", "qep=d8"},
		{"queencastle=both", "qep=z9"},
	} {
		fen := "1qr1k3/8/8/8/8/8/8/2R1K3 w - - 1 2 " + c.field
		if _, err := ParseFEN(emVariant(t, c.options), fen); !errors.Is(err, ErrBadFEN) {
			t.Errorf("%q: ParseFEN(%q) = %v, want ErrBadFEN", c.options, fen, err)
		}
	}
}

// TestEasymateOptions pins the options: all off by default, each value
// allowed, others refused, and every combination builds.
func TestEasymateOptions(t *testing.T) {
	r, err := sharedRegistry()
	if err != nil {
		t.Fatal(err)
	}
	d := r.Default("easymate")
	if d == nil || d.Name != "Making Checkmate Trivially Easy" {
		t.Fatalf("easymate is not registered: %v", d)
	}
	got := map[string][]string{}
	for _, o := range d.Options {
		got[o.Key] = o.Values
		if o.Doc == "" {
			t.Errorf("option %s has no doc", o.Key)
		}
	}
	want := map[string][]string{"queencastle": {"off", "both", "black"}, "penalty": {"off", "on", "castled", "white"}, "tigers": {"off", "on"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("options %v, want %v", got, want)
	}
	for _, qc := range want["queencastle"] {
		for _, pe := range want["penalty"] {
			for _, ti := range want["tigers"] {
				if _, err := r.Variant("easymate", fmt.Sprintf("queencastle=%s,penalty=%s,tigers=%s", qc, pe, ti)); err != nil {
					t.Error(err)
				}
			}
		}
	}
	for _, bad := range []string{"queencastle=white", "penalty=black", "tigers=yes", "queens=2"} {
		if _, err := r.Variant("easymate", bad); err == nil {
			t.Errorf("option %s accepted", bad)
		}
		k, val, _ := strings.Cut(bad, "=")
		if _, err := newEasymate(map[string]string{k: val}); err == nil && k != "queens" {
			t.Errorf("newEasymate accepts %s", bad)
		}
	}
}

// TestEasymateDraws pins the draws of standard chess, with dead material
// judged as in chess: a Ferz-Queen or a Tiger can still mate.
func TestEasymateDraws(t *testing.T) {
	for _, c := range []struct {
		options, fen string
		dead         bool
	}{
		{"", "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},
		{"", "4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},
		{"", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false},
		{"tigers=on", "4k3/8/8/8/8/8/8/4KT2 w - - 0 1", false},
		{"tigers=on", "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},
	} {
		v := emVariant(t, c.options)
		p := mustFEN(t, v, c.fen)
		if got := v.InsufficientMaterial(&p); got != c.dead {
			t.Errorf("%q %s: dead %v, want %v", c.options, c.fen, got, c.dead)
		}
	}
	// K+T against K: a mate exists (Tiger c7 checks a8 as a Knight and
	// covers b8 as a Bishop).
	p := emPos(t, "tigers=on", "k7/2T5/1K6/8/8/8/8/8 b - - 0 1")
	if o := p.Outcome(); o.Reason != "checkmate" {
		t.Errorf("K+T mate: %+v", o)
	}
}

// emRef is an independent statement of the variant's rules for one
// option combination, for comparison with the hooks: the data's moves of
// the pieces and castling (the shared generator, checked by perft) are
// played by hand, the re-placements added, and legality judged by
// listing every capture the opponent could make; the state is read from
// and compared as FEN text.
type emRef struct {
	v           *Variant
	queenCastle string
	penalty     string
	tigers      bool
}

// emRefState is the variant state as the FEN writes it.
type emRefState struct {
	castled, owes [3]bool // by Color
	qep           Square
}

func newEmRef(tb testing.TB, options string) *emRef {
	tb.Helper()
	opts, err := parseOptions(emVariant(tb, "").Options, options)
	if err != nil {
		tb.Fatal(err)
	}
	return &emRef{v: emVariant(tb, options), queenCastle: opts["queencastle"], penalty: opts["penalty"], tigers: opts["tigers"] == "on"}
}

// state reads the seventh field of p's FEN.
func (r *emRef) state(tb testing.TB, p *Position) emRefState {
	var s emRefState
	f := strings.Fields(p.FEN())
	if len(f) < 7 {
		return s
	}
	for _, item := range strings.Split(f[6], ",") {
		k, val, _ := strings.Cut(item, "=")
		switch k {
		case "castled", "mustqueen":
			dst := &s.castled
			if k == "mustqueen" {
				dst = &s.owes
			}
			dst[White] = strings.Contains(val, "w")
			dst[Black] = strings.Contains(val, "b")
		case "qep":
			q, err := ParseSquare(val)
			if err != nil {
				tb.Fatalf("state %q", f[6])
			}
			s.qep = q
		default:
			tb.Fatalf("state %q", f[6])
		}
	}
	return s
}

// captures returns the squares of c's opponent's pieces that a piece of c
// could capture in p, whoever is to act.
func (r *emRef) captures(p *Position, c Color) map[Square]bool {
	q := *p
	q.toAct, q.mover, q.ep = c, c, NoSquare
	out := map[Square]bool{}
	for _, s := range r.v.Squares() {
		if q.At(s).Color() != c {
			continue
		}
		for _, m := range q.pieceMoves(nil, s, c) {
			if q.At(m.To).Color() == c.Other() {
				out[m.To] = true
			}
		}
	}
	return out
}

// tigerSees reports whether a Tiger of c sees s along an open diagonal.
func (r *emRef) tigerSees(p *Position, s Square, c Color) bool {
	if !r.tigers {
		return false
	}
	for _, d := range [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		for f, rk := s.File()+d[0], s.Rank()+d[1]; f >= 0 && f < 8 && rk >= 0 && rk < 8; f, rk = f+d[0], rk+d[1] {
			pc := p.At(NewSquare(f, rk))
			if pc == NoPiece {
				continue
			}
			if pc == NewPiece(c, r.v.Type('T')) {
				return true
			}
			break
		}
	}
	return false
}

// kingOf returns c's King square.
func (r *emRef) kingOf(p *Position, c Color) Square {
	for _, s := range r.v.Squares() {
		if p.At(s) == NewPiece(c, r.v.Type('K')) {
			return s
		}
	}
	return NoSquare
}

// emRefMove is a legal move of the reference, with the board and state
// after it.
type emRefMove struct {
	board string // the first FEN field
	state emRefState
}

// legal lists p's legal moves by canonical text.
func (r *emRef) legal(tb testing.TB, p *Position) map[string]emRefMove {
	v := r.v
	us, them := p.ToAct(), p.ToAct().Other()
	st := r.state(tb, p)
	queen, rook, king := v.Type('Q'), v.Type('R'), v.Type('K')
	frozen := false
	caps := r.captures(p, them)
	for s := range caps {
		if p.At(s) == NewPiece(us, queen) {
			frozen = true
		}
	}
	backRank := 0
	if them == Black {
		backRank = 7
	}
	out := map[string]emRefMove{}
	for _, m := range p.pseudoLegal(nil) {
		if m.Place() != NoSquare {
			continue // the hooks' re-placing moves, listed again below
		}
		text := FormatMove(p, m)
		a := *p
		taken := false
		var rule *CastlingRule
		switch m.Kind {
		case KindNormal:
			victim := a.At(m.To)
			if victim != NoPiece {
				a.remove(m.To)
			}
			pc := a.remove(m.From)
			if m.Promotion != NoPieceType {
				pc = NewPiece(us, m.Promotion)
			}
			a.put(m.To, pc)
			taken = victim == NewPiece(them, queen)
			if st.qep != NoSquare && m.To == st.qep && victim == NewPiece(them, rook) {
				qs := NewSquare(map[int]int{2: 1, 4: 5}[m.To.File()], m.To.Rank())
				if a.At(qs) == NewPiece(them, queen) {
					a.remove(qs)
					taken = true
				}
			}
		case KindEnPassant:
			a.remove(NewSquare(m.To.File(), m.From.Rank()))
			a.put(m.To, a.remove(m.From))
		case KindCastle:
			for i := range v.Castling {
				c := &v.Castling[i]
				if c.Color == us && c.PieceFrom == m.From.String() && c.PieceTo == m.To.String() {
					rule = c
				}
			}
			rf, _ := ParseSquare(rule.RookFrom)
			rt, _ := ParseSquare(rule.RookTo)
			pc, rk := a.remove(m.From), a.remove(rf)
			a.put(m.To, pc)
			a.put(rt, rk)
		default:
			tb.Fatalf("unexpected move %s", text)
		}
		type variant struct {
			text   string
			a      Position
			placed bool
		}
		variants := []variant{{text, a, false}}
		if taken {
			for f := 0; f < 8; f++ {
				if s := NewSquare(f, backRank); a.At(s) == NoPiece {
					b := a
					b.put(s, NewPiece(them, queen))
					variants = append(variants, variant{text + "@" + s.String(), b, true})
				}
			}
		}
		kingMove := m.Kind == KindNormal && p.At(m.From).Type() == king || rule != nil && rule.Piece == 'K'
		if kingMove && frozen {
			continue
		}
		if rule != nil && rule.Piece == 'K' && r.tigers {
			blocked := false
			for f := min(m.From.File(), m.To.File()); f <= max(m.From.File(), m.To.File()); f++ {
				blocked = blocked || r.tigerSees(p, NewSquare(f, m.From.Rank()), them)
			}
			if blocked {
				continue
			}
		}
		if st.owes[us] && m.Promotion != NoPieceType && m.Promotion != queen {
			continue
		}
		for _, vr := range variants {
			k := r.kingOf(&vr.a, us)
			if r.captures(&vr.a, them)[k] || r.tigerSees(&vr.a, k, them) {
				continue
			}
			ns := emRefState{castled: st.castled, owes: st.owes}
			if m.Promotion != NoPieceType {
				ns.owes[us] = false
			}
			if taken && !vr.placed {
				switch r.penalty {
				case "on":
					ns.owes[them] = true
				case "castled":
					ns.owes[them] = ns.owes[them] || st.castled[them]
				case "white":
					ns.owes[them] = ns.owes[them] || them == White && st.castled[them]
				}
			}
			if rule != nil {
				if r.penalty == "castled" || r.penalty == "white" && us == White {
					ns.castled[us] = true
				}
				if rule.Piece == 'Q' {
					rt, _ := ParseSquare(rule.RookTo)
					// The pending right is kept only while a piece of the
					// opponent could take the Rook (with the opponent to act,
					// the King stands on its own square).
					if r.captures(&vr.a, them)[rt] {
						ns.qep = rt
					}
				}
			}
			out[vr.text] = emRefMove{board: strings.Fields(vr.a.FEN())[0], state: ns}
		}
	}
	return out
}

// check compares p's legal moves, and the board and state after each,
// with the reference.
func (r *emRef) check(tb testing.TB, p *Position) {
	tb.Helper()
	if p.Outcome().Over() && len(p.Legal(nil)) > 0 {
		return // a draw by rule: the reference knows moves only
	}
	want := r.legal(tb, p)
	got := map[string]bool{}
	for _, m := range p.Legal(nil) {
		text := FormatMove(p, m)
		got[text] = true
		w, ok := want[text]
		if !ok {
			tb.Fatalf("%s: %s is legal; the reference forbids it (reference: %v)", p.FEN(), text, sortedKeys(boolKeys(want)))
		}
		after, _ := p.After(m)
		if board := strings.Fields(after.FEN())[0]; board != w.board {
			tb.Fatalf("%s: after %s the board is %s, the reference has %s", p.FEN(), text, board, w.board)
		}
		if st := r.state(tb, &after); st != w.state {
			tb.Fatalf("%s: after %s the state is %+v (%s), the reference has %+v", p.FEN(), text, st, after.FEN(), w.state)
		}
	}
	for text := range want {
		if !got[text] {
			tb.Fatalf("%s: %s is not legal; the reference allows it (legal: %v)", p.FEN(), text, legalTexts(p))
		}
	}
}

func boolKeys(m map[string]emRefMove) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// emPlayoutCombos are the option combinations of TestEasymatePlayouts:
// the defaults, every option on, and the other values of queencastle and
// penalty (penalty=on, the simplest, is left to the unit tests and the
// hand-counted positions).
var emPlayoutCombos = []string{
	"",
	"queencastle=both,penalty=castled,tigers=on",
	"queencastle=black,penalty=white",
}

// TestEasymatePlayouts plays seeded random games (math/rand/v2 PCG) of
// each option combination above, up to 300 plies, and checks after every
// move: the FEN round trip (same FEN, same hash) and one King per side;
// at the end and every 4th ply the outcome (over exactly when there is no
// legal move or a draw applies; checkmate only in check); and at the end that replaying the canonical
// texts from the start gives the same final FEN. Every 50th game (10th
// with -short) compares every position with the reference (emRef). The events the rules are
// about (re-placements, frozen Kings, Queen castling and queen en passant,
// debts, Tiger checks) are counted and must all occur.
func TestEasymatePlayouts(t *testing.T) {
	games, refEvery := 1000, 50
	if testing.Short() {
		games, refEvery = 100, 10
	}
	for ci, opts := range emPlayoutCombos {
		t.Run("options="+opts, func(t *testing.T) {
			t.Parallel()
			v := emVariant(t, opts)
			ref := newEmRef(t, opts)
			start := time.Now()
			events := map[string]int{}
			for g := 0; g < games; g++ {
				rng := rand.New(rand.NewPCG(uint64(ci+1), uint64(g)))
				emPlayout(t, v, rng, g%refEvery == 0, ref, events, fmt.Sprintf("%q game %d", opts, g))
				if t.Failed() {
					return
				}
			}
			t.Logf("%d games in %v: %v", games, time.Since(start).Round(time.Millisecond), events)
			need := []string{"re-placement", "plain Queen capture", "frozen", "checkmate"}
			if strings.Contains(opts, "queencastle") {
				need = append(need, "Queen castling", "queen en passant")
			}
			if strings.Contains(opts, "penalty") {
				need = append(need, "debt")
			}
			if strings.Contains(opts, "tigers") {
				need = append(need, "Tiger check")
			}
			for _, e := range need {
				if events[e] == 0 && !testing.Short() {
					t.Errorf("no %s in %d games", e, games)
				}
			}
		})
	}
}

// emPlayout plays one random game and checks its invariants.
func emPlayout(t *testing.T, v *Variant, rng *rand.Rand, withRef bool, ref *emRef, events map[string]int, name string) {
	t.Helper()
	p := v.Start()
	var texts []string
	seen := map[uint64]int{p.Hash(): 1}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s, ply %d, %s: %s\nmoves: %s", name, len(texts), p.FEN(), fmt.Sprintf(format, args...), strings.Join(texts, " "))
	}
	for len(texts) < playoutMaxPlies {
		moves := p.Legal(nil)
		rule := p.HalfmoveClock() >= v.DrawAutoPlies || v.InsufficientMaterial(&p)
		var o Outcome // asked at the end, and every 4th ply on the way (it lists the moves again)
		if len(moves) == 0 || rule || len(texts)%4 == 0 {
			o = p.Outcome()
			switch {
			case len(moves) == 0 && o.Reason == "checkmate":
				if !p.InCheck() || o.Result != WinFor(p.ToAct().Other()) {
					fail("checkmate %+v without check", o)
				}
			case len(moves) == 0:
				if p.InCheck() || o != (Outcome{Result: Draw, Reason: "stalemate"}) {
					fail("no moves: %+v, in check %v", o, p.InCheck())
				}
			case o.Over() != rule || o.Over() && o.Result != Draw:
				fail("outcome %+v with %d moves (draw by rule: %v)", o, len(moves), rule)
			}
		}
		if withRef {
			ref.check(t, &p)
		}
		if o.Over() {
			events[string(o.Reason)]++
			break
		}
		if seen[p.Hash()] >= v.RepetitionAuto {
			events["repetition"]++
			break
		}
		if emFrozen(&p, p.ToAct()) {
			events["frozen"]++
		}
		if p.InCheck() && !p.attacked(p.royal[p.ToAct().index()], p.ToAct().Other()) {
			events["Tiger check"]++
		}
		// Queen castlings and queen en passant captures are rare in random
		// play: half the time, one of them is chosen when there is one.
		m := moves[rng.IntN(len(moves))]
		var rare []Move
		for _, o := range moves {
			if o.Kind == KindCastle && p.At(o.From).Type() == emQueen || o.To == emStateOf(&p).qep && o.Kind == KindNormal {
				rare = append(rare, o)
			}
		}
		if len(rare) > 0 && rng.IntN(2) == 0 {
			m = rare[rng.IntN(len(rare))]
		}
		text := FormatMove(&p, m)
		switch {
		case m.Place() != NoSquare:
			events["re-placement"]++
		case m.Kind == KindCastle && p.At(m.From).Type() == emQueen:
			events["Queen castling"]++
		}
		if m.Kind == KindNormal && m.Place() == NoSquare && p.At(m.To).Type() == emQueen {
			events["plain Queen capture"]++
		}
		if q := emStateOf(&p).qep; q != NoSquare && m.To == q {
			events["queen en passant"]++
		}
		next, ok := p.After(m)
		if !ok {
			fail("After(%s) refused", text)
		}
		if was, is := emStateOf(&p).owes, emStateOf(&next).owes; is[0] && !was[0] || is[1] && !was[1] {
			events["debt"]++
		}
		texts = append(texts, text)
		p = next
		seen[p.Hash()]++
		q, err := ParseFEN(v, p.FEN())
		switch {
		case err != nil:
			fail("ParseFEN: %v", err)
		case q.FEN() != p.FEN() || q.Hash() != p.Hash():
			fail("FEN round trip gives %s", q.FEN())
		}
		for _, c := range []Color{White, Black} {
			if p.Count(c, emKing) != 1 {
				fail("%s has %d Kings", c, p.Count(c, emKing))
			}
		}
	}
	r := v.Start()
	for i, s := range texts {
		m, err := ParseMove(&r, s)
		if err != nil {
			fail("replay of ply %d %q: %v", i+1, s, err)
		}
		r, _ = r.After(m)
	}
	if r.FEN() != p.FEN() || r.Hash() != p.Hash() {
		fail("replay ends in %s", r.FEN())
	}
}

// TestEasymateReplacingSquaresAreEmptyAfterCapture pins how the extra
// moves choose the squares a captured Queen may be put back on (REC 6)
// without playing the capture: for every capture of a Queen the hook
// offers (a queen en passant included), the squares offered are exactly
// the squares of the Queen owner's back rank that are empty once the
// plain capture is played. Positions: seeded random games with each
// option, and a queen en passant.
func TestEasymateReplacingSquaresAreEmptyAfterCapture(t *testing.T) {
	captures, qep := 0, 0
	check := func(p Position) {
		t.Helper()
		offered := map[Move][]Square{} // plain capture -> squares offered
		for _, m := range p.v.Hooks.ExtraMoves(&p, nil) {
			plain := m
			plain.Extra = 0
			offered[plain] = append(offered[plain], m.Place())
		}
		for plain, got := range offered {
			qs, ok := easymate{}.queenTaken(&p, plain)
			if !ok {
				t.Fatalf("%s: %s offered with a re-placement but takes no Queen", p.FEN(), FormatMove(&p, plain))
			}
			captures++
			if qs != plain.To {
				qep++
			}
			after, ok := p.After(plain)
			if !ok {
				t.Fatalf("%s: After(%s) refused", p.FEN(), FormatMove(&p, plain))
			}
			var want []Square
			for f := 0; f < p.v.Files; f++ {
				if s := NewSquare(f, emBackRank(p.v, p.mover.Other())); after.At(s) == NoPiece {
					want = append(want, s)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s re-places on %v, want %v (empty after it: %s)", p.FEN(), FormatMove(&p, plain), got, want, after.FEN())
			}
		}
	}
	for i, opts := range []string{"", "queencastle=both", "queencastle=black,penalty=on", "tigers=on"} {
		v := mustVariantWith(t, "easymate", opts)
		for game := 0; game < 20; game++ {
			rng := rand.New(rand.NewPCG(uint64(i), uint64(game)))
			p := v.Start()
			for ply := 0; ply < 120; ply++ {
				check(p)
				moves := p.Legal(nil)
				if len(moves) == 0 {
					break
				}
				p, _ = p.After(moves[rng.IntN(len(moves))])
			}
		}
	}
	check(mustPlay(t, mustFEN(t, mustVariantWith(t, "easymate", "queencastle=both"), "4k3/8/8/8/5b2/8/8/R2QK3 w KQkqHA - 0 1"), "d1b1"))
	if captures < 50 || qep == 0 {
		t.Fatalf("%d Queen captures, %d of them queen en passant: the positions miss the case", captures, qep)
	}
	t.Logf("%d Queen captures checked, %d queen en passant", captures, qep)
}
