package discord_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestFollowThroughDiscord: a spectator's /follow is answered privately,
// and each move of the game comes to their direct messages with the
// board, without the players' buttons; /unfollow stops them.
func TestFollowThroughDiscord(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob", "carol")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	f := h.slash(t, u[2], ch, "follow", discordtest.Int("game", int64(g.ID)))
	if !f.Ephemeral || !strings.Contains(f.Content, fmt.Sprintf("You follow Game #%d", g.ID)) {
		t.Fatalf("/follow: %q", f.Content)
	}
	h.deliver(t)
	dms := len(h.srv.DMs(u[2]))
	_, g = h.move(t, g, thread, "e4")
	h.deliver(t)
	got := h.srv.DMs(u[2])[dms:]
	want := fmt.Sprintf("Game %d (Chess, <@%s> vs <@%s>): <@%s> played e4.", g.ID, u[0], u[1], u[0])
	if len(got) != 1 || !strings.Contains(got[0].Content, want) || len(got[0].Files) != 1 || len(got[0].Buttons()) != 0 {
		t.Fatalf("carol's direct messages after e4: %s", contents(got))
	}
	if m := h.slash(t, u[2], ch, "unfollow", discordtest.Int("game", int64(g.ID))); !m.Ephemeral || !strings.Contains(m.Content, "no longer follow") {
		t.Fatalf("/unfollow: %q", m.Content)
	}
	h.move(t, g, thread, "e5")
	h.deliver(t)
	if got := h.srv.DMs(u[2])[dms:]; len(got) != 1 {
		t.Errorf("carol was told after /unfollow: %s", contents(got))
	}
}
