package gameplay_test

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
)

// day is one day per move.
const day = 24 * time.Hour

// sweep runs one Sweep, failing on error, checks that the next wake-up it
// reports is NextWake's, and returns its counts (Next zeroed).
func (e *env) sweep(tb testing.TB) gameplay.SweepReport {
	tb.Helper()
	rep, err := e.svc.Sweep(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	next, err := e.svc.NextWake(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	if !rep.Next.Equal(next) {
		tb.Fatalf("Sweep says the next wake-up is %v, NextWake %v", rep.Next, next)
	}
	rep.Next = time.Time{}
	return rep
}

// drain removes every pending notification and returns them.
func (e *env) drain(tb testing.TB) []bot.Notification {
	tb.Helper()
	ns, err := e.db.PendingNotifications(ctx, endOfTime, 0)
	if err != nil {
		tb.Fatal(err)
	}
	for _, n := range ns {
		if err := e.db.AckNotification(ctx, n.ID); err != nil {
			tb.Fatal(err)
		}
	}
	return ns
}

// kinds returns "kind user" for each of ns.
func kinds(ns []bot.Notification) []string {
	out := []string{}
	for _, n := range ns {
		out = append(out, n.Kind.String()+" "+n.UserID)
	}
	return out
}

// game reads game id, failing on error.
func (e *env) game(tb testing.TB, id uint64) *bot.Game {
	tb.Helper()
	g, err := e.svc.Views().Game(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// noReminders turns reminders off for users.
func (e *env) noReminders(tb testing.TB, users ...string) {
	tb.Helper()
	for _, u := range users {
		if _, err := e.prefs.SetReminder(ctx, u, 0); err != nil {
			tb.Fatal(err)
		}
	}
}

func TestSweepLossOnTime(t *testing.T) {
	for _, tc := range []struct {
		moves  []string
		loser  string
		result bot.Result
	}{
		{[]string{"alice e4", "bob e5"}, "alice", bot.BlackWins},
		{[]string{"alice e4", "bob e5", "alice Nf3"}, "bob", bot.WhiteWins},
	} {
		e := newEnv(t)
		e.noReminders(t, "alice", "bob")
		g := e.start(t, "chess")
		e.play(t, g.ID, tc.moves...)
		e.drain(t)
		e.clock.Advance(3*day - time.Nanosecond)
		if rep := e.sweep(t); rep != (gameplay.SweepReport{}) {
			t.Fatalf("a nanosecond before the deadline: %+v", rep)
		}
		if g := e.game(t, g.ID); g.Status != bot.GameActive {
			t.Fatalf("game %s before its deadline", g.Status)
		}
		e.clock.Advance(time.Nanosecond)
		if rep := e.sweep(t); rep != (gameplay.SweepReport{TimedOut: 1}) {
			t.Fatalf("at the deadline: %+v, want one timed out", rep)
		}
		g = e.game(t, g.ID)
		if g.Status != bot.GameFinished || g.Result != tc.result || g.Reason != "timeout" || g.ToAct != "" || !g.Deadline.IsZero() {
			t.Errorf("%s ran out of time: %s %s %q, to act %q, deadline %v", tc.loser, g.Status, g.Result, g.Reason, g.ToAct, g.Deadline)
		}
		told := e.drain(t)
		if got, want := kinds(told), []string{"game-over alice", "game-over bob"}; !reflect.DeepEqual(got, want) {
			t.Errorf("notifications %v, want %v", got, want)
		}
		if rep := e.sweep(t); rep != (gameplay.SweepReport{}) {
			t.Errorf("a second sweep did %+v", rep)
		}
		if ns := e.drain(t); len(ns) != 0 {
			t.Errorf("a second sweep notified %v", kinds(ns))
		}
		if _, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: tc.loser, Move: "a3"}); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("a move after the loss on time: %v, want EINVALID", err)
		}
		if pgn := e.pgnOf(t, g.ID); !strings.Contains(pgn, `[Termination "time forfeit"]`) {
			t.Errorf("PGN of a game lost on time:\n%s", pgn)
		}
	}
}

func TestSweepAbortsBeforeBothMoved(t *testing.T) {
	for _, tc := range []struct {
		variant string
		moves   []string
		reason  rules.Reason
	}{
		{"chess", nil, "no move in time"},                                   // white never moved
		{"chess", []string{"alice e4"}, "no move in time"},                  // black never moved
		{"trainwreck", []string{"alice e4", "alice e5"}, "no move in time"}, // alice moved a black pawn: bob still has not moved
		{"annihilation", nil, "no choice in time"},                          // the pre-game choice was not made
	} {
		e := newEnv(t)
		e.noReminders(t, "alice", "bob")
		g := e.start(t, tc.variant)
		e.play(t, g.ID, tc.moves...)
		e.drain(t)
		g = e.game(t, g.ID)
		late := g.ToAct
		e.clock.Advance(3 * day)
		if rep := e.sweep(t); rep != (gameplay.SweepReport{Aborted: 1}) {
			t.Fatalf("%s %v: %+v, want one aborted", tc.variant, tc.moves, rep)
		}
		g = e.game(t, g.ID)
		if g.Status != bot.GameAborted || g.Result != bot.NoResult || g.Reason != tc.reason || g.ToAct != "" || !g.Deadline.IsZero() {
			t.Errorf("%s %v: %s %s %q, to act %q, deadline %v", tc.variant, tc.moves, g.Status, g.Result, g.Reason, g.ToAct, g.Deadline)
		}
		told := e.drain(t)
		if got, want := kinds(told), []string{"game-over alice", "game-over bob"}; !reflect.DeepEqual(got, want) {
			t.Errorf("notifications %v, want %v", got, want)
		}
		if !strings.Contains(told[0].Text, "<@"+late+">") {
			t.Errorf("the notification does not name %s: %q", late, told[0].Text)
		}
		if rep := e.sweep(t); rep != (gameplay.SweepReport{}) {
			t.Errorf("a second sweep did %+v", rep)
		}
		if pgn := e.pgnOf(t, g.ID); !strings.Contains(pgn, `[Termination "abandoned"]`) || !strings.Contains(pgn, `[Result "*"]`) {
			t.Errorf("PGN of an aborted game:\n%s", pgn)
		}
	}
}

func TestSweepReminders(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess") // alice to act, 3 days from t0
	e.drain(t)
	// The default: reminded when 20% of the 72 hours are left.
	e.clock.Advance(72*time.Hour*8/10 - time.Nanosecond)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{}) {
		t.Fatalf("before 20%% left: %+v", rep)
	}
	e.clock.Advance(time.Nanosecond)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{Reminded: 1}) {
		t.Fatalf("at 20%% left: %+v, want one reminder", rep)
	}
	told := e.drain(t)
	if got := kinds(told); !reflect.DeepEqual(got, []string{"reminder alice"}) {
		t.Fatalf("notifications %v", got)
	}
	if n := told[0]; n.GameID != g.ID || n.ChannelID != "chan" || !strings.Contains(n.Text, "14 hours left") {
		t.Errorf("reminder %+v", n)
	}
	if g := e.game(t, g.ID); !g.Reminded || g.Status != bot.GameActive {
		t.Errorf("after the reminder: Reminded %v, %s", g.Reminded, g.Status)
	}
	// Only one reminder per turn.
	for i := 0; i < 3; i++ {
		e.clock.Advance(time.Hour)
		if rep := e.sweep(t); rep != (gameplay.SweepReport{}) {
			t.Fatalf("sweep %d after the reminder: %+v", i, rep)
		}
	}
	if ns := e.drain(t); len(ns) != 0 {
		t.Fatalf("reminded again: %v", kinds(ns))
	}

	// bob chose 50%: reminded 36 hours into his 72.
	if _, err := e.prefs.SetReminder(ctx, "bob", 50); err != nil {
		t.Fatal(err)
	}
	e.play(t, g.ID, "alice e4")
	e.drain(t)
	e.clock.Advance(36*time.Hour - time.Nanosecond)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{}) {
		t.Fatalf("before 50%% left: %+v", rep)
	}
	e.clock.Advance(time.Nanosecond)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{Reminded: 1}) {
		t.Fatalf("at 50%% left: %+v", rep)
	}
	if got := kinds(e.drain(t)); !reflect.DeepEqual(got, []string{"reminder bob"}) {
		t.Fatalf("notifications %v", got)
	}

	// A new turn is reminded again; alice turned reminders off, so not her.
	e.noReminders(t, "alice")
	e.play(t, g.ID, "bob e5")
	e.drain(t)
	e.clock.Advance(72*time.Hour - time.Nanosecond)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{}) {
		t.Fatalf("reminders off: %+v", rep)
	}
	e.play(t, g.ID, "alice Nf3") // bob at 50% again
	e.drain(t)
	e.clock.Advance(36 * time.Hour)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{Reminded: 1}) {
		t.Fatalf("bob's next turn: %+v", rep)
	}
}

