package rules

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// tankFEN parses a Tank Chess position and checks that its FEN round-trips.
func tankFEN(tb testing.TB, fen string) Position {
	tb.Helper()
	p, err := ParseFEN(mustVariant(tb, "tank"), fen)
	if err != nil {
		tb.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	if p.FEN() != fen {
		tb.Fatalf("ParseFEN(%q).FEN() = %q", fen, p.FEN())
	}
	return p
}

// tankWantFEN fails unless p's FEN is want.
func tankWantFEN(t *testing.T, p Position, want string) {
	t.Helper()
	if got := p.FEN(); got != want {
		t.Fatalf("FEN %q, want %q", got, want)
	}
}

// tankWantLegal fails unless the sorted legal move texts of p are want.
func tankWantLegal(t *testing.T, p Position, want ...string) {
	t.Helper()
	slices.Sort(want)
	if got := legalTexts(&p); !slices.Equal(got, want) {
		t.Fatalf("legal moves of %s:\n got %v\nwant %v", p.FEN(), got, want)
	}
}

// tankHas reports whether text is a legal move of p.
func tankHas(p Position, text string) bool { return slices.Contains(legalTexts(&p), text) }

// TestTankStartPosition pins RULES 4.1: the FIDE array with Bomb (M) on
// a1/a8, Atomic bomb (A) on d1/d8 and Tank (T) on h1/h8, and the legal
// first moves (hand count: 16 pawn moves, 4 knight moves, the a1 Bomb's
// detonation, 3 Tank pushes; the Atomic bomb cannot detonate next to its
// King and nothing else can move).
func TestTankStartPosition(t *testing.T) {
	v := mustVariant(t, "tank")
	p := v.Start()
	tankWantFEN(t, p, "mnbakbnt/pppppppp/8/8/8/8/PPPPPPPP/MNBAKBNT w - - 0 1")
	tankWantLegal(t, p,
		"a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4",
		"e2e3", "e2e4", "f2f3", "f2f4", "g2g3", "g2g4", "h2h3", "h2h4",
		"b1a3", "b1c3", "g1f3", "g1h3", "a1a1", "h1g1", "h1g2", "h1h2")
	if p.InCheck() {
		t.Error("the start position is check")
	}
}

// TestTankSampleBombToE2Mates pins the seed's first sample position
// (White Ke1; Black Md3, Pf3, Kd7): Black plays Me2, checkmate, because
// wherever the White King goes the Bomb explodes (and Kxe2 meets the f3
// pawn).
func TestTankSampleBombToE2Mates(t *testing.T) {
	p := tankFEN(t, "8/3k4/8/8/8/3m1p2/8/4K3 b - - 0 1")
	p = playTexts(t, p, "d3e2")
	tankWantFEN(t, p, "8/3k4/8/8/8/5p2/4m3/4K3 w - - 1 2")
	if !p.InCheck() {
		t.Error("Me2 is not check")
	}
	tankWantLegal(t, p)
	if o := p.Outcome(); o.Result != BlackWins || o.Reason != "checkmate" {
		t.Errorf("outcome %+v, want Black wins by checkmate", o)
	}
}

// TestTankSampleTankPushGivesCheck pins the seed's second sample position
// (White Te5, Nf6, Ke4; Black Kh8): Tf6 pushes the Knight to g7 and gives
// check, because Tf6-g7 would push the Black King off the board; Kxg7
// answers it.
func TestTankSampleTankPushGivesCheck(t *testing.T) {
	p := tankFEN(t, "7k/8/5N2/4T3/4K3/8/8/8 w - - 0 1")
	p = playTexts(t, p, "e5f6")
	tankWantFEN(t, p, "7k/6N1/5T2/8/4K3/8/8/8 b - - 1 1")
	if !p.InCheck() {
		t.Fatal("Tf6 is not check")
	}
	tankWantLegal(t, p, "h8g7", "h8g8", "h8h7")
	// The threat is real: with White to move, Tf6-g7 pushes the King off.
	threat := playTexts(t, tankFEN(t, "7k/6N1/5T2/8/4K3/8/8/8 w - - 1 1"), "f6g7")
	tankWantFEN(t, threat, "7N/6T1/8/8/4K3/8/8/8 b - - 0 1")
	if o := threat.Outcome(); o.Result != WhiteWins {
		t.Errorf("outcome after pushing the King off: %+v, want a White win", o)
	}
	p = playTexts(t, p, "h8g7")
	tankWantFEN(t, p, "8/6k1/5T2/8/4K3/8/8/8 w - - 0 2")
	if p.InCheck() {
		t.Error("White is in check after Kxg7")
	}
}

// TestTankBombMovesWithoutCapturing pins RULES 4.1 for the Bomb and the
// Atomic bomb: one king step onto an empty square, never a capture, or a
// detonation instead of moving.
func TestTankBombMovesWithoutCapturing(t *testing.T) {
	for _, letter := range []string{"M", "A"} {
		p := tankFEN(t, "k7/8/8/4n3/3"+letter+"4/8/8/7K w - - 0 1")
		tankWantLegal(t, p,
			"d4c3", "d4d3", "d4e3", "d4c4", "d4e4", "d4c5", "d4d5", "d4d4",
			"h1g1", "h1g2", "h1h2")
	}
}

// TestTankTankMovesWithoutCapturing pins RULES 4.1 for the Tank: one king
// step, quiet onto an empty square, a push onto an occupied one (of either
// colour); it never captures or detonates.
func TestTankTankMovesWithoutCapturing(t *testing.T) {
	p := tankFEN(t, "k7/8/8/4n3/3T4/2P5/8/7K w - - 0 1")
	tankWantLegal(t, p,
		"d4c3", "d4d3", "d4e3", "d4c4", "d4e4", "d4c5", "d4d5", "d4e5",
		"c3c4", "h1g1", "h1g2", "h1h2")
	q := playTexts(t, p, "d4e5")
	tankWantFEN(t, q, "k7/8/5n2/4T3/8/2P5/8/7K b - - 1 1")
	q = playTexts(t, p, "d4c3")
	tankWantFEN(t, q, "k7/8/8/4n3/8/2T5/1P6/7K b - - 0 1")
}

// TestTankDetonationRadius pins RULES 4.1: a Bomb removes itself and
// everything within one king step, an Atomic bomb everything within two,
// of either colour.
func TestTankDetonationRadius(t *testing.T) {
	// Pieces at distance 1 (c5, e3) and 2 (d6, f4) from the bomb on d4.
	p := tankFEN(t, "k7/8/3p4/2n5/3M1b2/4P3/8/7K w - - 7 9")
	tankWantFEN(t, playTexts(t, p, "d4d4"), "k7/8/3p4/8/5b2/8/8/7K b - - 0 9")
	p = tankFEN(t, "k7/8/3p4/2n5/3A1b2/4P3/8/7K w - - 7 9")
	tankWantFEN(t, playTexts(t, p, "d4d4"), "k7/8/8/8/8/8/8/7K b - - 0 9")
}

// TestTankNoChainReaction pins RULES 4.1: a bomb blown up by another
// bomb, captured, or pushed off the board does not explode.
func TestTankNoChainReaction(t *testing.T) {
	// The Black Atomic bomb on e5 goes with the White Bomb's blast; the g7
	// pawn, in its range but not the Bomb's, stays.
	p := tankFEN(t, "k7/6p1/8/4a3/3M4/8/8/7K w - - 0 1")
	tankWantFEN(t, playTexts(t, p, "d4d4"), "k7/6p1/8/8/8/8/8/7K b - - 0 1")
	// Captured by a Knight: only the bomb goes.
	p = tankFEN(t, "k7/8/3p4/2pap3/3p4/2N5/8/7K w - - 0 1")
	tankWantFEN(t, playTexts(t, p, "c3d5"), "k7/8/3p4/2pNp3/3p4/8/8/7K b - - 0 1")
	// Pushed off the board by a Tank: only the bomb goes.
	p = tankFEN(t, "k7/8/8/8/8/6p1/6Ta/7K w - - 0 1")
	tankWantFEN(t, playTexts(t, p, "g2h2"), "k7/8/8/8/8/6p1/7T/7K b - - 0 1")
}

// TestTankDetonationWithNothingInRange_T8 pins REC T8: a detonation with
// nothing else in range is legal; it spends the move and loses the bomb.
func TestTankDetonationWithNothingInRange_T8(t *testing.T) {
	for _, letter := range []string{"M", "A"} {
		p := tankFEN(t, "k7/8/8/8/3"+letter+"4/8/8/7K w - - 0 1")
		tankWantFEN(t, playTexts(t, p, "d4d4"), "k7/8/8/8/8/8/8/7K b - - 0 1")
	}
}

// TestTankRemovingOnlyOwnKingIsIllegal_T4 pins REC T4: a detonation or a
// push that would remove the mover's King alone is not a legal move.
func TestTankRemovingOnlyOwnKingIsIllegal_T4(t *testing.T) {
	for _, c := range []struct{ name, fen, move string }{
		{"bomb next to own king", "4k3/8/8/8/8/8/4M3/4K3 w - - 0 1", "e2e2"},
		{"atomic bomb two steps from own king", "4k3/8/8/8/8/2A5/8/4K3 w - - 0 1", "c3c3"},
		{"tank pushes own king off", "4k3/8/8/8/8/8/8/KNT5 w - - 0 1", "c1b1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := tankFEN(t, c.fen)
			if tankHas(p, c.move) {
				t.Fatalf("%s is legal in %s", c.move, c.fen)
			}
			if _, err := ParseMove(&p, c.move); !errors.Is(err, ErrIllegalMove) {
				t.Errorf("ParseMove(%s): %v, want an illegal-move error", c.move, err)
			}
		})
	}
}

