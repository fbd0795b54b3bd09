package rules

import (
	"slices"
	"testing"
)

// newHookTestVariant is a small game that exercises every hook the way the
// seed variants will, without being one of them: each turn a player moves
// one of their own pieces and then one of the opponent's (never its King,
// phase 1); instead of the first part a Bomb may detonate, removing itself
// and every piece next to it (a KindSpecial move, written "Xd3"); in the
// second part the player may pass; a captured King loses, and so does a
// player with nothing but the King left (a custom end).
func newHookTestVariant() *Variant {
	v := &Variant{
		Key:   "hooktest",
		Name:  "Hook test",
		Help:  VariantHelp{Summary: "A test variant for the hooks."},
		Files: 5,
		Ranks: 5,
		Pieces: []PieceDef{
			{Letter: 'K', Name: "King", Betza: "mfKcK", Art: "king", Legend: "a test piece", Royal: true},
			{Letter: 'R', Name: "Rook", Betza: "mfRcR", Art: "rook", Legend: "a test piece"},
			{Letter: 'M', Name: "Bomb", Betza: "mK", Art: "bomb", Legend: "a test piece"},
		},
		StartFEN:          "k1m1r/5/5/5/R1M1K w - - 0 1",
		RoyalCaptureLoses: true,
		Stalemate:         StalemateLoses,
	}
	v.Hooks = Hooks{
		NextTurn: func(before *Position, m Move) Turn {
			if before.phase == 0 {
				return Turn{ToAct: before.toAct, Mover: before.toAct.Other(), Phase: 1}
			}
			return Turn{ToAct: before.toAct.Other(), Mover: before.toAct.Other()}
		},
		MoverOf: func(toAct Color, phase uint8) Color {
			if phase == 1 {
				return toAct.Other()
			}
			return toAct
		},
		ExtraMoves: func(p *Position, out []Move) []Move {
			if p.phase == 1 {
				return append(out, Pass())
			}
			bomb := p.v.Type('M')
			for _, s := range p.v.Squares() {
				if p.board[s] == NewPiece(p.mover, bomb) {
					out = append(out, Move{From: s, To: s, Kind: KindSpecial, Extra: 1})
				}
			}
			return out
		},
		Apply: func(next *Position, m Move) {
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					s := Square(int(m.From) + dy*mailboxWidth + dx)
					if next.v.OnBoard(s) && next.board[s] != NoPiece {
						next.remove(s)
					}
				}
			}
		},
		FormatSpecial: func(p *Position, m Move) string { return "X" + m.From.String() },
		Legal: func(before, after *Position, m Move) bool {
			// The opponent's King is never moved in phase 1.
			return before.phase == 0 || m.Kind != KindNormal || !before.v.c.royalType[before.board[m.From].Type()]
		},
		Outcome: func(p *Position) (Outcome, bool) {
			for _, c := range []Color{White, Black} {
				if p.royal[c.index()] == NoSquare {
					continue // a captured King is judged by RoyalCaptureLoses
				}
				others := 0
				for t := 1; t <= len(p.v.Pieces); t++ {
					if !p.v.c.royalType[t] {
						others += int(p.count[c.index()][t])
					}
				}
				if others == 0 {
					return Outcome{Result: WinFor(c.Other()), Reason: "bare king"}, true
				}
			}
			return Outcome{}, false
		},
		PhaseName: func(p *Position) string {
			if p.phase == 1 {
				return p.toAct.String() + " moves a " + p.mover.String() + " piece"
			}
			return p.toAct.String() + " moves a " + p.toAct.String() + " piece"
		},
	}
	return v
}

func mustHookVariant(t *testing.T) *Variant {
	t.Helper()
	r := &Registry{ctors: map[string]Constructor{}, defaults: map[string]*Variant{}, cache: map[string]*Variant{}}
	if err := r.Register("hooktest", func(map[string]string) (*Variant, error) { return newHookTestVariant(), nil }); err != nil {
		t.Fatal(err)
	}
	return r.Default("hooktest")
}

func legalTexts(p *Position) []string {
	var out []string
	for _, m := range p.Legal(nil) {
		out = append(out, FormatMove(p, m))
	}
	slices.Sort(out)
	return out
}

