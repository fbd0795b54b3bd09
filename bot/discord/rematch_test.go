package discord_test

import (
	"testing"
)

// TestRematchThroughDiscord: the message that ends a game carries a
// Rematch button; the loser's click challenges the winner with the
// colours swapped, and the winner's Accept starts the new game.
func TestRematchThroughDiscord(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	last := g
	for _, mv := range []string{"f3", "e5", "g4"} {
		_, last = h.move(t, last, thread, mv)
	}
	mate, _ := h.move(t, last, thread, "Qh4#")
	ask := public(t, h.click(t, u[0], mate, "Rematch"))
	acc := public(t, h.click(t, u[1], ask, "Accept"))
	if len(acc.Files) == 0 {
		t.Errorf("the accept reply has no board: %q", acc.Content)
	}
	ng := h.channelGame(t, ch) // the only game not over
	if ng.White != u[1] || ng.Black != u[0] || ng.Variant != "chess" || ng.DaysPerMove != g.DaysPerMove {
		t.Errorf("the rematch %+v after %+v", ng, g)
	}
}
