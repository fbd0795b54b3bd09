package console_test

import (
	"strings"
	"testing"
)

// TestComputerOpponent: in the console the computer player is @bot: a
// challenge to it is accepted at once, it answers each move before the
// next line (here as White, so it moves first) in the channel and to the
// player, the game is marked with its level, and level:/rated: are
// checked.
func TestComputerOpponent(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:chess level:3
as alice /challenge @bot variant:chess rated:yes
as alice /challenge @bot variant:tank color:black level:2
as alice /games
as alice /move Nc6
`)
	wantIn(t, "level for a person", section(t, out, "as alice /challenge @bob variant:chess level:3"),
		"level: is for a game against the bot itself")
	wantIn(t, "rated", section(t, out, "as alice /challenge @bot variant:chess rated:yes"),
		"Games against the bot are casual")
	start := section(t, out, "as alice /challenge @bot variant:tank color:black level:2")
	wantIn(t, "accepted", start, "@bot accepted challenge #", "a casual game at level 2", "the bot at level 2", "→ @alice: @bot played ")
	wantIn(t, "games", section(t, out, "as alice /games"), "vs @bot · Tank Chess · your turn", "the bot at level 2")
	move := section(t, out, "as alice /move Nc6")
	wantIn(t, "answer", move, "@alice played Nc6 in game #", "→ @alice: @bot played ")
	// The computer's move is posted where the game is played, once.
	if n := strings.Count(move, "→ #console: @bot played "); n != 1 {
		t.Errorf("the computer's move posted %d times in the channel:\n%s", n, move)
	}
	if strings.Contains(out, "→ @bot") {
		t.Errorf("a notification was printed for the computer:\n%s", out)
	}
}
