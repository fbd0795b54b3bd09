package console_test

import (
	"testing"

	"github.com/fairypost/fairypost/bot"
)

// TestRematchButton: the game-over message carries a Rematch button; the
// loser's click challenges the winner to the same game (variant, days per
// move, rated as the first game was) with the colours swapped, and the
// winner accepts it as any challenge.
func TestRematchButton(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:chess days:5 color:white
as bob /accept
as alice /move f3
as bob /move e5
as alice /move g4
as bob /move Qh4#
`)
	mate := section(t, out, "as bob /move Qh4#")
	wantIn(t, "mate", mate, "Game #1 is over", "→ @alice: ")
	rematch := pressLine(t, mate, "Rematch")
	out = e.run(t, "as alice "+rematch+"\nas alice "+rematch+"\nas bob /accept\n")
	wantIn(t, "asked", section(t, out, "as alice "+rematch),
		"@alice asks @bob for a rematch of game #1: Chess, 5 days per move, @alice plays black, rated. Challenge #2",
		"[Accept] /press fp1:accept:2:1", "→ @bob: @alice challenges you to Chess (5 days per move).")
	wantIn(t, "twice", out, "(only @alice sees this) Your challenge #2 to @bob for this game stands already")
	g := e.game(t, 2)
	if g.Status != bot.GameActive || g.White != "bob" || g.Black != "alice" || g.DaysPerMove != 5 || g.Variant != "chess" || !g.Rated {
		t.Fatalf("the rematch: %+v", g)
	}
}
