package console_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

// reopen closes e's database and opens the file again under a new
// Service and Handler: a restart of the console.
func (e *env) reopen(t *testing.T) {
	t.Helper()
	path := e.db.Path()
	if err := e.db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(path, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	e.db = db
	e.svc = bot.NewService(bot.Stores{Games: db, Challenges: db, Users: db, Outbox: db, Ratings: db, Tournaments: db}, reg,
		bot.Clock(e.clock.now), bot.Coin(func() bool { return true }))
	e.handler = command.New(e.svc, command.Options{BoardSize: 320})
}

// A 4-player round-robin of chess in the console, played to the end with
// scripted moves (Black mates in every game), with a restart after the
// first three games: the pairings are told in the channel, the games
// are rated, and the final standings come as an image and text with the
// PGN of the whole event.
func TestConsoleRoundRobin(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /tournament action:create variant:chess
as bob /tournament action:join
as carol /tournament action:join
as dan /tournament action:join
as bob /tournament action:start
as alice /tournament action:start
`)
	wantIn(t, "create", section(t, out, "as alice /tournament action:create variant:chess"),
		"@alice opens tournament #1: Chess, round-robin", "[Join] /press fp1:tjoin:1:1")
	wantIn(t, "start by a player", section(t, out, "as bob /tournament action:start"), "Only the organiser")
	start := section(t, out, "as alice /tournament action:start")
	wantIn(t, "start", start, "Tournament #1 has started: round-robin, 4 players", "6 games",
		"Tournament #1 (Chess) — new games:", "round 3:")
	tr, err := e.svc.Tournament(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	script := func(from, to int) string {
		var b strings.Builder
		for _, tg := range tr.Games[from:to] {
			for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
				who := tg.White
				if i%2 == 1 {
					who = tg.Black
				}
				fmt.Fprintf(&b, "as %s /move move:%s game:%d\n", who, mv, tg.GameID)
			}
		}
		return b.String()
	}
	first := e.run(t, script(0, 3))
	wantIn(t, "first games", first, "wins by checkmate", "1500? → ")
	e.reopen(t)
	last := e.run(t, script(3, 6)+"as carol /tournament action:standings\n")
	over := "Tournament #1 (Chess) is over: "
	wantIn(t, "end", last, over)
	st := section(t, last, "as carol /tournament action:standings")
	wantIn(t, "standings", st, "Tournament #1 · Chess · round-robin (finished", "Sonneborn-Berger", "Pts",
		"file: ", ".png", ".pgn")
	tr, err = e.svc.Tournament(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	standings, err := tr.Event.Standings()
	if err != nil {
		t.Fatal(err)
	}
	// Black won every game: with Berger colours each player had Black
	// in one or two of their three games.
	points := 0.0
	for _, s := range standings {
		points += s.Points
	}
	if points != 6 || !strings.Contains(last, over+"@"+standings[0].ID) {
		t.Errorf("standings %+v (total %v), winner announced:\n%s", standings, points, last)
	}
	if got := files(t, st); len(got) != 2 {
		t.Errorf("standings files %v, want the crosstable and the PGN", got)
	}
}
