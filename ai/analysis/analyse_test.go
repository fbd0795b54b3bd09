package analysis

import (
	"context"
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
	if qh4 := a.Turns[3]; qh4.Judgement != Good || qh4.After.Result != rules.BlackWins {
		t.Errorf("Qh4#: %q, after %v: want no judgement and the game won by Black", qh4.Judgement, qh4.After)
	}
	if !a.WhiteOK || !a.BlackOK || a.White >= a.Black {
		t.Errorf("accuracy White %.1f (%v), Black %.1f (%v): want White's below Black's", a.White, a.WhiteOK, a.Black, a.BlackOK)
	}
	for i, t0 := range a.Turns {
		t.Logf("turn %d %v %v -> %v %q %v acc %.1f", i, t0.Player, t0.Before, t0.After, t0.Judgement, sans(g, t0.From, t0.Best), t0.Accuracy)
	}
}
