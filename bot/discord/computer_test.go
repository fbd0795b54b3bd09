package discord_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestComputerOpponentOnDiscord: /challenge with the bot itself as the
// opponent starts a casual game at once; after the player's move (a
// slash command answered at once), the computer's move is played by the
// runner in the background and the player is told by DM (their
// notification setting), with the board.
func TestComputerOpponentOnDiscord(t *testing.T) {
	srv := newFake()
	defer srv.Close()
	h, err := startBot(srv, filepath.Join(t.TempDir(), "computer.db"), newClock(), boardSize)
	if err != nil {
		t.Fatal(err)
	}
	defer h.stop()
	h.svc.SetComputer(srv.BotID())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runner := bot.NewComputerRunner(h.svc, 1, nil)
	done := make(chan struct{})
	go func() { runner.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	ch := h.channel(t)
	alice := h.users(t, "alice")[0]
	m := public(t, h.slash(t, alice, ch, "challenge", discordtest.String("variant", "chess"),
		discordtest.User("opponent", srv.BotID()), discordtest.String("color", "white"), discordtest.Int("level", 2)))
	if !strings.Contains(m.Content, "accepted challenge #") || !strings.Contains(m.Content, "at level 2") {
		t.Fatalf("challenge to the bot: %q", m.Content)
	}
	g := h.channelGame(t, ch)
	if g.Status != bot.GameActive || g.White != alice || g.Black != srv.BotID() || g.Rated {
		t.Fatalf("game against the bot: %+v", g)
	}
	thread := h.thread(t, g.ID)
	public(t, h.slash(t, alice, thread, "move", discordtest.String("move", "e4")))
	// The runner answers in the background; then the deliverer (run by
	// hand in these tests) posts the notification of its move.
	if err := srv.WaitFor(ctxT(t), func() bool { return len(h.game(t, g.ID).Moves) == 2 }); err != nil {
		t.Fatalf("the computer did not answer: %v", err)
	}
	h.deliver(t)
	answer := h.waitMessage(t, srv.DMChannel(alice), "with the computer's move", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+srv.BotID()+"> played ")
	})
	if len(answer.Files) == 0 {
		t.Errorf("the computer's move came without a board: %q", answer.Content)
	}
	if after := h.game(t, g.ID); len(after.Moves) != 2 || after.ToAct != alice {
		t.Errorf("after the computer's answer: moves %v, to act %q", after.Moves, after.ToAct)
	}
}
