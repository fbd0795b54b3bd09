package discord_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot/discord"
	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestBusyWorkers: with one worker and room for one waiting interaction,
// a command that finds the worker busy is acknowledged as deferred at
// once (the bot's timer, set far beyond the fake's deadline, could not
// have done it in time) and answered when the worker frees; one more is
// answered at once that the bot is busy, privately, and does not run.
func TestBusyWorkers(t *testing.T) {
	srv := discordtest.New(discordtest.WithDeadline(30 * time.Second)) // room for a slow machine; the timer is at an hour
	defer srv.Close()
	srv.AddGuild(guildID, "chess club")
	h, err := startBotWith(srv, filepath.Join(t.TempDir(), "busy.db"), newClock(), boardSize,
		discord.Options{DeferAfter: time.Hour, Workers: 1, QueueLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer h.stop()
	u := h.users(t, "alice", "bob")
	_, thread := h.start(t, h.channel(t), u[0], u[1], "chess")

	gate := make(chan struct{})
	entered := make(chan struct{}, 1)
	h.cmds.gate.Store(&gate)
	h.cmds.entered.Store(&entered)
	running, err := srv.Slash(u[0], thread, "board")
	if err != nil {
		t.Fatal(err)
	}
	<-entered // the worker is taken
	queued, err := srv.Slash(u[1], thread, "board")
	if err != nil {
		t.Fatal(err)
	}
	r, err := queued.Response(ctxT(t))
	if err != nil {
		t.Fatalf("a command waiting for a worker was not acknowledged in time: %v", err)
	}
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("a command waiting for a worker answered with type %d, want a deferral", r.Type)
	}
	turned, err := srv.Slash(u[0], thread, "board")
	if err != nil {
		t.Fatal(err)
	}
	m := h.shown(t, turned)
	if !m.Ephemeral || !strings.Contains(m.Content, "busy") {
		t.Errorf("the command beyond the queue got %q (ephemeral %v), want a private busy answer", m.Content, m.Ephemeral)
	}
	if running.Failed() {
		t.Errorf("the running command failed while the queue was full")
	}
	h.cmds.gate.Store(nil)
	h.cmds.entered.Store(nil)
	close(gate)
	for name, ix := range map[string]*discordtest.Interaction{"running": running, "queued": queued} {
		m := h.shown(t, ix)
		if m.Ephemeral || len(m.Files) == 0 {
			t.Errorf("%s /board: %q, %d files, ephemeral %v", name, m.Content, len(m.Files), m.Ephemeral)
		}
	}
}