func TestSweepReminderWithoutTurnStart(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	// A record without TurnStarted: the turn is DaysPerMove long.
	if _, err := e.db.UpdateGame(ctx, g.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.TurnStarted = time.Time{}
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(57*time.Hour + 35*time.Minute)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{}) {
		t.Fatalf("early: %+v", rep)
	}
	e.clock.Advance(time.Minute)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{Reminded: 1}) {
		t.Fatalf("at 20%% left: %+v", rep)
	}
}

func TestSweepPreGameReminder(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "annihilation") // bob picks the army
	e.drain(t)
	e.clock.Advance(72 * time.Hour * 8 / 10)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{Reminded: 1}) {
		t.Fatalf("%+v", rep)
	}
	ns := e.drain(t)
	if got := kinds(ns); !reflect.DeepEqual(got, []string{"reminder bob"}) || !strings.Contains(ns[0].Text, "choice") {
		t.Errorf("notifications %v: %q", got, ns[0].Text)
	}
	if g := e.game(t, g.ID); g.Status != bot.GameSetup || !g.Reminded {
		t.Errorf("%s, reminded %v", g.Status, g.Reminded)
	}
}

func TestSweepExpiresChallenges(t *testing.T) {
	e := newEnv(t)
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3})
	if err != nil {
		t.Fatal(err)
	}
	open, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "carol", ChannelID: "chan", Variant: "tank"})
	if err != nil {
		t.Fatal(err)
	}
	e.noReminders(t, "alice", "bob")
	g := e.start(t, "chess") // accepted: never expires
	e.play(t, g.ID, "alice e4", "bob e5")
	e.drain(t)
	e.clock.Advance(gameplay.ChallengeTTL - time.Nanosecond)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{TimedOut: 1}) {
		t.Fatalf("before expiry: %+v (the game's time is out)", rep)
	}
	e.drain(t)
	e.clock.Advance(time.Nanosecond)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{Expired: 2}) {
		t.Fatalf("at expiry: %+v, want two expired", rep)
	}
	for _, id := range []uint64{c.ID, open.ID} {
		c, err := e.db.Challenge(ctx, id)
		if err != nil || c.Status != bot.ChallengeExpired || !c.Updated.Equal(e.clock.Now()) {
			t.Errorf("challenge %d: %+v, %v", id, c, err)
		}
	}
	ns := e.drain(t)
	if got, want := kinds(ns), []string{"challenge-expired alice", "challenge-expired carol"}; !reflect.DeepEqual(got, want) {
		t.Errorf("notifications %v, want %v", got, want)
	}
	if ns[0].ChallengeID != c.ID || !strings.Contains(ns[0].Text, "<@bob>") || !strings.Contains(ns[1].Text, "nobody") {
		t.Errorf("notifications %+v", ns)
	}
	if _, err := e.svc.Challenges().Accept(ctx, c.ID, bot.AnyVersion, "bob", inChan); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("accepting an expired challenge: %v", err)
	}
	if rep := e.sweep(t); rep != (gameplay.SweepReport{}) {
		t.Errorf("a second sweep did %+v", rep)
	}
}

