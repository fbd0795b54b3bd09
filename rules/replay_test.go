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
