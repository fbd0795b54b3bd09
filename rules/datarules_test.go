package rules

import (
	"sort"
	"strings"
	"testing"
)

// dataVariant registers a chess-like test variant changed by edit and
// returns it.
func dataVariant(t *testing.T, edit func(v *Variant)) *Variant {
	t.Helper()
	reg, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	ctor := func(map[string]string) (*Variant, error) {
		v := &Variant{
			Key: "datatest", Name: "Data test", Files: 8, Ranks: 8,
			Pieces:    append(chessPieces(2, nil), PieceDef{Letter: 'G', Name: "Grasshopper", Betza: "gQ", Art: "custom"}),
			StartFEN:  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
			Promotion: Promotion{Zone: 1, Choices: "QRBN"},
			CheckRule: true,
			Help:      VariantHelp{Summary: "A test variant."},
		}
		edit(v)
		return v, nil
	}
	if err := reg.Register("datatest", ctor); err != nil {
		t.Fatal(err)
	}
	v, err := reg.Variant("datatest", "")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// dataLegalTexts returns the legal moves of fen in coordinate form, sorted.
func dataLegalTexts(t *testing.T, v *Variant, fen string) []string {
	t.Helper()
	p, err := ParseFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range p.Legal(nil) {
		out = append(out, FormatMove(&p, m))
	}
	sort.Strings(out)
	return out
}

func hasMove(moves []string, m string) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}

func TestGrasshopperLandsJustBeyondTheScreen(t *testing.T) {
	v := dataVariant(t, func(*Variant) {})
	moves := dataLegalTexts(t, v, "4k3/8/8/p7/8/P7/8/G6K w - - 0 1")
	var g []string
	for _, m := range moves {
		if strings.HasPrefix(m, "a1") {
			g = append(g, m)
		}
	}
	// Up the a-file over a3 to a4; along the first rank the screen on h1
	// has no square beyond it.
	if strings.Join(g, " ") != "a1a4" {
		t.Errorf("grasshopper moves = %v, want [a1a4]", g)
	}
	// Over the pawn on a3 the grasshopper captures on a4.
	moves = dataLegalTexts(t, v, "4k3/8/8/8/p7/P7/8/G3K3 w - - 0 1")
	if !hasMove(moves, "a1a4") {
		t.Errorf("grasshopper does not capture beyond the screen: %v", moves)
	}
	// It attacks the king on e5 over the screen on e4, so the king is in check.
	p, err := ParseFEN(v, "8/8/8/4k3/4p3/8/8/4G2K b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if !p.InCheck() {
		t.Error("the grasshopper on e1 does not check the king on e5 over e4")
	}
	p, _ = ParseFEN(v, "8/8/8/4k3/8/4p3/8/4G2K b - - 0 1")
	if p.InCheck() {
		t.Error("the grasshopper on e1 checks the king on e5 though its screen on e3 is not next to it")
	}
}

func TestPromotionRulesAndLimits(t *testing.T) {
	fen := "4k3/8/1P6/8/8/8/8/4K3 w - - 0 1" // a pawn on b6 steps into a zone of three ranks
	count := func(v *Variant) (plain, promo int) {
		for _, m := range dataLegalTexts(t, v, fen) {
			switch {
			case m == "b6b7":
				plain++
			case strings.HasPrefix(m, "b6b7"):
				promo++
			}
		}
		return plain, promo
	}
	if plain, promo := count(dataVariant(t, func(v *Variant) { v.Promotion.Zone = 3 })); plain != 1 || promo != 4 {
		t.Errorf("on last rank only: %d plain, %d promotions; want 1, 4", plain, promo)
	}
	if plain, promo := count(dataVariant(t, func(v *Variant) { v.Promotion.Zone, v.Promotion.Rule = 3, PromoteInZone })); plain != 0 || promo != 4 {
		t.Errorf("in zone: %d plain, %d promotions; want 0, 4", plain, promo)
	}
	v := dataVariant(t, func(v *Variant) { v.Promotion.Rule = PromoteOptional })
	if moves := dataLegalTexts(t, v, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"); !hasMove(moves, "b7b8") {
		t.Errorf("optional promotion: no plain move to the last rank in %v", moves)
	}
	v = dataVariant(t, func(v *Variant) { v.Promotion.Limits = map[byte]int{'Q': 1, 'R': 2} })
	moves := dataLegalTexts(t, v, "4k3/1P6/8/8/8/8/8/Q3K1R1 w - - 0 1")
	if hasMove(moves, "b7b8q") || !hasMove(moves, "b7b8r") {
		t.Errorf("limits Q:1 R:2 with a queen and a rook: %v", moves)
	}
}

