package gameplay_test

import (
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// wantRemindAt fails unless game id's RemindAt is want (zero: none) and
// is what bot.RemindTime gives with its player's setting.
func (e *env) wantRemindAt(tb testing.TB, id uint64, want time.Time) *bot.Game {
	tb.Helper()
	g := e.game(tb, id)
	if !g.RemindAt.Equal(want) {
		tb.Errorf("game %d (%s, %q to act) RemindAt %v, want %v", g.ID, g.Status, g.ToAct, g.RemindAt, want)
	}
	e.checkSchedule(tb, g)
	return g
}

// checkSchedule fails unless g.RemindAt is what bot.RemindTime gives for
// g with its player to act's stored setting.
func (e *env) checkSchedule(tb testing.TB, g *bot.Game) {
	tb.Helper()
	percent := 0
	if g.ToAct != "" {
		p, err := e.prefs.Preferences(ctx, g.ToAct)
		if err != nil {
			tb.Fatal(err)
		}
		percent = p.ReminderPercent
	}
	c := g.Clone()
	c.RemindAt = time.Time{}
	if want := gameplay.RemindTime(c, percent); !g.RemindAt.Equal(want) {
		tb.Errorf("game %d (%s, %q to act at %d%%) RemindAt %v, RemindTime says %v", g.ID, g.Status, g.ToAct, percent, g.RemindAt, want)
	}
}

// toRemind returns the IDs of the games the store lists to remind by t.
func (e *env) toRemind(tb testing.TB, t time.Time) []uint64 {
	tb.Helper()
	gs, err := e.db.GamesToRemind(ctx, t)
	if err != nil {
		tb.Fatal(err)
	}
	var out []uint64
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

// TestRemindAtFollowsTheTurn: every change that starts a turn gives the
// player then to act the RemindAt of their own setting; other changes
// keep it; the end of the game clears it.
func TestRemindAtFollowsTheTurn(t *testing.T) {
	e := newEnv(t)
	if _, err := e.prefs.SetReminder(ctx, "bob", 50); err != nil {
		t.Fatal(err)
	}
	g := e.start(t, "chess") // alice to act: 20% of 72 hours
	e.wantRemindAt(t, g.ID, t0.Add(72*time.Hour-72*time.Hour/5))
	e.clock.Advance(time.Hour)
	e.play(t, g.ID, "alice e4") // bob: 50%
	e.wantRemindAt(t, g.ID, t0.Add(time.Hour+36*time.Hour))
	// A draw offer starts no turn.
	must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}))
	e.wantRemindAt(t, g.ID, t0.Add(time.Hour+36*time.Hour))
	e.clock.Advance(time.Hour)
	e.play(t, g.ID, "bob e5") // alice again
	e.wantRemindAt(t, g.ID, t0.Add(2*time.Hour+72*time.Hour-72*time.Hour/5))
	// bob takes e5 back: his turn again, with a new clock.
	must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}))
	e.wantRemindAt(t, g.ID, t0.Add(2*time.Hour+72*time.Hour-72*time.Hour/5))
	e.clock.Advance(time.Hour)
	must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptTakeback, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}))
	e.wantRemindAt(t, g.ID, t0.Add(3*time.Hour+36*time.Hour))
	if got := e.toRemind(t, endOfTime); !reflect.DeepEqual(got, []uint64{g.ID}) {
		t.Errorf("games to remind %v", got)
	}
	must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}))
	e.wantRemindAt(t, g.ID, time.Time{})
	if got := e.toRemind(t, endOfTime); got != nil {
		t.Errorf("games to remind after the game %v", got)
	}
	if next, err := e.svc.NextWake(ctx); err != nil || !next.IsZero() {
		t.Errorf("next wake-up after the game: %v %v", next, err)
	}

	// Unlimited games have no reminder; nor does an aborted game.
	u := e.challengeAccepted(t, gameplay.ChallengeRequest{Challenger: "carol", Challenged: "dave", DaysPerMove: 0})
	e.wantRemindAt(t, u.ID, time.Time{})
	a := e.start(t, "chess")
	must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAbort, GameID: a.ID, Version: bot.AnyVersion, UserID: "bob"}))
	e.wantRemindAt(t, a.ID, time.Time{})
}

// TestRemindAtPreGame: each pre-game choice is a turn with its reminder,
// and the game's first turn after it too.
func TestRemindAtPreGame(t *testing.T) {
	e := newEnv(t)
	if _, err := e.prefs.SetReminder(ctx, "alice", 10); err != nil {
		t.Fatal(err)
	}
	g := e.start(t, "annihilation") // bob picks the army: 20%
	e.wantRemindAt(t, g.ID, t0.Add(72*time.Hour-72*time.Hour/5))
	e.clock.Advance(time.Hour)
	must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob", Choice: "white"})) // alice picks who moves first: 10%
	e.wantRemindAt(t, g.ID, t0.Add(time.Hour+72*time.Hour-72*time.Hour/10))
	e.clock.Advance(time.Hour)
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice", Choice: "opponent"})) // bob moves first: 20%
	if g.Status != bot.GameActive || g.ToAct != "bob" {
		t.Fatalf("after the choices: %s, %q to act", g.Status, g.ToAct)
	}
	e.wantRemindAt(t, g.ID, t0.Add(2*time.Hour+72*time.Hour-72*time.Hour/5))
}

