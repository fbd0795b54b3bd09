package discord_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestVacationThroughDiscord: /vacation start answers only the player,
// and the opponent gets a direct message that the clock is stopped;
// /vacation end tells them it runs again.
func TestVacationThroughDiscord(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess", discordtest.Int("days", 3))
	h.move(t, g, thread, "e4")
	h.deliver(t)
	dms := len(h.srv.DMs(u[0]))
	start := h.slash(t, u[1], ch, "vacation", discordtest.String("action", "start"))
	if !start.Ephemeral || !strings.Contains(start.Content, "Enjoy your vacation") {
		t.Fatalf("/vacation start: %+v", start)
	}
	h.clk.Advance(time.Hour)
	end := h.slash(t, u[1], ch, "vacation", discordtest.String("action", "end"))
	if !end.Ephemeral || !strings.Contains(end.Content, "Vacation: 1 of your 30 days") {
		t.Fatalf("/vacation end: %q", end.Content)
	}
	h.deliver(t)
	got := contents(h.srv.DMs(u[0])[dms:])
	for _, want := range []string{
		fmt.Sprintf("<@%s> is on vacation until", u[1]),
		fmt.Sprintf("their clock in game %d (Chess) is stopped meanwhile", g.ID),
		fmt.Sprintf("<@%s> is back from vacation: their clock in game %d (Chess) runs again.", u[1], g.ID),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("alice's direct messages lack %q: %s", want, got)
		}
	}
}
