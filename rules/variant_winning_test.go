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

// Tests of Winning Chess (docs/variants/winning.md). Each test names
// the rule or the decision (W1-W14) it pins. Positions are drawn as
// diagrams (rank 8 first, files a-l) or written as FEN; the seventh FEN
// field is the variant's state "R/A/X" (see variant_winning.go).

// wcVariant returns Winning Chess with options ("" = the defaults).
func wcVariant(tb testing.TB, options string) *Variant {
	tb.Helper()
	return mustVariantWith(tb, "winning", options)
}

// wcFEN parses a position of the default Winning Chess and checks that
// its FEN and hash round-trip.
func wcFEN(tb testing.TB, fen string) Position {
	tb.Helper()
	v := wcVariant(tb, "")
	p := mustFEN(tb, v, fen)
	q := mustFEN(tb, v, p.FEN())
	if q.FEN() != p.FEN() || q.Hash() != p.Hash() {
		tb.Fatalf("FEN round trip of %q: %q", p.FEN(), q.FEN())
	}
	return p
}

// wcDiagram builds a position of the default Winning Chess from a diagram
// (12 cells per rank, '.' for an empty square) and the FEN fields after
// the board ("w - - 0 1", ...).
func wcDiagram(tb testing.TB, diagram, fields string) Position {
	tb.Helper()
	v := wcVariant(tb, "")
	g := parseDiagram(tb, v, diagram)
	return wcFEN(tb, g.placement(v)+" "+fields)
}

// wcWantLegal fails unless the sorted legal move texts of p are want.
func wcWantLegal(t *testing.T, p Position, want ...string) {
	t.Helper()
	want = slices.Clone(want)
	slices.Sort(want)
	if got := legalTexts(&p); !slices.Equal(got, want) {
		t.Fatalf("legal moves of %s:\n got %v\nwant %v", p.FEN(), got, want)
	}
}

// wcHas reports whether text is a legal move of p.
func wcHas(p Position, text string) bool { return slices.Contains(legalTexts(&p), text) }

// wcWantFEN fails unless p's FEN is want.
func wcWantFEN(t *testing.T, p Position, want string) {
	t.Helper()
	if got := p.FEN(); got != want {
		t.Fatalf("FEN %q, want %q", got, want)
	}
}

// wcRefused fails unless the move text is refused in p as illegal.
func wcRefused(t *testing.T, p Position, text string) {
	t.Helper()
	if m, err := ParseMove(&p, text); err == nil {
		t.Fatalf("%s is legal in %s (%+v)", text, p.FEN(), m)
	} else if !errors.Is(err, ErrIllegalMove) {
		t.Fatalf("%s in %s: %v, want an illegal-move error", text, p.FEN(), err)
	}
}

// TestWinningSetup_W1_W2_W8 pins §2.1 with W1, W2 and W8: 12 files, the
// number of ranks an option (8 by default, 10 or 12), the back rank R T C
// N A Q K D N C T R with pawns in front, Black mirrored on the same files
// (Queen f, King g), both pre-moves available at the start (no state
// field), and the hand-counted first moves: 24 pawn moves, 4 Knight
// moves, the two Cannons taking the c7 and j7 pawns over their own pawns,
// the Attacker's two Knight leaps in plain and continuing form, and the
// Defender's swap with the King, plain and as a pre-move.
func TestWinningSetup_W1_W2_W8(t *testing.T) {
	for _, c := range []struct {
		options string
		ranks   int
		fen     string
	}{
		{"", 8, "rtcnaqkdnctr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RTCNAQKDNCTR w KQkq - 0 1"},
		{"ranks=8", 8, "rtcnaqkdnctr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RTCNAQKDNCTR w KQkq - 0 1"},
		{"ranks=10", 10, "rtcnaqkdnctr/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/RTCNAQKDNCTR w KQkq - 0 1"},
		{"ranks=12", 12, "rtcnaqkdnctr/pppppppppppp/12/12/12/12/12/12/12/12/PPPPPPPPPPPP/RTCNAQKDNCTR w KQkq - 0 1"},
	} {
		v := wcVariant(t, c.options)
		p := v.Start()
		if v.Files != 12 || v.Ranks != c.ranks || v.StartFEN != c.fen || p.FEN() != c.fen {
			t.Errorf("ranks %q: %dx%d, start %q, want 12x%d %q", c.options, v.Files, v.Ranks, p.FEN(), c.ranks, c.fen)
		}
		if winStateOf(&p) != (winState{}) || !winPreMoveAvailable(&p) {
			t.Errorf("ranks %q: the start has state %+v, want both pre-moves available (W8)", c.options, winStateOf(&p))
		}
		last := c.ranks
		for f, l := range "RTCNAQKDNCTR" {
			w, b := p.At(NewSquare(f, 0)), p.At(NewSquare(f, last-1))
			if w != NewPiece(White, v.Type(byte(l))) || b != NewPiece(Black, v.Type(byte(l))) {
				t.Errorf("ranks %q, file %c: %v and %v, want a White and a Black %c (W2)", c.options, 'a'+f, w, b, l)
			}
		}
	}
	v := wcVariant(t, "")
	for l, want := range map[byte]PieceType{'P': winPawn, 'N': winKnight, 'T': winTiger, 'C': winCannon, 'R': winRook,
		'Q': winQueen, 'A': winAttacker, 'D': winDefender, 'K': winKing} {
		if got := v.Type(l); got != want {
			t.Errorf("piece %c has type %d, the hooks use %d", l, got, want)
		}
	}
	r, err := sharedRegistry()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Variant("winning", "ranks=9"); err == nil || !strings.Contains(err.Error(), "allowed values are 8, 10, 12") {
		t.Errorf("ranks=9: %v, want a refusal naming the allowed values", err)
	}
	if _, err := newWinning(map[string]string{"ranks": "7"}); !errors.Is(err, ErrInvalidVariant) {
		t.Errorf("newWinning(ranks=7): %v, want ErrInvalidVariant", err)
	}
	p := wcVariant(t, "").Start()
	wcWantLegal(t, p,
		"a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "f2f3", "f2f4",
		"g2g3", "g2g4", "h2h3", "h2h4", "i2i3", "i2i4", "j2j3", "j2j4", "k2k3", "k2k4", "l2l3", "l2l4",
		"d1c3", "d1e3", "i1h3", "i1j3", "c1c7", "j1j7",
		"e1d3", "e1f3", "e1d3>", "e1f3>", "h1g1", "h1g1>")
}

// TestWinningPreviousPage_W9 pins W9: the "previous page" game is out of
// scope; the only option is the board height.
func TestWinningPreviousPage_W9(t *testing.T) {
	v := wcVariant(t, "")
	if len(v.Options) != 1 || v.Options[0].Key != "ranks" || !slices.Equal(v.Options[0].Values, []string{"8", "10", "12"}) {
		t.Errorf("options %+v, want only ranks=8|10|12", v.Options)
	}
}

// wcCheckDiagram compares the destinations of the marked piece of board
// with want (as checkDiagram does for the registered variants).
func wcCheckDiagram(t *testing.T, board, want string) {
	t.Helper()
	v := wcVariant(t, "")
	fen, from := diagramFEN(t, v, board)
	p := mustFEN(t, v, fen)
	exp := parseDiagram(t, v, want)
	if exp.marked != from {
		t.Fatalf("the expected diagram marks %s, the board %s", exp.marked, from)
	}
	if got, w := renderDestinations(&p, from), exp.render(); got != w {
		t.Errorf("destinations of %c on %s in %s:\ngot:\n%swant:\n%s", p.letter(p.At(from)), from, fen, got, w)
	}
}

