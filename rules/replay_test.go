package rules

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestReplayMatchesParseAndPlay: for a random game of every variant,
// Replay gives the same moves, positions and outcome as reading each
// text with ParseMove and playing it with Game.Play.
func TestReplayMatchesParseAndPlay(t *testing.T) {
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range r.Keys() {
		start, texts := randomGame(t, r, key, 120)
		got, err := Replay(start, texts)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		want, err := replayByParse(start, texts)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if gp, wp := got.Position(), want.Position(); !slices.Equal(got.Moves(), want.Moves()) || gp.FEN() != wp.FEN() ||
			got.Outcome() != want.Outcome() || got.Repetitions() != want.Repetitions() {
			t.Errorf("%s: Replay and ParseMove+Play disagree", key)
		}
	}
}

// TestReplayRefuses: Replay names the move that is illegal, unreadable,
// or played after the end (mate, and a repetition draw).
func TestReplayRefuses(t *testing.T) {
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	chess := r.Default("chess").Start()
	for _, tc := range []struct {
		moves []string
		want  string
		is    error
	}{
		{[]string{"e2e4", "e7e5", "e1e3"}, `move 3 "e1e3"`, ErrIllegalMove},
		{[]string{"e2e4", "zz"}, `move 2 "zz"`, ErrBadMove},
		{[]string{"f2f3", "e7e5", "g2g4", "d8h4", "a2a3"}, "the game is over (checkmate)", ErrIllegalMove},
	} {
		_, err := Replay(chess, tc.moves)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, tc.is) {
			t.Errorf("%v: %v, want %q", tc.moves, err, tc.want)
		}
	}
	// Chess draws at the fifth occurrence: no move after it.
	var rep []string
	for range 4 {
		rep = append(rep, "g1f3", "g8f6", "f3g1", "f6g8")
	}
	g, err := Replay(chess, rep)
	if err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); o.Reason != "repetition" {
		t.Fatalf("outcome after four knight dances: %+v", o)
	}
	if _, err := Replay(chess, append(rep, "e2e4")); err == nil || !strings.Contains(err.Error(), "the game is over (repetition)") {
		t.Errorf("a move after the repetition draw: %v", err)
	}
}

// TestForkIsolated: playing on a fork leaves the original as it was, and
// playing on the original leaves the fork as it was.
func TestForkIsolated(t *testing.T) {
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	g, err := Replay(r.Default("chess").Start(), []string{"e2e4", "e7e5"})
	if err != nil {
		t.Fatal(err)
	}
	f := g.Fork()
	play := func(g *Game, text string) {
		t.Helper()
		p := g.Position()
		m, err := ParseMove(&p, text)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	play(f, "g1f3")
	play(g, "d2d4")
	if len(g.Moves()) != 3 || len(f.Moves()) != 3 {
		t.Fatalf("lengths %d and %d, want 3 and 3", len(g.Moves()), len(f.Moves()))
	}
	gp, fp := g.Position(), f.Position()
	if FormatMove(&gp, g.Moves()[2]) == FormatMove(&fp, f.Moves()[2]) || gp.FEN() == fp.FEN() {
		t.Errorf("the fork and the original share their third move: %s / %s", gp.FEN(), fp.FEN())
	}
	if p, q := g.PositionAt(2), f.PositionAt(2); p.FEN() != q.FEN() {
		t.Errorf("the shared prefix differs")
	}
}
