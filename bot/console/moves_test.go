package console_test

import (
	"strings"
	"testing"
)

// TestMovesAndRefusals plays Cold Fusion in a script: /moves lists the
// legal moves (the whole list, which Discord would split), and refused
// moves say why and what was probably meant.
func TestMovesAndRefusals(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:coldfusion color:white
as bob /accept
as alice /moves
as alice /move e4 e5
as alice /move ^Pa3
as bob /move ^Pa8
as alice /move ^Nb2
as bob /move ^Nb9
as alice /move ^Ra1
as bob /move ^Ra10
as alice /move P@g6
as alice /move zz
as bob /moves
`)
	wantIn(t, "/moves at the start", section(t, out, "as alice /moves"),
		"(only @alice sees this) Game #1: 100 legal moves for you (White):\n",
		"Pawn (20): a4, a5, b4, b5, ",
		"Splits — one part moves away (14): Qd2/Rd1, ",
		"Pocketings — a man goes into your Demotion pocket (19): ^Ra1, ",
		"Play one with /move, e.g. /move Ra2; the coordinate form works too (/move a1a2).\n")
	wantIn(t, "two moves at once", section(t, out, "as alice /move e4 e5"),
		`! /move takes one move at a time: type /move e4, then /move e5 (a second value would be the game: number).`)
	wantIn(t, "a Safe-pocket drop of an own pocketed pawn", section(t, out, "as alice /move P@g6"),
		"(only @alice sees this) illegal move: P@g6: a drop written P@ comes from the Safe pocket, and White's holds no Pawn (did you mean P*=P@g6?). /moves lists the legal moves.\n")
	wantIn(t, "unreadable", section(t, out, "as alice /move zz"),
		`unreadable move: "zz": neither a coordinate move nor SAN: expected a move like `, "/moves lists the legal moves.")
	long := section(t, out, "as bob /moves")
	wantIn(t, "/moves for a spectator of the turn", long,
		"(only @bob sees this) Game #1: ", " legal moves for @alice (White):\n",
		"Drops of your own pocketed men — dropped demoted (", "P*=P@g6, ",
		"Drops of your own pocketed men — dropped demoted (continued): ")
	if n := len(long); n <= 2000 {
		t.Errorf("the list has %d bytes: too short to test the continued messages", n)
	}
	if strings.Contains(long, "**") {
		t.Errorf("bold markers in the console:\n%s", long)
	}
}
