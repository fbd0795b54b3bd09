package notation

import (
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// Positions of the errors players met (issue 12, section 3).
const (
	// White holds a captured Queen and its own pocketed Rook and Pawn in
	// the Demotion pocket, nothing in the Safe pocket; d2 is empty.
	fenColdFusionPockets = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NB1KCABN1/R8R[D:QR*P*] w - - 0 1"
	// Black's Queen on d5 is attacked by the Rook on d1: its King is frozen.
	fenEasymateFrozen = "4k3/8/8/3q4/8/8/8/3RK3 b - - 0 1"
	// b1 and c1 are empty, d1 holds the Queen: only the Queen castles long.
	fenTrainWreckQueenCastle = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R2QKBNR w KQkqHAha - 0 1"
	// White moves a Black piece (the second half-move).
	fenTrainWreckSecondHalf = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w1 KQkqHAha - 0 2"
	// The Tank on h6 pushes the pawn on h7 onto h8.
	fenTankPromotingPush = "4k3/7P/7T/8/8/8/8/4K3 w - - 0 1"
	fenAnnihilationHand  = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w - - 0 1"
)

// TestErrorsNameTheReason pins the message of every error a new player
// met (issue 12, section 3): each names the reason and, where a legal
// move was probably meant, suggests it.
func TestErrorsNameTheReason(t *testing.T) {
	bad, illegal := rules.ErrBadMove, rules.ErrIllegalMove
	r := newRegistry(t)
	for _, c := range []errorCase{
		{"cold fusion pawn drop from the empty Safe pocket", "coldfusion", fenColdFusionPockets, "P@g6", illegal,
			"illegal move: P@g6: a drop written P@ comes from the Safe pocket, and White's holds no Pawn (did you mean P*=P@g6?)"},
		{"cold fusion captured Queen dropped undemoted", "coldfusion", fenColdFusionPockets, "Q@d2", illegal,
			"illegal move: Q@d2: a drop written Q@ comes from the Safe pocket, and White's holds no Queen (did you mean Q=C@d2?)"},
		{"cold fusion own Rook dropped undemoted", "coldfusion", fenColdFusionPockets, "R@g7", illegal,
			"illegal move: R@g7: a drop written R@ comes from the Safe pocket, and White's holds no Rook (did you mean R*=B@g7?)"},
		{"cold fusion demoted drop landing as the wrong piece", "coldfusion", fenColdFusionPockets, "Q=A@d2", illegal,
			"a Queen from the Demotion pocket is dropped demoted, as a Marshal (Q=C) (did you mean Q=C@d2?)"},
		{"cold fusion drop on a taken square", "coldfusion", fenColdFusionPockets, "Q=C@e2", illegal,
			"e2 is taken: a piece is dropped only on an empty square"},
		{"cold fusion captured entry the pocket lacks", "coldfusion", fenColdFusionPockets, "R=B@g6", illegal,
			"White's Demotion pocket holds no captured Rook (did you mean R*=B@g6?)"},
		{"easymate frozen King", "easymate", fenEasymateFrozen, "Ke7", illegal,
			"illegal move: Ke7: the King is frozen: it may not move while its Queen is attacked (the Queen on d5 is)"},
		{"train wreck King's castling blocked by the Queen", "trainwreck", fenTrainWreckQueenCastle, "O-O-O", illegal,
			"illegal move: O-O-O: castling O-O-O needs d1 empty (did you mean QO-O-O?)"},
		{"train wreck enemy King in the second half-move", "trainwreck", fenTrainWreckSecondHalf, "Ke7", illegal,
			"illegal move: Ke7: the enemy King may not be moved: in this half-move you move one of Black's other pieces"},
		{"tank push that must promote", "tank", fenTankPromotingPush, "Th6-h7", illegal,
			"illegal move: Th6-h7: this push puts a pawn on its last rank: add = and the letter of the piece it becomes (did you mean Th6-h7=N, Th6-h7=B, Th6-h7=M, Th6-h7=A or Th6-h7=T?)"},
		{"tank detonation of a missing bomb", "tank", "", "A*e2", illegal, "illegal move: A*e2: there is no White Atomic bomb on e2"},
		{"tank detonation of a piece that is no bomb", "tank", "", "N*b1", illegal, "only a Bomb (M) or an Atomic bomb (A) detonates, not a Knight"},
		{"tank push from a square without a Tank", "tank", fenTankPromotingPush, "Tg6-h7=N", illegal, "there is no White Tank on g6"},
		{"tank push onto an empty square with a promotion", "tank", fenTankPromotingPush, "Th6-g6=N", illegal, "g6 is empty, so the Tank steps there without pushing anything: write Tg6"},
		{"crazyhouse drop on a taken square", "crazyhouse", fenHand, "N@e2", illegal,
			"illegal move: N@e2: e2 is taken by a White Pawn: a piece is dropped only on an empty square"},
		{"annihilation drop on a square none of the dropper's pieces attacks", "annihilation", fenAnnihilationHand, "N@e5", illegal,
			"illegal move: N@e5: a piece is dropped only on a square one of your pieces attacks, and no White piece attacks e5"},
		{"grand Marshal written M", "grand", "", "Mg4", illegal,
			"illegal move: Mg4: M is not a piece of Grand Chess: its Marshal is written C"},
		{"generic error with the variant's own examples", "tank", "", "hello", bad,
			`unreadable move: "hello": neither a coordinate move nor SAN: expected a move like Nc3, a3, M*a1 or Th1-h2 (in coordinates, Nc3 is b1c3)`},
		{"generic error of a variant with drops", "coldfusion", fenColdFusionPockets, "zz", bad, "expected a move like Ra2, a4, R&j1=W, Cf2/Rf1, Q=C@b1 or R*=B@b1 (in coordinates, Ra2 is a1a2)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := position(t, r, c.key, c.fen)
			_, err := ParseMove(&p, c.text)
			checkError(t, err, c)
		})
	}
}