// TestWinningPieceDiagrams pins the pieces of §2.2: the Tiger slides as a
// Bishop without capturing and captures only by a Knight leap; the
// Cannon slides as a Rook without capturing and captures by jumping
// exactly one piece of either colour (never onto a piece without a
// screen, never jumping without capturing); the Attacker steps as a
// Bishop or a Knight, capturing or not; the Defender steps as a King,
// capturing like a King, and may move onto its adjacent King's square
// (the swap).
func TestWinningPieceDiagrams(t *testing.T) {
	for _, c := range []struct{ name, board, want string }{
		{"tiger", `
			. . . . . . . . . . . k
			. . . . . . . . . . . .
			. . . . . . . . . . . .
			. . P . . p n . . . . .
			. . . .*T . . . . . . .
			. . . . . . . . . . . .
			. . . . . . . . . . . .
			K . . . . . . . . . . .`, `
			x . . . . . . . . . . k
			. x . . . . . . . . . .
			. . x . . . . . . . . .
			. . P x . p x . . . . .
			. . . .*T . . . . . . .
			. . . x . x . . . . . .
			. . x . . . x . . . . .
			K x . . . . . x . . . .`},
		{"cannon", `
			. . . . . . . . . . . k
			. . . . p . . . . . . .
			. . . . . . . . . . . .
			. . . . P . . . . . . .
			. . n .*C . . . P . p .
			. . . . . . . . . . . .
			. . . . . . . . . . . .
			K . . . . . . . . . . .`, `
			. . . . . . . . . . . k
			. . . . x . . . . . . .
			. . . . . . . . . . . .
			. . . . P . . . . . . .
			. . n x*C x x x P . x .
			. . . . x . . . . . . .
			. . . . x . . . . . . .
			K . . . x . . . . . . .`},
		{"attacker", `
			. . . . . . . . . . . k
			. . . . . . . . . . . .
			. . . . . . p . . . . .
			. . . . . . . . . . . .
			. . . .*A . . . . . . .
			. . . . . . . . . . . .
			. . . . . P . . . . . .
			K . . . . . . . . . . .`, `
			x . . . . . . . . . . k
			. x . . . . . . . . . .
			. . x x . x x . . . . .
			. . x x . x x . . . . .
			. . . .*A . . . . . . .
			. . x x . x x . . . . .
			. . x x . P x . . . . .
			K x . . . . . x . . . .`},
		{"defender with the swap", `
			. . . . . . . . . . . k
			. . . . . . . . . . . .
			. . . . . . . . . . . .
			. . . . . . . . . . . .
			. . . . . . . . . . . .
			. . . . . . . . . . . .
			. . . . . . . n P . . .
			. . . . . . K*D . . . .`, `
			. . . . . . . . . . . k
			. . . . . . . . . . . .
			. . . . . . . . . . . .
			. . . . . . . . . . . .
			. . . . . . . . . . . .
			. . . . . . . . . . . .
			. . . . . . x x P . . .
			. . . . . . x*D x . . .`},
	} {
		t.Run(c.name, func(t *testing.T) { wcCheckDiagram(t, c.board, c.want) })
	}
}

// TestWinningCheck pins the check of §2.4: an enemy piece that could take
// the King with one ordinary move. A Tiger gives check only by the
// Knight pattern, a Cannon only over a screen, an Attacker by one Bishop
// or Knight step; a King the Attacker could reach in two steps is not in
// check.
func TestWinningCheck(t *testing.T) {
	for _, c := range []struct {
		name, fen string
		check     bool
	}{
		{"tiger on the king's diagonal", "12/12/5k6/12/12/2T9/12/K11 b - - 0 1", false},
		{"tiger a knight's leap away", "12/12/5k6/3T8/12/12/12/K11 b - - 0 1", true},
		{"cannon without a screen", "12/12/5k6/12/12/12/12/K4C6 b - - 0 1", false},
		{"cannon with a screen", "12/12/5k6/12/12/5P6/12/K4C6 b - - 0 1", true},
		{"cannon with two screens", "12/12/5k6/5P6/12/5P6/12/K4C6 b - - 0 1", false},
		{"attacker a bishop step away", "12/12/5k6/12/3A8/12/12/K11 b - - 0 1", true},
		{"attacker a knight leap away", "12/12/5k6/12/4A7/12/12/K11 b - - 0 1", true},
		{"attacker two steps away", "12/12/5k6/12/12/12/12/K1A9 b - - 0 1", false},
		{"defender next to the king", "12/12/5k6/5D6/12/12/12/K11 b - - 0 1", true},
	} {
		p := wcFEN(t, c.fen)
		if got := p.InCheck(); got != c.check {
			t.Errorf("%s: InCheck = %v, want %v (%s)", c.name, got, c.check, c.fen)
		}
	}
}

