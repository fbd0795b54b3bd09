package rules

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// annVariant returns the annihilation variant with options ("" = defaults).
func annVariant(tb testing.TB, options string) *Variant {
	tb.Helper()
	return mustVariantWith(tb, "annihilation", options)
}

// annDrops returns the legal moves of p whose text starts with prefix
// ("N@" for the knight drops), sorted.
func annDrops(p *Position, prefix string) []string {
	var out []string
	for _, s := range legalTexts(p) {
		if strings.HasPrefix(s, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// annRefused checks that text is not a legal move in p: ParseMove refuses
// it as illegal, or as unreadable where the form itself is not one of the
// variant's moves (a drop-capture "N@xa5" without the option, or one that
// is not legal).
func annRefused(t *testing.T, p *Position, text string) {
	t.Helper()
	if _, err := ParseMove(p, text); !errors.Is(err, ErrIllegalMove) && !(strings.Contains(text, "@x") && errors.Is(err, ErrBadMove)) {
		t.Errorf("in %s: ParseMove(%s) = %v, want an illegal move", p.FEN(), text, err)
	}
}

// annOutcome checks p's outcome.
func annOutcome(t *testing.T, p *Position, want Outcome) {
	t.Helper()
	if got := p.Outcome(); got != want {
		t.Errorf("outcome of %s = %+v, want %+v", p.FEN(), got, want)
	}
	if over, n := p.Outcome().Over(), len(p.Legal(nil)); over != (n == 0) {
		t.Errorf("%s: over %v with %d legal moves", p.FEN(), over, n)
	}
}

// TestAnnihilationPerftIssueNumbers pins issue 3's counts from the orthodox
// array without castling rights (King an ordinary piece, pass included;
// two passes end the game): 21, 441, 10187, computed by an independent
// implementation of the same rules.
func TestAnnihilationPerftIssueNumbers(t *testing.T) {
	v := annVariant(t, "")
	p := mustFEN(t, v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1")
	if got, want := v.Start().String(), p.FEN(); got != want {
		t.Errorf("Variant.Start = %s, want %s", got, want)
	}
	for i, want := range []uint64{21, 441, 10187} {
		checkPerft(t, &p, i+1, want)
	}
}

// TestAnnihilationPerftFile runs testdata/perft/annihilation.perft: the
// issue's numbers and positions counted by hand at depths 1 and 2.
func TestAnnihilationPerftFile(t *testing.T) {
	v := annVariant(t, "")
	for _, c := range loadPerft(t, "annihilation") {
		p := mustFEN(t, v, c.EPD)
		for _, row := range c.Rows {
			t.Run(fmt.Sprintf("%s/depth%d", c.ID, row.Depth), func(t *testing.T) {
				checkPerft(t, &p, row.Depth, row.Nodes)
			})
		}
	}
}

// TestAnnihilationPerftDropCapture counts by hand a position where one
// drop-capture is possible, with and without the option:
//
//	7k/8/8/n7/8/8/8/R7[N] w: Ra1 has a2 a3 a4 xa5 and b1-h1 (11 moves),
//	N drops on the empty attacked squares a2-a4, b1-h1 (10), pass (1):
//	22, plus N@xa5 with the option: 23. Black then has 8 replies (knight
//	a5: b7 c6 c4 b3; king h8: g8 g7 h7; pass), only 4 when the knight was
//	taken (Rxa5, N@xa5): 20*8 + 4 = 164 + 8 (pass) = 172 without, 176 with.
func TestAnnihilationPerftDropCapture(t *testing.T) {
	const fen = "7k/8/8/n7/8/8/8/R7[N] w - - 0 1"
	for _, c := range []struct {
		options string
		want    []uint64
	}{
		{"", []uint64{22, 172}},
		{"dropcapture=off", []uint64{22, 172}},
		{"dropcapture=on", []uint64{23, 176}},
	} {
		t.Run(c.options, func(t *testing.T) {
			p := mustFEN(t, annVariant(t, c.options), fen)
			for i, want := range c.want {
				checkPerft(t, &p, i+1, want)
			}
		})
	}
}

// TestAnnihilationKingIsAnOrdinaryPiece pins docs/variants/annihilation.md: no check, the
// King may move into attack and be captured, goes to the captor's hand,
// may be dropped, and a side may have several Kings.
func TestAnnihilationKingIsAnOrdinaryPiece(t *testing.T) {
	v := annVariant(t, "")
	p := mustFEN(t, v, "4k3/8/8/8/8/8/3q3P/4K3[] w - - 0 1")
	if p.InCheck() {
		t.Error("a King attacked by a Queen is in check")
	}
	legal := legalTexts(&p)
	for _, want := range []string{"e1d1", "e1e2", "e1f2", "e1d2", "h2h3", "pass"} {
		if !slices.Contains(legal, want) {
			t.Errorf("%s is not legal with the King attacked: %v", want, legal)
		}
	}
	p = mustPlay(t, mustFEN(t, v, "4k3/8/8/8/8/8/3q3P/4K3[] b - - 0 1"), "d2e1")
	if got, want := p.FEN(), "4k3/8/8/8/8/8/7P/4q3[k] w - - 0 2"; got != want {
		t.Fatalf("after Qxe1: %s, want %s", got, want)
	}
	annOutcome(t, &p, Outcome{})
	p = mustPlay(t, p, "h2h3 K@e2")
	if got, want := p.FEN(), "4k3/8/8/8/8/7P/4k3/4q3[] w - - 1 3"; got != want {
		t.Fatalf("after K@e2: %s, want %s", got, want)
	}
	if n := p.Count(Black, v.Type('K')); n != 2 {
		t.Errorf("Black has %d Kings, want 2", n)
	}
	q := mustFEN(t, v, "kk6/8/8/8/8/8/8/KKK5[KK] w - - 0 1")
	if n := q.Count(White, v.Type('K')) + q.Pocket(White, v.Type('K')); n != 5 {
		t.Errorf("White has %d Kings, want 5", n)
	}
}

// TestAnnihilationNoCastling pins docs/variants/annihilation.md: there are no castling
// rights to write and no castling move.
func TestAnnihilationNoCastling(t *testing.T) {
	v := annVariant(t, "")
	if _, err := ParseFEN(v, "r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1"); !errors.Is(err, ErrBadFEN) {
		t.Errorf("castling rights accepted: %v", err)
	}
	p := mustFEN(t, v, "r3k2r/8/8/8/8/8/8/R3K2R[] w - - 0 1")
	annRefused(t, &p, "e1g1")
	annRefused(t, &p, "e1c1")
}

// TestAnnihilationDropsOnlyOnAttackedEmptySquares pins docs/variants/annihilation.md: a
// drop lands only on an empty square that a piece of the dropper's on the
// board attacks; pieces in hand attack nothing.
func TestAnnihilationDropsOnlyOnAttackedEmptySquares(t *testing.T) {
	v := annVariant(t, "")
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3[Nq] w - - 0 1")
	want := []string{"N@d1", "N@d2", "N@e2", "N@f1", "N@f2"}
	if got := annDrops(&p, "N@"); !slices.Equal(got, want) {
		t.Errorf("knight drops %v, want %v", got, want)
	}
	annRefused(t, &p, "N@e4")
	annRefused(t, &p, "N@e1") // attacked by nothing, and occupied
	p = mustPlay(t, p, "pass")
	want = []string{"Q@d7", "Q@d8", "Q@e7", "Q@f7", "Q@f8"}
	if got := annDrops(&p, "Q@"); !slices.Equal(got, want) {
		t.Errorf("queen drops %v, want %v", got, want)
	}
	// Empty hands: no drops at all, and an attacked square is no exception.
	q := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1")
	annRefused(t, &q, "N@e2")
}

// TestAnnihilationPawnDropRanks pins docs/variants/annihilation.md: the crazyhouse limits
// on pawn drops still apply (not on the dropper's first or last rank),
// even on attacked squares; a pawn dropped on its second rank may step
// twice.
func TestAnnihilationPawnDropRanks(t *testing.T) {
	v := annVariant(t, "")
	p := mustFEN(t, v, "7k/8/8/8/8/8/8/R7[P] w - - 0 1")
	want := []string{"P@a2", "P@a3", "P@a4", "P@a5", "P@a6", "P@a7"}
	if got := annDrops(&p, "P@"); !slices.Equal(got, want) {
		t.Errorf("white pawn drops %v, want %v", got, want)
	}
	p = mustPlay(t, p, "P@a2 pass a2a4")
	if got, want := p.FEN(), "7k/8/8/8/P7/8/8/R7[] b - - 0 2"; got != want {
		t.Errorf("after P@a2 pass a2a4: %s, want %s", got, want)
	}
	q := mustFEN(t, v, "r6k/8/8/8/8/8/8/7K[p] b - - 0 1")
	want = []string{"p@a2", "p@a3", "p@a4", "p@a5", "p@a6", "p@a7", "p@g7", "p@h7"}
	got := annDrops(&q, "P@")
	for i := range got {
		got[i] = strings.ToLower(got[i][:1]) + got[i][1:]
	}
	if !slices.Equal(got, want) {
		t.Errorf("black pawn drops %v, want %v", got, want)
	}
	annRefused(t, &q, "P@a1")
	annRefused(t, &q, "P@g8")
}

// TestAnnihilationZ2AttackedIsTheCapturePattern pins Z2: a drop square is
// attacked when a piece of the dropper's could capture there: pawns
// diagonally forward only (not their push squares), sliders stopped by
// the first piece of either colour.
func TestAnnihilationZ2AttackedIsTheCapturePattern(t *testing.T) {
	v := annVariant(t, "")
	p := mustFEN(t, v, "7k/8/p7/8/4P3/8/B7/R7[N] w - - 0 1")
	// Ra1 is stopped by the own Bishop on a2 (a3 not attacked by it); the
	// Bishop reaches b3 c4 d5 e6 f7 g8 and b1; the pawn e4 attacks d5 f5.
	want := []string{"N@b1", "N@b3", "N@c1", "N@c4", "N@d1", "N@d5", "N@e1", "N@e6", "N@f1", "N@f5", "N@f7", "N@g1", "N@g8", "N@h1"}
	if got := annDrops(&p, "N@"); !slices.Equal(got, want) {
		t.Errorf("knight drops %v, want %v", got, want)
	}
	for _, s := range []string{"N@e5", "N@d3", "N@f3", "N@a3", "N@a7"} {
		annRefused(t, &p, s)
	}
	// An enemy piece stops a slider too: a7 beyond Black's a6 pawn.
	q := mustFEN(t, v, "7k/8/p7/8/8/8/8/R7[N] w - - 0 1")
	mustPlay(t, q, "N@a5")
	annRefused(t, &q, "N@a7")
}

// TestAnnihilationDropCaptureOnlyWithOption pins the optional rule of
// docs/variants/annihilation.md (off by default): with dropcapture=on a piece may be
// dropped on an enemy piece standing on a square the dropper attacks,
// capturing it into hand ("N@xa5"); never on an own piece or an
// unattacked enemy, and pawns keep their rank limits.
func TestAnnihilationDropCaptureOnlyWithOption(t *testing.T) {
	const fen = "7k/8/8/n7/8/8/8/R7[N] w - - 0 1"
	off := mustFEN(t, annVariant(t, ""), fen)
	annRefused(t, &off, "N@xa5")
	annRefused(t, &off, "N@a5")
	v := annVariant(t, "dropcapture=on")
	on := mustFEN(t, v, fen)
	if got, want := annDrops(&on, "N@x"), []string{"N@xa5"}; !slices.Equal(got, want) {
		t.Errorf("drop-captures %v, want %v (not on the own Rook, not on the unattacked King)", got, want)
	}
	after := mustPlay(t, on, "N@xa5")
	if got, want := after.FEN(), "7k/8/8/N7/8/8/8/R7[N] b - - 0 1"; got != want {
		t.Errorf("after N@xa5: %s, want %s", got, want)
	}
	// A promoted piece taken by a drop goes to hand as a pawn.
	p := mustPlay(t, mustFEN(t, v, "7k/8/8/q~7/8/8/8/R7[N] w - - 0 1"), "N@xa5")
	if got, want := p.FEN(), "7k/8/8/N7/8/8/8/R7[P] b - - 0 1"; got != want {
		t.Errorf("after N@xa5 on a promoted Queen: %s, want %s", got, want)
	}
	// Pawns: not on the last rank, even to capture.
	p = mustFEN(t, v, "n6k/8/8/b7/8/8/8/R7[P] w - - 0 1")
	annRefused(t, &p, "P@xa8")
	mustPlay(t, p, "P@xa5")
}

// TestAnnihilationLossWithPiecesInHand pins docs/variants/annihilation.md: a player with no
// pieces on the board loses at once, whatever they hold in hand.
func TestAnnihilationLossWithPiecesInHand(t *testing.T) {
	v := annVariant(t, "")
	p := mustPlay(t, mustFEN(t, v, "7k/8/8/8/8/8/6q1/7K[QRBN] b - - 0 1"), "g2h1")
	annOutcome(t, &p, Outcome{Result: BlackWins, Reason: "annihilation"})
	if p.Pocket(White, v.Type('Q'))+p.Pocket(White, v.Type('R'))+p.Pocket(White, v.Type('B'))+p.Pocket(White, v.Type('N')) != 4 {
		t.Errorf("White's hand changed: %s", p.FEN())
	}
	annRefused(t, &p, "pass")
	// Set up with White to act: White cannot drop back in (no attacked square).
	q := mustFEN(t, v, "7k/8/8/8/8/8/8/8[QRBNP] w - - 0 1")
	annOutcome(t, &q, Outcome{Result: BlackWins, Reason: "annihilation"})
	q = mustFEN(t, v, "8/8/8/8/8/8/8/7K[qrbnp] w - - 0 1")
	annOutcome(t, &q, Outcome{Result: WhiteWins, Reason: "annihilation"})
	// Only a position set up by FEN can leave both sides without pieces.
	q = mustFEN(t, v, "8/8/8/8/8/8/8/8[Qq] w - - 0 1")
	annOutcome(t, &q, Outcome{Result: Draw, Reason: "both sides annihilated"})
}

// TestAnnihilationPassAlwaysLegal pins docs/variants/annihilation.md: a player may always
// pass, and a stalemated player simply passes (it is no end of the game).
func TestAnnihilationPassAlwaysLegal(t *testing.T) {
	v := annVariant(t, "")
	p := v.Start()
	if !slices.Contains(legalTexts(&p), "pass") {
		t.Error("no pass in the start position")
	}
	p = mustFEN(t, v, "8/8/8/4p3/4P3/8/8/R7[] b - - 0 1")
	if got := legalTexts(&p); !slices.Equal(got, []string{"pass"}) {
		t.Errorf("stalemated Black has %v, want only a pass", got)
	}
	annOutcome(t, &p, Outcome{})
}

// TestAnnihilationZ1ConsecutivePassesDraw pins Z1: two consecutive passes,
// one by each player, draw at once; a move in between starts the count
// again. The count is part of the FEN ("passes=1") but not of the hash
// (Z1a: see TestAnnihilationZ1aPassIsNotPartOfRepetition).
func TestAnnihilationZ1ConsecutivePassesDraw(t *testing.T) {
	v := annVariant(t, "")
	start := v.Start()
	p := mustPlay(t, start, "pass")
	if got, want := p.FEN(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] b - - 1 1 passes=1"; got != want {
		t.Errorf("after a pass: %s, want %s", got, want)
	}
	annOutcome(t, &p, Outcome{})
	q := mustFEN(t, v, p.FEN())
	if q.FEN() != p.FEN() || q.Hash() != p.Hash() {
		t.Errorf("FEN round trip of %s: %s, hash equal %v", p.FEN(), q.FEN(), q.Hash() == p.Hash())
	}
	if flipped := mustFEN(t, v, strings.TrimSuffix(p.FEN(), " passes=1")); flipped.Hash() != p.Hash() {
		t.Error("the pass count is part of the hash (Z1a: it is not part of the position for repetition)")
	}
	p = mustPlay(t, p, "pass")
	annOutcome(t, &p, Outcome{Result: Draw, Reason: "consecutive passes"})
	if got, want := p.FEN(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 2 2 passes=2"; got != want {
		t.Errorf("after two passes: %s, want %s", got, want)
	}
	q = mustFEN(t, v, p.FEN())
	annOutcome(t, &q, Outcome{Result: Draw, Reason: "consecutive passes"})
	// Not consecutive: a move between the passes.
	p = mustPlay(t, start, "pass e7e5 pass")
	annOutcome(t, &p, Outcome{})
	p = mustPlay(t, p, "e5e4")
	if strings.Contains(p.FEN(), "passes") {
		t.Errorf("a move did not reset the pass count: %s", p.FEN())
	}
	for _, bad := range []string{"passes=3", "passes=", "passes=-1", "pass=1", "1"} {
		if _, err := ParseFEN(v, "8/8/8/8/8/8/8/K6k[] w - - 0 1 "+bad); !errors.Is(err, ErrBadFEN) {
			t.Errorf("state field %q accepted: %v", bad, err)
		}
	}
}

// TestAnnihilationZ1ThreefoldRepetition pins Z1: any other repetition
// draws automatically on the third occurrence of a position.
func TestAnnihilationZ1ThreefoldRepetition(t *testing.T) {
	v := annVariant(t, "")
	g := NewGame(v.Start())
	play := func(moves string) {
		t.Helper()
		for _, text := range strings.Fields(moves) {
			p := g.Position()
			m, err := ParseMove(&p, text)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	play("g1f3 g8f6 f3g1 f6g8")
	if o := g.Outcome(); o.Over() || g.Repetitions() != 2 {
		t.Fatalf("second occurrence: %+v, %d repetitions", o, g.Repetitions())
	}
	if _, ok := g.DrawClaim(); ok {
		t.Error("a draw claim offered: repetition draws automatically only")
	}
	play("g1f3 g8f6 f3g1 f6g8")
	if o := g.Outcome(); o != (Outcome{Result: Draw, Reason: "repetition"}) {
		t.Errorf("third occurrence: %+v, want a draw by repetition", o)
	}
	if len(g.Legal()) != 0 {
		t.Error("legal moves after the repetition draw")
	}
}

// TestAnnihilationZ1aPassIsNotPartOfRepetition pins Z1a: whether the last
// move was a pass is not part of the position for repetition. After
// "pass", then the knights out and back twice, the start board with Black
// to act has occurred three times (the first time right after the pass)
// and the game is drawn; one knight trip fewer leaves it going on.
func TestAnnihilationZ1aPassIsNotPartOfRepetition(t *testing.T) {
	v := annVariant(t, "")
	g := NewGame(v.Start())
	moves := strings.Fields("pass g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1")
	for i, text := range moves {
		p := g.Position()
		m, err := ParseMove(&p, text)
		if err != nil {
			t.Fatalf("move %d %s: %v", i+1, text, err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("move %d %s: %v", i+1, text, err)
		}
		if i == 4 && (g.Repetitions() != 2 || g.Outcome().Over()) {
			t.Fatalf("after %s: %d occurrences, outcome %+v; want 2 and the game going on", strings.Join(moves[:i+1], " "), g.Repetitions(), g.Outcome())
		}
	}
	if o := g.Outcome(); o != (Outcome{Result: Draw, Reason: "repetition"}) || g.Repetitions() != 3 {
		t.Errorf("after %s: %+v with %d occurrences, want a draw by repetition at the third", strings.Join(moves, " "), o, g.Repetitions())
	}
	// The pass count still decides the consecutive-passes draw.
	p := mustPlay(t, v.Start(), "pass")
	if q := mustFEN(t, v, strings.TrimSuffix(p.FEN(), " passes=1")); q.Hash() != p.Hash() {
		t.Error("positions that differ only in the pass count hash differently")
	}
	p = mustPlay(t, p, "pass")
	annOutcome(t, &p, Outcome{Result: Draw, Reason: "consecutive passes"})
}

// TestAnnihilationZ3PromotionAndDemotion pins Z3: a pawn promotes to Q, R,
// B or N (never a King), on the last rank only, and a captured promoted
// piece goes to hand as a pawn.
func TestAnnihilationZ3PromotionAndDemotion(t *testing.T) {
	v := annVariant(t, "")
	p := mustFEN(t, v, "1n5k/P7/8/8/8/8/8/K7[] w - - 0 1")
	want := []string{"a7a8b", "a7a8n", "a7a8q", "a7a8r", "a7b8b", "a7b8n", "a7b8q", "a7b8r"}
	var got []string
	for _, s := range legalTexts(&p) {
		if strings.HasPrefix(s, "a7") {
			got = append(got, s)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("pawn moves %v, want %v", got, want)
	}
	p = mustPlay(t, p, "a7b8q")
	if got, want := p.FEN(), "1Q~5k/8/8/8/8/8/8/K7[N] b - - 0 1"; got != want {
		t.Errorf("after a7b8q: %s, want %s", got, want)
	}
	p = mustPlay(t, mustFEN(t, v, "k7/1Q~6/8/8/8/8/8/7K[] b - - 0 1"), "a8b7")
	if got, want := p.FEN(), "8/1k6/8/8/8/8/8/7K[p] w - - 0 2"; got != want {
		t.Errorf("after Kxb7 of a promoted Queen: %s, want %s", got, want)
	}
}

// TestAnnihilationZ4MutualStalemateDraws pins Z4: when neither side has a
// move other than a pass, the game is drawn at once; one stalemated side
// only passes.
func TestAnnihilationZ4MutualStalemateDraws(t *testing.T) {
	v := annVariant(t, "")
	for _, fen := range []string{
		"8/8/8/4p3/4P3/8/8/8[] w - - 0 1",
		"8/8/8/4p3/4P3/8/8/8[] b - - 0 1",
		"8/p7/P7/8/8/8/8/8[] w - - 0 1",
	} {
		p := mustFEN(t, v, fen)
		annOutcome(t, &p, Outcome{Result: Draw, Reason: "mutual stalemate"})
	}
	// One side can still drop: not a mutual stalemate.
	p := mustFEN(t, v, "8/8/8/4p3/4P3/8/8/8[N] w - - 0 1")
	annOutcome(t, &p, Outcome{})
	p = mustFEN(t, v, "8/8/8/4p3/4P3/8/8/8[n] w - - 0 1")
	annOutcome(t, &p, Outcome{})
	if got := legalTexts(&p); !slices.Equal(got, []string{"pass"}) {
		t.Errorf("White has %v, want only a pass", got)
	}
	// Pieces in hand with nowhere to land (White's pawn attacks only b8,
	// its last rank): still a mutual stalemate.
	p = mustFEN(t, v, "p7/P7/8/8/8/8/8/8[PP] w - - 0 1")
	annOutcome(t, &p, Outcome{Result: Draw, Reason: "mutual stalemate"})
}

// TestAnnihilationZ5NoFiftyMoveRule pins Z5: no move-count draw, neither
// claimed nor automatic.
func TestAnnihilationZ5NoFiftyMoveRule(t *testing.T) {
	v := annVariant(t, "")
	p := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3[] w - - 300 200")
	annOutcome(t, &p, Outcome{})
	g := NewGame(p)
	if reason, ok := g.DrawClaim(); ok {
		t.Errorf("draw claim %q after 300 plies without capture", reason)
	}
}

// TestAnnihilationZ6PreGameNormalization pins docs/variants/annihilation.md and Z6: when
// the army generated as Black is chosen to move first, the board is
// rotated by 180 degrees and the colours swapped, so that the first mover
// plays White from ranks 1-2 and moves first.
func TestAnnihilationZ6PreGameNormalization(t *testing.T) {
	v := annVariant(t, "")
	p := mustFEN(t, v, "qrbknbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN[] w - - 0 1")
	if got := AnnihilationNormalize(p, White); got.String() != p.FEN() {
		t.Errorf("White moving first changed the position: %s", got)
	}
	q := AnnihilationNormalize(p, Black)
	if got, want := q.FEN(), "nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBNKBRQ[] w - - 0 1"; got != want {
		t.Errorf("normalised for Black moving first: %s, want %s", got, want)
	}
	if back := mustFEN(t, v, q.FEN()); q.Hash() != back.Hash() {
		t.Error("the normalised position differs from its FEN")
	}
	if got := AnnihilationNormalize(q, Black); got.String() != p.FEN() {
		t.Errorf("normalising twice: %s, want %s", got, p.FEN())
	}
	// Any random start: Black's back rank, read from h8 to a8, becomes White's from a1.
	for seed := uint64(0); seed < 50; seed++ {
		s := AnnihilationStart(v, seed)
		n := AnnihilationNormalize(s, Black)
		for f := 0; f < 8; f++ {
			from, to := s.At(NewSquare(7-f, 7)), n.At(NewSquare(f, 0))
			if from.Color() != Black || to != NewPiece(White, from.Type()) {
				t.Fatalf("seed %d, file %c: %v became %v", seed, 'a'+f, from, to)
			}
		}
		// The first mover has the moves the Black army had.
		black := mustFEN(t, v, strings.Replace(s.FEN(), " w ", " b ", 1))
		if n.ToAct() != White || len(n.Legal(nil)) != len(black.Legal(nil)) {
			t.Errorf("seed %d: %s to act with %d moves, want White with %d", seed, n.ToAct(), len(n.Legal(nil)), len(black.Legal(nil)))
		}
	}
}

// TestAnnihilationZ7AnnihilationAfterEveryMove pins Z7: annihilation is
// judged right after every move, and a drop onto an empty square never
// annihilates anyone. With dropcapture=on a drop-capture is a capture: it
// may take the last enemy piece, as the attacking piece itself could.
func TestAnnihilationZ7AnnihilationAfterEveryMove(t *testing.T) {
	v := annVariant(t, "")
	p := mustPlay(t, mustFEN(t, v, "8/8/8/8/8/8/8/R6n[N] w - - 0 1"), "a1h1")
	annOutcome(t, &p, Outcome{Result: WhiteWins, Reason: "annihilation"})
	// Every drop of these positions leaves both armies at least as large.
	for _, fen := range []string{
		"8/8/8/8/8/8/8/R6n[N] w - - 0 1",
		"7k/8/8/8/8/8/8/7K[QRBNPqrbnp] w - - 0 1",
		"7k/8/8/8/8/8/8/7K[QRBNPqrbnp] b - - 0 1",
	} {
		p := mustFEN(t, v, fen)
		for _, m := range p.Legal(nil) {
			if m.Kind != KindDrop {
				continue
			}
			q, err := p.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			if !annHasPieces(&q, White) || !annHasPieces(&q, Black) || q.Outcome().Over() {
				t.Errorf("%s after %s: %s, outcome %+v", fen, FormatMove(&p, m), q.FEN(), q.Outcome())
			}
		}
	}
	on := annVariant(t, "dropcapture=on")
	p = mustPlay(t, mustFEN(t, on, "8/8/8/8/8/8/8/R6n[N] w - - 0 1"), "N@xh1")
	annOutcome(t, &p, Outcome{Result: WhiteWins, Reason: "annihilation"})
}

// TestAnnihilationRandomStartArrangements pins docs/variants/annihilation.md: the back-rank
// function enumerates exactly the 8!/(2!2!2!) = 5040 arrangements of
// R, R, N, N, B, B, Q, K, each once.
func TestAnnihilationRandomStartArrangements(t *testing.T) {
	seen := map[string]bool{}
	for n := 0; n < annihilationArrangements; n++ {
		b := annihilationBackRank(n)
		s := string(b[:])
		sorted := []byte(s)
		slices.Sort(sorted)
		if string(sorted) != annihilationPieces {
			t.Fatalf("arrangement %d = %q is not a back rank", n, s)
		}
		if seen[s] {
			t.Fatalf("arrangement %d = %q comes twice", n, s)
		}
		seen[s] = true
	}
	if len(seen) != 40320/8 || annArrangements([]int{2, 1, 2, 1, 2}) != 5040 {
		t.Errorf("%d arrangements, want 5040", len(seen))
	}
	if b := annihilationBackRank(0); string(b[:]) != "BBKNNQRR" {
		t.Errorf("arrangement 0 = %s", b[:])
	}
}

// TestAnnihilationRandomStartSeed pins docs/variants/annihilation.md: a seed always gives
// the same start, the two back ranks are drawn independently (every
// arrangement occurs on each side, mirrored starts are as rare as chance
// makes them, and the pair is uniform), pawns stand on ranks 2 and 7.
func TestAnnihilationRandomStartSeed(t *testing.T) {
	v := annVariant(t, "")
	on := annVariant(t, "dropcapture=on")
	for _, c := range []struct {
		seed uint64
		fen  string
	}{
		{1, "rrkbnbqn/pppppppp/8/8/8/8/PPPPPPPP/NQBNRKBR[] w - - 0 1"},
		{2010, "rrbbnknq/pppppppp/8/8/8/8/PPPPPPPP/NNBKRBRQ[] w - - 0 1"},
	} {
		p := AnnihilationStart(v, c.seed)
		if p.FEN() != c.fen {
			t.Errorf("seed %d: %s, want %s", c.seed, p.FEN(), c.fen)
		}
		again := AnnihilationStart(on, c.seed)
		if again.FEN() != p.FEN() {
			t.Errorf("seed %d with the option: %s", c.seed, again.FEN())
		}
	}
	const seeds = 200_000
	var whites, blacks [annihilationArrangements]int
	var joint [7][7]int
	mirrored := 0
	for s := uint64(0); s < seeds; s++ {
		w, b := annihilationDraw(s)
		whites[w]++
		blacks[b]++
		joint[w%7][b%7]++
		if w == b {
			mirrored++
		}
	}
	for n := range whites {
		if whites[n] == 0 || blacks[n] == 0 {
			t.Fatalf("arrangement %d never drawn (white %d, black %d times)", n, whites[n], blacks[n])
		}
	}
	if mirrored > 200 {
		t.Errorf("%d of %d starts mirrored, expected about %d", mirrored, seeds, seeds/annihilationArrangements)
	}
	// Chi-squared of the joint distribution of (white mod 7, black mod 7)
	// against independence: 48 degrees of freedom; 100 is far in the tail.
	chi := 0.0
	e := float64(seeds) / 49
	for i := range joint {
		for j := range joint[i] {
			d := float64(joint[i][j]) - e
			chi += d * d / e
		}
	}
	if chi > 100 {
		t.Errorf("chi-squared %.1f: the two sides are not independent", chi)
	}
	for s := uint64(0); s < 100; s++ {
		p := AnnihilationStart(v, s)
		w, b := annihilationDraw(s)
		wr, br := annihilationBackRank(w), annihilationBackRank(b)
		fen := strings.ToLower(string(br[:])) + "/pppppppp/8/8/8/8/PPPPPPPP/" + string(wr[:]) + "[] w - - 0 1"
		if p.FEN() != fen {
			t.Fatalf("seed %d: %s, want %s", s, p.FEN(), fen)
		}
	}
}

// TestAnnihilationOptions pins the option dropcapture=off|on (off by
// default) and refuses other values.
func TestAnnihilationOptions(t *testing.T) {
	def := mustVariant(t, "annihilation")
	if len(def.Options) != 1 || def.Options[0].Key != "dropcapture" || !slices.Equal(def.Options[0].Values, []string{"off", "on"}) {
		t.Errorf("options %+v", def.Options)
	}
	if off := annVariant(t, "dropcapture=off"); off != def {
		t.Error("dropcapture=off is not the default variant")
	}
	r, err := sharedRegistry()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Variant("annihilation", "dropcapture=yes"); err == nil {
		t.Error("dropcapture=yes accepted")
	}
	if _, err := newAnnihilation(map[string]string{"dropcapture": "maybe"}); !errors.Is(err, ErrInvalidVariant) {
		t.Errorf("constructor with dropcapture=maybe: %v", err)
	}
}

// annMaterial counts the pieces of p by their original kind, indexed by
// piece type (a promoted piece counts as the pawn it was), board and both
// hands together.
func annMaterial(p *Position) [maxPieceTypes + 1]int {
	v := p.v
	var out [maxPieceTypes + 1]int
	for _, s := range v.Squares() {
		pc := p.At(s)
		switch {
		case pc == NoPiece:
		case pc.Promoted():
			out[v.Type('P')]++
		default:
			out[pc.Type()]++
		}
	}
	for _, c := range []Color{White, Black} {
		for t := 1; t <= len(v.Pieces); t++ {
			out[t] += p.Pocket(c, PieceType(t))
		}
	}
	return out
}

// annCheckMove checks the invariants of one move m from before to after.
func annCheckMove(t *testing.T, before *Position, m Move, after *Position) {
	t.Helper()
	v := before.v
	var want [maxPieceTypes + 1]int
	for l, n := range map[byte]int{'P': 16, 'N': 4, 'B': 4, 'R': 4, 'Q': 2, 'K': 2} {
		want[v.Type(l)] = n
	}
	if got := annMaterial(after); got != want {
		t.Fatalf("%s after %s: material %v, want %v", after.FEN(), FormatMove(before, m), got, want)
	}
	fen := after.FEN()
	q, err := ParseFEN(v, fen)
	if err != nil || q.FEN() != fen || q.Hash() != after.Hash() {
		t.Fatalf("FEN round trip of %s: %v %s (hash equal %v)", fen, err, q.FEN(), q.Hash() == after.Hash())
	}
	text := func() string { return FormatMove(before, m) }
	us := before.ToAct()
	if !annHasPieces(after, us) {
		t.Fatalf("%s: %s annihilated itself with %s", before.FEN(), us, text())
	}
	switch m.Kind {
	case KindDrop:
		if before.At(m.To) != NoPiece || !before.Attacked(m.To, us) {
			t.Fatalf("%s: drop %s onto an occupied or unattacked square", before.FEN(), text())
		}
		if !annHasPieces(after, us.Other()) {
			t.Fatalf("%s: the drop %s annihilated %s", before.FEN(), text(), us.Other())
		}
	case KindSpecial:
		if pc := before.At(m.To); pc.Color() != us.Other() || !before.Attacked(m.To, us) {
			t.Fatalf("%s: drop-capture %s onto %v", before.FEN(), text(), pc)
		}
	case KindPass:
		if annStateOf(after).passes != annStateOf(before).passes+1 {
			t.Fatalf("%s: pass count %d after a pass", after.FEN(), annStateOf(after).passes)
		}
	}
	if m.Kind != KindPass && annStateOf(after).passes != 0 {
		t.Fatalf("%s: pass count %d after %s", after.FEN(), annStateOf(after).passes, text())
	}
}

// annCheckOutcome checks that g's outcome agrees with its position.
func annCheckOutcome(t *testing.T, g *Game) Outcome {
	t.Helper()
	p := g.Position()
	o := g.Outcome()
	legal := g.Legal()
	if o.Over() != (len(legal) == 0) {
		t.Fatalf("%s: outcome %+v with %d legal moves", p.FEN(), o, len(legal))
	}
	wOn, bOn := annHasPieces(&p, White), annHasPieces(&p, Black)
	moves := g.Moves()
	switch o.Reason {
	case "":
		if !wOn || !bOn || annStateOf(&p).passes >= 2 || !slices.Contains(legal, Pass()) {
			t.Fatalf("%s: game goes on without pieces, after two passes or without a pass", p.FEN())
		}
	case "annihilation":
		if wOn == bOn || o.Result != WinFor(map[bool]Color{true: White, false: Black}[wOn]) {
			t.Fatalf("%s: %+v", p.FEN(), o)
		}
		if loser := o.Result; (loser == WhiteWins) != (p.ToAct() == Black) {
			t.Fatalf("%s: the player who just moved was annihilated", p.FEN())
		}
	case "consecutive passes":
		n := len(moves)
		if o.Result != Draw || n < 2 || moves[n-1].Kind != KindPass || moves[n-2].Kind != KindPass {
			t.Fatalf("%s: %+v without two passes", p.FEN(), o)
		}
	case "mutual stalemate":
		for _, c := range []Color{White, Black} {
			q := p
			q.toAct, q.mover, q.ep = c, c, NoSquare
			var scratch Position
			if got := q.legalMoves(nil, &scratch); len(got) != 1 || got[0] != Pass() {
				t.Fatalf("%s: mutual stalemate, but %s has %d moves", p.FEN(), c, len(got))
			}
		}
	case "repetition":
		if g.Repetitions() < 3 {
			t.Fatalf("%s: repetition draw after %d occurrences", p.FEN(), g.Repetitions())
		}
	default:
		t.Fatalf("%s: unexpected outcome %+v", p.FEN(), o)
	}
	return o
}

// TestAnnihilationRandomPlayouts plays seeded random games from random
// starts (both options, both first-mover choices) to their end or 300
// plies, checking after every move: material (32 pieces, by original
// kind), FEN round trip with equal hash, no self-annihilation, drops only
// onto empty attacked squares and never annihilating, the pass count;
// that the outcome agrees with the position (every 16 plies and at the
// end); and that replaying the canonical move texts reproduces the final
// FEN and outcome. Some games prefer captures and some pass often, so
// that every kind of end occurs.
func TestAnnihilationRandomPlayouts(t *testing.T) {
	games := 200
	if *playoutGames > 0 {
		games = *playoutGames
	} else if testing.Short() {
		games = 100
	}
	const maxPlies = 300
	variants := []*Variant{annVariant(t, ""), annVariant(t, "dropcapture=on")}
	var mu sync.Mutex
	ends := map[Reason]int{}
	const shards = 2
	t.Run("shards", func(t *testing.T) {
		for shard := 0; shard < shards; shard++ {
			t.Run(fmt.Sprint(shard), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(uint64(shard), 3))
				for game := shard; game < games; game += shards {
					v := variants[game%2]
					first := []Color{White, Black}[rng.IntN(2)]
					start := AnnihilationNormalize(AnnihilationStart(v, rng.Uint64()), first)
					g := NewGame(start)
					var texts []string
					policy := game % 3 // 0 uniform, 1 prefers captures, 2 passes often
					for ply := 0; ply < maxPlies; ply++ {
						p := g.Position()
						legal := p.Legal(nil)
						if ply%16 == 0 {
							annCheckOutcome(t, g)
						}
						if len(legal) == 0 || g.Repetitions() >= v.RepetitionAuto {
							break
						}
						m := legal[rng.IntN(len(legal))]
						switch {
						case policy == 1 && rng.IntN(10) < 8:
							var caps []Move
							for _, c := range legal {
								if p.IsCapture(c) || c.Kind == KindSpecial {
									caps = append(caps, c)
								}
							}
							if len(caps) > 0 {
								m = caps[rng.IntN(len(caps))]
							}
						case policy == 2 && rng.IntN(4) == 0:
							m = Pass()
						}
						texts = append(texts, FormatMove(&p, m))
						if err := g.Play(m); err != nil {
							t.Fatalf("%s: %s: %v", p.FEN(), texts[len(texts)-1], err)
						}
						after := g.Position()
						annCheckMove(t, &p, m, &after)
					}
					o := annCheckOutcome(t, g)
					replay := start
					for _, text := range texts {
						m, err := ParseMove(&replay, text)
						if err == nil {
							replay, err = replay.Play(m)
						}
						if err != nil {
							t.Fatalf("replay of %s in %s: %v", text, replay.FEN(), err)
						}
					}
					if final := g.Position(); replay.FEN() != final.FEN() || replay.Hash() != final.Hash() {
						t.Fatalf("replay of %v from %s: %s, want %s", texts, start.FEN(), replay.FEN(), final.FEN())
					}
					mu.Lock()
					ends[o.Reason]++
					mu.Unlock()
				}
			})
		}
	})
	t.Logf("%d games: %v (\"\" = stopped at %d plies)", games, ends, maxPlies)
	if !testing.Short() {
		// Repetition ends only a few games (it is pinned on its own above).
		for _, reason := range []Reason{"annihilation", "consecutive passes"} {
			if ends[reason] == 0 {
				t.Errorf("no game ended by %s", reason)
			}
		}
	}
}