// TestTankRemovingBothKingsDraws_T4 pins REC T4 and RULES 4.3: a
// detonation that removes both Kings at once is legal and draws.
func TestTankRemovingBothKingsDraws_T4(t *testing.T) {
	p := tankFEN(t, "8/8/3k4/8/3A4/8/3K4/8 w - - 0 1")
	p = playTexts(t, p, "d4d4")
	tankWantFEN(t, p, "8/8/8/8/8/8/8/8 b - - 0 1")
	if o := p.Outcome(); o.Result != Draw {
		t.Errorf("outcome %+v, want a draw", o)
	}
	if len(p.Legal(nil)) != 0 {
		t.Error("moves after both Kings were removed")
	}
}

// TestTankPushMechanics_T6 pins REC T6 with the seed's own example: after
// d4-d5, e4, f3, the Tank's h1-g2 pushes g2 to f3, f3 to e4, e4 to d5 and
// d5 to c6, and stops at the empty c6; had Black played c7-c6, the run
// goes on to b7 and a8 and pushes the Bomb on a8 off the board.
func TestTankPushMechanics_T6(t *testing.T) {
	p := tankFEN(t, "mnbakbnt/pppppppp/8/3P4/4P3/5P2/PPP3PP/MNBAKBNT w - - 0 4")
	tankWantFEN(t, playTexts(t, p, "h1g2"), "mnbakbnt/pppppppp/2P5/3P4/4P3/5P2/PPP3TP/MNBAKBN1 b - - 0 4")
	p = tankFEN(t, "mnbakbnt/pp1ppppp/2p5/3P4/4P3/5P2/PPP3PP/MNBAKBNT w - - 0 5")
	tankWantFEN(t, playTexts(t, p, "h1g2"), "pnbakbnt/pp1ppppp/2P5/3P4/4P3/5P2/PPP3TP/MNBAKBN1 b - - 0 5")
	// The whole first rank: the own Bomb goes off the board, the King is pushed.
	tankWantFEN(t, playTexts(t, mustVariant(t, "tank").Start(), "h1g1"), "mnbakbnt/pppppppp/8/8/8/8/PPPPPPPP/NBAKBNT1 b - - 0 1")
	// Only the contiguous run moves: the piece after the gap stays.
	p = tankFEN(t, "k7/8/8/8/8/8/8/TNB1N2K w - - 0 1")
	tankWantFEN(t, playTexts(t, p, "a1b1"), "k7/8/8/8/8/8/8/1TNBN2K b - - 1 1")
}