// TestNearMovesGrandMarshal pins that a Marshal written "M" is matched to
// the legal Marshal move to the same square.
func TestNearMovesGrandMarshal(t *testing.T) {
	r := newRegistry(t)
	p := position(t, r, "grand", "k9/10/10/10/10/10/10/10/10/K1C7 w - - 0 1")
	_, err := ParseMove(&p, "Mc5")
	checkError(t, err, errorCase{text: "Mc5", kind: rules.ErrIllegalMove,
		msg: "illegal move: Mc5: M is not a piece of Grand Chess: its Marshal is written C (did you mean Cc5?)"})
}

// TestNearMovesLeaveChessAlone pins that suggestions stay out of plain
// chess errors whose reason already fits: no other move is offered for
// a blocked piece, nor "O-O-O" for a refused "O-O".
func TestNearMovesLeaveChessAlone(t *testing.T) {
	r := newRegistry(t)
	for _, c := range []struct{ fen, text string }{
		{"", "Bb5"},
		{"r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1", "O-O"},
		{"4k3/4r3/8/8/8/8/4N3/1N2K3 w - - 0 1", "Nec3"},
	} {
		p := position(t, r, "chess", c.fen)
		_, err := ParseMove(&p, c.text)
		if err == nil {
			t.Fatalf("%s: %q accepted", c.fen, c.text)
		}
		if s := err.Error(); strings.Contains(s, "did you mean") {
			t.Errorf("%s: %q: %q suggests a move", c.fen, c.text, s)
		}
	}
}

// TestWinningRefusals pins Winning Chess's reasons in the response window
// and the Attacker's second step.
func TestWinningRefusals(t *testing.T) {
	illegal := rules.ErrIllegalMove
	r := newRegistry(t)
	const (
		window = "rtcnaqkdnctr/pppppppppppp/12/12/12/5A6/PPPPPPPPPPPP/RTCN1QKDNCTR b2 KQkq - 0 1 -/f3n/-"
		second = "rtcnaqkdnctr/pppppppppppp/12/12/12/5A6/PPPPPPPPPPPP/RTCN1QKDNCTR w3 KQkq - 0 1 -/f3n/-"
	)
	for _, c := range []errorCase{
		{"a pawn in the response window", "winning", window, "a6", illegal,
			"illegal move: a6: only a Defender may answer the Attacker now: move a Defender, or pass"},
		{"another piece for the second step", "winning", second, "Nc3", illegal,
			"illegal move: Nc3: only the Attacker on f3 may move now, for its second step, or pass"},
		{"a second Knight leap", "winning", second, "Ag5", illegal,
			"illegal move: Ag5: after a Knight leap, the Attacker's second step must be a Bishop step"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := position(t, r, c.key, c.fen)
			_, err := ParseMove(&p, c.text)
			checkError(t, err, c)
		})
	}
}

// TestNearMovesKeepToTheShape pins that a drop onto an occupied square is
// not answered with a capture by a piece on the board.
func TestNearMovesKeepToTheShape(t *testing.T) {
	r := newRegistry(t)
	p := position(t, r, "crazyhouse", "4k3/8/8/4p3/8/5N2/8/4K3[N] w - - 0 1")
	_, err := ParseMove(&p, "N@e5")
	checkError(t, err, errorCase{text: "N@e5", kind: rules.ErrIllegalMove,
		msg: "illegal move: N@e5: e5 is taken by a Black Pawn: a piece is dropped only on an empty square"})
	if strings.Contains(err.Error(), "did you mean") {
		t.Errorf("%v: suggests a move of another kind", err)
	}
}
