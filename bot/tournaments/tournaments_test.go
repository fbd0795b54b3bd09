package tournaments_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/tournaments"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/tournament"
)

var ctx = context.Background()

// endOfTime is later than any notification's NotBefore: reading the
// outbox as of then lists every pending notification.
var endOfTime = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// t0 is the time tests start at.
var t0 = testkit.T0

// env is the tournaments over a game Service over a real database
// (checked when the test ends), ratings included, with a settable clock.
type env struct {
	db    *storage.DB
	svc   *gameplay.Service
	tours *tournaments.Service
	clock *testkit.Clock
}

// newRatedEnv returns an env on a fresh database.
func newRatedEnv(tb testing.TB) *env {
	tb.Helper()
	e := &env{db: testkit.OpenDB(tb), clock: testkit.NewClock(t0)}
	e.build(tb)
	return e
}

// build makes the Services over e.db, as cmd/fairypost wires them.
func (e *env) build(tb testing.TB) {
	e.svc = testkit.Service(tb, e.db, e.clock)
	e.tours = tournaments.New(e.svc, e.db, e.db)
}

// reopen closes e's database and opens the file again under new
// Services on the same clock: a restart.
func (e *env) reopen(tb testing.TB) {
	tb.Helper()
	path := e.db.Path()
	if err := e.db.Close(); err != nil {
		tb.Fatal(err)
	}
	db := testkit.OpenDBAt(tb, path)
	e.db = db
	e.build(tb)
}

// play plays moves ("user move") in game id, failing tb on a refusal.
func (e *env) play(tb testing.TB, id uint64, moves ...string) {
	tb.Helper()
	testkit.Play(tb, e.svc, id, moves...)
}

// A 4-player round-robin of chess played to its end: every game of every
// round is created at the start, results are recorded as the games end
// (resignation, a draw, a loss on time), a restart in the middle changes
// nothing, the standings follow and the channel is told the winner.
func TestRoundRobinTournament(t *testing.T) {
	e := newRatedEnv(t)
	if _, err := e.tours.Create(ctx, tournaments.Request{Organizer: "alice", GuildID: "g1", ChannelID: "chan",
		Variant: "annihilation", DaysPerMove: 3, Kind: tournament.RoundRobinKind}); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("a variant with a pre-game choice: %v", err)
	}
	tr, err := e.tours.Create(ctx, tournaments.Request{Organizer: "alice", GuildID: "g1", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3, Kind: tournament.RoundRobinKind, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"bob", "carol", "dan"} {
		if tr, err = e.tours.Join(ctx, tr.ID, u, "g1"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.tours.Join(ctx, tr.ID, "bob", "g1"); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("joining twice: %v", err)
	}
	if _, err := e.tours.Join(ctx, tr.ID, "erin", "g2"); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("joining from another server: %v", err)
	}
	if _, err := e.tours.Start(ctx, tr.ID, "bob", "g1"); bot.ErrorCode(err) != bot.EFORBIDDEN {
		t.Errorf("start by a player: %v", err)
	}
	if tr, err = e.tours.Start(ctx, tr.ID, "alice", "g1"); err != nil {
		t.Fatal(err)
	}
	if tr.Event.Status != tournament.Running || len(tr.Event.Schedule) != 3 || len(tr.Games) != 6 {
		t.Fatalf("started: %+v", tr)
	}
	for _, tg := range tr.Games {
		g, err := e.svc.Views().Game(ctx, tg.GameID)
		if err != nil || g.Status != bot.GameActive || g.White != tg.White || g.Black != tg.Black || g.Tournament != tr.ID ||
			!g.Rated || g.ToAct != tg.White || g.Deadline.IsZero() {
			t.Fatalf("game of %+v: %+v, %v", tg, g, err)
		}
	}
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAbort, GameID: tr.Games[0].GameID, Version: bot.AnyVersion, UserID: tr.Games[0].White}); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("abort of a tournament game: %v", err)
	}
	// Results: the first game is drawn, in the others White resigns
	// but for the last one, lost on time by Black after one move each.
	for i, tg := range tr.Games {
		if i == 3 {
			e.reopen(t) // a restart in the middle of the event
		}
		switch {
		case i == 0:
			if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: tg.GameID, Version: bot.AnyVersion, UserID: tg.White}); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptDraw, GameID: tg.GameID, Version: bot.AnyVersion, UserID: tg.Black}); err != nil {
				t.Fatal(err)
			}
		case i == len(tr.Games)-1:
			e.play(t, tg.GameID, tg.White+" e4", tg.Black+" e5", tg.White+" Nf3")
			e.clock.Advance(4 * 24 * time.Hour)
			if _, err := e.svc.Sweep(ctx); err != nil {
				t.Fatal(err)
			}
		default:
			if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: tg.GameID, Version: bot.AnyVersion, UserID: tg.White}); err != nil {
				t.Fatal(err)
			}
		}
	}
	end, err := e.tours.Get(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if end.Event.Status != tournament.Finished {
		t.Fatalf("after every game: %+v", end.Event)
	}
	want := map[int]tournament.Result{0: tournament.Draw, 5: tournament.WhiteWins}
	for i, tg := range end.Games {
		w, ok := want[i]
		if !ok {
			w = tournament.BlackWins
		}
		for _, p := range end.Event.Schedule[tg.Round-1].Games {
			if p.White == tg.White && p.Black == tg.Black && p.Result != w {
				t.Errorf("game %d (%s-%s): %v, want %v", tg.GameID, tg.White, tg.Black, p.Result, w)
			}
		}
	}
	st, err := end.Event.Standings()
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, s := range st {
		total += s.Points
	}
	if total != 6 {
		t.Errorf("points %v add up to %v, want 6 (six games)", st, total)
	}
	ns, err := e.db.PendingNotifications(ctx, endOfTime, 0)
	if err != nil {
		t.Fatal(err)
	}
	var announced, paired bool
	for _, n := range ns {
		if n.Kind == bot.NotifyTournament && strings.Contains(n.Text, "is over:") && strings.Contains(n.Text, "<@"+st[0].ID+">") {
			announced = true
		}
		if n.Kind == bot.NotifyTournament && strings.Count(n.Text, "game #") == 6 {
			paired = true
		}
	}
	if !announced || !paired {
		t.Errorf("channel told of the pairings %v and of the winner %v", paired, announced)
	}
	pgn, err := e.tours.PGN(ctx, tr.ID)
	if err != nil || strings.Count(pgn, "[Event ") != 6 {
		t.Errorf("event PGN: %v\n%s", err, pgn)
	}
	// Ratings moved for the rated games.
	if sts, _ := e.db.UserStandings(ctx, "alice"); len(sts) != 2 || sts[0].Player.Games != 3 {
		t.Errorf("alice's standings after 3 rated games: %+v", sts)
	}
}