// dueWorld makes a store with one of everything Sweep does, all due at
// the returned env's time: a game lost on time, one aborted, a reminder,
// an expired challenge.
func dueWorld(t *testing.T) *env {
	e := newEnv(t)
	if _, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3}); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(4*day + 1)
	lost := e.start(t, "chess")
	e.play(t, lost.ID, "alice e4", "bob e5")
	e.start(t, "chess") // aborted: nobody moved
	e.clock.Advance(day)
	reminded := e.challengeAccepted(t, gameplay.ChallengeRequest{Challenger: "carol", Challenged: "dave", DaysPerMove: 7})
	e.play(t, reminded.ID, "carol e4")
	e.clock.Advance(2 * day)
	e.challengeAccepted(t, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", DaysPerMove: 14}) // not due
	e.clock.Advance(day)
	return e
}

func TestSweepIdempotent(t *testing.T) {
	e := dueWorld(t)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{TimedOut: 1, Aborted: 1, Reminded: 0, Expired: 1}) {
		// dave's 7-day turn started 3 days ago: 57% left, no reminder yet
		t.Fatalf("first sweep %+v", rep)
	}
	e.clock.Advance(3 * day) // dave at 14%: reminded; the 14-day game at 71%
	if rep := e.sweep(t); rep != (gameplay.SweepReport{Reminded: 1}) {
		t.Fatalf("second sweep %+v", rep)
	}
	before := e.snapshot(t)
	for i := 0; i < 3; i++ {
		if rep := e.sweep(t); rep != (gameplay.SweepReport{}) {
			t.Fatalf("sweep again: %+v", rep)
		}
	}
	e.wantUnchanged(t, before)
}

