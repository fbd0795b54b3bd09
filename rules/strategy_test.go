package rules

import "testing"

// strategyTerm returns the variant's Strategy.Term of fen, with every
// piece worth 100.
func strategyTerm(t *testing.T, key, fen string) int {
	t.Helper()
	reg, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	v := reg.Default(key)
	p, err := ParseFEN(v, fen)
	if err != nil {
		t.Fatalf("%s %q: %v", key, fen, err)
	}
	if v.Strategy.Term == nil {
		t.Fatalf("%s has no Strategy.Term", key)
	}
	return v.Strategy.Term(&p, func(PieceType) int { return 100 })
}

// TestStrategyTerms checks the variants' own judgement terms: each favours
// the side the position favours, and mirrored positions get opposite
// values.
func TestStrategyTerms(t *testing.T) {
	for _, c := range []struct {
		name, key, white, black string
		positive                bool
	}{
		// White's Bomb next to Black's King, nothing else in its blast.
		{"tank: a bomb beside the enemy King", "tank",
			"4k3/4M3/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/4m3/4K3 b - - 0 1", true},
		// White's Bomb one step from having Black's King in its blast.
		{"tank: a bomb near the enemy King", "tank",
			"4k3/8/4M3/8/8/8/8/4K3 w - - 0 1", "4K3/8/4m3/8/8/8/8/4k3 b - - 0 1", true},
		// Black's Tank beside White's King: the King may be pushed off.
		{"tank: a Tank beside the King", "tank",
			"7k/8/8/8/8/8/8/Kt6 w - - 0 1", "kT6/8/8/8/8/8/8/7K b - - 0 1", false},
		// The Attacker can reach the undefended King in two steps (c5>,
		// d7>); the mirrored position is Black's.
		{"winning: Attacker threats", "winning",
			"5k6/12/12/12/A11/12/12/K11 w - - 0 1", "k11/12/12/a11/12/12/12/5K6 b - - 0 1", true},
		// White's weak Queen on d4 is attacked by the Knight on e6:
		// White's King is frozen.
		{"easymate: a frozen King", "easymate",
			"4k3/8/4n3/8/3Q4/8/8/4K3 w - - 0 1", "4k3/8/8/3q4/8/4N3/8/4K3 b - - 0 1", false},
	} {
		w, b := strategyTerm(t, c.key, c.white), strategyTerm(t, c.key, c.black)
		if (w > 0) != c.positive || w == 0 || b != -w {
			t.Errorf("%s: term %d for White's side, %d mirrored; want a %s value and its opposite",
				c.name, w, b, map[bool]string{true: "positive", false: "negative"}[c.positive])
		}
	}
}