// A 6-player Swiss of 3 rounds: each round's games are created when the
// previous round is over; a player who leaves forfeits their game in
// play and is not paired again; the event ends after the third round.
func TestSwissTournament(t *testing.T) {
	e := newRatedEnv(t)
	tr, err := e.tours.Create(ctx, tournaments.Request{Organizer: "p1", GuildID: "g1", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3, Kind: tournament.SwissKind, Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"p2", "p3", "p4", "p5", "p6"} {
		if tr, err = e.tours.Join(ctx, tr.ID, u, "g1"); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = e.tours.Start(ctx, tr.ID, "p1", "g1"); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 3; round++ {
		if len(tr.Event.Schedule) != round {
			t.Fatalf("round %d: schedule has %d rounds", round, len(tr.Event.Schedule))
		}
		var games []bot.TournamentGame
		for _, tg := range tr.Games {
			if tg.Round == round {
				games = append(games, tg)
			}
		}
		want := 3
		if round > 1 {
			want = 2 // p6 left in round 1; the odd player out has the bye
		}
		if len(games) != want {
			t.Fatalf("round %d: %d games %+v, want %d", round, len(games), games, want)
		}
		for i, tg := range games {
			if round == 1 && i == 0 {
				// The first game's Black leaves: the game is resigned for
				// them and they are not paired again.
				leaver := tg.Black
				if _, err := e.tours.Leave(ctx, tr.ID, leaver, "g1"); err != nil {
					t.Fatal(err)
				}
				if g, _ := e.svc.Views().Game(ctx, tg.GameID); g.Status != bot.GameFinished || g.Result != bot.WhiteWins {
					t.Fatalf("the leaver's game: %+v", g)
				}
				continue
			}
			if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: tg.GameID, Version: bot.AnyVersion, UserID: tg.Black}); err != nil {
				t.Fatal(err)
			}
		}
		if tr, err = e.tours.Get(ctx, tr.ID); err != nil {
			t.Fatal(err)
		}
	}
	if tr.Event.Status != tournament.Finished || len(tr.Event.Schedule) != 3 {
		t.Fatalf("after 3 rounds: %+v", tr.Event)
	}
	seen := map[[2]string]bool{}
	for _, r := range tr.Event.Schedule {
		for _, g := range r.Games {
			k := [2]string{min(g.White, g.Black), max(g.White, g.Black)}
			if seen[k] {
				t.Errorf("%v met twice", k)
			}
			seen[k] = true
		}
	}
}

