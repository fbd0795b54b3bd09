package discord_test

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestDigestThroughDiscord: a player who asks for a daily digest with
// /settings gets no direct message per move, and at the digest hour one
// direct message listing the game where it is their turn with what the
// opponent played and the board (their side at the bottom), times in
// their time zone.
func TestDigestThroughDiscord(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess", discordtest.Int("days", 3))
	h.deliver(t)
	next := h.clk.Now().UTC().Add(time.Hour).Truncate(time.Hour)
	local := next.Add(-5 * time.Hour) // at UTC-5
	set := h.slash(t, u[1], ch, "settings", discordtest.String("digest", strconv.Itoa(local.Hour())), discordtest.String("utc", "-5"))
	if !set.Ephemeral || !strings.Contains(set.Content, fmt.Sprintf("A daily digest at %02d:00 UTC-5", local.Hour())) ||
		!strings.Contains(set.Content, "digest:off|0-23") || !strings.Contains(set.Content, "utc:+2|-5|+5:30") {
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
	deadline := h.game(t, g.ID).Deadline.Add(-5 * time.Hour).Format("2006-01-02 15:04")
	want := fmt.Sprintf("It is your turn in 1 game:\n• **Game #%d** (Chess) vs <@%s>: move before %s UTC-5 (", g.ID, u[0], deadline)
	if len(got) != 1 || !strings.Contains(got[0].Content, want) || !strings.Contains(got[0].Content, "Since your last move: 1. e4.") {
		t.Fatalf("bob's digest: %s; want %q", contents(got), want)
	}
	if len(got[0].Files) != 1 || !strings.HasSuffix(got[0].Files[0].Name, ".png") {
		t.Fatalf("bob's digest carries %d files, want his board", len(got[0].Files))
	}
	want2 := h.slash(t, u[1], thread, "board") // bob's own view: Black at the bottom
	if len(want2.Files) != 1 || !bytes.Equal(want2.Files[0].Data, got[0].Files[0].Data) {
		t.Errorf("the digest's board is not the board /board shows bob")
	}
}