// TestTankPushOffTheBoard pins RULES 4.1: a piece pushed off the board is
// gone for good, a King included (from a position where Black left the
// King exposed, the push ends the game).
func TestTankPushOffTheBoard(t *testing.T) {
	p := tankFEN(t, "k6K/8/8/8/8/8/8/5TNn w - - 0 1")
	tankWantFEN(t, playTexts(t, p, "f1g1"), "k6K/8/8/8/8/8/8/6TN b - - 0 1")
	p = tankFEN(t, "7K/8/8/8/8/8/8/5Tbk w - - 0 1")
	p = playTexts(t, p, "f1g1")
	tankWantFEN(t, p, "7K/8/8/8/8/8/8/6Tb b - - 0 1")
	if o := p.Outcome(); o.Result != WhiteWins {
		t.Errorf("outcome %+v, want White to win", o)
	}
}

// TestTankPawnPushedOntoFirstRank_T10 pins RULES 4.2 and REC T10: a pawn
// pushed onto its own first rank moves one square forward only, still
// captures diagonally forward, and gives check that way.
func TestTankPawnPushedOntoFirstRank_T10(t *testing.T) {
	p := tankFEN(t, "4k3/8/8/8/8/3t4/3P4/7K b - - 5 1")
	p = playTexts(t, p, "d3d2")
	tankWantFEN(t, p, "4k3/8/8/8/8/8/3t4/3P3K w - - 0 2")
	p = playTexts(t, p, "h1g1", "d2c3")
	if !tankHas(p, "d1d2") || tankHas(p, "d1d3") {
		t.Errorf("pawn on its first rank: legal %v, want d1d2 and no d1d3", legalTexts(&p))
	}
	p = tankFEN(t, "4k3/8/8/8/8/8/2n5/3P3K w - - 0 1")
	if !tankHas(p, "d1c2") {
		t.Errorf("a pawn on its first rank cannot capture: %v", legalTexts(&p))
	}
	p = tankFEN(t, "8/8/8/8/8/8/4k3/3P3K b - - 0 1")
	if !p.InCheck() {
		t.Error("a pawn on its first rank gives no check")
	}
	// Black's pawn pushed onto rank 8 is on its first rank too.
	p = tankFEN(t, "3p3k/8/8/8/8/8/8/K7 b - - 0 1")
	tankWantLegal(t, p, "d8d7", "h8g8", "h8g7", "h8h7")
}

// TestTankPushedBackPawnDoubleSteps_T9 pins RULES 4.2 and REC T9: a pawn
// on its own second rank may double-step whatever its history, and that
// double step creates an en-passant right like any other.
func TestTankPushedBackPawnDoubleSteps_T9(t *testing.T) {
	p := tankFEN(t, "4k3/8/8/8/3pt3/4P3/8/K7 b - - 0 1")
	p = playTexts(t, p, "e4e3")
	tankWantFEN(t, p, "4k3/8/8/8/3p4/4t3/4P3/K7 w - - 0 2")
	p = playTexts(t, p, "a1b1", "e3f3", "e2e4")
	tankWantFEN(t, p, "4k3/8/8/8/3pP3/5t2/8/1K6 b - e3 0 3")
	p = playTexts(t, p, "d4e3")
	tankWantFEN(t, p, "4k3/8/8/8/8/4pt2/8/1K6 w - - 0 4")
}

// TestTankPushNeverCreatesEnPassant pins RULES 4.2: a push moves pawns but
// never leaves an en-passant right, and it ends one left by the opponent's
// double step.
func TestTankPushNeverCreatesEnPassant(t *testing.T) {
	p := tankFEN(t, "4k3/8/8/8/3p4/4P3/4T3/K7 w - - 0 1")
	p = playTexts(t, p, "e2e3")
	tankWantFEN(t, p, "4k3/8/8/8/3pP3/4T3/8/K7 b - - 0 1")
	if p.EnPassant() != NoSquare {
		t.Error("en passant after a push")
	}
	p = tankFEN(t, "4k3/8/8/8/3pP3/5t2/8/1K6 b - e3 0 3")
	p = playTexts(t, p, "f3e4")
	tankWantFEN(t, p, "4k3/8/8/3P4/3pt3/8/8/1K6 w - - 0 4")
}

