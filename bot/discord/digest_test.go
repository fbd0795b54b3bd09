package discord_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestDigestThroughDiscord: a player who asks for a daily digest with
// /settings gets no direct message per move, and at the digest hour one
// direct message listing the game where it is their turn and what
// happened.
func TestDigestThroughDiscord(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess", discordtest.Int("days", 3))
	h.deliver(t)
	next := h.clk.Now().UTC().Add(time.Hour).Truncate(time.Hour)
	set := h.slash(t, u[1], ch, "settings", discordtest.String("digest", strconv.Itoa(next.Hour())), discordtest.String("utc", "+0"))
	if !set.Ephemeral || !strings.Contains(set.Content, fmt.Sprintf("A daily digest at %02d:00 (UTC+0:00)", next.Hour())) {
		t.Fatalf("/settings: %q", set.Content)
	}
	dms := len(h.srv.DMs(u[1]))
	h.move(t, g, thread, "e4")
	h.deliver(t)
	if got := h.srv.DMs(u[1])[dms:]; len(got) != 0 {
		t.Fatalf("bob was sent a message per event: %s", contents(got))
	}
	h.clk.Advance(next.Sub(h.clk.Now()))
	h.deliver(t)
	got := h.srv.DMs(u[1])[dms:]
	if len(got) != 1 || !strings.Contains(got[0].Content, fmt.Sprintf("It is your turn in 1 game:\n• game %d (Chess) against <@%s>", g.ID, u[0])) ||
		!strings.Contains(got[0].Content, "Since the last digest:\n• ") {
		t.Fatalf("bob's digest: %s", contents(got))
	}
}