// TestWinningCastling pins castling (§2.3): the King moves two squares
// and the Rook hops over it to the square next to it (g1-i1 with l1-h1,
// g1-e1 with a1-f1, mirrored for Black), both unmoved, every square
// between them empty, and (REC) not out of, through or into check.
func TestWinningCastling(t *testing.T) {
	const board = `
		r . . . . . k . . . . r
		. . . . . . . . . . . .
		. . . . . . . . . . . .
		. . . . . . . . . . . .
		. . . . . . . . . . . .
		. . . . . . . . . . . .
		. . . . . . . . . . . .
		R . . . . . K . . . . R`
	p := wcDiagram(t, board, "w KQkq - 0 1")
	if !wcHas(p, "g1i1") || !wcHas(p, "g1e1") {
		t.Fatalf("White cannot castle: %v", legalTexts(&p))
	}
	q := mustPlay(t, p, "g1i1")
	wcWantFEN(t, q, "r5k4r/12/12/12/12/12/12/R6RK3 b kq - 1 1")
	q = mustPlay(t, q, "g8e8")
	wcWantFEN(t, q, "4kr5r/12/12/12/12/12/12/R6RK3 w - - 2 2")
	q = mustPlay(t, p, "g1e1")
	wcWantFEN(t, q, "r5k4r/12/12/12/12/12/12/4KR5R b kq - 1 1")
	q = mustPlay(t, q, "g8i8")
	wcWantFEN(t, q, "r6rk3/12/12/12/12/12/12/4KR5R w - - 2 2")
	for _, c := range []struct {
		name, fen string
		legal     []string // castling moves that remain
	}{
		{"in check", "r5k4r/12/12/12/12/6r5/12/R5K4R w KQ - 0 1", nil},
		{"through an attacked square (h1)", "r5k4r/12/12/12/12/7r4/12/R5K4R w KQ - 0 1", []string{"g1e1"}},
		{"onto an attacked square (e1)", "r5k4r/12/12/12/12/4r7/12/R5K4R w KQ - 0 1", []string{"g1i1"}},
		{"a piece between king and rook (k1)", "r5k4r/12/12/12/12/12/12/R5K3NR w KQ - 0 1", []string{"g1e1"}},
		{"a piece between king and rook (b1)", "r5k4r/12/12/12/12/12/12/RN4K4R w KQ - 0 1", []string{"g1i1"}},
		{"only the rights held", "r5k4r/12/12/12/12/12/12/R5K4R w K - 0 1", []string{"g1i1"}},
		{"attacked rook square (a1) does not matter", "r5k4r/r11/12/12/12/12/12/R5K4R w KQ - 0 1", []string{"g1e1", "g1i1"}},
	} {
		p := wcFEN(t, c.fen)
		var got []string
		for _, m := range p.Legal(nil) {
			if m.Kind == KindCastle {
				got = append(got, FormatMove(&p, m))
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.legal) {
			t.Errorf("%s: castling %v, want %v (%s)", c.name, got, c.legal, c.fen)
		}
	}
	// Moving the King or a Rook ends the rights.
	wcWantFEN(t, mustPlay(t, p, "l1k1"), "r5k4r/12/12/12/12/12/12/R5K3R1 b Qkq - 1 1")
	wcWantFEN(t, mustPlay(t, p, "g1g2"), "r5k4r/12/12/12/12/12/6K5/R10R b kq - 1 1")
	// On 12x10 Black castles on the 10th rank.
	v := wcVariant(t, "ranks=10")
	p = mustFEN(t, v, "r5k4r/12/12/12/12/12/12/12/12/R5K4R b KQkq - 0 1")
	wcWantFEN(t, mustPlay(t, p, "g10i10"), "r6rk3/12/12/12/12/12/12/12/12/R5K4R w KQ - 1 2")
}

// TestWinningPromotion pins §2.3 (pawns): a pawn on the last rank becomes
// a Queen, Rook, Knight, Tiger, Cannon, Attacker or Defender, never a
// Bishop (the game has none) or a King; on 12x10 the last rank is the 10th.
func TestWinningPromotion(t *testing.T) {
	p := wcFEN(t, "11k/4P7/12/12/12/12/12/K11 w - - 0 1")
	wcWantLegal(t, p, "a1a2", "a1b1", "a1b2",
		"e7e8q", "e7e8r", "e7e8n", "e7e8t", "e7e8c", "e7e8a", "e7e8d")
	wcWantFEN(t, mustPlay(t, p, "e7e8a"), "4A6k/12/12/12/12/12/12/K11 b - - 0 1")
	wcRefused(t, p, "e7e8b")
	wcRefused(t, p, "e7e8k")
	v := wcVariant(t, "ranks=10")
	p = mustFEN(t, v, "11k/12/4P7/12/12/12/12/12/12/K11 w - - 0 1")
	if wcHas(p, "e8e9q") || !wcHas(p, "e8e9") {
		t.Errorf("a pawn on the 8th rank of 12x10 promotes: %v", legalTexts(&p))
	}
	p = mustPlay(t, p, "e8e9 l10k10 e9e10d")
	if got := p.At(NewSquare(4, 9)); got != NewPiece(White, winDefender) {
		t.Errorf("e10 holds %v, want a White Defender", got)
	}
}

// wcTurnBoard is the position of the turn-structure tests: White Kg1,
// Dh1, Ae1; Black Kg8, Dh8, Ae8 and a pawn on h4 that White's Attacker
// can take.
const wcTurnBoard = `
	. . . . a . k d . . . .
	. . . . . . . . . . . .
	. . . . . . . . . . . .
	. . . . . . . . . . . .
	. . . . . . . p . . . .
	. . . . . . . . . . . .
	. . . . . . . . . . . .
	. . . . A . K D . . . .`

// TestWinningAttackerDoubleMove_W3 pins §2.3 step 3 and W3: a quiet
// Attacker step has a plain form, which ends the turn, and a continuing
// form ('>'), which opens the opponent's Defender window and then gives
// the mover the second step with the same Attacker; a capturing step has
// only the plain form. After a Bishop step the second step may be a
// Bishop or a Knight step, after a Knight leap only a Bishop step; it
// may capture, and it is optional ("pass").
func TestWinningAttackerDoubleMove_W3(t *testing.T) {
	p := wcDiagram(t, wcTurnBoard, "w - - 0 1")
	var quiet []string
	for _, s := range []string{"d2", "c3", "b4", "a5", "f2", "g3", "c2", "d3", "f3", "g2"} {
		quiet = append(quiet, "e1"+s, "e1"+s+">")
	}
	wcWantLegal(t, p, append(quiet,
		"e1h4", // the capture: no '>' form
		"g1f1", "g1f2", "g1g2", "g1h2",
		"h1g2", "h1h2", "h1i2", "h1i1", "h1g1",
		"h1g2>", "h1h2>", "h1i2>", "h1i1>", "h1g1>")...)
	wcRefused(t, p, "e1h4>")
	wcRefused(t, p, "g1f1>")

	// The plain form ends the turn.
	wcWantFEN(t, mustPlay(t, p, "e1g3"), "4a1kd4/12/12/12/7p4/6A5/12/6KD4 b - - 1 1")

	// The continuing form: Black's window, then White's second step.
	w := mustPlay(t, p, "e1g3>")
	wcWantFEN(t, w, "4a1kd4/12/12/12/7p4/6A5/12/6KD4 b2 - - 0 1 -/g3b/-")
	wcWantLegal(t, w, "h8g7", "h8h7", "h8i7", "h8i8", "h8g8", "pass")
	s := mustPlay(t, w, "pass")
	wcWantFEN(t, s, "4a1kd4/12/12/12/7p4/6A5/12/6KD4 w3 - - 0 1 -/g3b/-")
	wcWantLegal(t, s, "pass", "g3h4",
		"g3f4", "g3e5", "g3d6", "g3c7", "g3b8", "g3h2", "g3i1", "g3f2", "g3e1",
		"g3e2", "g3e4", "g3f1", "g3f5", "g3h5", "g3i2", "g3i4")
	wcWantFEN(t, mustPlay(t, s, "g3h4"), "4a1kd4/12/12/12/7A4/12/12/6KD4 b - - 0 1")
	wcWantFEN(t, mustPlay(t, s, "g3i4"), "4a1kd4/12/12/12/7pA3/12/12/6KD4 b - - 1 1")
	wcWantFEN(t, mustPlay(t, s, "pass"), "4a1kd4/12/12/12/7p4/6A5/12/6KD4 b - - 1 1")

	// After a Knight leap the second step is a Bishop step.
	s = mustPlay(t, p, "e1d3> pass")
	wcWantLegal(t, s, "pass",
		"d3e4", "d3f5", "d3g6", "d3h7", "d3i8", "d3c4", "d3b5", "d3a6", "d3e2", "d3f1", "d3c2", "d3b1")
}

// TestWinningPreMove_W10 pins §2.3 step 1 and W10: while the pre-move is
// available, every Defender move (step or swap) also has a continuing
// form ('>'), the pre-move, after which the same player makes the regular
// move, which may be the Defender again; the plain form is the regular
// move and ends the turn. A player who answered in the opponent's window
// has no pre-move in their next turn (only the plain forms), and has it
// again after that turn; a pre-move does not use up the right to answer
// in the opponent's next window.
func TestWinningPreMove_W10(t *testing.T) {
	p := wcDiagram(t, wcTurnBoard, "w - - 0 1")
	wcWantFEN(t, mustPlay(t, p, "h1i1"), "4a1kd4/12/12/12/7p4/12/12/4A1K1D3 b - - 1 1")
	q := mustPlay(t, p, "h1i1>")
	wcWantFEN(t, q, "4a1kd4/12/12/12/7p4/12/12/4A1K1D3 w1 - - 0 1")
	for _, text := range []string{"i1j1", "i1h1", "e1g3", "e1g3>", "g1h1"} {
		if !wcHas(q, text) {
			t.Errorf("after the pre-move %s is not legal: %v", text, legalTexts(&q))
		}
	}
	for _, text := range []string{"i1j1>", "i1h1>", "pass"} {
		wcRefused(t, q, text)
	}
	q = mustPlay(t, q, "i1j1")
	wcWantFEN(t, q, "4a1kd4/12/12/12/7p4/12/12/4A1K2D2 b - - 1 1")

	// The pre-move kept White's right to answer: Black's Attacker steps
	// with '>' and White's Defender answers.
	q = mustPlay(t, q, "e8d6>")
	if !wcHas(q, "j1k1") || !wcHas(q, "pass") {
		t.Fatalf("White cannot answer: %v", legalTexts(&q))
	}
	q = mustPlay(t, q, "j1k1")
	wcWantFEN(t, q, "6kd4/12/3a8/12/7p4/12/12/4A1K3D1 b3 - - 1 1 w/d6n/-")
	q = mustPlay(t, q, "pass")
	wcWantFEN(t, q, "6kd4/12/3a8/12/7p4/12/12/4A1K3D1 w - - 2 2 w/-/-")
	// White answered, so White has no pre-move in this turn.
	if winPreMoveAvailable(&q) || wcHas(q, "k1l1>") || !wcHas(q, "k1l1") {
		t.Fatalf("White has a pre-move after answering: %v", legalTexts(&q))
	}
	if got, want := q.PhaseName(), "White to move (no Defender pre-move: White answered in the last turn; an Attacker step marked > may be followed by a second step)"; got != want {
		t.Errorf("PhaseName %q, want %q", got, want)
	}
	q = mustPlay(t, q, "k1l1")
	wcWantFEN(t, q, "6kd4/12/3a8/12/7p4/12/12/4A1K4D b - - 3 2")
	q = mustPlay(t, q, "h8h7")
	if !winPreMoveAvailable(&q) || !wcHas(q, "l1k1>") {
		t.Fatalf("White has no pre-move a turn later: %v", legalTexts(&q))
	}
}

// TestWinningSeveralPieces_W7 pins W7: with two Defenders each may make
// the pre-move, but only one pre-move per turn, and the other may then
// make the regular move; either may answer in a window, once; with two
// Attackers either may make a continuing first step, and the second step
// is the same Attacker's.
func TestWinningSeveralPieces_W7(t *testing.T) {
	p := wcDiagram(t, `
		. . . . . . k d . . . .
		. . . . . d . . . . . .
		. . . . . . . . . . . .
		. . . . . . . . . . . .
		. . A . . . . . . . . .
		. . . . . . . . . . . .
		. . . . . D . . . . . .
		. . . . A . K D . . . .`, "w - - 0 1")
	for _, text := range []string{"h1i1>", "f2f3>", "e1d3>", "c4b5>"} {
		if !wcHas(p, text) {
			t.Errorf("%s is not legal: %v", text, legalTexts(&p))
		}
	}
	q := mustPlay(t, p, "f2f3>")
	wcRefused(t, q, "h1i1>")
	wcRefused(t, q, "f3f4>")
	if !wcHas(q, "h1i1") || !wcHas(q, "f3f4") {
		t.Errorf("no regular Defender move after the pre-move: %v", legalTexts(&q))
	}
	w := mustPlay(t, p, "e1d3>")
	if !wcHas(w, "f7e6") || !wcHas(w, "h8i8") {
		t.Errorf("a Defender cannot answer: %v", legalTexts(&w))
	}
	s := mustPlay(t, w, "f7e6")
	if s.ToAct() != White || s.Phase() != winPhaseSecond {
		t.Fatalf("after the answer %s acts in phase %d, want White's second step", s.ToAct(), s.Phase())
	}
	wcRefused(t, s, "c4b5")
	wcRefused(t, s, "h8i8")
	if !wcHas(s, "d3e4") {
		t.Errorf("no second step of the same Attacker: %v", legalTexts(&s))
	}
}

// TestWinningResponse_W4 pins W4: an answer must not expose the
// responder's King to an enemy piece other than the pending Attacker;
// leaving the King to the pending Attacker is allowed (a futile answer),
// and so is taking the Attacker; a swap must not put the King on a
// square another piece attacks.
func TestWinningResponse_W4(t *testing.T) {
	// The Attacker on j6 attacks k8 by a Knight's leap; the Rook on a7
	// guards the 7th rank, so the swap j7k8 is illegal.
	p := wcFEN(t, "10k1/R8d2/9A2/12/12/12/12/K11 b2 - - 0 1 -/j6b/-")
	wcWantLegal(t, p, "j7i6", "j7i7", "j7i8", "j7j6", "j7j8", "j7k6", "j7k7", "pass")
	// The Defender on j8 shields k8 from the Rook on e8: only j8i8 keeps
	// the shield; j8j7 would block the Attacker but expose the King to the
	// Rook; the swap puts the King on the Rook's line.
	p = wcFEN(t, "4R4dk1/12/12/7A4/12/12/12/K11 b2 - - 0 1 -/h5b/-")
	wcWantLegal(t, p, "j8i8", "pass")
	wcRefused(t, p, "j8j7")
	wcRefused(t, p, "j8k8")
}

// TestWinningPreMoveInCheck_W5 pins W5: a pre-move while in check is
// legal only if it ends the check; a continuing pre-move must leave a
// legal regular move (the turn must be completed); checkmate is check
// with no legal pre-move and no legal regular move.
func TestWinningPreMoveInCheck_W5(t *testing.T) {
	// Ka1 in check from the Rook c1: the Defender may block on b1 (plain
	// or as a pre-move) or swap the King out to a2; the King may go to b2.
	p := wcFEN(t, "11k/12/12/12/12/12/D11/K1r9 w - - 0 1")
	if !p.InCheck() {
		t.Fatal("White is not in check")
	}
	wcWantLegal(t, p, "a1b2", "a2b1", "a2b1>", "a2a1", "a2a1>")
	wcRefused(t, p, "a2a3>")
	wcWantLegal(t, mustPlay(t, p, "a2b1>"), "a1a2", "a1b2", "b1c1")
	// Here the block a2b1 is the only legal move; as a pre-move it would
	// leave no regular move (b1 may not leave the Rook's line, b1xc1 opens
	// the Cannon's, a2 and b2 are the l2 Rook's), so a2b1> is illegal.
	p = wcFEN(t, "11k/12/12/12/12/12/D10r/K1r1c7 w - - 0 1")
	wcWantLegal(t, p, "a2b1")
	// Checkmate: the Defender cannot help.
	p = wcFEN(t, "11k/12/12/5D6/12/12/11r/K1r9 w - - 0 1")
	wcWantLegal(t, p)
	if o := p.Outcome(); o.Result != BlackWins || o.Reason != "checkmate" {
		t.Errorf("outcome %+v, want Black wins by checkmate", o)
	}
}

// TestWinningKingCapture_W6 pins §2.4 and W6: a continuing first step
// that exposes the mover's King is legal when the Attacker then attacks
// the enemy King by a permitted second step; the second step that takes
// the King is always legal and wins; if the Defender parries, the second
// step may cover the mover's King, and if the mover passes instead, the
// opponent takes the King and wins.
func TestWinningKingCapture_W6(t *testing.T) {
	p := wcFEN(t, "r3dk6/12/12/12/A11/12/12/K11 w - - 0 1")
	// The Attacker shields a1 from a8; d7> (Bishop, then a Knight's leap
	// to f8) and c5> (Knight, then the Bishop line c5-f8) expose it.
	wcWantLegal(t, p, "a1a2", "a1b1", "a1b2", "a4d7>", "a4c5>")
	w := mustPlay(t, p, "a4c5>")
	wcWantLegal(t, w, "e8d7", "e8d8", "e8e7", "e8f7", "e8f8", "pass")

	// Black passes: the second step takes the King.
	won := mustPlay(t, w, "pass c5f8")
	if o := won.Outcome(); o.Result != WhiteWins || o.Reason != "king captured" {
		t.Errorf("outcome %+v after c5xf8, want White wins by king capture", o)
	}
	if len(won.Legal(nil)) != 0 {
		t.Error("moves after the King was captured")
	}

	// Black blocks on e7: White may cover a1 (a7, a3) or pass, not take e7.
	s := mustPlay(t, w, "e8e7")
	wcWantLegal(t, s, "c5a7", "c5a3", "pass")
	if !s.InCheck() {
		t.Error("White's King is not in check before the second step")
	}
	covered := mustPlay(t, s, "c5a7")
	if covered.Outcome().Over() || wcHas(covered, "a8a1") {
		t.Errorf("after the cover: %+v, %v", covered.Outcome(), legalTexts(&covered))
	}
	lost := mustPlay(t, s, "pass")
	if lost.InCheck() || !winAttackedKing(&lost, White) || !wcHas(lost, "a8a1") {
		t.Fatalf("Black cannot take the exposed King: %v", legalTexts(&lost))
	}
	lost = mustPlay(t, lost, "a8a1")
	if o := lost.Outcome(); o.Result != BlackWins || o.Reason != "king captured" {
		t.Errorf("outcome %+v after Rxa1, want Black wins by king capture", o)
	}
}

// TestWinningPassAndMate_W11 pins W11: "pass" exists only in the window
// and before a second step, and a player there always has it, so
// checkmate and stalemate are judged only at the start of a turn.
func TestWinningPassAndMate_W11(t *testing.T) {
	p := wcFEN(t, "r4k6/12/12/12/A11/12/12/K11 w - - 0 1")
	wcRefused(t, p, "pass")
	wcRefused(t, mustPlay(t, wcDiagram(t, wcTurnBoard, "w - - 0 1"), "h1i1>"), "pass")
	// Black has nothing but the King in the window, and it is attacked:
	// not checkmate, since Black may pass.
	w := mustPlay(t, p, "a4c5>")
	wcWantLegal(t, w, "pass")
	if o := w.Outcome(); o.Over() || !w.InCheck() {
		t.Errorf("window: outcome %+v, in check %v; want the game to go on with Black in check", o, w.InCheck())
	}
	s := mustPlay(t, w, "pass")
	if o := s.Outcome(); o.Over() || !wcHas(s, "pass") {
		t.Errorf("second step: outcome %+v, moves %v", o, legalTexts(&s))
	}
}

// TestWinningContinuingFormNeeded_W12 pins W12: a first step that leaves
// the mover's King in check is legal only in its continuing form, and
// only when the Attacker then attacks the enemy King by a permitted
// second step: a Bishop or Knight step after a Bishop step, a Bishop step
// after a Knight leap.
func TestWinningContinuingFormNeeded_W12(t *testing.T) {
	for _, c := range []struct {
		name, fen string
		legal     []string
		illegal   []string
	}{
		// Kd7: b5 (Bishop) then b5-c6-d7; c5 (Knight) then only a
		// Knight's leap would reach d7.
		{"bishop then bishop", "r11/3k8/12/12/A11/12/12/K11 w - - 0 1", []string{"a4b5>"}, []string{"a4b5", "a4c5>", "a4c5"}},
		// Kd6: b5 (Bishop) then the Knight's leap b5-d6.
		{"bishop then knight", "r11/12/3k8/12/A11/12/12/K11 w - - 0 1", []string{"a4b5>"}, []string{"a4b5", "a4b6>", "a4c3>"}},
		// Kf8: c5 (Knight) then the Bishop line c5-f8.
		{"knight then bishop", "r4k6/12/12/12/A11/12/12/K11 w - - 0 1", []string{"a4c5>"}, []string{"a4c5", "a4b6>"}},
	} {
		p := wcFEN(t, c.fen)
		for _, text := range c.legal {
			if !wcHas(p, text) {
				t.Errorf("%s: %s is not legal: %v", c.name, text, legalTexts(&p))
			}
		}
		for _, text := range c.illegal {
			if wcHas(p, text) {
				t.Errorf("%s: %s is legal", c.name, text)
			}
		}
	}
}

// TestWinningUniformPhases_W13 pins W13: the window opens even when the
// opponent has no Defender (only "pass"), and the second-step phase
// follows the window even when the answer took the Attacker (only
// "pass"); PhaseName says so.
func TestWinningUniformPhases_W13(t *testing.T) {
	p := wcFEN(t, "11k/12/12/12/12/12/12/K3A7 w - - 0 1")
	w := mustPlay(t, p, "e1f3>")
	wcWantLegal(t, w, "pass")
	wcWantLegal(t, mustPlay(t, w, "pass"), "pass", "f3g4", "f3h5", "f3i6", "f3j7", "f3k8", "f3e4", "f3d5", "f3c6",
		"f3b7", "f3a8", "f3g2", "f3h1", "f3e2", "f3d1")
	p = wcFEN(t, "10k1/R8d2/9A2/12/12/12/12/K11 b2 - - 0 1 -/j6b/-")
	s := mustPlay(t, p, "j7j6")
	wcWantLegal(t, s, "pass")
	if got, want := s.PhaseName(), "White must pass: the Attacker cannot make a second step"; got != want {
		t.Errorf("PhaseName %q, want %q", got, want)
	}
}

// TestWinningDetails_W14 pins W14: an en-passant right survives the
// mover's own pre-move; a swap moves the King and ends that side's
// castling rights (as a pre-move too); an answer made while the
// responder is in check from another piece must end that check.
func TestWinningDetails_W14(t *testing.T) {
	p := wcFEN(t, "6k5/3p8/12/4P7/12/12/12/6KD4 b - - 0 1")
	p = mustPlay(t, p, "d7d5")
	wcWantFEN(t, p, "6k5/12/12/3pP7/12/12/12/6KD4 w - d6 0 2")
	q := mustPlay(t, p, "h1i1>")
	wcWantFEN(t, q, "6k5/12/12/3pP7/12/12/12/6K1D3 w1 - d6 0 2")
	wcWantFEN(t, mustPlay(t, q, "e5d6"), "6k5/12/3P8/12/12/12/12/6K1D3 b - - 0 2")
	// The pre-move took the pawn that could be taken e.p.: no right left.
	p = wcFEN(t, "6k5/12/12/3pP7/2D9/12/12/6K5 w - d6 0 2")
	wcWantFEN(t, mustPlay(t, p, "c4d5>"), "6k5/12/12/3DP7/12/12/12/6K5 w1 - - 0 2 -/-/x")

	start := wcVariant(t, "").Start()
	wcWantFEN(t, mustPlay(t, start, "h1g1"), "rtcnaqkdnctr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RTCNAQDKNCTR b kq - 1 1")
	wcWantFEN(t, mustPlay(t, start, "h1g1>"), "rtcnaqkdnctr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RTCNAQDKNCTR w1 kq - 0 1")

	// The Rook e8 checks k8 (the Attacker f6 uncovered it): the answer
	// must block on i8 or j8 or swap the King out to j7.
	p = wcFEN(t, "4R5k1/9d2/5A6/12/12/12/12/K11 b2 - - 0 1 -/f6b/-")
	wcWantLegal(t, p, "j7i8", "j7j8", "j7k8", "pass")
}

// TestWinningStateFEN pins the seventh FEN field "R/A/X" (who answered in
// the opponent's window, the pending Attacker and its first step's kind,
// whether the turn already holds a capture or a pawn move): it
// round-trips with the hash, is left out when empty, and states the turn
// cannot reach are refused.
func TestWinningStateFEN(t *testing.T) {
	for _, fen := range []string{
		"r4k6/12/12/2A9/12/12/12/K11 b2 - - 0 1 -/c5n/-",
		"r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 b/c5n/-",
		"r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 wb/c5b/x",
		"r4k6/12/12/2A9/12/12/12/K11 w - - 0 1 w/-/-",
		"r4k6/12/12/2A9/12/12/12/K11 w1 - - 0 1 -/-/x",
		"r4k6/12/12/12/12/12/12/K11 w3 - - 0 1 -/c5b/-", // no Attacker left to step
	} {
		wcFEN(t, fen)
	}
	if e := wcFEN(t, "r4k6/12/12/2A9/12/12/12/K11 w - - 0 1 -/-/-"); e.FEN() != "r4k6/12/12/2A9/12/12/12/K11 w - - 0 1" {
		got := e.FEN()
		t.Errorf("an empty state is written as %q", got)
	}
	a := wcFEN(t, "r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 -/c5n/-")
	b := wcFEN(t, "r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 -/c5b/-")
	c := wcFEN(t, "r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 b/c5n/-")
	if a.Hash() == b.Hash() || a.Hash() == c.Hash() {
		t.Error("the state is not part of the hash")
	}
	v := wcVariant(t, "")
	for _, c := range []struct{ name, fen string }{
		{"two parts", "r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 -/c5n"},
		{"bad answerers", "r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 bw/c5n/-"},
		{"bad step kind", "r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 -/c5q/-"},
		{"square off the board", "r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 -/c9n/-"},
		{"bad clock mark", "r4k6/12/12/2A9/12/12/12/K11 w1 - - 0 1 -/-/y"},
		{"pending Attacker at the start of a turn", "r4k6/12/12/2A9/12/12/12/K11 w - - 0 1 -/c5n/-"},
		{"pending Attacker after a pre-move", "r4k6/12/12/2A9/12/12/12/K11 w1 - - 0 1 -/c5n/-"},
		{"window without the Attacker", "r4k6/12/12/2A9/12/12/12/K11 b2 - - 0 1 -/d5n/-"},
		{"x at the start of a turn", "r4k6/12/12/2A9/12/12/12/K11 w - - 0 1 -/-/x"},
		{"the opponent answered before the window", "r4k6/12/12/2A9/12/12/12/K11 w - - 0 1 b/-/-"},
		{"the responder answered before the window", "r4k6/12/12/2A9/12/12/12/K11 b2 - - 0 1 b/c5n/-"},
		{"a pre-move after answering", "r4k6/12/12/2A9/12/12/12/K11 w1 - - 0 1 w/-/-"},
		{"no phase 4", "r4k6/12/12/2A9/12/12/12/K11 w4 - - 0 1"},
	} {
		if _, err := ParseFEN(v, c.fen); !errors.Is(err, ErrBadFEN) {
			t.Errorf("%s: ParseFEN(%q) = %v, want ErrBadFEN", c.name, c.fen, err)
		}
	}
}

// TestWinningPhaseNames pins what PhaseName (and so "fairypost analyze")
// says in each step of the turn: which step it is and who must act.
func TestWinningPhaseNames(t *testing.T) {
	for _, c := range []struct{ fen, want string }{
		{"r4k6/12/12/2A9/12/12/12/K11 w - - 0 1", "White to move (an Attacker step marked > may be followed by a second step)"},
		{"r4k6/12/12/2A9/12/12/12/K11 b - - 0 1 b/-/-", "Black to move"},
		{"r4kd5/12/12/2A9/12/12/12/K11 b - - 0 1", "Black to move (a Defender pre-move, marked >, may come first)"},
		{"r4kd5/12/12/2A9/12/12/12/K11 b - - 0 1 b/-/-", "Black to move (no Defender pre-move: Black answered in the last turn)"},
		{"rtcnaqkdnctr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RTCNAQKDNCTR w KQkq - 0 1",
			"White to move (a Defender pre-move, marked >, may come first; an Attacker step marked > may be followed by a second step)"},
		{"r4k6/12/12/2A9/12/12/12/K11 w1 - - 0 1", "White makes the regular move after the Defender pre-move"},
		{"r4k6/12/12/2A9/12/12/12/K11 b2 - - 0 1 -/c5n/-", "Black may answer with the Defender, or pass, before White's Attacker steps again"},
		{"r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 -/c5n/-", "White may make the Attacker's second step from c5 (a Bishop step), or pass"},
		{"r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 -/c5b/-", "White may make the Attacker's second step from c5 (a Bishop or Knight step), or pass"},
	} {
		p := wcFEN(t, c.fen)
		if got := p.PhaseName(); got != c.want {
			t.Errorf("%s: PhaseName %q, want %q", c.fen, got, c.want)
		}
	}
}

// TestWinningCounters pins the counters: the move number goes up when
// White's turn begins, however many moves each turn holds, and the
// halfmove clock counts whole turns without a capture or a pawn move (a
// capture or pawn move in any part of a turn restarts it), so that the
// 50-move claim (DrawClaimPlies 100) and the 75-move rule (DrawAutoPlies
// 150) mean what they mean in normal chess (§2.4) and never end a game in
// the middle of a turn.
func TestWinningCounters(t *testing.T) {
	p := wcVariant(t, "").Start()
	p = mustPlay(t, p, "h1g1> e2e4")
	wcWantFEN(t, p, "rtcnaqkdnctr/pppppppppppp/12/12/4P7/12/PPPP1PPPPPPP/RTCNAQDKNCTR b kq - 0 1")
	p = mustPlay(t, p, "e8d6> pass")
	wcWantFEN(t, p, "rtcn1qkdnctr/pppppppppppp/3a8/12/4P7/12/PPPP1PPPPPPP/RTCNAQDKNCTR b3 kq - 0 1 -/d6n/-")
	p = mustPlay(t, p, "pass")
	wcWantFEN(t, p, "rtcn1qkdnctr/pppppppppppp/3a8/12/4P7/12/PPPP1PPPPPPP/RTCNAQDKNCTR w kq - 1 2")
	p = mustPlay(t, p, "e1f3> h8g8 f3g4")
	wcWantFEN(t, p, "rtcn1qdknctr/pppppppppppp/3a8/12/4P1A5/12/PPPP1PPPPPPP/RTCN1QDKNCTR b - - 2 2 b/-/-")
	p = mustPlay(t, p, "d6f5")
	wcWantFEN(t, p, "rtcn1qdknctr/pppppppppppp/12/5a6/4P1A5/12/PPPP1PPPPPPP/RTCN1QDKNCTR w - - 3 3")

	v := wcVariant(t, "")
	// A capture in the pre-move restarts the clock when the turn ends.
	p = wcFEN(t, "11k/11d/12/12/12/12/2p9/KD10 w - - 99 40")
	p = mustPlay(t, p, "b1c2>")
	wcWantFEN(t, p, "11k/11d/12/12/12/12/2D9/K11 w1 - - 0 40 -/-/x")
	wcWantFEN(t, mustPlay(t, p, "a1b1"), "11k/11d/12/12/12/12/2D9/1K10 b - - 0 40")
	// 99 turns: a pre-move keeps the clock, the regular move makes 100.
	g := NewGame(mustFEN(t, v, "11k/11d/12/12/12/12/12/KD10 w - - 99 40"))
	mustGamePlay(t, g, "b1c1>")
	if p := g.Position(); p.HalfmoveClock() != 99 {
		t.Errorf("halfmove clock %d after the pre-move, want 99", p.HalfmoveClock())
	}
	if _, ok := g.DrawClaim(); ok {
		t.Error("a draw claim in the middle of the 100th turn")
	}
	mustGamePlay(t, g, "a1b1")
	if reason, ok := g.DrawClaim(); !ok || reason != "move-count rule" {
		t.Errorf("DrawClaim = %q, %v after 100 turns, want the move-count rule", reason, ok)
	}
	// 149 turns: the game is drawn when the 150th turn ends, not within it.
	g = NewGame(mustFEN(t, v, "11k/11d/12/12/12/12/12/KD10 w - - 149 40"))
	mustGamePlay(t, g, "b1c1>")
	if o := g.Outcome(); o.Over() {
		t.Fatalf("outcome %+v in the middle of the 150th turn", o)
	}
	mustGamePlay(t, g, "c1d1")
	if o := g.Outcome(); o.Result != Draw || o.Reason != "move-count rule" {
		t.Errorf("outcome %+v after 150 turns, want a draw by the move-count rule", o)
	}
}

// TestWinningDraws pins the draws of §2.4, as in normal chess: stalemate
// (judged at the start of a turn), repetition (claim at 3, automatic at
// 5) and positions without mating material (bare Kings, or a lone Knight
// or Tiger; a Defender, which steps as a King, can mate).
func TestWinningDraws(t *testing.T) {
	p := wcFEN(t, "1r9k/12/12/12/12/12/11r/K11 w - - 0 1")
	wcWantLegal(t, p)
	if o := p.Outcome(); o.Result != Draw || o.Reason != "stalemate" {
		t.Errorf("outcome %+v, want a draw by stalemate", o)
	}
	g := NewGame(wcFEN(t, "10dk/12/12/12/12/12/12/KD10 w - - 0 1"))
	for i := 0; i < 4; i++ {
		if o := g.Outcome(); o.Over() {
			t.Fatalf("outcome %+v after %d cycles", o, i)
		}
		mustGamePlay(t, g, "b1c1 k8k7 c1b1 k7k8")
		if reason, ok := g.DrawClaim(); i < 3 && ((i >= 1) != ok || ok && reason != "repetition") {
			t.Errorf("cycle %d: DrawClaim %q, %v", i+1, reason, ok)
		}
	}
	if o := g.Outcome(); o.Result != Draw || o.Reason != "repetition" {
		t.Errorf("outcome %+v after the position occurred five times, want a draw by repetition", o)
	}
	for _, c := range []struct {
		fen  string
		dead bool
	}{
		{"11k/12/12/12/12/12/12/K11 w - - 0 1", true},
		{"11k/12/12/12/12/12/12/KN10 w - - 0 1", true},
		{"11k/12/12/12/12/12/12/KT10 w - - 0 1", true},
		{"10tk/12/12/12/12/12/12/KN10 w - - 0 1", false},
		{"11k/12/12/12/12/12/12/KD10 w - - 0 1", false},
		{"11k/12/12/12/12/12/P11/K11 w - - 0 1", false},
		{"11k/12/12/12/12/12/12/KA10 w - - 0 1", false},
	} {
		p := wcFEN(t, c.fen)
		o := p.Outcome()
		if dead := o.Reason == "insufficient material"; dead != c.dead {
			t.Errorf("%s: outcome %+v, want dead %v", c.fen, o, c.dead)
		}
	}
}

// TestWinningMoveText pins the canonical move text in every step of the
// turn: unique among the legal moves, read back by ParseMove (also in
// upper case), with the '>' mark last; the swap is the Defender's square
// then the King's ("h1g1").
func TestWinningMoveText(t *testing.T) {
	for _, fen := range []string{
		wcVariant(t, "").StartFEN,
		"rtcnaqkdnctr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RTCNAQDKNCTR w1 kq - 0 1",
		"10k1/R8d2/9A2/12/12/12/12/K11 b2 - - 0 1 -/j6b/-",
		"r4k6/12/12/2A9/12/12/12/K11 w3 - - 0 1 -/c5n/-",
		"11k/4P7/12/12/12/12/12/K11 w - - 0 1",
	} {
		p := wcFEN(t, fen)
		seen := map[string]bool{}
		for _, m := range p.Legal(nil) {
			text := FormatMove(&p, m)
			if seen[text] {
				t.Errorf("%s: %q names two moves", fen, text)
			}
			seen[text] = true
			if i := strings.IndexByte(text, '>'); i >= 0 && i != len(text)-1 {
				t.Errorf("%s: '>' is not last in %q", fen, text)
			}
			if (m.Flags&FlagContinue != 0) != strings.HasSuffix(text, ">") {
				t.Errorf("%s: %q and its flags %v disagree", fen, text, m.Flags)
			}
			for _, s := range []string{text, strings.ToUpper(text), " " + text + " "} {
				if got, err := ParseMove(&p, s); err != nil || got != m {
					t.Errorf("%s: ParseMove(%q) = %+v, %v; want %+v", fen, s, got, err, m)
				}
			}
		}
	}
	p := wcVariant(t, "").Start()
	for _, m := range p.Legal(nil) {
		if m.Kind == KindSpecial && FormatMove(&p, m) != "h1g1" && FormatMove(&p, m) != "h1g1>" {
			t.Errorf("the swap is written %q", FormatMove(&p, m))
		}
	}
}

// TestWinningPerft runs testdata/perft/winning.perft: hand-counted rows
// for the start and for a position in each step of the turn (see the
// comments in the file), then deeper rows computed by this engine. Rows
// over the node limit of TestPerftSuites are skipped.
func TestWinningPerft(t *testing.T) {
	v := wcVariant(t, "")
	limit := perftLimit()
	for _, c := range loadPerft(t, "winning") {
		p := mustFEN(t, v, c.EPD)
		if got := p.FEN(); got != c.EPD {
			t.Errorf("%s: the epd is not canonical: %q", c.ID, got)
		}
		for _, row := range c.Rows {
			if row.Nodes > limit {
				continue
			}
			t.Run(fmt.Sprintf("%s/depth%d", c.ID, row.Depth), func(t *testing.T) {
				checkPerft(t, &p, row.Depth, row.Nodes)
			})
		}
	}
}

// Sizes of TestWinningRandomPlayouts: 1000 games by default (100 with
// -short, or -playout.games), at most 300 atomic moves each, in two
// parallel halves; every tenth game is played on 12x10 and every
// twentieth on 12x12 (W1).
const (
	wcPlayoutGames      = 1000
	wcPlayoutShortGames = 100
	wcPlayoutMaxPlies   = 300
)

// TestWinningRandomPlayouts plays seeded random games (math/rand/v2 PCG)
// and checks after every move: the FEN round trip (same FEN, same hash);
// that the canonical text of the move reads back (ParseMove) as the move,
// so that replaying the texts from the start reproduces every position
// (checked at the end, every tenth game through a Game); one King per side
// while the game goes on; that the state machine never leaves the player
// to act without a move while the game is not over (and never in the
// middle of a turn: "pass" exists exactly in the window and before the
// second step, and a pre-move leaves a regular move); that every move
// leads to the step §2.3 prescribes (who acts, the phase, the pending
// Attacker, the answer flags, the counters); and that the outcome is
// consistent (over exactly when there is no legal move, the position
// occurred five times, the 75-move rule applies or no mating material is
// left; checkmate and stalemate only at the start of a turn; a King
// capture only by the move that took it). The random move is the first
// legal one of the pseudo-legal moves in random order (uniform over the
// legal moves, without listing them all); Outcome and the full list of
// legal moves are compared every 16th move and at the end, and Play's
// acceptance and refusal every 32nd.
func TestWinningRandomPlayouts(t *testing.T) {
	games := wcPlayoutGames
	switch {
	case *playoutGames > 0:
		games = *playoutGames
	case testing.Short():
		games = wcPlayoutShortGames
	}
	for half := 0; half < 2; half++ {
		t.Run(fmt.Sprintf("half%d", half), func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			plies, ends := 0, map[string]int{}
			for i := half; i < games; i += 2 {
				options := ""
				switch {
				case i%20 == 19:
					options = "ranks=12"
				case i%10 == 9:
					options = "ranks=10"
				}
				pl := wcPlayout{t: t, v: wcVariant(t, options), rng: rand.New(rand.NewPCG(0x77696e, uint64(i))),
					name: fmt.Sprintf("game %d (%s)", i, options), viaGame: i%10 == 0}
				o := pl.run()
				if t.Failed() {
					return
				}
				plies += len(pl.texts)
				ends[string(o.Reason)]++
			}
			t.Logf("%d games, %d moves in %v; ends: %v", (games+1-half)/2, plies, time.Since(start).Round(time.Millisecond), ends)
		})
	}
}

