package discord_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestCleanShutdownLogsNoWarning: a bot closed on purpose closes its
// gateway connection with an INFO line, not the WARN "gateway
// disconnected" kept for a connection lost while running.
func TestCleanShutdownLogsNoWarning(t *testing.T) {
	srv := discordtest.New(discordtest.WithDeadline(fakeDeadline))
	defer srv.Close()
	srv.AddGuild(guildID, "chess club")
	h, err := startBot(srv, filepath.Join(t.TempDir(), "close.db"), newClock(), boardSize)
	if err != nil {
		t.Fatal(err)
	}
	h.stop()
	deadline := time.After(waitLimit)
	for !strings.Contains(h.logs.String(), "discord: gateway closed") { // the handler runs after Close returns
		select {
		case <-deadline:
			t.Fatalf("no line for the gateway closing; log:\n%s", h.logs.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	if strings.Contains(h.logs.String(), "level=WARN") {
		t.Errorf("a clean shutdown logged a warning:\n%s", h.logs.String())
	}
}