// TestTankPawnPushedOntoLastRankPromotes_T2 pins RULES 4.2 and REC T2: a
// pawn pushed onto its last rank promotes at once, and the pusher
// chooses, one move per choice, also for the opponent's pawn.
func TestTankPawnPushedOntoLastRankPromotes_T2(t *testing.T) {
	p := tankFEN(t, "7k/3P4/3T4/8/8/8/8/4K3 w - - 3 1")
	for _, l := range "nbmat" {
		if !tankHas(p, "d6d7"+string(l)) {
			t.Errorf("no push d6d7%c: %v", l, legalTexts(&p))
		}
	}
	if tankHas(p, "d6d7") {
		t.Error("a push onto the last rank without promotion")
	}
	tankWantFEN(t, playTexts(t, p, "d6d7m"), "3M3k/3T4/8/8/8/8/8/4K3 b - - 0 1")
	// White pushes a Black pawn onto rank 1 and chooses what it becomes.
	p = tankFEN(t, "4k3/8/8/8/8/2T5/2p5/7K w - - 0 1")
	var pushes []string
	for _, s := range legalTexts(&p) {
		if strings.HasPrefix(s, "c3c2") {
			pushes = append(pushes, s)
		}
	}
	if want := []string{"c3c2a", "c3c2b", "c3c2m", "c3c2n", "c3c2t"}; !slices.Equal(pushes, want) {
		t.Errorf("pushes %v, want %v", pushes, want)
	}
	tankWantFEN(t, playTexts(t, p, "c3c2n"), "4k3/8/8/8/8/8/2T5/2n4K b - - 0 1")
	// A choice that would leave the pusher's King in check is not legal:
	// a Black Atomic bomb on c1 would threaten the King on e1.
	p = tankFEN(t, "4k3/8/8/8/8/2T5/2p5/4K3 w - - 0 1")
	if tankHas(p, "c3c2a") || !tankHas(p, "c3c2m") {
		t.Errorf("pushes with the King on e1: %v", legalTexts(&p))
	}
}

// TestTankPromotionSet_T1 pins REC T1: a pawn promotes to Knight, Bishop,
// Bomb, Atomic bomb or Tank; there are no Queens or Rooks.
func TestTankPromotionSet_T1(t *testing.T) {
	p := tankFEN(t, "7k/3P4/8/8/8/8/8/4K3 w - - 0 1")
	var promos []string
	for _, s := range legalTexts(&p) {
		if strings.HasPrefix(s, "d7d8") {
			promos = append(promos, s)
		}
	}
	if want := []string{"d7d8a", "d7d8b", "d7d8m", "d7d8n", "d7d8t"}; !slices.Equal(promos, want) {
		t.Errorf("promotions %v, want %v", promos, want)
	}
	if _, err := ParseMove(&p, "d7d8q"); err == nil {
		t.Error("promotion to a Queen accepted")
	}
}

// TestTankCheckByDetonationThreat pins RULES 4.3: a bomb of the opponent's
// in range of the King (one step for a Bomb, two for an Atomic bomb) is
// check, and the King must leave the range or take the bomb.
func TestTankCheckByDetonationThreat(t *testing.T) {
	for _, c := range []struct {
		fen   string
		check bool
	}{
		{"4k3/8/8/8/8/8/3m4/4K3 w - - 0 1", true},
		{"4k3/8/8/8/8/3m4/8/4K3 w - - 0 1", false},
		{"4k3/8/8/8/8/2a5/8/4K3 w - - 0 1", true},
		{"4k3/8/8/8/8/1a6/8/4K3 w - - 0 1", false},
	} {
		if p := tankFEN(t, c.fen); p.InCheck() != c.check {
			t.Errorf("%s: InCheck %v, want %v", c.fen, !c.check, c.check)
		}
	}
	tankWantLegal(t, tankFEN(t, "4k3/8/8/8/8/8/3m4/4K3 w - - 0 1"), "e1d2", "e1f1", "e1f2")
}

// TestTankCheckByPushThreat pins RULES 4.3: a Tank that could push the
// King off the board, however long the run in between, gives check.
func TestTankCheckByPushThreat(t *testing.T) {
	p := tankFEN(t, "8/8/8/8/5Tpk/8/8/K7 b - - 0 1")
	if !p.InCheck() {
		t.Error("Tf4 with g4 and h4 is not check")
	}
	tankWantLegal(t, p, "g4g3", "h4g3", "h4g5", "h4h3", "h4h5")
	if p := tankFEN(t, "8/8/8/8/1TPpNpbk/8/8/K7 b - - 0 1"); !p.InCheck() {
		t.Error("a Tank behind a run of six is not check")
	}
	if p := tankFEN(t, "8/8/8/8/1T1pNpbk/8/8/K7 b - - 0 1"); p.InCheck() {
		t.Error("a Tank behind a gap gives check")
	}
	// A push along the edge moves the King without taking it off: no check.
	if p := tankFEN(t, "8/8/8/8/8/8/8/K4Tk1 b - - 0 1"); p.InCheck() {
		t.Error("Tf1 next to Kg1 is check, but Tf1-g1 only pushes the King to h1")
	}
}

// TestTankMutualDestructionIsNotCheck_T5 pins REC T5: a detonation that
// would remove both Kings is not check (it would draw, not win), so the
// King may stand there; with the opponent's King out of range it is check.
func TestTankMutualDestructionIsNotCheck_T5(t *testing.T) {
	p := tankFEN(t, "8/3k4/8/3a4/8/3K4/8/8 w - - 0 1")
	if p.InCheck() {
		t.Error("a threat to blow up both Kings is check")
	}
	tankWantLegal(t, p, "d3c2", "d3d2", "d3e2", "d3c3", "d3e3", "d3c4", "d3d4", "d3e4")
	if p := tankFEN(t, "3k4/8/8/3a4/8/3K4/8/8 w - - 0 1"); !p.InCheck() {
		t.Error("a threat to blow up only the White King is not check")
	}
}