// wcPlayout is one random game of TestWinningRandomPlayouts.
type wcPlayout struct {
	t       *testing.T
	v       *Variant
	rng     *rand.Rand
	name    string
	viaGame bool // replay the game through a Game
	texts   []string
	moves   []Move
	hashes  []uint64       // the hash of the position after each move
	seen    map[uint64]int // occurrences of each position (by hash)
	pos     Position       // the current position
	cand    []Move         // working space of pick
	scratch Position
}

// fail reports a broken invariant with the moves that reproduce it.
func (pl *wcPlayout) fail(format string, args ...any) {
	pl.t.Helper()
	pl.t.Fatalf("%s, move %d, position %s: %s\nmoves from the start: %s", pl.name, len(pl.texts), pl.pos.FEN(),
		fmt.Sprintf(format, args...), strings.Join(pl.texts, " "))
}

// pick returns a legal move of p chosen uniformly at random, or false
// when p has none: it tries the pseudo-legal moves in random order. pass
// reports whether "pass" is among them.
func (pl *wcPlayout) pick(p *Position) (m Move, ok, pass bool) {
	pl.cand = p.pseudoLegal(pl.cand[:0])
	pass = slices.Contains(pl.cand, Pass())
	if _, over := p.terminal(); over {
		return Move{}, false, pass
	}
	for n := len(pl.cand); n > 0; n-- {
		i := pl.rng.IntN(n)
		m := pl.cand[i]
		if p.isLegal(m, &pl.scratch) {
			return m, true, pass
		}
		pl.cand[i] = pl.cand[n-1]
	}
	return Move{}, false, pass
}

