package discord_test

import (
	"context"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/internal/testkit"
)

// pendingFor returns the one notification waiting for user.
func (h *harness) pendingFor(t *testing.T, user string) bot.Notification {
	t.Helper()
	ns, err := testkit.Stores(h.db).Outbox.PendingNotifications(context.Background(), h.clk.Now(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var found []bot.Notification
	for _, n := range ns {
		if n.UserID == user {
			found = append(found, n)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d notifications wait for %s, want 1: %+v", len(found), user, found)
	}
	return found[0]
}

// TestRedeliveryPostsOnce: a notification sent by a deliverer that
// stopped before marking it delivered, then delivered again (by the
// next deliverer), makes one message: the second send repeats the
// first's nonce and Discord returns the first message. Both a DM and a
// post in the game's thread (the "channel" preference) are covered.
func TestRedeliveryPostsOnce(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	alice, bob := u[0], u[1]
	g, thread := h.start(t, ch, alice, bob, "chess")
	h.deliver(t)

	// sendTwice sends user's waiting notification twice; where lists the
	// messages of where it goes.
	sendTwice := func(what, user string, where func() []discordtest.Message) discordtest.Message {
		t.Helper()
		n := h.pendingFor(t, user)
		before, dedups := len(where()), h.srv.NonceDedups()
		// The first deliverer sends, then stops before AckNotification.
		if err := h.b.Send(context.Background(), n); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		h.deliver(t) // the next one finds it still waiting and sends it again
		after := where()
		if got := len(after) - before; got != 1 {
			t.Errorf("%s: %d messages from one notification sent twice, want 1", what, got)
		}
		if got := h.srv.NonceDedups() - dedups; got != 1 {
			t.Errorf("%s: the fake deduplicated %d sends, want 1", what, got)
		}
		var last discordtest.Message
		if len(after) > 0 {
			last = after[len(after)-1]
		}
		if last.Nonce == "" || len(last.Nonce) > 25 {
			t.Errorf("%s: the message's nonce is %q, want 1 to 25 characters", what, last.Nonce)
		}
		return last
	}

	_, g = h.move(t, g, thread, "e2e4")
	dm := sendTwice("bob's turn by DM", bob, func() []discordtest.Message { return h.srv.DMs(bob) })
	if len(dm.Files) == 0 { // the multipart request carries the nonce too
		t.Errorf("bob's turn by DM has no board: %q", dm.Content)
	}

	h.slash(t, alice, ch, "settings", discordtest.String("notify", "channel"))
	h.move(t, g, thread, "e7e5")
	m := sendTwice("alice's turn in the thread", alice, func() []discordtest.Message { return h.srv.Messages(thread) })
	if m.InteractionID != "" || len(m.Mentions) == 0 || m.Mentions[0] != alice {
		t.Errorf("the thread's last message is not alice's turn: %q", m.Content)
	}
}
