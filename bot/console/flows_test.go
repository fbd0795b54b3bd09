package console_test

import (
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
)

// pressLine returns the "/press ID" line printed under the button
// labelled label in out (the last one when several are shown).
func pressLine(t *testing.T, out, label string) string {
	t.Helper()
	found := ""
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, "["+label+"] /press "); i >= 0 {
			found = strings.TrimSpace(l[i+len(label)+3:])
		}
	}
	if found == "" {
		t.Fatalf("no %q button in:\n%s", label, out)
	}
	return found
}

// TestAnnihilationChoice plays Crazyhouse Annihilation's pre-game choice
// in the console with the buttons: the colour asked for is refused with
// the reason, the challenge says who picks what, Bob picks the army drawn
// as Black, Alice lets him move first, and the reply says that the board
// turned round and Bob now plays White.
func TestAnnihilationChoice(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:annihilation color:white
as alice /challenge @bob variant:annihilation days:3
as bob /accept
`)
	wantIn(t, "colour", section(t, out, "as alice /challenge @bob variant:annihilation color:white"),
		"(only @alice sees this)", "Crazyhouse Annihilation has no colour to ask for", "chooser says who picks the army")
	wantIn(t, "challenge", section(t, out, "as alice /challenge @bob variant:annihilation days:3"),
		"@bob picks the army, then @alice who moves first (the first mover plays White)")
	accept := section(t, out, "as bob /accept")
	wantIn(t, "accept", accept, "@bob, choose the army you play: White (at the bottom of the picture) or Black (at the top)",
		"[I play White] /press ", "[I play Black] /press ", "file: ",
		"Game 1, Crazyhouse Annihilation: @alice vs @bob\n", "Waiting for @bob to choose the army they play (its colour in this position).\n")
	if g := e.game(t, 1); g.Status != bot.GameSetup || g.ToAct != "bob" {
		t.Fatalf("after accepting: %+v", g)
	}

	black := pressLine(t, accept, "I play Black")
	out = e.run(t, "as alice "+black+"\nas bob "+black+"\n")
	wantIn(t, "alice presses", section(t, out, "as alice "+black), "(only @alice sees this)", "It is @bob's choice in game 1")
	army := section(t, out, "as bob "+black)
	wantIn(t, "army", army, "@bob will play the army shown as Black in game #1 (at the top in the picture).",
		"@alice, choose who moves first", "[I move first] /press ", "[Opponent moves first] /press ",
		"Waiting for @alice to choose who moves first.\n", "→ @alice: @bob will play the army shown as Black in game 1")

	opp := pressLine(t, army, "Opponent moves first")
	out = e.run(t, "as bob "+black+"\nas alice "+opp+"\nas bob /move pass\n")
	wantIn(t, "stale", section(t, out, "as bob "+black), "out of date")
	wantIn(t, "start", section(t, out, "as alice "+opp),
		"@alice chose that @bob moves first in game #1. The game begins.",
		"the board was turned round and the colours swapped. @bob chose the army drawn as Black, which is now White; @alice plays Black.",
		"@bob (White) vs @alice (Black)")
	g := e.game(t, 1)
	if g.Status != bot.GameActive || g.White != "bob" || g.Black != "alice" || len(g.Moves) != 1 || g.ToAct != "alice" {
		t.Fatalf("game after the choice and bob's pass: %+v", g)
	}
}

// TestWinningAttackerFlow plays a Winning Chess Attacker's double step in
// the console from the start position: the turn start says what '>'
// allows, "Af3+" is refused with the two forms it could mean, "Af3>"
// opens Black's window (its moves listed), Black passes, and White is
// shown the second steps. In a second game "Af3" ends the turn with a
// remark on what "Af3>" would have done.
func TestWinningAttackerFlow(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:winning color:white
as bob /accept
as alice /move Af3+
as alice /move Af3>
as bob /move pass
as alice /move Ad5
`)
	wantIn(t, "start", section(t, out, "as bob /accept"),
		"White to move (a Defender pre-move, marked >, may come first; an Attacker step marked > may be followed by a second step)")
	wantIn(t, "Af3+", section(t, out, "as alice /move Af3+"), "(only @alice sees this)",
		"Af3+ could mean two moves: Af3 ends your turn; Af3> continues it (then Black may answer with the Defender, or pass, "+
			"before White's Attacker steps again). Send the one you mean: Af3 or Af3>.")
	wantIn(t, "Af3>", section(t, out, "as alice /move Af3>"), "@alice played Af3> in game #1.",
		"@bob, your move: Black may answer with the Defender, or pass, before White's Attacker steps again. Your moves: D~K or pass.")
	wantIn(t, "pass", section(t, out, "as bob /move pass"),
		"@alice, your move: White may make the Attacker's second step from f3 (a Bishop step), or pass. Your moves: Ag4, Ah5, Ai6, Axj7, Ae4, Ad5, Ac6, Axb7 or pass.")
	wantIn(t, "second step", section(t, out, "as alice /move Ad5"), "@bob, your move: Black to move")
	if g := e.game(t, 1); strings.Join(g.Moves, " ") != "e1f3> pass f3d5" || g.ToAct != "bob" {
		t.Errorf("moves %q, to act %s", g.Moves, g.ToAct)
	}

	out = e.run(t, `
as alice /challenge @bob variant:winning color:white
as bob /accept
as alice /move Af3
`)
	wantIn(t, "Af3", section(t, out, "as alice /move Af3"), "@alice played Af3 in game #2.\n"+
		"Af3 ended your turn. Af3> would have continued it (then Black may answer with the Defender, or pass, before White's Attacker steps again): "+
		"a move marked > continues the turn.")
}