func playTexts(t *testing.T, p Position, moves ...string) Position {
	t.Helper()
	for _, s := range moves {
		m, err := ParseMove(&p, s)
		if err != nil {
			t.Fatalf("%s: %v (legal: %v)", s, err, legalTexts(&p))
		}
		if p, err = p.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return p
}

// TestHooksMultiPartTurn pins the phase machinery: the same player acts
// twice, first with their own pieces and then with the opponent's, and the
// FEN records the phase so that positions round-trip.
func TestHooksMultiPartTurn(t *testing.T) {
	v := mustHookVariant(t)
	p := v.Start()
	if p.ToAct() != White || p.Mover() != White || p.PhaseName() != "white moves a white piece" {
		t.Fatalf("start: to act %s, mover %s, phase %q", p.ToAct(), p.Mover(), p.PhaseName())
	}
	p = playTexts(t, p, "a1a2")
	if p.ToAct() != White || p.Mover() != Black || p.Phase() != 1 {
		t.Fatalf("after the own part: to act %s, mover %s, phase %d", p.ToAct(), p.Mover(), p.Phase())
	}
	if got, want := p.FEN(), "k1m1r/5/5/R4/2M1K w1 - - 1 1"; got != want {
		t.Fatalf("FEN %q, want %q", got, want)
	}
	q, err := ParseFEN(v, p.FEN())
	if err != nil || q.FEN() != p.FEN() || q.Mover() != Black || q.Hash() != p.Hash() {
		t.Fatalf("FEN round trip: %v %q mover %s", err, q.FEN(), q.Mover())
	}
	// White now moves a Black piece forward for Black (down the board), and may pass, never the King.
	got := legalTexts(&p)
	for _, want := range []string{"pass", "e5e4", "c5c4", "c5b4"} {
		if !slices.Contains(got, want) {
			t.Errorf("phase 1 lacks %s: %v", want, got)
		}
	}
	for _, bad := range []string{"a5a4", "a5b4", "Xc5"} {
		if slices.Contains(got, bad) {
			t.Errorf("phase 1 allows %s: %v", bad, got)
		}
	}
	p = playTexts(t, p, "pass")
	if p.ToAct() != Black || p.Mover() != Black || p.Phase() != 0 || p.Fullmove() != 1 {
		t.Fatalf("after the turn: to act %s, mover %s, phase %d, move %d", p.ToAct(), p.Mover(), p.Phase(), p.Fullmove())
	}
	p = playTexts(t, p, "e5e4", "pass")
	if p.Fullmove() != 2 {
		t.Errorf("fullmove %d after Black's turn, want 2", p.Fullmove())
	}
}

// TestHooksSpecialMove pins a move that is not from-to: the detonation
// has its own canonical text, and Apply removes everything around it.
func TestHooksSpecialMove(t *testing.T) {
	v := mustHookVariant(t)
	p, err := ParseFEN(v, "k3r/5/1m3/1R3/2M1K w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if got := legalTexts(&p); !slices.Contains(got, "Xc1") {
		t.Fatalf("no detonation among %v", got)
	}
	p = playTexts(t, p, "Xc1")
	if got, want := p.FEN(), "k3r/5/1m3/5/4K w1 - - 1 1"; got != want {
		t.Fatalf("after Xc1: %q, want %q", got, want)
	}
	if o := p.Outcome(); o.Result != BlackWins || o.Reason != "bare king" {
		t.Errorf("outcome %+v, want Black wins by the custom bare-king end", o)
	}
	if len(p.Legal(nil)) != 0 {
		t.Errorf("a finished game has legal moves")
	}
}

// TestHooksKingCaptureAndStalemateLoss pins RoyalCaptureLoses (no check
// rule: a King may be captured, even by a piece its owner's opponent
// moves) and StalemateLoses.
func TestHooksKingCaptureAndStalemateLoss(t *testing.T) {
	v := mustHookVariant(t)
	p, err := ParseFEN(v, "k3r/R4/5/5/2M1K w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	p = playTexts(t, p, "a4a5")
	if o := p.Outcome(); o.Result != WhiteWins || o.Reason != "king captured" {
		t.Fatalf("outcome %+v after capturing the King", o)
	}
	// Black to act with pieces that cannot move: a stalemate, which loses here.
	p, err = ParseFEN(v, "4R/5/4K/5/k1r2 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if o := p.Outcome(); o.Result != WhiteWins || o.Reason != "stalemate" {
		t.Errorf("outcome %+v, want a stalemate loss for Black", o)
	}
}
