package ai

import (
	"context"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// TestFirstIteration checks what a tiny node budget does with a first
// iteration it cannot finish: in this Train Wreck position levels 1 and 2
// used to run out while judging the first move, which walks the King next
// to a pawn that takes it, and that move was played. The budget may now
// stretch to finish the iteration, and a move not judged is preferred to
// one proven lost.
func TestFirstIteration(t *testing.T) {
	reg := registry(t)
	p := position(t, reg, "trainwreck-almost", "1nbN1bnr/3k4/4p1p1/Bp4Rp/p1pP1P1C/P3pK1B/R6P/8 w - - 1 15")
	for _, level := range []int{1, 2} {
		r, err := NewEngine(Options{Level: level, Seed: 5}).Search(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if MateIn(r.Score) < 0 || rules.FormatMove(&p, r.Move) == "f3g4" {
			t.Errorf("level %d: %s (score %d, depth %d, %d nodes): want a move that does not lose the King",
				level, rules.FormatMove(&p, r.Move), r.Score, r.Depth, r.Nodes)
		}
		if r.Nodes > firstIterationSlack*[]int64{0, 300, 1000}[level] {
			t.Errorf("level %d: %d nodes, more than %d times its budget", level, r.Nodes, firstIterationSlack)
		}
	}
}

// TestNullMoveDepth checks that null-move pruning, where the variant's
// Strategy allows it, lets the same node budget search deeper in a chess
// middlegame, and that variants without it never prune by a pass.
func TestNullMoveDepth(t *testing.T) {
	reg := registry(t)
	v := reg.Default("chess")
	p := position(t, reg, "chess", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8")
	depth := func(null bool) int {
		e := NewEngine(Options{Nodes: 200000, Spread: -1})
		e.ev = newEvaluator(v, false)
		e.ev.nullMove = null
		r, err := e.Search(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r.Depth
	}
	with, without := depth(true), depth(false)
	if with <= without {
		t.Errorf("depth %d with null-move pruning, %d without: want deeper with it", with, without)
	}
	for _, key := range reg.Keys() {
		allowed := key == "chess" || key == "crazyhouse" || key == "grand"
		if got := newEvaluator(reg.Default(key), false).nullMove; got != allowed {
			t.Errorf("%s: null-move pruning %v, want %v", key, got, allowed)
		}
	}
}

// TestPositionalTerms checks the generic positional terms on pairs of
// chess positions that differ only by the term judged.
func TestPositionalTerms(t *testing.T) {
	reg := registry(t)
	ev := newEvaluator(reg.Default("chess"), false)
	for _, c := range []struct {
		name, better, worse string
	}{
		{"an advanced passed pawn", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/1P6/4K3 w - - 0 1"},
		{"a passed pawn rather than a blocked one", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1", "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1"},
		{"pawns side by side rather than doubled", "4k3/8/8/8/8/8/PP6/4K3 w - - 0 1", "4k3/8/8/8/8/P7/P7/4K3 w - - 0 1"},
		{"a King behind its pawns while the enemy has its army",
			"rnbq1rk1/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w - - 0 1", "rnbq1rk1/pppppppp/8/8/8/5K2/PPPPPPPP/RNBQ1R2 w - - 0 1"},
		{"a central King in an endgame", "8/8/8/3k4/8/3K4/8/8 w - - 0 1", "8/8/8/3k4/8/8/8/K7 w - - 0 1"},
	} {
		b, w := position(t, reg, "chess", c.better), position(t, reg, "chess", c.worse)
		if sb, sw := ev.evaluate(&b), ev.evaluate(&w); sb <= sw {
			t.Errorf("%s: %d for %s, %d for %s: want the first better", c.name, sb, c.better, sw, c.worse)
		}
	}
}