func TestSweepConcurrent(t *testing.T) {
	e := dueWorld(t)
	e.clock.Advance(3 * day)
	var (
		mu    sync.Mutex
		total gameplay.SweepReport
		wg    sync.WaitGroup
	)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep, err := e.svc.Sweep(ctx)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			total.TimedOut += rep.TimedOut
			total.Aborted += rep.Aborted
			total.Reminded += rep.Reminded
			total.Expired += rep.Expired
			mu.Unlock()
		}()
	}
	wg.Wait()
	if want := (gameplay.SweepReport{TimedOut: 1, Aborted: 1, Reminded: 1, Expired: 1}); total != want {
		t.Errorf("four concurrent sweeps did %+v together, want %+v", total, want)
	}
	reminders := 0
	for _, n := range e.drain(t) {
		if n.Kind == bot.NotifyReminder {
			reminders++
		}
	}
	if reminders != 1 {
		t.Errorf("%d reminders sent, want 1", reminders)
	}
}

func TestNextWake(t *testing.T) {
	e := newEnv(t)
	next := func() time.Time {
		t.Helper()
		n, err := e.svc.NextWake(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := next(); !n.IsZero() {
		t.Fatalf("an empty store wakes at %v", n)
	}
	if _, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "carol", Challenged: "dave", ChannelID: "chan",
		Variant: "chess"}); err != nil {
		t.Fatal(err)
	}
	if n, want := next(), t0.Add(gameplay.ChallengeTTL); !n.Equal(want) {
		t.Fatalf("with a challenge: %v, want %v", n, want)
	}
	g := e.start(t, "chess")
	if n, want := next(), t0.Add(72*time.Hour*8/10); !n.Equal(want) {
		t.Fatalf("with a game: %v, want alice's reminder at %v", n, want)
	}
	e.noReminders(t, "alice")
	if n, want := next(), t0.Add(3*day); !n.Equal(want) {
		t.Fatalf("reminders off: %v, want the deadline %v", n, want)
	}
	if _, err := e.prefs.SetReminder(ctx, "alice", 99); err != nil {
		t.Fatal(err)
	}
	if n, want := next(), t0.Add(72*time.Hour/100); !n.Equal(want) {
		t.Fatalf("a 99%% reminder: %v, want %v", n, want)
	}
	e.clock.Advance(time.Hour)
	e.sweep(t)
	if n, want := next(), t0.Add(3*day); !n.Equal(want) {
		t.Fatalf("reminded: %v, want the deadline %v", n, want)
	}
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}); err != nil {
		t.Fatal(err)
	}
	if n, want := next(), t0.Add(gameplay.ChallengeTTL); !n.Equal(want) {
		t.Fatalf("game over: %v, want the challenge's expiry %v", n, want)
	}
	// An unlimited game schedules nothing.
	e.challengeAccepted(t, gameplay.ChallengeRequest{Challenger: "erin", Challenged: "frank", DaysPerMove: 0})
	if n, want := next(), t0.Add(gameplay.ChallengeTTL); !n.Equal(want) {
		t.Fatalf("with an unlimited game: %v, want %v", n, want)
	}
}

