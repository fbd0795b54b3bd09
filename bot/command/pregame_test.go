package command

import (
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
)

// press presses the button labelled label of r as user.
func (e *env) press(user string, r Reply, label string) Reply {
	e.t.Helper()
	return e.h.Press(e.ctx, clickIn(user), button(e.t, r, label))
}

// wantText fails unless r's text holds every want.
func wantText(t *testing.T, what string, r Reply, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(r.Text, w) {
			t.Errorf("%s: missing %q in %s", what, w, show(r))
		}
	}
}

// TestChooseByButtons plays Crazyhouse Annihilation's pre-game choice with
// the buttons: the army picker (bob, challenged) takes the army drawn as
// Black, the challenger lets bob move first, so the board turns round and
// bob's army becomes White, which the reply says in words.
func TestChooseByButtons(t *testing.T) {
	e := newEnv(t)
	c := e.ok("alice", "/challenge opponent:bob variant:annihilation")
	wantText(t, "challenge", c, "<@bob> picks the army, then <@alice> who moves first (the first mover plays White)")
	if strings.Contains(c.Text, "plays black") || strings.Contains(c.Text, "colours drawn at random") {
		t.Errorf("challenge speaks of colours: %q", c.Text)
	}
	a := e.press("bob", c, "Accept")
	checkPNG(t, a)
	wantText(t, "accept", a, "<@bob>, choose the army you play: White (at the bottom of the picture) or Black (at the top)",
		"Then <@alice> chooses who moves first", "Game #1 · <@alice> vs <@bob> ·")
	if strings.Contains(a.Text, "(White)") || !mentions(a, "bob") {
		t.Errorf("accept: %s", show(a))
	}
	// Only bob may pick the army; the other player's press changes nothing.
	if r := e.press("alice", a, "I play White"); !r.Ephemeral || !strings.Contains(r.Text, "It is <@bob>'s choice") {
		t.Fatalf("alice picks the army: %s", show(r))
	}
	if r := e.press("carol", a, "I play White"); !r.Ephemeral || !strings.Contains(r.Text, "Only the players") {
		t.Fatalf("a stranger picks the army: %s", show(r))
	}
	r := e.press("bob", a, "I play Black")
	wantText(t, "army", r, "<@bob> will play the army shown as Black in game #1 (at the top in the picture).",
		"<@alice>, choose who moves first", "the board is turned round")
	if !mentions(r, "alice") || r.Ephemeral || len(r.Buttons) != 2 {
		t.Fatalf("army chosen: %s", show(r))
	}
	if again := e.press("bob", a, "I play White"); !again.Ephemeral || !strings.Contains(again.Text, "out of date") {
		t.Fatalf("the army button pressed again: %s", show(again))
	}
	r = e.press("alice", r, "Opponent moves first")
	checkPNG(t, r)
	wantText(t, "first mover", r, "<@alice> chose that <@bob> moves first in game #1. The game begins.",
		"The army drawn as Black moves first, and the first mover always plays White: the board was turned round and the colours swapped.",
		"<@bob> chose the army drawn as Black, which is now White; <@alice> plays Black.",
		"<@bob> (White) vs <@alice> (Black)", "<@bob>, your move")
	if !mentions(r, "bob", "alice") {
		t.Errorf("start does not ping both players: %s", show(r))
	}
	g, err := e.svc.Views().Game(e.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != bot.GameActive || g.White != "bob" || g.Black != "alice" || g.Setup.FirstMover != "black" {
		t.Fatalf("game %+v %+v", g, g.Setup)
	}
}

// TestChooseBoardStays: the army drawn as White moves first, so nothing
// turns, and the reply says so.
func TestChooseBoardStays(t *testing.T) {
	e := newEnv(t)
	c := e.ok("alice", "/challenge opponent:bob variant:annihilation")
	a := e.ok("bob", "/accept challenge:"+itoa(challengeID(t, c)))
	r := e.press("bob", a, "I play White")
	wantText(t, "army", r, "<@bob> will play the army shown as White in game #1 (at the bottom in the picture).")
	r = e.press("alice", r, "I move first")
	wantText(t, "first mover", r, "<@alice> chose to move first in game #1.",
		"<@bob> chose the army drawn as White, which is now Black; <@alice> plays White.")
	r = e.ok("alice", "/choose choice:me")
	if !r.Ephemeral || !strings.Contains(r.Text, "no pre-game choice") {
		t.Errorf("a choice after the start: %s", show(r))
	}
}

// TestChooserChallenger: with chooser:challenger the challenger picks the
// army and the challenged player who moves first; the challenge and the
// notification say so, and the notification carries the buttons for the
// player whose choice it is.
func TestChooserChallenger(t *testing.T) {
	e := newEnv(t)
	c := e.ok("alice", "/challenge opponent:bob variant:annihilation chooser:challenger")
	wantText(t, "challenge", c, "<@alice> picks the army, then <@bob> who moves first")
	a := e.ok("bob", "/accept challenge:"+itoa(challengeID(t, c)))
	wantText(t, "accept", a, "<@alice>, choose the army you play", "Then <@bob> chooses who moves first")
	if !mentions(a, "alice") {
		t.Errorf("accept pings %v, want alice", a.Mention)
	}
	e.refused("bob", "/choose choice:white", "It is <@alice>'s choice")
	n := bot.Notification{Kind: bot.NotifyChoice, UserID: "alice", GameID: 1, Text: "choose"}
	r := e.h.Notification(e.ctx, n)
	if len(r.Buttons) != 2 || r.Buttons[0].Label != "I play White" {
		t.Errorf("choice notification: %s", show(r))
	}
	checkPNG(t, r)
	if r := e.h.Notification(e.ctx, bot.Notification{Kind: bot.NotifyChoice, UserID: "bob", GameID: 1, Text: "x"}); len(r.Buttons) != 0 {
		t.Errorf("a choice notification for the player not to choose has buttons: %s", show(r))
	}
	r = e.ok("alice", "/choose choice:black")
	wantText(t, "army", r, "<@alice> will play the army shown as Black", "<@bob>, choose who moves first")
	r = e.ok("bob", "/choose choice:me")
	wantText(t, "first mover", r, "<@bob> chose to move first",
		"The army drawn as White moves first, so the board stays as drawn: <@alice> plays the army they chose, Black, and <@bob> plays White.")
}

// TestChallengePreGameOptions: a colour with Crazyhouse Annihilation and
// a chooser with any other variant are refused, saying why.
func TestChallengePreGameOptions(t *testing.T) {
	e := newEnv(t)
	e.refused("alice", "/challenge opponent:bob variant:annihilation color:black",
		"Crazyhouse Annihilation has no colour to ask for: it starts from a random position")
	e.refused("alice", "/challenge opponent:bob variant:chess chooser:challenger", "Chess has no pre-game choice of armies")
	e.refused("alice", "/challenge opponent:bob variant:annihilation chooser:me", `chooser: "me" is not one of challenged, challenger`)
	r := e.ok("alice", "/challenge variant:annihilation color:random")
	wantText(t, "open challenge", r, "whoever accepts picks the army, then <@alice> who moves first")
}
