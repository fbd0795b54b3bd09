package discord_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestChallengeScope: an open challenge is accepted only in its channel:
// clicks forged from a DM, from another server's channel and with a
// forged guild_id are refused and change nothing; the real button then
// works.
func TestChallengeScope(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "carol")
	m := public(t, h.slash(t, u[0], ch, "challenge", discordtest.String("variant", "chess")))
	accept := buttonID(t, m, "Accept")

	other := h.srv.NewID()
	h.srv.AddGuild("200-"+other, "another club")
	h.srv.AddChannel("200-"+other, other, "elsewhere")
	dm := h.srv.DMChannel(u[1])
	for _, tc := range []struct{ name, channel, guild string }{
		{"from a DM", dm, ""},
		{"from another server", other, ""},
		{"with a forged guild_id", dm, guildID},
	} {
		ix, err := h.srv.ForgeClick(u[1], tc.channel, tc.guild, accept)
		if err != nil {
			t.Fatal(err)
		}
		got := h.shown(t, ix)
		if !got.Ephemeral || !strings.Contains(got.Content, "only in the channel where it was made") {
			t.Errorf("accept %s: %q (ephemeral %v)", tc.name, got.Content, got.Ephemeral)
		}
	}
	if gs, err := h.svc.Views().ChannelGames(ctxT(t), ch); err != nil || len(gs) != 0 {
		t.Fatalf("a refused accept started a game: %v %v", gs, err)
	}
	public(t, h.click(t, u[1], m, "Accept"))
	if g := h.channelGame(t, ch); g.Status != bot.GameActive || !g.IsPlayer(u[1]) {
		t.Fatalf("game after the real accept: %+v", g)
	}
}

// TestChallengeNotInDMs: /challenge is registered for servers only, so
// Discord does not offer it in a DM; and whoever may be challenged must
// be a person of the server.
func TestChallengeNotInDMs(t *testing.T) {
	h := shared
	cmds := h.srv.Commands(guildID)
	i := slices.IndexFunc(cmds, func(c *discordgo.ApplicationCommand) bool { return c.Name == "challenge" })
	if i < 0 {
		t.Fatal("no /challenge registered")
	}
	c := cmds[i]
	if c.Contexts == nil || !slices.Equal(*c.Contexts, []discordgo.InteractionContextType{discordgo.InteractionContextGuild}) ||
		c.DMPermission == nil || *c.DMPermission {
		t.Errorf("/challenge registered with contexts %v, dm_permission %v: want guild only", c.Contexts, c.DMPermission)
	}
	if j := slices.IndexFunc(cmds, func(c *discordgo.ApplicationCommand) bool { return c.Name == "board" }); j < 0 || cmds[j].Contexts != nil {
		t.Errorf("/board should stay usable in DMs (players look at their games there)")
	}

	ch := h.channel(t)
	u := h.users(t, "alice", "stranger")
	if _, err := h.srv.Slash(u[0], h.srv.DMChannel(u[0]), "challenge", discordtest.String("variant", "chess")); !errors.Is(err, discordtest.ErrNotInDMs) &&
		(err == nil || !strings.Contains(err.Error(), "not registered")) {
		t.Errorf("/challenge in a DM: %v", err)
	}
	h.srv.RemoveMember(guildID, u[1])
	got := h.slash(t, u[0], ch, "challenge", discordtest.String("variant", "chess"), discordtest.User("opponent", u[1]))
	if !got.Ephemeral || !strings.Contains(got.Content, "is not a member of this server") {
		t.Errorf("challenging a non-member: %q", got.Content)
	}
	got = h.slash(t, u[0], ch, "challenge", discordtest.String("variant", "chess"), discordtest.User("opponent", h.srv.BotID()))
	if !got.Ephemeral || !strings.Contains(got.Content, "is a bot") {
		t.Errorf("challenging the bot: %q", got.Content)
	}
	if cs, err := h.svc.Challenges().PendingChallenges(ctxT(t), u[1]); err != nil || len(cs) != 0 {
		t.Errorf("refused challenges were stored: %v %v", cs, err)
	}
}
