package console_test

import (
	"strings"
	"testing"
)

// TestFollow: Carol follows the game played in the channel, is sent each
// move (a whole Train Wreck turn at once) and the result, and stops with
// /unfollow; players cannot follow their own game.
func TestFollow(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:trainwreck color:white
as bob /accept
as carol /follow
as alice /follow
as alice /move Nf3
as alice /move Nf6
as carol /unfollow game:1
as bob /move e5
as carol /follow game:1
as bob /resign
`)
	wantIn(t, "follow", section(t, out, "as carol /follow"), "(only @carol sees this) You follow Game #1 · @alice (White) vs @bob (Black) · Train Wreck Chess")
	wantIn(t, "player", section(t, out, "as alice /follow"), "(only @alice sees this) You play in game 1")
	if strings.Contains(section(t, out, "as alice /move Nf3"), "→ @carol") {
		t.Errorf("carol was told half a turn")
	}
	wantIn(t, "turn", section(t, out, "as alice /move Nf6"), "→ @carol: Game 1 (Train Wreck Chess, @alice vs @bob): @alice played Nf3, Nf6.")
	if strings.Contains(section(t, out, "as bob /move e5"), "→ @carol") {
		t.Errorf("carol was told after /unfollow")
	}
	wantIn(t, "result", section(t, out, "as bob /resign"), "→ @carol: Game 1 is over (1-0): @alice (White) wins by resignation.")
}