// run plays the game and returns its outcome (the zero Outcome when it
// was cut at wcPlayoutMaxPlies).
func (pl *wcPlayout) run() Outcome {
	pl.t.Helper()
	pl.pos = pl.v.Start()
	pl.seen = map[uint64]int{pl.pos.Hash(): 1}
	var o Outcome
	for {
		p := pl.pos
		m, ok, pass := pl.pick(&p)
		var over bool
		if o, over = pl.checkOutcome(&p, ok, pass); over || len(pl.texts) == wcPlayoutMaxPlies {
			break
		}
		text := FormatMove(&p, m)
		pl.texts = append(pl.texts, text)
		pl.moves = append(pl.moves, m)
		if got, err := ParseMove(&p, text); err != nil || got != m {
			pl.fail("ParseMove(%q) = %+v, %v; want %+v", text, got, err, m)
		}
		next, ok := p.After(m)
		if !ok {
			pl.fail("After(%s) refused a legal move", text)
		}
		pl.checkStep(&p, &next, m)
		pl.checkFEN(&next)
		pl.pos = next
		pl.hashes = append(pl.hashes, next.Hash())
		pl.seen[next.Hash()]++
	}
	pl.checkReplay(o)
	return o
}

// checkOutcome checks the outcome of the current position p against
// whether it has a legal move (hasMove), whether "pass" is pseudo-legal
// and the game's history; every 16th move, and whenever the game should
// be over, it also asks Outcome and lists the legal moves. It returns the
// outcome (the zero Outcome when it was not asked) and whether the game
// is over.
func (pl *wcPlayout) checkOutcome(p *Position, hasMove, pass bool) (Outcome, bool) {
	pl.t.Helper()
	kings := p.royal[0] != NoSquare && p.royal[1] != NoSquare
	repeated := pl.seen[p.Hash()] >= pl.v.RepetitionAuto
	moveCount := p.HalfmoveClock() >= pl.v.DrawAutoPlies
	dead := winDeadPosition(p)
	over := !hasMove || repeated || moveCount || dead
	if !over && (!kings || p.Count(White, winKing) != 1 || p.Count(Black, winKing) != 1) {
		pl.fail("the game goes on without one King per side")
	}
	if p.Phase() != winPhaseStart && !hasMove && kings {
		pl.fail("nothing to do in phase %d (%s)", p.Phase(), p.PhaseName())
	}
	if window := p.Phase() == winPhaseWindow || p.Phase() == winPhaseSecond; pass != window {
		pl.fail("pass generated %v in phase %d", pass, p.Phase())
	}
	if !over && len(pl.texts)%16 != 0 {
		return Outcome{}, false
	}
	moves := p.Legal(nil)
	if (len(moves) > 0) != hasMove || slices.Contains(moves, Pass()) != (pass && kings) {
		pl.fail("%d legal moves (pass: %v), but a legal move found: %v", len(moves), slices.Contains(moves, Pass()), hasMove)
	}
	if len(moves) > 0 && len(pl.texts)%32 == 0 {
		pl.checkRefusal(p, moves)
	}
	o := p.Outcome()
	if !o.Over() && repeated {
		o = Outcome{Result: Draw, Reason: "repetition"}
	}
	if o.Over() != over {
		pl.fail("outcome %+v with %d moves, repeated %v, halfmove clock %d, dead %v", o, len(moves), repeated, p.HalfmoveClock(), dead)
	}
	if !kings && (o.Reason != "king captured" || len(pl.moves) == 0 ||
		!(pl.moves[len(pl.moves)-1].Kind == KindNormal && p.LastMove() == pl.moves[len(pl.moves)-1])) {
		pl.fail("a King is gone: outcome %+v", o)
	}
	if (o.Reason == "checkmate" || o.Reason == "stalemate" || o.Reason == "move-count rule") && p.Phase() != winPhaseStart {
		pl.fail("%s in the middle of a turn (phase %d)", o.Reason, p.Phase())
	}
	if o.Reason == "checkmate" && (!p.InCheck() || o.Result != WinFor(p.ToAct().Other())) || o.Reason == "stalemate" && p.InCheck() {
		pl.fail("outcome %+v, in check %v", o, p.InCheck())
	}
	return o, over
}

