package console_test

import (
	"reflect"
	"strings"
	"testing"
)

// TestForecastTrainWreck: in the console Bob stores an answer to Alice's
// whole two-part turn, with an answer of two parts of his own; Alice
// cannot see it; her turn sets it off at once and both are told that it
// came from a conditional line.
func TestForecastTrainWreck(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:trainwreck color:white
as bob /accept
as bob /forecast add line:"Nf3 Nf6 Nc6 Nc3"
as alice /forecast list
as bob /forecast list
as bob /forecast show number:1
as alice /move Nf3
as alice /move Nf6
as bob /forecast list
`)
	wantIn(t, "add", section(t, out, `as bob /forecast add line:"Nf3 Nf6 Nc6 Nc3"`),
		"(only @bob sees this) Conditional line 1 stored for game #1: if Nf3 Nf6, then Nc6 Nc3.")
	wantIn(t, "alice's list", section(t, out, "as alice /forecast list"), "(only @alice sees this) You have no conditional line in game #1.")
	wantIn(t, "bob's list", section(t, out, "as bob /forecast list"), "(only @bob sees this) Your conditional lines in game #1 (only you see them):\n1. if Nf3 Nf6, then Nc6 Nc3")
	if len(files(t, section(t, out, "as bob /forecast show number:1"))) != 1 {
		t.Errorf("no board for the line:\n%s", section(t, out, "as bob /forecast show number:1"))
	}
	turn := section(t, out, "as alice /move Nf6")
	wantIn(t, "answer", turn, "@bob's Nc6 Nc3 came at once from a conditional line stored in advance.",
		"→ @bob: Game 1: @bob (Black) played Nc6, Nc3 at once, from a conditional line stored in advance to answer Nf3, Nf6.",
		"@alice, your move")
	if strings.Contains(section(t, out, "as alice /move Nf3"), "→ @bob") {
		t.Errorf("bob was told in the middle of alice's turn")
	}
	g := e.game(t, 1)
	if want := []string{"g1f3", "g8f6", "b8c6", "b1c3"}; !reflect.DeepEqual(g.Moves, want) || g.ToAct != "alice" {
		t.Errorf("moves %q, to act %q", g.Moves, g.ToAct)
	}
	if !strings.HasSuffix(out, "(only @bob sees this) You have no conditional line in game #1. While you wait for your opponent, /forecast add line:\"...\" stores one: their expected move, your answer, their next move, and so on.\n") {
		t.Errorf("the played line is still listed:\n%s", out)
	}
}
