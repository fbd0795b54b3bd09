package rules

import "testing"

// TestLastTurn pins where turns begin (Position.BeginsTurn): every move
// in chess, two half-moves in Train Wreck, three in Three-Move after
// White's first turn, and Winning Chess's turn with the opponent's
// Defender answer inside it (W3).
func TestLastTurn(t *testing.T) {
	cases := []struct {
		variant, fen string
		moves        []string
		want         int
	}{
		{variant: "chess", want: 0},
		{variant: "chess", moves: []string{"e2e4"}, want: 0},
		{variant: "chess", moves: []string{"e2e4", "e7e5"}, want: 1},
		{variant: "trainwreck", moves: []string{"e2e4", "d7d5"}, want: 0},
		{variant: "trainwreck", moves: []string{"e2e4", "d7d5", "e7e5"}, want: 2},
		{variant: "trainwreck", moves: []string{"e2e4", "d7d5", "e7e5", "g1f3"}, want: 2},
		{variant: "trainwreck-threemove", moves: []string{"e2e4", "d7d5", "e7e5", "d5d4", "g1f3"}, want: 2},
		{variant: "trainwreck-threemove", moves: []string{"e2e4", "d7d5", "e7e5", "d5d4", "g1f3", "f1c4"}, want: 5},
		// White's Attacker steps on with '>', Black's Defender answers,
		// White's second step ends the turn; then Black's turn begins.
		{variant: "winning", fen: "r4kd4r/12/12/12/12/12/12/R4KA4R w - - 0 1",
			moves: []string{"g1f3>", "g8h7", "f3g4"}, want: 0},
		{variant: "winning", fen: "r4kd4r/12/12/12/12/12/12/R4KA4R w - - 0 1",
			moves: []string{"g1f3>", "g8h7", "f3g4", "a8a7"}, want: 3},
	}
	for _, c := range cases {
		v := mustVariantWith(t, c.variant, "")
		start := v.Start()
		if c.fen != "" {
			start = mustFEN(t, v, c.fen)
		}
		g := NewGame(start)
		for _, s := range c.moves {
			p := g.Position()
			m, err := ParseMove(&p, s)
			if err != nil {
				t.Fatalf("%s %v: %s: %v", c.variant, c.moves, s, err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s %v: %s: %v", c.variant, c.moves, s, err)
			}
		}
		if got := g.LastTurn(); got != c.want {
			t.Errorf("%s %v: LastTurn() = %d, want %d", c.variant, c.moves, got, c.want)
		}
	}
}