// checkStep checks that m took before to the step of the turn §2.3
// prescribes.
func (pl *wcPlayout) checkStep(before, after *Position, m Move) {
	pl.t.Helper()
	us := before.ToAct()
	owner := winOwner(before)
	piece := before.At(m.From).Type()
	cont := m.Flags&FlagContinue != 0
	if cont && !(piece == winDefender && winPreMoveAvailable(before)) &&
		!(piece == winAttacker && before.Phase() <= winPhaseRegular && !before.IsCapture(m)) {
		pl.fail("a continuing form of %s", pl.texts[len(pl.texts)-1])
	}
	want := Turn{ToAct: owner.Other(), Mover: owner.Other(), Phase: winPhaseStart}
	switch {
	case before.Phase() == winPhaseWindow:
		want = Turn{ToAct: owner, Mover: owner, Phase: winPhaseSecond}
	case cont && piece == winDefender:
		want = Turn{ToAct: us, Mover: us, Phase: winPhaseRegular}
	case cont:
		want = Turn{ToAct: us.Other(), Mover: us.Other(), Phase: winPhaseWindow}
	}
	if got := (Turn{ToAct: after.ToAct(), Mover: after.Mover(), Phase: after.Phase()}); got != want {
		pl.fail("after %s: %+v, want %+v", pl.texts[len(pl.texts)-1], got, want)
	}
	st := winStateOf(after)
	pending := st.pending
	switch {
	case want.Phase == winPhaseWindow && (pending != m.To || st.kind != winStepKind(m.From, m.To)):
		pl.fail("pending Attacker %s, want %s", pending, m.To)
	case want.Phase >= winPhaseWindow && pending == NoSquare, want.Phase < winPhaseWindow && pending != NoSquare:
		pl.fail("pending Attacker %s in phase %d", pending, want.Phase)
	}
	answered := st.responded[us.index()]
	switch {
	case before.Phase() == winPhaseWindow && answered != (m.Kind != KindPass):
		pl.fail("answer flag %v after %s", answered, pl.texts[len(pl.texts)-1])
	case want.Phase == winPhaseStart && (st.responded[owner.index()] || st.irreversible):
		pl.fail("the turn ended with state %+v", st)
	}
	wantFullmove := before.Fullmove()
	if want.Phase == winPhaseStart && want.ToAct == White {
		wantFullmove++
	}
	if after.Fullmove() != wantFullmove {
		pl.fail("move number %d after %d", after.Fullmove(), before.Fullmove())
	}
	if want.Phase != winPhaseStart && after.HalfmoveClock() > before.HalfmoveClock() {
		pl.fail("halfmove clock %d in the middle of a turn, %d before", after.HalfmoveClock(), before.HalfmoveClock())
	}
}