// A paused Swiss records results but pairs no new round until it
// resumes; the organiser (only) may remove a player, who forfeits.
func TestTournamentPauseAndRemove(t *testing.T) {
	e := newRatedEnv(t)
	tr, err := e.tours.Create(ctx, tournaments.Request{Organizer: "p1", GuildID: "g1", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3, Kind: tournament.SwissKind, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"p2", "p3", "p4"} {
		if tr, err = e.tours.Join(ctx, tr.ID, u, "g1"); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = e.tours.Start(ctx, tr.ID, "p1", "g1"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.tours.Pause(ctx, tr.ID, "p2", "g1"); bot.ErrorCode(err) != bot.EFORBIDDEN {
		t.Errorf("pause by a player: %v", err)
	}
	if _, err := e.tours.Pause(ctx, tr.ID, "p1", "g1"); err != nil {
		t.Fatal(err)
	}
	for _, tg := range tr.Games {
		if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: tg.GameID, Version: bot.AnyVersion, UserID: tg.White}); err != nil {
			t.Fatal(err)
		}
	}
	if tr, _ = e.tours.Get(ctx, tr.ID); tr.Event.Status != tournament.Paused || len(tr.Event.Schedule) != 1 || len(tr.Event.Current()) != 0 {
		t.Fatalf("paused with round 1 over: %+v", tr.Event)
	}
	if tr, err = e.tours.Resume(ctx, tr.ID, "p1", "g1"); err != nil {
		t.Fatal(err)
	}
	if tr.Event.Status != tournament.Running || len(tr.Event.Schedule) != 2 || len(tr.Games) != 4 {
		t.Fatalf("resumed: %+v, %d games", tr.Event, len(tr.Games))
	}
	victim := tr.Games[2].Black
	other := "p2"
	if victim == other {
		other = "p3"
	}
	if _, err := e.tours.Remove(ctx, tr.ID, other, victim, "g1"); bot.ErrorCode(err) != bot.EFORBIDDEN {
		t.Errorf("removal by a player: %v", err)
	}
	if tr, err = e.tours.Remove(ctx, tr.ID, "p1", victim, "g1"); err != nil {
		t.Fatal(err)
	}
	if g, _ := e.svc.Views().Game(ctx, tr.Games[2].GameID); g.Ongoing() {
		t.Errorf("the removed player's game goes on: %+v", g)
	}
	if !slices.Contains(tr.Event.Withdrawn, victim) {
		t.Errorf("withdrawn %v, want %s", tr.Event.Withdrawn, victim)
	}
}

// A tournament with a start time starts by itself when the sweep finds
// it due (and NextWake wakes for it); one with too few players by then
// is cancelled, with the channel told.
func TestTournamentStartTime(t *testing.T) {
	e := newRatedEnv(t)
	if _, err := e.tours.Create(ctx, tournaments.Request{Organizer: "a", GuildID: "g1", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3, Kind: tournament.RoundRobinKind, StartAt: t0.Add(-time.Hour)}); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("a start time in the past: %v", err)
	}
	full, err := e.tours.Create(ctx, tournaments.Request{Organizer: "a", GuildID: "g1", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3, Kind: tournament.RoundRobinKind, StartAt: t0.Add(48 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	thin, err := e.tours.Create(ctx, tournaments.Request{Organizer: "x", GuildID: "g1", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3, Kind: tournament.RoundRobinKind, StartAt: t0.Add(24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"b", "c"} {
		if _, err := e.tours.Join(ctx, full.ID, u, "g1"); err != nil {
			t.Fatal(err)
		}
	}
	if next, err := e.svc.NextWake(ctx); err != nil || !next.Equal(t0.Add(24*time.Hour)) {
		t.Errorf("next wake %v, %v; want the first start time", next, err)
	}
	e.clock.Advance(25 * time.Hour)
	if _, err := e.svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if tr, _ := e.tours.Get(ctx, thin.ID); tr.Event.Status != tournament.Cancelled {
		t.Errorf("a tournament of one at its start time: %v", tr.Event.Status)
	}
	if tr, _ := e.tours.Get(ctx, full.ID); tr.Event.Status != tournament.Open {
		t.Errorf("started before its time: %v", tr.Event.Status)
	}
	e.clock.Advance(24 * time.Hour)
	if _, err := e.svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	tr, _ := e.tours.Get(ctx, full.ID)
	if tr.Event.Status != tournament.Running || len(tr.Games) != 3 {
		t.Fatalf("at its start time: %v, %d games", tr.Event.Status, len(tr.Games))
	}
	if due, _ := e.db.TournamentsToStart(ctx, endOfTime); len(due) != 0 {
		t.Errorf("started tournaments still indexed to start: %+v", due)
	}
	ns, _ := e.db.PendingNotifications(ctx, endOfTime, 0)
	cancelled := false
	for _, n := range ns {
		cancelled = cancelled || (n.Kind == bot.NotifyTournament && strings.Contains(n.Text, "is cancelled: only 1 joined"))
	}
	if !cancelled {
		t.Error("the channel was not told of the cancellation")
	}
}
