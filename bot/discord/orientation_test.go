package discord_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestThreadBoardsKeepWhiteBottom: a player who is told in the thread
// (notify:channel) gets the board there as the thread keeps it, White at
// the bottom, the same picture as the move's reply; told by DM, Black
// gets their own side.
func TestThreadBoardsKeepWhiteBottom(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	h.slash(t, u[1], ch, "settings", discordtest.String("notify", "channel"))
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	h.deliver(t)
	reply, g := h.move(t, g, thread, "e2e4")
	before := len(h.srv.Messages(thread))
	h.deliver(t)
	posted := h.srv.Messages(thread)[before:]
	if len(posted) != 1 || !slices.Contains(posted[0].Mentions, u[1]) || len(posted[0].Files) == 0 || len(reply.Files) == 0 {
		t.Fatalf("bob's turn in the thread: %s", contents(posted))
	}
	if !bytes.Equal(posted[0].Files[0].Data, reply.Files[0].Data) {
		t.Error("bob's turn post in the thread shows another board than the move's reply (White at the bottom)")
	}
	_, g = h.move(t, g, thread, "e7e5")
	h.deliver(t)
	h.slash(t, u[1], ch, "settings", discordtest.String("notify", "dm"))
	reply, _ = h.move(t, g, thread, "g1f3")
	dms := len(h.srv.DMs(u[1]))
	h.deliver(t)
	got := h.srv.DMs(u[1])
	if len(got) != dms+1 || len(got[dms].Files) == 0 {
		t.Fatalf("bob's DM: %d new messages, want one with a board", len(got)-dms)
	}
	if bytes.Equal(got[dms].Files[0].Data, reply.Files[0].Data) {
		t.Error("bob's DM shows White at the bottom, want his own side")
	}
}