// checkFEN checks the FEN round trip of p.
func (pl *wcPlayout) checkFEN(p *Position) {
	pl.t.Helper()
	fen := p.FEN()
	q, err := ParseFEN(pl.v, fen)
	switch {
	case err != nil:
		pl.fail("ParseFEN(%q): %v", fen, err)
	case q.FEN() != fen || q.Hash() != p.Hash():
		pl.fail("FEN round trip: %q became %q (hash %x, %x)", fen, q.FEN(), p.Hash(), q.Hash())
	}
}

// checkRefusal checks that Play accepts a listed move of p and refuses a
// pseudo-legal move that is not listed, if there is one, leaving p
// unchanged.
func (pl *wcPlayout) checkRefusal(p *Position, moves []Move) {
	pl.t.Helper()
	if _, err := p.Play(moves[pl.rng.IntN(len(moves))]); err != nil {
		pl.fail("Play of a listed move: %v", err)
	}
	var bad []Move
	for _, m := range p.pseudoLegal(nil) {
		if !slices.Contains(moves, m) {
			bad = append(bad, m)
		}
	}
	if len(bad) == 0 {
		return
	}
	fen := p.FEN()
	m := bad[pl.rng.IntN(len(bad))]
	if _, err := p.Play(m); !errors.Is(err, ErrIllegalMove) || p.FEN() != fen {
		pl.fail("Play(%s) of a move not listed: %v", FormatMove(p, m), err)
	}
}

