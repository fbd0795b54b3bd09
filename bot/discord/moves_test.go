package discord_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/rules/notation"
)

// TestMovesWithinTheLimit asks /moves in a Cold Fusion game whose pockets
// make the list longer than one Discord message: the answer comes as the
// response and ephemeral follow-ups, each within 2000 characters, and
// together they list every legal move once.
func TestMovesWithinTheLimit(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "coldfusion")
	for _, m := range []string{"^Pa3", "^Pa8", "^Nb2", "^Nb9", "^Ra1", "^Ra10", "^Qd2"} {
		_, g = h.move(t, g, thread, m)
	}
	for _, slow := range []bool{false, true} {
		if slow {
			// A slow answer is deferred; the follow-ups come after the
			// one that replaces the deferred placeholder.
			h.cmds.delay.Store(int64(fakeDeadline + 200*time.Millisecond))
		}
		checkMovesMessages(t, h.askMoves(t, u[0], thread, slow), g.ID)
		h.cmds.delay.Store(0)
	}
}

// askMoves runs /moves as user in channel and returns every message of the
// answer, in order.
func (h *harness) askMoves(t *testing.T, user, channel string, deferred bool) []discordtest.Message {
	t.Helper()
	ix, err := h.srv.Slash(user, channel, "moves")
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxT(t)
	if r, err := ix.Response(ctx); err != nil || (r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource) != deferred {
		t.Fatalf("response %+v, %v; want deferred %v", r, err, deferred)
	}
	var first discordtest.Message
	if !deferred {
		if first, err = ix.Final(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// The list needs at least two messages: wait for the one that ends it
	var msgs []discordtest.Message
	err = h.srv.WaitFor(ctx, func() bool {
		f := ix.Followups()
		if deferred {
			msgs = f // the first follow-up replaced the deleted placeholder
		} else {
			msgs = append([]discordtest.Message{first}, f...)
		}
		return len(msgs) >= 2 && strings.Contains(msgs[len(msgs)-1].Content, "Play one with /move")
	})
	if err != nil {
		t.Fatalf("the list did not arrive whole: %d messages", len(msgs))
	}
	answered(t, ix)
	return msgs
}

// checkMovesMessages checks the messages of a /moves answer in game id:
// private, pinging nobody, within Discord's limit, and listing every
// legal move once.
func checkMovesMessages(t *testing.T, msgs []discordtest.Message, id uint64) {
	t.Helper()
	_, rg, err := shared.svc.Views().Replay(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	p := rg.Position()
	want := map[string]bool{}
	for _, s := range notation.SANs(&p, rg.Legal()) {
		want[s] = true
	}
	seen := map[string]bool{}
	for i, m := range msgs {
		if n := len([]rune(m.Content)); n > 2000 || n == 0 {
			t.Errorf("message %d has %d characters", i, n)
		}
		if !m.Ephemeral || m.Flags&discordgo.MessageFlagsEphemeral == 0 {
			t.Errorf("message %d is public: %q", i, m.Content[:min(60, len(m.Content))])
		}
		if len(m.Mentions) != 0 {
			t.Errorf("message %d pings %v", i, m.Mentions)
		}
		for _, line := range strings.Split(m.Content, "\n") {
			if !strings.HasPrefix(line, "**") || strings.HasPrefix(line, "**Game #") {
				continue
			}
			_, list, _ := strings.Cut(line, "): ")
			for _, s := range strings.Split(strings.TrimSuffix(list, ","), ", ") {
				if seen[s] || !want[s] {
					t.Errorf("message %d lists %q twice or not legal", i, s)
				}
				seen[s] = true
			}
		}
	}
	if len(seen) != len(want) {
		t.Errorf("/moves lists %d moves, want %d", len(seen), len(want))
	}
}
