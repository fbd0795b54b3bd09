package console_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/internal/testkit"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/bot/tournaments"
	"github.com/fairypost/fairypost/rules"
)

// reopen closes e's database and opens the file again under a new
// Service and Handler: a restart of the console.
func (e *env) reopen(t *testing.T) {
	t.Helper()
	path := e.db.Path()
	if err := e.db.Close(); err != nil {
		t.Fatal(err)
	}
	db := testkit.OpenDBAt(t, path)
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	e.db = db
	e.svc = gameplay.NewService(gameplay.Stores{Games: db, Challenges: db, Users: db, Outbox: db, Ratings: db, Tournaments: db}, reg,
		gameplay.Clock(e.clock.Now), gameplay.Coin(func() bool { return true }))
	ratings.Register(e.svc)
	e.tours, e.rates = tournaments.New(e.svc, db, db), ratings.New(e.svc, db)
	e.prefs = prefs.New(e.svc, db)
	e.handler = command.New(e.svc, e.prefs, command.Options{BoardSize: 320, Tournaments: e.tours, Ratings: e.rates})
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
	tr, err := e.tours.Get(t.Context(), 1)
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
	wantIn(t, "end", last, over, "tournament-1.png", "tournament-1.pgn")
	st := section(t, last, "as carol /tournament action:standings")
	wantIn(t, "standings", st, "Tournament #1 · Chess · round-robin (finished", "Sonneborn-Berger", "Pts",
		"file: ", ".png", ".pgn")
	tr, err = e.tours.Get(t.Context(), 1)
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

// A 6-player Swiss of 3 rounds in the console: each round's games are
// paired when the last round is over and played with scripted moves
// (Black mates), with a restart in the middle of round 2; nobody meets
// twice, the games are rated, and the final standings come with the PGN.
func TestConsoleSwiss(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as p1 /tournament action:create variant:chess system:swiss rounds:3
as p2 /tournament action:join
as p3 /tournament action:join
as p4 /tournament action:join
as p5 /tournament action:join
as p6 /tournament action:join
as p1 /tournament action:start
`)
	wantIn(t, "start", section(t, out, "as p1 /tournament action:start"), "Swiss, 6 players", "3 games", "round 1:")
	mates := func(games []bot.TournamentGame) string {
		var b strings.Builder
		for _, tg := range games {
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
	for round := 1; round <= 3; round++ {
		tr, err := e.tours.Get(t.Context(), 1)
		if err != nil {
			t.Fatal(err)
		}
		var games []bot.TournamentGame
		for _, tg := range tr.Games {
			if tg.Round == round {
				games = append(games, tg)
			}
		}
		if len(games) != 3 {
			t.Fatalf("round %d: games %+v", round, games)
		}
		if round == 2 {
			e.run(t, mates(games[:1]))
			e.reopen(t)
			games = games[1:]
		}
		got := e.run(t, mates(games))
		if round < 3 {
			wantIn(t, fmt.Sprintf("round %d", round), got, fmt.Sprintf("round %d:", round+1))
		} else {
			wantIn(t, "end", got, "Tournament #1 (Chess) is over: ")
		}
	}
	st := e.run(t, "as p4 /tournament action:standings\n")
	wantIn(t, "standings", st, "Tournament #1 · Chess · Swiss (finished · 3 of 3 rounds paired", "Buchholz cut-1", "R1 R2 R3", ".png", ".pgn")
	tr, err := e.tours.Get(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	met := map[[2]string]bool{}
	for _, r := range tr.Event.Schedule {
		for _, g := range r.Games {
			k := [2]string{min(g.White, g.Black), max(g.White, g.Black)}
			if met[k] {
				t.Errorf("%v met twice", k)
			}
			met[k] = true
		}
	}
	if sts, err := e.db.UserStandings(t.Context(), "p1"); err != nil || len(sts) != 1 || sts[0].Player.Games != 3 {
		t.Errorf("p1's rating after 3 rated games: %+v, %v", sts, err)
	}
}
