package discord_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/discord"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
)

// TestOnePassPerMove counts what one /move costs from the interaction to
// the opponent's notification: typed in the game's channel (so the reply
// is posted into the thread too), then the "your turn" delivered (a DM
// with the opponent's side, the thread's copy of the board with White's).
// The game is read once by the move (which finds it among the player's
// ongoing games) and once by the notification; it is updated once; no
// game is replayed in full (the replay of the move is reused); each image
// is drawn once: White's board for the reply and the thread, Black's for
// the DM.
func TestOnePassPerMove(t *testing.T) {
	srv := newFake()
	defer srv.Close()
	var probe *testkit.Probe
	h, err := startBotOver(srv, filepath.Join(t.TempDir(), "pass.db"), func(db *storage.DB) gameplay.Stores {
		probe = testkit.NewProbe(testkit.Stores(db))
		return probe.Stores()
	}, newClock(), boardSize, discord.Options{DeferAfter: deferAfter})
	if err != nil {
		t.Fatal(err)
	}
	defer h.stop()
	handler := h.cmds.Commands.(*command.Handler)
	u := h.users(t, "alice", "bob")
	ch := h.channel(t)
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	_, g = h.move(t, g, thread, "e2e4")
	_, g = h.move(t, g, thread, "e7e5")
	h.deliver(t)

	probe.Reset()
	_, misses0 := h.svc.Views().ReplayStats()
	renders0, hits0 := handler.RenderStats()
	m := public(t, h.slash(t, u[0], ch, "move", discordtest.String("move", "Nf3")))
	h.waitMessage(t, thread, "with the move", func(p discordtest.Message) bool {
		return p.ID != m.ID && strings.Contains(p.Content, "Nf3") && len(p.Files) == 1
	})
	if n := h.deliver(t); n != 1 {
		t.Fatalf("%d notifications delivered, want the one your-turn", n)
	}
	calls := probe.Calls()
	_, misses := h.svc.Views().ReplayStats()
	renders, hits := handler.RenderStats()
	t.Logf("one /move and its notification: store calls %v; full replays %d; images drawn %d, reused %d",
		calls, misses-misses0, renders-renders0, hits-hits0)
	reads := calls["Game"] + calls["ActiveGamesByUser"] + calls["GamesByUser"] + calls["ActiveGamesByChannel"] + calls["GamesByChannel"]
	// A service that keeps ratings updates games through UpdateGameRated.
	updates := calls["UpdateGame"] + calls["UpdateGameRated"]
	if reads != 2 || calls["ActiveGamesByUser"] != 1 || updates != 1 {
		t.Errorf("game reads %d (want 2: the move's lookup and the notification's), updates %d (want 1): %v", reads, updates, calls)
	}
	if misses != misses0 {
		t.Errorf("%d full replays, want none", misses-misses0)
	}
	if renders-renders0 != 2 || hits-hits0 != 1 {
		t.Errorf("%d images drawn and %d reused, want 2 (White's and Black's boards) and 1 (White's for the thread's copy)",
			renders-renders0, hits-hits0)
	}
	if v := probe.Violations(); len(v) > 0 {
		t.Errorf("stores touched inside updates: %q", v)
	}
}
