package discord_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// registeredOption returns option opt of command cmd as registered with
// Discord.
func (h *harness) registeredOption(t *testing.T, cmd, opt string) *discordgo.ApplicationCommandOption {
	t.Helper()
	cmds := h.srv.Commands(guildID)
	i := slices.IndexFunc(cmds, func(c *discordgo.ApplicationCommand) bool { return c.Name == cmd })
	if i < 0 {
		t.Fatalf("no /%s registered", cmd)
	}
	j := slices.IndexFunc(cmds[i].Options, func(o *discordgo.ApplicationCommandOption) bool { return o.Name == opt })
	if j < 0 {
		t.Fatalf("/%s has no option %s", cmd, opt)
	}
	return cmds[i].Options[j]
}

// TestTextLimitsThroughDiscord: free-text options are registered with
// their limit as max_length (note lines and forecast lines 1000, others
// 200; options with fixed choices none), so Discord's client stops the
// typing there; a 1000-character note line goes through and comes back
// whole (issue 24 §5).
func TestTextLimitsThroughDiscord(t *testing.T) {
	h := shared
	for _, c := range []struct {
		cmd, opt string
		want     int
	}{{"note", "text", 1000}, {"forecast", "line", 1000}, {"move", "move", 200}, {"challenge", "options", 200}, {"note", "action", 0}} {
		if got := h.registeredOption(t, c.cmd, c.opt).MaxLength; got != c.want {
			t.Errorf("/%s %s: max_length %d, want %d", c.cmd, c.opt, got, c.want)
		}
	}
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	_, thread := h.start(t, ch, u[0], u[1], "chess")
	line := strings.Repeat("ü", 999) + "!"
	ix, err := h.srv.Slash(u[0], thread, "note", discordtest.String("action", "add"), discordtest.String("text", line))
	if err != nil {
		t.Fatal(err)
	}
	if add := h.shown(t, ix); !add.Ephemeral || !strings.HasPrefix(add.Content, "Your private note on game #") {
		t.Fatalf("/note add of 1000 characters: %q", add.Content)
	}
	// The line (2000 bytes) goes on in an ephemeral follow-up, whole.
	if err := h.srv.WaitFor(ctxT(t), func() bool {
		return slices.ContainsFunc(ix.Followups(), func(m discordtest.Message) bool { return m.Content == line && m.Ephemeral })
	}); err != nil {
		t.Errorf("no follow-up shows the whole line: %v", err)
	}
	if got, _ := h.svc.Notes().Read(context.Background(), h.channelGame(t, ch).ID, u[0]); got != line {
		t.Errorf("the stored note has %d characters, want the 1000 typed", len([]rune(got)))
	}
	if _, err := h.srv.Slash(u[0], thread, "note", discordtest.String("action", "add"), discordtest.String("text", line+"?")); !errors.Is(err, discordtest.ErrTooLong) {
		t.Errorf("Discord's client sent a 1001-character note line: %v", err)
	}
}

// TestPauseDeclineThroughDiscord: Bob, to move, asks to pause; Alice,
// not to move, gets a direct message with the buttons to answer and
// declines with its Decline pause button; Bob is told. Asked again, she
// agrees with the button under the request in the thread, and /games
// reads "paused" (issue 24 §5).
func TestPauseDeclineThroughDiscord(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess", discordtest.Int("days", 3))
	h.move(t, g, thread, "e4")
	h.deliver(t)
	dmsA, dmsB := len(h.srv.DMs(u[0])), len(h.srv.DMs(u[1]))
	ask := public(t, h.slash(t, u[1], thread, "pause", discordtest.String("action", "ask")))
	if !strings.Contains(ask.Content, "asks to pause game #") {
		t.Fatalf("/pause ask: %q", ask.Content)
	}
	h.deliver(t)
	var told discordtest.Message
	for _, m := range h.srv.DMs(u[0])[dmsA:] {
		if strings.Contains(m.Content, "asks to pause game") {
			told = m
		}
	}
	if told.ID == "" {
		t.Fatalf("alice was not told of the request: %s", contents(h.srv.DMs(u[0])[dmsA:]))
	}
	dec := public(t, h.click(t, u[0], told, "Decline pause"))
	if want := fmt.Sprintf("<@%s> declines to pause game #%d: the clocks run on.", u[0], g.ID); !strings.Contains(dec.Content, want) {
		t.Errorf("the decline %q lacks %q", dec.Content, want)
	}
	if ng := h.game(t, g.ID); ng.PauseOffer != "" || !ng.PausedAt.IsZero() {
		t.Errorf("after the decline: offer %q, paused at %v", ng.PauseOffer, ng.PausedAt)
	}
	h.deliver(t)
	if want := fmt.Sprintf("<@%s> declines to pause game %d (Chess)", u[0], g.ID); !strings.Contains(contents(h.srv.DMs(u[1])[dmsB:]), want) {
		t.Errorf("bob's direct messages lack %q: %s", want, contents(h.srv.DMs(u[1])[dmsB:]))
	}

	ask = public(t, h.slash(t, u[1], thread, "pause", discordtest.String("action", "ask")))
	if agree := public(t, h.click(t, u[0], ask, "Agree to pause")); !strings.Contains(agree.Content, "is paused") {
		t.Errorf("agree by button: %q", agree.Content)
	}
	if games := h.slash(t, u[0], ch, "games"); !strings.Contains(games.Content, fmt.Sprintf("#%d · vs <@%s> · Chess · their turn · **paused** since", g.ID, u[1])) {
		t.Errorf("/games of a paused game: %q", games.Content)
	}
}