// checkReplay replays the canonical move texts from the start (through a
// Game when pl.viaGame, else the moves they name) and compares every
// position with the game's, and the final outcome with o when it is known.
func (pl *wcPlayout) checkReplay(o Outcome) {
	pl.t.Helper()
	p := pl.v.Start()
	g := NewGame(p)
	for i, s := range pl.texts {
		if pl.viaGame {
			m, err := ParseMove(&p, s)
			if err != nil || m != pl.moves[i] {
				pl.fail("replay move %d: ParseMove(%q) = %+v, %v; played %+v", i+1, s, m, err, pl.moves[i])
			}
			if err := g.Play(m); err != nil {
				pl.fail("replay move %d: Game.Play(%s): %v", i+1, s, err)
			}
			p = g.Position()
		} else {
			p, _ = p.After(pl.moves[i])
		}
		if p.Hash() != pl.hashes[i] {
			pl.fail("replay move %d: %s differs from the game's position", i+1, p.FEN())
		}
	}
	if p.FEN() != pl.pos.FEN() || p.Hash() != pl.pos.Hash() {
		pl.fail("replay ends in %s, the game in %s", p.FEN(), pl.pos.FEN())
	}
	if pl.viaGame && o.Over() && g.Outcome() != o {
		pl.fail("Game.Outcome %+v, want %+v", g.Outcome(), o)
	}
}