func TestDropsNoDoubled(t *testing.T) {
	v := dataVariant(t, func(v *Variant) {
		v.Drops = Drops{Enabled: true, NoDoubled: 'P'}
		v.StartFEN = "4k3/8/8/8/8/8/P7/4K3[P] w - - 0 1"
	})
	moves := dataLegalTexts(t, v, v.StartFEN)
	if hasMove(moves, "P@a4") || !hasMove(moves, "P@b4") {
		t.Errorf("no doubled pawns: %v", moves)
	}
}

func TestNoStranding(t *testing.T) {
	v := dataVariant(t, func(v *Variant) { v.NoStranding, v.Promotion.Rule = true, PromoteOptional })
	moves := dataLegalTexts(t, v, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	if hasMove(moves, "b7b8") || !hasMove(moves, "b7b8q") {
		t.Errorf("a pawn may not stay a pawn on the last rank: %v", moves)
	}
}

func TestNoChecks(t *testing.T) {
	v := dataVariant(t, func(v *Variant) { v.NoChecks = true })
	moves := dataLegalTexts(t, v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	if hasMove(moves, "a1a8") || hasMove(moves, "a1e1") || !hasMove(moves, "a1a7") {
		t.Errorf("giving check is forbidden: %v", moves)
	}
}

func TestPass(t *testing.T) {
	v := dataVariant(t, func(v *Variant) { v.Pass = [2]bool{true, true} })
	if moves := dataLegalTexts(t, v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"); !hasMove(moves, "pass") {
		t.Errorf("no pass: %v", moves)
	}
	if moves := dataLegalTexts(t, v, "4k3/8/8/8/8/8/8/r3K3 w - - 0 1"); hasMove(moves, "pass") {
		t.Errorf("a pass in check: %v", moves)
	}
	v = dataVariant(t, func(v *Variant) { v.Pass, v.PassOnlyWhenStuck = [2]bool{true, true}, [2]bool{true, true} })
	if moves := dataLegalTexts(t, v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"); hasMove(moves, "pass") {
		t.Errorf("a pass while other moves exist: %v", moves)
	}
	// Stalemated, White may pass instead.
	if moves := dataLegalTexts(t, v, "8/8/8/8/8/1q6/2k5/K7 w - - 0 1"); strings.Join(moves, " ") != "pass" {
		t.Errorf("stalemated: %v, want [pass]", moves)
	}
}

func TestExtinction(t *testing.T) {
	v := dataVariant(t, func(v *Variant) {
		v.CheckRule = false
		v.Extinction = &Extinction{Types: "K", Value: EndLoss}
	})
	p, err := ParseFEN(v, "8/8/8/8/8/8/8/R3K3 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if o := p.Outcome(); o.Result != WhiteWins || o.Reason != "extinction" {
		t.Errorf("Black without a king: %+v", o)
	}
	if n := len(p.Legal(nil)); n != 0 {
		t.Errorf("%d legal moves after extinction", n)
	}
	v = dataVariant(t, func(v *Variant) {
		v.CheckRule = false
		v.Extinction = &Extinction{Types: "*", Count: 1, Value: EndWin}
	})
	p, _ = ParseFEN(v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	if o := p.Outcome(); o.Result != BlackWins {
		t.Errorf("Black down to one piece wins: %+v", o)
	}
}

func TestFlag(t *testing.T) {
	region := func(rank string) []string {
		var out []string
		for f := 'a'; f <= 'h'; f++ {
			out = append(out, string(f)+rank)
		}
		return out
	}
	v := dataVariant(t, func(v *Variant) {
		v.Flag = &FlagRule{Piece: [2]byte{'K', 'K'}, Region: [2][]string{region("8"), region("1")}}
	})
	p, _ := ParseFEN(v, "4K3/8/8/8/8/8/8/k7 b - - 0 1")
	if o := p.Outcome(); o.Result != WhiteWins || o.Reason != "goal reached" {
		t.Errorf("White's king on the 8th rank: %+v", o)
	}
	// With the extra move, Black, who can reach the first rank at once, plays on.
	v = dataVariant(t, func(v *Variant) {
		v.Flag = &FlagRule{Piece: [2]byte{'K', 'K'}, Region: [2][]string{region("8"), region("1")}, ExtraMove: true}
	})
	p, _ = ParseFEN(v, "4K3/8/8/8/8/8/k7/8 b - - 0 1")
	if o := p.Outcome(); o.Over() {
		t.Errorf("Black can still reach the goal: %+v", o)
	}
	q, err := p.Play(Move{From: mustSquare(t, "a2"), To: mustSquare(t, "a1")})
	if err != nil {
		t.Fatal(err)
	}
	if o := q.Outcome(); o.Result != Draw {
		t.Errorf("both reached the goal: %+v", o)
	}
	p, _ = ParseFEN(v, "4K3/8/8/8/k7/8/8/8 b - - 0 1")
	if o := p.Outcome(); o.Result != WhiteWins {
		t.Errorf("Black cannot reach the goal: %+v", o)
	}
}

func mustSquare(t *testing.T, s string) Square {
	t.Helper()
	sq, err := ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

func TestCheckmateAndStalemateValues(t *testing.T) {
	v := dataVariant(t, func(v *Variant) { v.Checkmate, v.Stalemate = EndWin, StalemateWins })
	p, _ := ParseFEN(v, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
	if o := p.Outcome(); o.Result != BlackWins || o.Reason != "checkmate" {
		t.Errorf("checkmate that wins: %+v", o)
	}
	p, _ = ParseFEN(v, "7k/8/6QK/8/8/8/8/8 b - - 0 1")
	if o := p.Outcome(); o.Result != BlackWins || o.Reason != "stalemate" {
		t.Errorf("stalemate that wins: %+v", o)
	}
}

func TestEnPassantIntoTheZoneDoesNotPromote(t *testing.T) {
	v := dataVariant(t, func(v *Variant) { v.Promotion.Zone = 3 })
	p, err := ParseFEN(v, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	p, err = p.Play(Move{From: mustSquare(t, "d7"), To: mustSquare(t, "d5")})
	if err != nil {
		t.Fatal(err)
	}
	var ep []string
	for _, m := range p.Legal(nil) {
		if m.Kind == KindEnPassant {
			ep = append(ep, FormatMove(&p, m))
		}
	}
	if strings.Join(ep, " ") != "e5d6" {
		t.Errorf("en-passant captures = %v, want [e5d6] (no promotion)", ep)
	}
}

func TestOverlappingLegsGiveEachMoveOnce(t *testing.T) {
	v := dataVariant(t, func(v *Variant) {
		v.Pieces[len(v.Pieces)-1].Betza = "WR2mfD" // W, a short rook and a forward leap: squares reached twice
	})
	moves := dataLegalTexts(t, v, "4k3/8/8/8/8/8/8/G3K3 w - - 0 1")
	seen := map[string]bool{}
	for _, m := range moves {
		if seen[m] {
			t.Errorf("move %s listed twice in %v", m, moves)
		}
		seen[m] = true
	}
	if !seen["a1a3"] || !seen["a1a2"] || !seen["a1c1"] {
		t.Errorf("moves of the piece on a1 are missing: %v", moves)
	}
	if v.c.overlap[0][v.Type('P')] || v.c.overlap[0][v.Type('Q')] {
		t.Error("the pawn's or the queen's legs are taken to overlap")
	}
}

func TestDoublePassDraws(t *testing.T) {
	v := dataVariant(t, func(v *Variant) { v.Pass, v.DoublePassDraws = [2]bool{true, true}, true })
	p := v.Start()
	for i := 0; i < 2; i++ {
		var err error
		if p, err = p.Play(Pass()); err != nil {
			t.Fatal(err)
		}
	}
	if o := p.Outcome(); o.Result != Draw || len(p.Legal(nil)) != 0 {
		t.Errorf("after two passes: %+v with %d moves", o, len(p.Legal(nil)))
	}
}

func TestMustCapture(t *testing.T) {
	v := dataVariant(t, func(v *Variant) { v.MustCapture = true })
	if moves := dataLegalTexts(t, v, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"); strings.Join(moves, " ") != "e4d5" {
		t.Errorf("with a capture: %v, want [e4d5]", moves)
	}
	if moves := dataLegalTexts(t, v, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"); len(moves) < 2 {
		t.Errorf("without a capture: %v", moves)
	}
}

func TestMustDrop(t *testing.T) {
	v := dataVariant(t, func(v *Variant) {
		v.Drops = Drops{Enabled: true}
		v.MustDrop = true
		v.StartFEN = "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1"
	})
	for _, m := range dataLegalTexts(t, v, v.StartFEN) {
		if !strings.HasPrefix(m, "N@") {
			t.Errorf("a move that is not a drop while a knight is in hand: %s", m)
		}
	}
}

func TestRepetitionValue(t *testing.T) {
	loss := EndLoss
	v := dataVariant(t, func(v *Variant) { v.RepetitionAuto, v.RepetitionValue = 3, &loss })
	g := NewGame(v.Start())
	for _, m := range strings.Fields("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8") {
		p := g.Position()
		mv, err := ParseMove(&p, m)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(mv); err != nil {
			t.Fatal(err)
		}
	}
	// White is to act in the position seen for the third time, and loses.
	if o := g.Outcome(); o.Result != BlackWins || o.Reason != "repetition" {
		t.Errorf("outcome %+v, want 0-1 by repetition", o)
	}
}

func TestEveryInitialLeapLeavesAnEnPassantTarget(t *testing.T) {
	v := dataVariant(t, func(v *Variant) {
		// Pawns that move diagonally (two squares at first) and capture straight ahead.
		v.Pieces[0] = PieceDef{Letter: 'P', Name: "Pawn", Betza: "mfFcefWimfnA", Art: "pawn", InitialRank: 2}
		v.Promotion = Promotion{}
	})
	for _, c := range []struct{ move, ep string }{{"c2e4", "d3"}, {"c2a4", "b3"}} {
		p, err := ParseFEN(v, "4k3/8/8/8/1p1p4/8/2P5/4K3 w - - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		q, err := p.Play(Move{From: mustSquare(t, c.move[:2]), To: mustSquare(t, c.move[2:])})
		if err != nil {
			t.Fatal(err)
		}
		if q.EnPassant().String() != c.ep {
			t.Errorf("after %s the en-passant target is %v, want %s", c.move, q.EnPassant(), c.ep)
		}
	}
}

func TestFlagCount(t *testing.T) {
	v := dataVariant(t, func(v *Variant) {
		v.Flag = &FlagRule{Region: [2][]string{{"a8", "b8", "c8"}, {"a1", "b1", "c1"}}, Count: 2}
	})
	p, _ := ParseFEN(v, "R3k3/8/8/8/8/8/8/4K3 b - - 0 1")
	if o := p.Outcome(); o.Over() {
		t.Errorf("one piece of two in the region: %+v", o)
	}
	p, _ = ParseFEN(v, "RN2k3/8/8/8/8/8/8/4K3 b - - 0 1")
	if o := p.Outcome(); o.Result != WhiteWins {
		t.Errorf("two pieces in the region: %+v", o)
	}
}

func TestTurnedForBlack(t *testing.T) {
	for _, turned := range []bool{false, true} {
		v := dataVariant(t, func(v *Variant) {
			v.Pieces[len(v.Pieces)-1] = PieceDef{Letter: 'G', Name: "Right stepper", Betza: "rW", Art: "custom", TurnedForBlack: turned}
		})
		moves := dataLegalTexts(t, v, "4k3/8/8/8/3g4/8/8/4K3 b - - 0 1")
		want, other := "d4e4", "d4c4" // mirrored: Black's right is White's right
		if turned {
			want, other = other, want
		}
		if !hasMove(moves, want) || hasMove(moves, other) {
			t.Errorf("turned %v: %v, want %s and not %s", turned, moves, want, other)
		}
	}
}

func TestEnPassantRegion(t *testing.T) {
	v := dataVariant(t, func(v *Variant) { v.EnPassantRegion = [2][]string{{"d6"}, {"e3"}} })
	p, _ := ParseFEN(v, "4k3/2p1p3/8/3P4/8/8/8/4K3 b - - 0 1")
	for _, c := range []struct{ move, ep string }{{"e7e5", "e6"}, {"c7c5", "c6"}} {
		q, err := p.Play(Move{From: mustSquare(t, c.move[:2]), To: mustSquare(t, c.move[2:])})
		if err != nil {
			t.Fatal(err)
		}
		got := q.EnPassant() != NoSquare
		if want := false; got != want {
			t.Errorf("after %s: en-passant target %v; White may capture en passant on d6 only", c.move, q.EnPassant())
		}
	}
	v = dataVariant(t, func(v *Variant) { v.EnPassantRegion = [2][]string{{"e6"}, nil} })
	p, _ = ParseFEN(v, "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1")
	if q, _ := p.Play(Move{From: mustSquare(t, "e7"), To: mustSquare(t, "e5")}); q.EnPassant().String() != "e6" {
		t.Errorf("after e7e5: en-passant target %v, want e6", q.EnPassant())
	}
}
