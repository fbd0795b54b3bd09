package discord_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestAnnihilationChoiceByButtons plays Crazyhouse Annihilation's pre-game
// choice on Discord with buttons only: Bob accepts and picks the army
// drawn as Black under the accept reply, Alice answers "Opponent moves
// first" with the button of the notification delivered to her DMs, and
// the board turns round so that Bob, the first mover, plays White. Out of
// turn and stale presses are refused privately and change nothing.
func TestAnnihilationChoiceByButtons(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	alice, bob := u[0], u[1]
	refusedColour := h.slash(t, alice, ch, "challenge", discordtest.String("variant", "annihilation"),
		discordtest.User("opponent", bob), discordtest.String("color", "black"))
	if !refusedColour.Ephemeral || !strings.Contains(refusedColour.Content, "no colour to ask for") {
		t.Fatalf("a colour with annihilation: %q (ephemeral %v)", refusedColour.Content, refusedColour.Ephemeral)
	}
	c := public(t, h.slash(t, alice, ch, "challenge", discordtest.String("variant", "annihilation"),
		discordtest.User("opponent", bob), discordtest.Int("days", 0)))
	if !strings.Contains(c.Content, "picks the army") {
		t.Errorf("challenge %q does not say who picks the army", c.Content)
	}
	acc := public(t, h.click(t, bob, c, "Accept"))
	g := h.channelGame(t, ch)
	if g.Status != bot.GameSetup || len(acc.Files) == 0 || !slices.Contains(acc.Mentions, bob) {
		t.Fatalf("after accepting: status %s, reply %q with %d files, pinging %v", g.Status, acc.Content, len(acc.Files), acc.Mentions)
	}

	// Alice may not pick the army.
	if m := h.click(t, alice, acc, "I play White"); !m.Ephemeral || !strings.Contains(m.Content, "choice") {
		t.Errorf("alice picking the army: %q (ephemeral %v)", m.Content, m.Ephemeral)
	}
	army := public(t, h.click(t, bob, acc, "I play Black"))
	if !strings.Contains(army.Content, "will play the army shown as Black") || !slices.Contains(army.Mentions, alice) {
		t.Errorf("army reply %q pinging %v", army.Content, army.Mentions)
	}
	if m := h.click(t, bob, acc, "I play White"); !m.Ephemeral || !strings.Contains(m.Content, "out of date") {
		t.Errorf("the army button again: %q (ephemeral %v)", m.Content, m.Ephemeral)
	}
	if g = h.game(t, g.ID); g.Setup.Army != "black" || g.ToAct != alice {
		t.Fatalf("after the army: %+v", g.Setup)
	}

	// Alice's choice comes to her DMs with its buttons.
	h.deliver(t)
	var dm discordtest.Message
	for _, m := range h.srv.DMs(alice) {
		if slices.ContainsFunc(m.Buttons(), func(b discordtest.Button) bool { return b.Label == "Opponent moves first" }) {
			dm = m
		}
	}
	if dm.ID == "" {
		t.Fatalf("no choice with buttons in alice's DMs: %s", contents(h.srv.DMs(alice)))
	}
	if len(dm.Files) == 0 {
		t.Errorf("the choice in alice's DMs %q shows no board", dm.Content)
	}
	start := public(t, h.click(t, alice, dm, "Opponent moves first"))
	g = h.game(t, g.ID)
	if g.Status != bot.GameActive || g.White != bob || g.Black != alice || g.ToAct != bob {
		t.Fatalf("after the choice: status %s, White %s, Black %s, to act %s", g.Status, g.White, g.Black, g.ToAct)
	}
	for _, want := range []string{"moves first", "the board was turned round", "which is now White"} {
		if !strings.Contains(start.Content, want) {
			t.Errorf("start reply %q lacks %q", start.Content, want)
		}
	}
	if len(start.Files) == 0 || !slices.Contains(start.Mentions, bob) || !slices.Contains(start.Mentions, alice) {
		t.Errorf("start reply: %d files, pinging %v", len(start.Files), start.Mentions)
	}
	// The game is played from there.
	_, g = h.move(t, g, h.thread(t, g.ID), "pass")
	if g.ToAct != alice {
		t.Errorf("after bob's pass: to act %s", g.ToAct)
	}
}