// TestTankFiftyMoveClock_T7 pins REC T7: the clock is reset by a pawn
// move, any pawn being pushed, a capture, a detonation or a removal by
// push, and by nothing else.
func TestTankFiftyMoveClock_T7(t *testing.T) {
	for _, c := range []struct {
		name, fen, move string
		want            int
	}{
		{"pawn move", "k7/8/8/8/8/8/4P3/K3T3 w - - 10 20", "e2e3", 0},
		{"pawn pushed", "k7/8/8/8/8/8/4P3/K3T3 w - - 10 20", "e1e2", 0},
		{"pawn in a run pushed", "k7/8/8/8/4p3/4P3/4N3/K3T3 w - - 10 20", "e1e2", 0},
		{"capture", "k7/8/8/8/8/8/4n3/K1N5 w - - 10 20", "c1e2", 0},
		{"detonation", "k7/8/8/8/8/4M3/8/K7 w - - 10 20", "e3e3", 0},
		{"piece pushed off", "k7/8/8/8/8/8/8/K4TNb w - - 10 20", "f1g1", 0},
		{"tank quiet step", "k7/8/8/8/8/8/8/K3T3 w - - 10 20", "e1e2", 11},
		{"bomb quiet step", "k7/8/8/8/8/8/8/K3M3 w - - 10 20", "e1e2", 11},
		{"pieces pushed, nothing off", "k7/8/8/8/8/8/4N3/K3T3 w - - 10 20", "e1e2", 11},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := playTexts(t, tankFEN(t, c.fen), c.move)
			if p.HalfmoveClock() != c.want {
				t.Errorf("clock %d after %s, want %d", p.HalfmoveClock(), c.move, c.want)
			}
		})
	}
}

// TestTankFiftyMoveRuleDraws pins RULES 4.3: 100 plies under the 50-move
// clock draw automatically, unless the last of them checkmates.
func TestTankFiftyMoveRuleDraws(t *testing.T) {
	p := tankFEN(t, "8/3k4/8/8/8/3m1p2/8/4K3 b - - 99 60")
	q := playTexts(t, p, "d7d6")
	if o := q.Outcome(); o.Result != Draw || o.Reason != "move-count rule" {
		t.Errorf("outcome %+v at clock 100, want a draw by the 50-move rule", o)
	}
	if moves := NewGame(q).Legal(); len(moves) != 0 {
		t.Error("a game goes on after the 50-move draw")
	}
	q = playTexts(t, p, "d3e2")
	if o := q.Outcome(); o.Result != BlackWins || o.Reason != "checkmate" {
		t.Errorf("outcome %+v after mate on the 100th ply, want checkmate", o)
	}
}

