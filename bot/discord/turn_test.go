package discord_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestTurnSummaryPosted: the game's thread is named with the variant's
// name; a Train Wreck turn played from the channel is
// posted into the game's thread naming both half-moves, and the
// opponent's "your turn" direct message names them too.
func TestTurnSummaryPosted(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "trainwreck")
	h.deliver(t)
	dms := len(h.srv.DMs(u[1]))
	public(t, h.slash(t, u[0], ch, "move", discordtest.String("move", "e4")))
	public(t, h.slash(t, u[0], ch, "move", discordtest.String("move", "e5")))
	if th, ok := h.srv.Thread(thread); !ok || !strings.HasSuffix(th.Name, "(Train Wreck Chess)") {
		t.Errorf("thread %+v: the variant's name is not in its name", th)
	}
	want := fmt.Sprintf("<@%s> played e4, **e5** in game #%d.", u[0], g.ID)
	h.waitMessage(t, thread, "with the whole turn", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, want)
	})
	h.deliver(t)
	got := h.srv.DMs(u[1])[dms:]
	told := false
	for _, m := range got {
		if strings.Contains(m.Content, fmt.Sprintf("<@%s> played e4, e5.\nYour turn in game %d (Train Wreck Chess).", u[0], g.ID)) {
			told = true
		}
	}
	if !told {
		t.Errorf("bob's direct messages do not name alice's turn: %s", contents(got))
	}
}
