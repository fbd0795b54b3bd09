package discord_test

import (
	"fmt"
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
	trs, err := h.tours.InChannel(ctxT(t), ch)
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
	end, err := h.tours.Get(ctxT(t), tr.ID)
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

// A 6-player Swiss of 3 rounds through the fake Discord: rounds are
// paired one after the other as the last one ends (here by /resign in
// each game's thread), nobody meets twice, the standings show the three
// rounds.
func TestTournamentSwiss(t *testing.T) {
	srv := newFake()
	defer srv.Close()
	h, err := startBot(srv, filepath.Join(t.TempDir(), "swiss.db"), newClock(), boardSize)
	if err != nil {
		t.Fatal(err)
	}
	defer h.stop()
	ch := h.channel(t)
	u := h.users(t, "p1", "p2", "p3", "p4", "p5", "p6")
	made := public(t, h.slash(t, u[0], ch, "tournament", discordtest.String("action", "create"), discordtest.String("variant", "chess"),
		discordtest.String("system", "swiss"), discordtest.Int("rounds", 3)))
	for _, p := range u[1:] {
		public(t, h.slash(t, p, ch, "tournament", discordtest.String("action", "join")))
	}
	public(t, h.slash(t, u[0], ch, "tournament", discordtest.String("action", "start"), discordtest.Int("id", int64(idOf(t, made.Content)))))
	trs, err := h.tours.InChannel(ctxT(t), ch)
	if err != nil || len(trs) != 1 {
		t.Fatalf("%+v, %v", trs, err)
	}
	id := trs[0].ID
	for round := 1; round <= 3; round++ {
		tr, err := h.tours.Get(ctxT(t), id)
		if err != nil {
			t.Fatal(err)
		}
		h.deliver(t)
		n := 0
		for _, tg := range tr.Games {
			if tg.Round != round {
				continue
			}
			n++
			thread := h.thread(t, tg.GameID)
			public(t, h.slash(t, tg.Black, thread, "resign"))
		}
		if n != 3 {
			t.Fatalf("round %d: %d games", round, n)
		}
	}
	tr, err := h.tours.Get(ctxT(t), id)
	if err != nil || tr.Event.Status != tournament.Finished || len(tr.Games) != 9 {
		t.Fatalf("after 3 rounds: %+v, %v", tr, err)
	}
	met := map[[2]string]bool{}
	for _, tg := range tr.Games {
		k := [2]string{min(tg.White, tg.Black), max(tg.White, tg.Black)}
		if met[k] {
			t.Errorf("%v met twice", k)
		}
		met[k] = true
	}
	st := public(t, h.slash(t, u[3], ch, "tournament", discordtest.String("action", "standings")))
	if !strings.Contains(st.Content, "R1 R2 R3") || !strings.Contains(st.Content, "Buchholz") || len(st.Files) != 2 {
		t.Errorf("standings %q with %d files", st.Content, len(st.Files))
	}
}

// idOf reads the tournament ID from "... opens tournament #N: ...".
func idOf(t *testing.T, s string) uint64 {
	t.Helper()
	var id uint64
	i := strings.Index(s, "tournament #")
	if i < 0 {
		t.Fatalf("no tournament ID in %q", s)
	}
	if _, err := fmt.Sscanf(s[i+len("tournament #"):], "%d", &id); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return id
}
