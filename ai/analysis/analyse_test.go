package analysis

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// registry returns the registry of every variant.
func registry(t testing.TB) *rules.Registry {
	t.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// game plays the moves (friendly or canonical form) from the start of
// variant key with default options.
func game(t testing.TB, reg *rules.Registry, key string, moves ...string) *rules.Game {
	t.Helper()
	g := rules.NewGame(reg.Default(key).Start())
	for _, s := range moves {
		p := g.Position()
		m, err := notation.ParseMove(&p, s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return g
}

// sans returns the friendly form of moves played from position from of g.
func sans(g *rules.Game, from int, moves []rules.Move) []string {
	p := g.PositionAt(from)
	var out []string
	for _, m := range moves {
		out = append(out, notation.SAN(&p, m))
		p, _ = p.After(m)
	}
	return out
}

// TestFoolsMate checks the proof: in f3 e5 g4 Qh4#, g4 is a
// blunder (it lets Black mate) with a better move, Black's mate is not
// judged, and White's accuracy is below Black's.
func TestFoolsMate(t *testing.T) {
	reg := registry(t)
	g := game(t, reg, "chess", "f3", "e5", "g4", "Qh4#")
	a, err := Analyse(context.Background(), g, Options{Level: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Turns) != 4 || len(a.Plies) != 4 {
		t.Fatalf("%d turns, %d plies: want 4 and 4", len(a.Turns), len(a.Plies))
	}
	g4 := a.Turns[2]
	if g4.Judgement != Blunder || len(g4.Best) != 1 || g4.Why != mateCreated {
		t.Errorf("g4: %q (%s), best %v: want a blunder (%s) with a better move", g4.Judgement, g4.Why, sans(g, 2, g4.Best), mateCreated)
	}
	if e5 := a.Turns[1]; e5.Judgement != Good || e5.Best != nil || e5.Line != nil {
		t.Errorf("e5: %q, best %v, line %v: want no judgement and no better move", e5.Judgement, e5.Best, e5.Line)
	}
	if qh4 := a.Turns[3]; qh4.Judgement != Good || qh4.After.Result != rules.BlackWins {
		t.Errorf("Qh4#: %q, after %v: want no judgement and the game won by Black", qh4.Judgement, qh4.After)
	}
	if !a.WhiteOK || !a.BlackOK || a.White >= a.Black {
		t.Errorf("accuracy White %.1f (%v), Black %.1f (%v): want White's below Black's", a.White, a.WhiteOK, a.Black, a.BlackOK)
	}
}

// gameFrom plays the canonical moves from fen in variant key.
func gameFrom(t testing.TB, reg *rules.Registry, key, fen string, moves ...string) *rules.Game {
	t.Helper()
	start, err := rules.ParseFEN(reg.Default(key), fen)
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGame(start)
	for _, s := range moves {
		p := g.Position()
		m, err := notation.ParseMove(&p, s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return g
}

// TestTrainWreckWholeTurn checks the whole-turn rule: in Train Wreck,
// White, a Queen up, plays the turn h3 then the Black Rook a2-a1 (White's second half-move,
// moving an enemy piece) hands the King to the Rook on the first rank.
// The two half-moves are one turn, judged a blunder as a whole, with a
// better turn of two half-moves; Black's taking of the King ends the game
// unjudged.
func TestTrainWreckWholeTurn(t *testing.T) {
	reg := registry(t)
	g := gameFrom(t, reg, "trainwreck", "4k3/8/8/8/3Q4/8/r4PPP/4K3 w - - 0 1", "h2h3", "a2a1", "a1e1")
	if o := g.Outcome(); o.Result != rules.BlackWins {
		t.Fatalf("outcome %+v: want Black to win by taking the King", o)
	}
	a, err := Analyse(context.Background(), g, Options{Level: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Turns) != 2 || len(a.Plies) != 3 {
		t.Fatalf("%d turns, %d plies: want 2 turns of 3 plies", len(a.Turns), len(a.Plies))
	}
	turn := a.Turns[0]
	if turn.Player != rules.White || turn.From != 0 || turn.To != 2 {
		t.Errorf("first turn %v plies %d..%d: want White's, plies 0..2", turn.Player, turn.From, turn.To)
	}
	if turn.Judgement != Blunder || len(turn.Best) != 2 {
		t.Errorf("White's turn: %q, best %v: want a blunder with a better turn of two half-moves", turn.Judgement, sans(g, 0, turn.Best))
	}
	if a.Plies[0].Turn != 0 || a.Plies[1].Turn != 0 || a.Plies[2].Turn != 1 {
		t.Errorf("plies' turns %d %d %d: want 0 0 1", a.Plies[0].Turn, a.Plies[1].Turn, a.Plies[2].Turn)
	}
	if a.Turns[1].Judgement != Good {
		t.Errorf("Black's capture of the King: %q, want no judgement", a.Turns[1].Judgement)
	}
	if a.Count(rules.White, Blunder) != 1 || a.Count(rules.Black, Blunder) != 0 {
		t.Errorf("blunders: White %d, Black %d; want 1 and 0", a.Count(rules.White, Blunder), a.Count(rules.Black, Blunder))
	}
}

// TestForcedTurn checks that a turn without choice is never judged nor
// counted: White in check with one legal move (taking the Queen), which
// ends the game (two bare Kings), and a forced pass.
func TestForcedTurn(t *testing.T) {
	reg := registry(t)
	g := gameFrom(t, reg, "chess", "7k/8/8/8/8/8/6q1/7K w - - 0 1", "h1g2")
	a, err := Analyse(context.Background(), g, Options{Level: 2})
	if err != nil {
		t.Fatal(err)
	}
	turn := a.Turns[0]
	if !turn.Forced || turn.Judgement != Good || turn.Best != nil {
		t.Errorf("Kxg2: forced %v, %q, best %v: want forced, unjudged, without a better move", turn.Forced, turn.Judgement, turn.Best)
	}
	if a.WhiteOK || a.BlackOK {
		t.Errorf("accuracy ok %v/%v: want none (no unforced turn)", a.WhiteOK, a.BlackOK)
	}
	// A forced pass: in Crazyhouse Annihilation White's only pawn is
	// blocked and White has nothing in hand.
	g = gameFrom(t, reg, "annihilation", "8/8/8/4p3/4P3/8/8/n7[] w - - 0 1", "pass", "a1b3")
	if a, err = Analyse(context.Background(), g, Options{Level: 2}); err != nil {
		t.Fatal(err)
	}
	if turn := a.Turns[0]; !turn.Forced || turn.Judgement != Good || turn.Best != nil || a.WhiteOK {
		t.Errorf("forced pass: forced %v, %q, best %v, White's accuracy counted %v: want forced, unjudged, uncounted", turn.Forced, turn.Judgement, turn.Best, a.WhiteOK)
	}
	// The same position with a second legal move (Bxg2) is not forced.
	g = gameFrom(t, reg, "chess", "7k/8/8/8/8/8/6q1/5B1K w - - 0 1", "h1g2")
	if a, err = Analyse(context.Background(), g, Options{Level: 2}); err != nil {
		t.Fatal(err)
	}
	if a.Turns[0].Forced {
		t.Error("Kxg2 with the Bishop also able to take: forced, want not")
	}
}

// TestDeterministic checks that an analysis depends on its inputs only:
// the same game at the same level gives the same analysis with one worker
// or two, and progress counts every position once, in order.
func TestDeterministic(t *testing.T) {
	reg := registry(t)
	g := game(t, reg, "chess", "e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5", "Qg5", "Nxf7", "Qxg2", "Rf1", "Qxe4+", "Be2", "Nf3#")
	var calls []int
	one, err := Analyse(context.Background(), g, Options{Level: 2, Workers: 1, Progress: func(done, total int) {
		if total != 14 {
			t.Errorf("progress total %d, want 14 (the positions before each move)", total)
		}
		calls = append(calls, done)
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range calls {
		if d != i+1 {
			t.Fatalf("progress %v: want 1..14 in order", calls)
		}
	}
	if len(calls) != 14 {
		t.Errorf("progress called %d times, want 14", len(calls))
	}
	two, err := Analyse(context.Background(), g, Options{Level: 2, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, two) {
		t.Error("one worker and two gave different analyses")
	}
	other, err := Analyse(context.Background(), g, Options{Level: 4, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(one.Plies, other.Plies) {
		t.Error("levels 2 and 4 gave the same evaluations: the level is not used")
	}
}

// TestRefusals checks the errors: a game without moves, a level out of
// range, a scale that is not a positive number, a cancelled context.
func TestRefusals(t *testing.T) {
	reg := registry(t)
	if _, err := Analyse(context.Background(), game(t, reg, "chess"), Options{}); err != ErrNoMoves {
		t.Errorf("no moves: %v, want ErrNoMoves", err)
	}
	g := game(t, reg, "chess", "e4")
	for _, level := range []int{-1, MaxLevel + 1} {
		if _, err := Analyse(context.Background(), g, Options{Level: level}); err == nil {
			t.Errorf("level %d: want an error", level)
		}
	}
	for _, scale := range []float64{-0.001, math.NaN(), math.Inf(1)} {
		if _, err := Analyse(context.Background(), g, Options{Level: 1, Scale: scale}); err == nil {
			t.Errorf("scale %g: want an error", scale)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyse(ctx, g, Options{Level: 1}); err != context.Canceled {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// TestSingleMoveEvaluated checks that a position with a single legal move
// is evaluated by what follows it (the engine answers such a position at
// once, without a score): Black, checked by a Rook with a single way out,
// is lost, and the evaluation says so, not 0.
func TestSingleMoveEvaluated(t *testing.T) {
	reg := registry(t)
	g := gameFrom(t, reg, "chess", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", "a1a7")
	p := g.Position()
	if n := len(p.Legal(nil)); n != 1 {
		t.Fatalf("after Ra7 Black has %d legal moves, want 1", n)
	}
	a, err := Analyse(context.Background(), g, Options{Level: 2})
	if err != nil {
		t.Fatal(err)
	}
	if e := a.Plies[0].Eval; e.Mate <= 0 {
		t.Errorf("after Ra7 (Black's only move Kg8, then Ra8#): %v, want White mating", e)
	}
}