// TestSetReminderMovesRemindAt: changing the setting moves the reminder
// of every turn of the user's that runs and has not been reminded, and
// of no other; a setting that changes no reminder writes no game.
func TestSetReminderMovesRemindAt(t *testing.T) {
	e := newEnv(t)
	mine := e.start(t, "chess") // alice to act
	theirs := e.play(t, e.start(t, "chess").ID, "alice e4").Game
	reminded := e.start(t, "chess")
	e.setReminded(t, reminded.ID)
	deadline := t0.Add(72 * time.Hour)
	e.wantRemindAt(t, mine.ID, deadline.Add(-72*time.Hour/5))
	theirsAt := e.wantRemindAt(t, theirs.ID, deadline.Add(-72*time.Hour/5)).RemindAt
	version := func(id uint64) uint64 { return e.game(t, id).Version }
	vTheirs, vReminded := version(theirs.ID), version(reminded.ID)

	if _, err := e.prefs.SetReminder(ctx, "alice", 50); err != nil {
		t.Fatal(err)
	}
	e.wantRemindAt(t, mine.ID, deadline.Add(-36*time.Hour))
	e.wantRemindAt(t, theirs.ID, theirsAt)
	e.wantRemindAt(t, reminded.ID, time.Time{})
	if version(theirs.ID) != vTheirs || version(reminded.ID) != vReminded {
		t.Errorf("games without a reminder of alice's to move were written")
	}
	vMine := version(mine.ID)
	if _, err := e.prefs.SetReminder(ctx, "alice", 50); err != nil {
		t.Fatal(err)
	}
	if version(mine.ID) != vMine {
		t.Errorf("the same setting again wrote the game")
	}
	// Off: no reminder; the next wake-up is bob's reminder in the other.
	e.noReminders(t, "alice")
	e.wantRemindAt(t, mine.ID, time.Time{})
	if next, err := e.svc.NextWake(ctx); err != nil || !next.Equal(theirsAt) {
		t.Errorf("next wake-up %v %v, want bob's reminder at %v", next, err, theirsAt)
	}
	// On again mid-turn, with its time already past: reminded at once.
	e.clock.Advance(60 * time.Hour)
	if _, err := e.prefs.SetReminder(ctx, "alice", 30); err != nil {
		t.Fatal(err)
	}
	e.wantRemindAt(t, mine.ID, deadline.Add(-72*time.Hour*3/10))
	e.drain(t)
	if rep := e.sweep(t); rep != (gameplay.SweepReport{Reminded: 2}) {
		t.Errorf("sweep %+v, want alice's and bob's reminders", rep)
	}
	e.wantRemindAt(t, mine.ID, time.Time{})
	if got := kinds(e.drain(t)); !reflect.DeepEqual(got, []string{"reminder alice", "reminder bob"}) &&
		!reflect.DeepEqual(got, []string{"reminder bob", "reminder alice"}) {
		t.Errorf("notifications %v", got)
	}
}

// TestSweepClearsStaleSchedule: a game over that still has a deadline and
// a reminder (a record no version of the Service writes) is not timed out
// or reminded: the sweep clears them, so that it is not looked at again.
func TestSweepClearsStaleSchedule(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}))
	if _, err := e.db.UpdateGame(ctx, g.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.Deadline, g.RemindAt = t0.Add(time.Hour), t0.Add(time.Minute)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	r := e.start(t, "chess") // reminded, with a RemindAt left (due)
	if _, err := e.db.UpdateGame(ctx, r.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.Reminded, g.RemindAt = true, t0.Add(time.Hour)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	e.clock.Advance(2 * time.Hour)
	if next, err := e.svc.NextWake(ctx); err != nil || !next.Equal(t0.Add(time.Minute)) {
		t.Fatalf("next wake-up before the sweep: %v %v", next, err)
	}
	rep, err := e.svc.Sweep(ctx)
	if err != nil || rep.Total() != 0 {
		t.Fatalf("sweep %+v %v, want nothing done", rep, err)
	}
	if !rep.Next.Equal(t0.Add(3 * day)) {
		t.Errorf("next wake-up %v, want the running game's deadline", rep.Next)
	}
	if got := e.game(t, g.ID); got.Status != bot.GameFinished || got.Reason != "resignation" || !got.Deadline.IsZero() || !got.RemindAt.IsZero() {
		t.Errorf("the game over: %+v", got)
	}
	e.wantRemindAt(t, r.ID, time.Time{})
	if ns := e.drain(t); len(ns) != 0 {
		t.Errorf("notified %v", kinds(ns))
	}
}

// TestSetReminderWhilePlaying: settings changed while moves start turns
// leave every game with the reminder of the setting stored last.
func TestSetReminderWhilePlaying(t *testing.T) {
	e := newEnv(t)
	var games []uint64
	for range 3 {
		games = append(games, e.start(t, "chess").ID)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 30 {
			id := games[i%len(games)]
			g, err := e.svc.Views().Game(ctx, id)
			if err != nil {
				t.Error(err)
				return
			}
			moves, err := e.svc.Views().LegalMoves(ctx, id, g.ToAct)
			if err != nil || len(moves) == 0 {
				t.Errorf("no legal moves for %s: %v", g.ToAct, err)
				return
			}
			m := moves[(i*7+3)%len(moves)]
			if _, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: id, UserID: g.ToAct, Move: m.Friendly}); err != nil {
				t.Errorf("game %d, %s: %v", id, m.Friendly, err)
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		for i := range 30 {
			if _, err := e.prefs.SetReminder(ctx, []string{"alice", "bob"}[i%2], []int{10, 50, 0, 99, 35}[i%5]); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	wg.Wait()
	for _, id := range games {
		g := e.game(t, id)
		if g.Status != bot.GameActive || len(g.Moves) == 0 {
			t.Fatalf("game %d: %s after %d moves", id, g.Status, len(g.Moves))
		}
		e.checkSchedule(t, g)
	}
}