// TestTankThreefoldRepetitionDraws pins RULES 4.3: the third occurrence of
// a position ends the game in a draw at once (the seed's "tanks keep
// pushing each other" rule).
func TestTankThreefoldRepetitionDraws(t *testing.T) {
	g := NewGame(mustVariant(t, "tank").Start())
	play := func(moves string) {
		t.Helper()
		for _, s := range strings.Fields(moves) {
			p := g.Position()
			m, err := ParseMove(&p, s)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	play("g1f3 g8f6 f3g1 f6g8")
	if g.Outcome().Over() || g.Repetitions() != 2 {
		t.Fatalf("second occurrence: outcome %+v, repetitions %d", g.Outcome(), g.Repetitions())
	}
	play("g1f3 g8f6 f3g1 f6g8")
	if o := g.Outcome(); o.Result != Draw || o.Reason != "repetition" {
		t.Errorf("third occurrence: outcome %+v, want a draw by repetition", o)
	}
	if len(g.Legal()) != 0 {
		t.Error("moves after the repetition draw")
	}
}

// TestTankStalemateDraws pins RULES 4.3: no legal move without check is a draw.
func TestTankStalemateDraws(t *testing.T) {
	p := tankFEN(t, "k7/3N4/1K6/8/8/8/8/8 b - - 0 1")
	if o := p.Outcome(); o.Result != Draw || o.Reason != "stalemate" {
		t.Errorf("outcome %+v, want a draw by stalemate", o)
	}
}

// TestTankNoCastling pins RULES 4.3: there is no castling, so the FEN has
// no castling rights.
func TestTankNoCastling(t *testing.T) {
	v := mustVariant(t, "tank")
	if len(v.Castling) != 0 {
		t.Error("castling rules declared")
	}
	if _, err := ParseFEN(v, "mnbakbnt/pppppppp/8/8/8/8/PPPPPPPP/MNBAKBNT w KQkq - 0 1"); err == nil {
		t.Error("castling rights accepted")
	}
}

// TestTankOtherRulesAdopted_T3 pins REC T3: the seed's hedged "other
// rules" are all in force. Each has its own test: pushed pawns
// (TestTankPawnPushedOntoFirstRank_T10, TestTankPushedBackPawnDoubleSteps_T9,
// TestTankPawnPushedOntoLastRankPromotes_T2), the promotion set
// (TestTankPromotionSet_T1), no castling (TestTankNoCastling), the
// repetition draw (TestTankThreefoldRepetitionDraws), King loss
// (TestTankPushOffTheBoard, TestTankRemovingBothKingsDraws_T4) and checks
// (TestTankCheckByDetonationThreat, TestTankCheckByPushThreat); this test
// pins the declarations behind them.
func TestTankOtherRulesAdopted_T3(t *testing.T) {
	v := mustVariant(t, "tank")
	if v.Promotion.Choices != "NBMAT" || v.Promotion.Zone != 1 {
		t.Errorf("promotion %+v", v.Promotion)
	}
	if v.CheckRule || !v.RoyalCaptureLoses || v.Hooks.Check == nil || v.Hooks.Legal == nil {
		t.Error("check must be the Tank Chess check (hooks), with King loss")
	}
	if v.Stalemate != StalemateDraw || v.RepetitionAuto != 3 || v.DrawAutoPlies != 100 {
		t.Errorf("stalemate %v, repetition %d, move-count draw %d", v.Stalemate, v.RepetitionAuto, v.DrawAutoPlies)
	}
}

// TestTankSpecialMoveTexts pins the canonical texts: a detonation is the
// bomb's square twice, a push the Tank's squares plus the promotion
// letter; both are well-formed coordinate moves that read back (the
// promotion letter in either case), and an illegal detonation is refused
// as illegal, not as unreadable.
func TestTankSpecialMoveTexts(t *testing.T) {
	p := tankFEN(t, "7k/3P4/3T4/8/8/3M4/8/4K3 w - - 0 1")
	for _, c := range []struct{ in, want string }{
		{"d3d3", "d3d3"}, {"d6d7a", "d6d7a"}, {"d6d7T", "d6d7t"}, {"d6e7", "d6e7"},
	} {
		m, err := ParseMove(&p, c.in)
		if err != nil {
			t.Errorf("ParseMove(%s): %v", c.in, err)
			continue
		}
		if got := FormatMove(&p, m); got != c.want {
			t.Errorf("ParseMove(%s) formats as %s, want %s", c.in, got, c.want)
		}
	}
	for _, m := range p.Legal(nil) {
		if err := checkCoordSyntax(FormatMove(&p, m)); err != nil {
			t.Errorf("%s is not a well-formed coordinate move: %v", FormatMove(&p, m), err)
		}
	}
	m, _ := ParseMove(&p, "d3d3")
	if m.Kind != KindSpecial || m.From != m.To || m.Extra != tankDetonate {
		t.Errorf("d3d3 is %+v", m)
	}
	m, _ = ParseMove(&p, "d6d7n")
	if m.Kind != KindSpecial || m.Promotion != tankKnight || m.Extra != tankPush {
		t.Errorf("d6d7n is %+v", m)
	}
	p = tankFEN(t, "4k3/8/8/8/8/8/4M3/4K3 w - - 0 1")
	if _, err := ParseMove(&p, "e2e2"); !errors.Is(err, ErrIllegalMove) || !strings.Contains(err.Error(), "it would remove your own King and not the enemy's") {
		t.Errorf("ParseMove(e2e2) next to the own King: %v, want an illegal-move error", err)
	}
}

// TestTankMalformedSpecialMoves pins that Apply never panics on special
// moves it did not generate (Position.After promises no panic) and leaves
// the board alone.
func TestTankMalformedSpecialMoves(t *testing.T) {
	p := mustVariant(t, "tank").Start()
	sq := func(s string) Square { q, _ := ParseSquare(s); return q }
	for _, m := range []Move{
		{From: sq("e4"), To: sq("e5"), Kind: KindSpecial, Extra: tankPush},
		{From: sq("h1"), To: sq("h3"), Kind: KindSpecial, Extra: tankPush},
		{From: sq("h1"), To: sq("g3"), Kind: KindSpecial, Extra: tankPush},
		{From: sq("a1"), To: sq("a2"), Kind: KindSpecial, Extra: tankPush},
		{From: sq("b1"), To: sq("b1"), Kind: KindSpecial, Extra: tankDetonate},
		{From: sq("a1"), To: sq("a1"), Kind: KindSpecial, Extra: 7},
		{From: NoSquare, To: NoSquare, Kind: KindSpecial, Extra: tankDetonate},
		{From: sq("l12"), To: sq("k11"), Kind: KindSpecial, Extra: tankPush},
	} {
		next, _ := p.After(m)
		if got, want := strings.Fields(next.FEN())[0], strings.Fields(p.FEN())[0]; got != want {
			t.Errorf("%+v changed the board to %s", m, got)
		}
	}
}

// tankPerftCases are the positions whose depth 1 and 2 counts were
// checked by hand; testdata/perft/tank.perft gives the reasoning and the
// deeper (regression) counts.
var tankPerftCases = []struct {
	name, fen string
	want      []uint64
}{
	// 16 pawn moves, 4 knight moves, a1a1, 3 Tank pushes = 24; Black has
	// the same 24 replies to each = 576.
	{"start", "mnbakbnt/pppppppp/8/8/8/8/PPPPPPPP/MNBAKBNT w - - 0 1", []uint64{24, 576}},
	// 8 King moves, 8 Bomb steps, d3d3, f3f2 = 18; White's replies
	// 8x3 + (2+3+0+3+2+4+4+4) + 4 + 3 = 53.
	{"seed-bomb", "8/3k4/8/8/8/3m1p2/8/4K3 b - - 0 1", []uint64{18, 53}},
	// 7 King, 7 Knight, 6 quiet Tank moves, 2 pushes = 22; Black's
	// replies 7x1 + (2+3+3+3+3+2+3) + 6x1 + 1 + 3 = 36.
	{"seed-tank", "7k/8/5N2/4T3/4K3/8/8/8 w - - 0 1", []uint64{22, 36}},
	// 5 promotions, 7 quiet Tank steps, 5 promoting pushes, 5 King moves
	// = 22; Black always has g8, g7, h7 = 66.
	{"push-promotion", "7k/3P4/3T4/8/8/8/8/4K3 w - - 0 1", []uint64{22, 66}},
	// T5: 8 King moves; Black's replies 3x16 + 2x17 + 3x16 = 130.
	{"mutual-threat", "8/3k4/8/3a4/8/3K4/8/8 w - - 0 1", []uint64{8, 130}},
	// In check by a push: 4 King moves and g4g3 = 5; 11 replies each = 55.
	{"push-check", "8/8/8/8/5Tpk/8/8/K7 b - - 0 1", []uint64{5, 55}},
}

// tankPerftLimit is the largest perft row TestTankPerft runs: Tank Chess
// plays every candidate move in full, so its perft is some 30 times
// slower than chess's and the package's node limit would take seconds.
func tankPerftLimit() uint64 {
	switch {
	case *perftLong:
		return perftLimit()
	case testing.Short():
		return 20_000
	}
	return 400_000
}

// TestTankPerft pins move generation with perft: the hand-checked
// positions above, then the rows of testdata/perft/tank.perft up to
// tankPerftLimit nodes (all of them with -perft.long).
func TestTankPerft(t *testing.T) {
	v := mustVariant(t, "tank")
	for _, c := range tankPerftCases {
		t.Run(c.name, func(t *testing.T) {
			p := tankFEN(t, c.fen)
			for i, want := range c.want {
				checkPerft(t, &p, i+1, want)
			}
		})
	}
	f, err := os.Open(filepath.Join("testdata", "perft", "tank.perft"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := parsePerft(f)
	if err != nil {
		t.Fatalf("tank.perft: %v", err)
	}
	limit := tankPerftLimit()
	for _, c := range cases {
		t.Run("file/"+c.ID, func(t *testing.T) {
			t.Parallel()
			p, err := ParseFEN(v, c.EPD)
			if err != nil {
				t.Fatalf("tank.perft line %d: %v", c.Line, err)
			}
			for _, row := range c.Rows {
				if row.Nodes <= limit {
					checkPerft(t, &p, row.Depth, row.Nodes)
				}
			}
		})
	}
}

// tankThreatSlow is the definition of check that tankThreatened
// implements: c's opponent, to move, has a pseudo-legal move after which
// c's King is gone and their own is not.
func tankThreatSlow(p *Position, c Color) bool {
	if p.royal[c.index()] == NoSquare {
		return false
	}
	q := *p
	q.toAct, q.mover, q.ep, q.epVictim = c.Other(), c.Other(), NoSquare, NoSquare
	var after Position
	for _, m := range q.pseudoLegal(nil) {
		q.playInto(m, &after)
		if after.royal[c.index()] == NoSquare && after.royal[c.Other().index()] != NoSquare {
			return true
		}
	}
	return false
}

// TestTankCheckTestMatchesDefinition pins the fast check test against its
// definition (tankThreatSlow) for both sides on random sparse positions
// with Kings on and near the edges, runs of pieces, Tanks and bombs of
// both kinds, where play-outs rarely go.
func TestTankCheckTestMatchesDefinition(t *testing.T) {
	v := mustVariant(t, "tank")
	n := 20000
	if testing.Short() {
		n = 2000
	}
	rng := rand.New(rand.NewPCG(3, 0x7a4b))
	const letters = "PNBMATpnbmat"
	checks := 0
	for i := 0; i < n; i++ {
		var board [64]byte
		place := func(l byte) {
			for {
				s := rng.IntN(64)
				r := s / 8
				if board[s] != 0 || (l == 'P' && r == 7) || (l == 'p' && r == 0) {
					continue
				}
				board[s] = l
				return
			}
		}
		place('K')
		place('k')
		for j := rng.IntN(16); j > 0; j-- {
			place(letters[rng.IntN(len(letters))])
		}
		var b strings.Builder
		for r := 7; r >= 0; r-- {
			empty := 0
			for f := 0; f < 8; f++ {
				if l := board[r*8+f]; l != 0 {
					if empty > 0 {
						b.WriteByte(byte('0' + empty))
						empty = 0
					}
					b.WriteByte(l)
				} else {
					empty++
				}
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
			}
			if r > 0 {
				b.WriteByte('/')
			}
		}
		b.WriteString(" w - - 0 1")
		p, err := ParseFEN(v, b.String())
		if err != nil {
			t.Fatalf("%s: %v", b.String(), err)
		}
		for _, c := range []Color{White, Black} {
			got, want := tankThreatened(&p, c), tankThreatSlow(&p, c)
			if got != want {
				t.Fatalf("%s: the check test for %s says %v, playing every move says %v", p.FEN(), c, got, want)
			}
			if got {
				checks++
			}
		}
	}
	t.Logf("%d positions, %d sides in check", n, checks)
}

// tankPieces counts the pieces on the board.
func tankPieces(p *Position) int {
	n := 0
	for c := 0; c < 2; c++ {
		for _, k := range p.count[c] {
			n += int(k)
		}
	}
	return n
}

// TestTankRandomPlayouts plays seeded random games (1000, 100 with
// -short) to their end or 300 plies. At every ply: the FEN round-trips
// with the same hash; the piece count never grows; neither side has more
// than one King; the side that just moved is not in check; and at every
// third ply (they are costly) every legal move has a unique canonical
// text, the fast check test agrees with playing out every opponent move
// for both sides, and the outcome agrees with the legal moves. The third
// occurrence of a position ends the game. At the end, the canonical texts,
// read with ParseMove and played from the start, reproduce the final
// position and its outcome.
func TestTankRandomPlayouts(t *testing.T) {
	v := mustVariant(t, "tank")
	games := 1000
	if testing.Short() {
		games = 100
	}
	const maxPlies = 300
	const workers = 2
	var mu sync.Mutex
	ends := map[string]int{}
	t.Run("group", func(t *testing.T) {
		for w := 0; w < workers; w++ {
			t.Run(fmt.Sprint(w), func(t *testing.T) {
				t.Parallel()
				local := map[string]int{}
				for g := w; g < games; g += workers {
					local[tankPlayout(t, v, uint64(g), maxPlies)]++
					if t.Failed() {
						return
					}
				}
				mu.Lock()
				defer mu.Unlock()
				for k, n := range local {
					ends[k] += n
				}
			})
		}
	})
	t.Logf("%d games: %v", games, ends)
}

// tankPlayout plays one random game and returns how it ended ("cap" when
// it reached maxPlies).
func tankPlayout(t *testing.T, v *Variant, seed uint64, maxPlies int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x7a4b))
	p := v.Start()
	seen := map[uint64]int{p.Hash(): 1}
	var texts []string
	fail := func(format string, args ...any) string {
		t.Errorf("game %d after %v: %s", seed, texts, fmt.Sprintf(format, args...))
		return "failed"
	}
	var o Outcome
	for ply := 0; ; ply++ {
		legal := p.Legal(nil)
		deep := ply%3 == 0
		if len(legal) == 0 || deep || p.halfmove >= v.DrawAutoPlies {
			o = p.Outcome()
			if err := tankOutcomeAgrees(&p, o, len(legal)); err != "" {
				return fail("%s: %s", p.FEN(), err)
			}
		}
		if deep {
			for _, c := range []Color{White, Black} {
				if got, want := tankThreatened(&p, c), tankThreatSlow(&p, c); got != want {
					return fail("%s: the check test for %s says %v, playing every move says %v", p.FEN(), c, got, want)
				}
			}
			written := map[string]bool{}
			for _, m := range legal {
				s := FormatMove(&p, m)
				if written[s] {
					return fail("%s: two legal moves written %s", p.FEN(), s)
				}
				written[s] = true
			}
		}
		if o.Over() {
			break
		}
		if seen[p.Hash()] >= 3 {
			o = Outcome{Result: Draw, Reason: "repetition"}
			break
		}
		if ply == maxPlies {
			o = Outcome{}
			break
		}
		m := legal[rng.IntN(len(legal))]
		texts = append(texts, FormatMove(&p, m))
		var q Position
		p.playInto(m, &q)
		r, err := ParseFEN(v, q.FEN())
		if err != nil || r.FEN() != q.FEN() || r.Hash() != q.Hash() {
			return fail("FEN %s does not round-trip: %v", q.FEN(), err)
		}
		if tankPieces(&q) > tankPieces(&p) {
			return fail("%s: %s adds pieces", p.FEN(), texts[len(texts)-1])
		}
		for c := 0; c < 2; c++ {
			if q.count[c][tankKing] > 1 {
				return fail("%s: two Kings", q.FEN())
			}
		}
		if tankThreatened(&q, p.toAct) {
			return fail("%s: %s leaves the mover in check", p.FEN(), texts[len(texts)-1])
		}
		p = q
		seen[p.Hash()]++
	}
	replay := v.Start()
	for _, s := range texts {
		m, err := ParseMove(&replay, s)
		if err != nil {
			return fail("replay %s: %v", s, err)
		}
		replay, _ = replay.After(m) // legal: ParseMove returned it
	}
	if replay.FEN() != p.FEN() || replay.Hash() != p.Hash() {
		return fail("replay ends in %s, the game in %s", replay.FEN(), p.FEN())
	}
	if got := replay.Outcome(); got != o && o.Reason != "repetition" {
		return fail("the replayed position's outcome is %+v, the play-out's %+v", got, o)
	}
	if !o.Over() {
		return "cap"
	}
	return string(o.Reason)
}

// tankOutcomeAgrees explains how the outcome o of p contradicts its number
// of legal moves n, or returns "".
func tankOutcomeAgrees(p *Position, o Outcome, n int) string {
	check := p.InCheck()
	switch o.Reason {
	case "":
		if n == 0 || o.Result != Ongoing || p.halfmove >= p.v.DrawAutoPlies {
			return fmt.Sprintf("outcome %+v with %d legal moves", o, n)
		}
	case "checkmate":
		if n != 0 || !check || o.Result != WinFor(p.toAct.Other()) {
			return fmt.Sprintf("checkmate %+v with %d moves, check %v", o, n, check)
		}
	case "stalemate":
		if n != 0 || check || o.Result != Draw {
			return fmt.Sprintf("stalemate %+v with %d moves, check %v", o, n, check)
		}
	case "both kings captured":
		if n != 0 || p.royal[0] != NoSquare || p.royal[1] != NoSquare || o.Result != Draw {
			return fmt.Sprintf("%+v with a King on the board or %d moves", o, n)
		}
	case "move-count rule":
		// The 50-move draw; a mate or stalemate on the 100th ply stands.
		if n == 0 || p.halfmove < p.v.DrawAutoPlies || o.Result != Draw {
			return fmt.Sprintf("%+v at clock %d with %d moves", o, p.halfmove, n)
		}
	default:
		// "king captured" cannot happen in play: the loser would have
		// left the King in check.
		return fmt.Sprintf("unexpected outcome %+v", o)
	}
	if o.Reason != "both kings captured" && (p.royal[0] == NoSquare || p.royal[1] == NoSquare) {
		return fmt.Sprintf("a King is gone but the outcome is %+v", o)
	}
	return ""
}
