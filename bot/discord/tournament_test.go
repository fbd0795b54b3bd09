package discord_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/tournament"
)

// A 4-player round-robin through the fake Discord: made with /tournament,
// joined with its button, started by the organiser; every game gets its
// thread and is played there by slash commands (Black mates); the
// channel is told the pairings and the winner, and the standings come as
// a crosstable PNG with the text and the event's PGN.
func TestTournamentRoundRobin(t *testing.T) {
	srv := newFake()
	defer srv.Close()
	h, err := startBot(srv, filepath.Join(t.TempDir(), "tournament.db"), newClock(), boardSize)
	if err != nil {
		t.Fatal(err)
	}
	defer h.stop()
	ch := h.channel(t)
	u := h.users(t, "alice", "bob", "carol", "dan")
	made := public(t, h.slash(t, u[0], ch, "tournament", discordtest.String("action", "create"), discordtest.String("variant", "chess")))
	if !strings.Contains(made.Content, "opens tournament #") {
		t.Fatalf("create: %q", made.Content)
	}
	for _, p := range u[1:] {
		j := public(t, h.click(t, p, made, "Join"))
		if !strings.Contains(j.Content, "joins tournament") {
			t.Fatalf("join: %q", j.Content)
		}
	}
	started := public(t, h.slash(t, u[0], ch, "tournament", discordtest.String("action", "start")))
	if !strings.Contains(started.Content, "has started: round-robin, 4 players") {
		t.Fatalf("start: %q", started.Content)
	}
	trs, err := h.svc.ChannelTournaments(ctxT(t), ch)
	if err != nil || len(trs) != 1 || len(trs[0].Games) != 6 {
		t.Fatalf("tournaments of the channel: %+v, %v", trs, err)
	}
	tr := trs[0]
	h.deliver(t)
	h.waitMessage(t, ch, "with the pairings", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "new games:") && strings.Count(m.Content, "game #") == 6
	})
	for _, tg := range tr.Games {
		g := h.game(t, tg.GameID)
		thread := h.thread(t, g.ID)
		for _, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
			_, g = h.move(t, g, thread, mv)
		}
		if g.Status != bot.GameFinished || g.Result != bot.BlackWins || len(g.Ratings) != 4 {
			t.Fatalf("game %d: %s %s, ratings %d", g.ID, g.Status, g.Result, len(g.Ratings))
		}
	}
	end, err := h.svc.Tournament(ctxT(t), tr.ID)
	if err != nil || end.Event.Status != tournament.Finished {
		t.Fatalf("after the games: %+v, %v", end, err)
	}
	h.deliver(t)
	won := h.waitMessage(t, ch, "with the winner", func(m discordtest.Message) bool { return strings.Contains(m.Content, "is over: <@") })
	if len(won.Files) != 2 {
		t.Errorf("the announcement of the winner carries %d files, want the crosstable and the PGN", len(won.Files))
	}
	st := public(t, h.slash(t, u[2], ch, "tournament", discordtest.String("action", "standings")))
	if !strings.Contains(st.Content, "finished") || !strings.Contains(st.Content, "Sonneborn-Berger") {
		t.Errorf("standings text %q", st.Content)
	}
	var png, pgn bool
	for _, f := range st.Files {
		png = png || strings.HasSuffix(f.Name, ".png")
		pgn = pgn || (strings.HasSuffix(f.Name, ".pgn") && strings.Count(string(f.Data), "[Event ") == 6)
	}
	if !png || !pgn {
		t.Errorf("standings files: png %v, pgn with six games %v", png, pgn)
	}
}
