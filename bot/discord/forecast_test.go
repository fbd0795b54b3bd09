package discord_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestForecastThroughDiscord: Bob stores an answer with /forecast (an
// ephemeral reply only he sees), Alice's move in the thread plays it at
// once, the thread says so, and both players' direct messages say it
// came from a conditional line.
func TestForecastThroughDiscord(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	_, g = h.move(t, g, thread, "e4")
	_, g = h.move(t, g, thread, "e5")
	add := h.slash(t, u[1], thread, "forecast", discordtest.String("action", "add"), discordtest.String("line", "Nf3 Nc6 Bb5 a6"))
	if !add.Ephemeral || !strings.Contains(add.Content, "Conditional line 1 stored for game #") {
		t.Fatalf("/forecast add: %+v", add)
	}
	list := h.slash(t, u[0], thread, "forecast", discordtest.String("action", "list"))
	if !list.Ephemeral || strings.Contains(list.Content, "Nc6") {
		t.Errorf("alice's /forecast list shows bob's line: %q", list.Content)
	}
	h.deliver(t)
	dmsA, dmsB := len(h.srv.DMs(u[0])), len(h.srv.DMs(u[1]))
	m, ng := h.move(t, g, thread, "Nf3")
	if want := fmt.Sprintf("<@%s>'s Nc6 came at once from a conditional line stored in advance.", u[1]); !strings.Contains(m.Content, want) {
		t.Errorf("reply %q lacks %q", m.Content, want)
	}
	if ng.ToAct != u[0] || ng.Moves[len(ng.Moves)-1] != "b8c6" {
		t.Fatalf("after Nf3: moves %q, to act %s", ng.Moves, ng.ToAct)
	}
	h.deliver(t)
	want := "played Nc6 at once, from a conditional line stored in advance to answer Nf3."
	for i, dms := range [][]discordtest.Message{h.srv.DMs(u[0])[dmsA:], h.srv.DMs(u[1])[dmsB:]} {
		if !strings.Contains(contents(dms), want) {
			t.Errorf("player %d's direct messages lack %q: %s", i, want, contents(dms))
		}
	}
	if strings.Contains(contents(h.srv.DMs(u[1])[dmsB:]), "Your turn") {
		t.Errorf("bob was told it is his turn though his answer was played: %s", contents(h.srv.DMs(u[1])[dmsB:]))
	}
}

// TestForecastBoardStaysPrivateThroughDiscord is issue 24's privacy bug
// through discordgo and the fake: the board of alice's conditional line
// is hers alone and is the line's end; a spectator's and the players'
// /board afterwards are byte-identical to the board a Handler with an
// empty cache draws.
func TestForecastBoardStaysPrivateThroughDiscord(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob", "carol")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	_, g = h.move(t, g, thread, "e4")
	add := h.slash(t, u[0], thread, "forecast", discordtest.String("action", "add"), discordtest.String("line", "e5 Nf3 Nc6 Bb5"))
	if !add.Ephemeral || !strings.Contains(add.Content, "Conditional line 1 stored") {
		t.Fatalf("/forecast add: %+v", add)
	}
	image := func(what string, m discordtest.Message) []byte {
		t.Helper()
		if len(m.Files) != 1 || len(m.Files[0].Data) == 0 {
			t.Fatalf("%s: want one image, got %d files: %q", what, len(m.Files), m.Content)
		}
		return m.Files[0].Data
	}
	lineMsg := h.slash(t, u[0], thread, "forecast", discordtest.String("action", "show"), discordtest.Int("number", 1))
	if !lineMsg.Ephemeral {
		t.Fatalf("/forecast show is not ephemeral: %q", lineMsg.Content)
	}
	line := image("/forecast show", lineMsg)
	// empty returns a Handler that has drawn nothing.
	empty := func() *command.Handler {
		return command.New(h.svc, h.prefs, command.Options{BoardSize: boardSize, Tournaments: h.tours, Ratings: h.rates})
	}
	for _, user := range u {
		got := image(user+"'s /board", h.slash(t, user, thread, "board"))
		want := empty().Execute(context.Background(), command.Request{UserID: user, GuildID: guildID, ChannelID: thread, Name: "board", Options: map[string]string{"game": fmt.Sprint(g.ID)}})
		if len(want.Files) != 1 || !bytes.Equal(got, want.Files[0].Data) {
			t.Errorf("user %s's /board differs from the board drawn with an empty cache", user)
		}
		if bytes.Equal(got, line) {
			t.Errorf("user %s's /board shows alice's private line", user)
		}
	}
	wantLine := empty().Execute(context.Background(), command.Request{UserID: u[0], GuildID: guildID, ChannelID: thread, Name: "forecast",
		Options: map[string]string{"action": "show", "number": "1", "game": fmt.Sprint(g.ID)}})
	if len(wantLine.Files) != 1 || !bytes.Equal(line, wantLine.Files[0].Data) {
		t.Errorf("/forecast show is not the line's end as an empty cache draws it")
	}
}
