package ai

import (
	"context"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// TestLine checks that Line gives the search's expected line: in a
// mate in two (doubled Rooks against one defender on the back rank) the
// line after the search is the whole mating sequence, and it ends with the
// game.
func TestLine(t *testing.T) {
	reg := registry(t)
	p := position(t, reg, "chess", "1r4k1/5ppp/8/8/8/8/2R2PPP/2R3K1 w - - 0 1")
	e := NewEngine(Options{Nodes: 20000, Spread: -1})
	r, err := e.Search(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if MateIn(r.Score) != 3 {
		t.Fatalf("score %d (mate in %d): want a mate in 3 atomic moves", r.Score, MateIn(r.Score))
	}
	line := e.Line(p, r.Move, 20)
	var texts []string
	cur := p
	for _, m := range line {
		texts = append(texts, rules.FormatMove(&cur, m))
		next, ok := cur.After(m)
		if !ok {
			t.Fatalf("line %v: %s is not legal", texts, texts[len(texts)-1])
		}
		cur = next
	}
	if len(line) != 3 || !cur.Outcome().Over() {
		t.Errorf("line %s: want the 3 moves of the mate, ending the game", strings.Join(texts, " "))
	}
	if got := e.Line(p, rules.Move{}, 20); got != nil {
		t.Errorf("line from an illegal first move: %v, want nil", got)
	}
	if got := e.Line(p, r.Move, 1); len(got) != 1 || got[0] != r.Move {
		t.Errorf("line of at most 1 move: %v, want just the chosen move", got)
	}
}