// benchWorld makes n running 3-day games between 20 players, none due
// for hours: what a sweep scans on an ordinary wake-up.
func benchWorld(b *testing.B, n int) *env {
	e := newEnv(b)
	for i := 0; i < n; i++ {
		white, black := "p"+strconv.Itoa(i%20), "p"+strconv.Itoa((i+1)%20)
		e.challengeAccepted(b, gameplay.ChallengeRequest{Challenger: white, Challenged: black, DaysPerMove: 3})
	}
	e.clock.Advance(time.Hour)
	return e
}

// BenchmarkSweepNothingDue measures a sweep with 500 games running of
// which none has anything due: the cost of a wake-up for nothing, which
// reads only the store's time indexes (storage's
// BenchmarkSweepNothingDue100k shows it with 100,000 games).
func BenchmarkSweepNothingDue(b *testing.B) {
	e := benchWorld(b, 500)
	b.ResetTimer()
	for b.Loop() {
		if rep, err := e.svc.Sweep(ctx); err != nil || rep.Total() != 0 || rep.Next.IsZero() {
			b.Fatal(rep, err)
		}
	}
}

// BenchmarkNextWake measures NextWake with 500 games running.
func BenchmarkNextWake(b *testing.B) {
	e := benchWorld(b, 500)
	b.ResetTimer()
	for b.Loop() {
		if next, err := e.svc.NextWake(ctx); err != nil || next.IsZero() {
			b.Fatal(next, err)
		}
	}
}

// TestMoveAfterDeadlineEndsOnTime: a move that comes after the player's
// deadline, before any sweep ran (the bot was down), is not played: the
// game is lost on time then and there, or aborted before both moved.
func TestMoveAfterDeadlineEndsOnTime(t *testing.T) {
	for _, tc := range []struct {
		moves  []string
		late   string
		status bot.GameStatus
		result bot.Result
	}{
		{[]string{"alice e4", "bob e5"}, "alice Nf3", bot.GameFinished, bot.BlackWins},
		{[]string{"alice e4"}, "bob e5", bot.GameAborted, bot.NoResult},
	} {
		e := newEnv(t)
		e.noReminders(t, "alice", "bob")
		g := e.start(t, "chess")
		e.play(t, g.ID, tc.moves...)
		e.drain(t)
		e.clock.Advance(3 * day)
		user, move, _ := strings.Cut(tc.late, " ")
		_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: user, Move: move})
		if bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(bot.ErrorMessage(err), "ran out") {
			t.Fatalf("%s after the deadline: %v, want EINVALID saying the time ran out", tc.late, err)
		}
		got := e.game(t, g.ID)
		if got.Status != tc.status || got.Result != tc.result || len(got.Moves) != len(tc.moves) {
			t.Errorf("after the late move: %s %s with %d moves, want %s %s with %d", got.Status, got.Result,
				len(got.Moves), tc.status, tc.result, len(tc.moves))
		}
		if got, want := kinds(e.drain(t)), []string{"game-over alice", "game-over bob"}; !reflect.DeepEqual(got, want) {
			t.Errorf("notifications %v, want %v", got, want)
		}
		if rep := e.sweep(t); rep != (gameplay.SweepReport{}) {
			t.Errorf("the sweep after did %+v", rep)
		}
	}
}

// TestReminderKeepsVersion: a reminder is not part of play, so the
// version a player saw before it (on a button) still works after it.
func TestReminderKeepsVersion(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	g = e.play(t, g.ID, "alice e4").Game
	g, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	e.clock.Advance(3*day - 3*day/5) // 20% of bob's turn left
	if rep := e.sweep(t); rep.Reminded != 1 {
		t.Fatalf("sweep: %+v, want one reminder", rep)
	}
	after := e.game(t, g.ID)
	if !after.Reminded || after.Version != g.Version {
		t.Fatalf("after the reminder: reminded %v, version %d; want reminded, version %d", after.Reminded, after.Version, g.Version)
	}
	done, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptDraw, GameID: g.ID, Version: g.Version, UserID: "bob"})
	if err != nil || done.Result != bot.Draw {
		t.Fatalf("accepting the draw with the version shown before the reminder: %v, %v", done, err)
	}
}
