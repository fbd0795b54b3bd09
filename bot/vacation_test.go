package bot_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// TestVacationStopsAndRestartsClocks: a vacation moves the clock of every
// game where the player is to act by what is left of the allowance, a
// turn that comes to them meanwhile starts when the vacation would end,
// nothing times out during it, and ending it early brings every clock
// back with the time it had; the days begun count as used.
func TestVacationStopsAndRestartsClocks(t *testing.T) {
	e := newEnv(t)
	g1 := e.start(t, "chess") // alice to act
	g2 := e.start(t, "chess")
	e.play(t, g2.ID, "alice e4") // bob to act
	e.clock.Advance(time.Hour)
	n := len(e.outbox(t))
	v, err := e.svc.StartVacation(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	start := t0.Add(time.Hour)
	if !v.OnVacation() || !v.Until.Equal(start.Add(30*day)) || v.Used != 0 || v.Left != 30 {
		t.Fatalf("vacation %+v", v)
	}
	if got, want := notificationKinds(e.notifications(t, n)), []string{"vacation bob", "vacation bob"}; !reflect.DeepEqual(got, want) {
		t.Errorf("notifications %q, want %q", got, want)
	}
	g := e.game(t, g1.ID)
	if !g.Deadline.Equal(t0.Add(3*day + 30*day)) {
		t.Errorf("alice's deadline %v, want 30 days later than %v", g.Deadline, t0.Add(3*day))
	}
	if _, err := e.svc.StartVacation(ctx, "alice"); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("a second vacation: %v", err)
	}
	// Bob moves in game 2 a day later: alice's turn starts when her
	// vacation ends at the latest.
	e.clock.Advance(day)
	e.play(t, g2.ID, "bob e5")
	g = e.game(t, g2.ID)
	if !g.Deadline.Equal(v.Until.Add(3*day)) || !g.TurnStarted.Equal(v.Until) {
		t.Errorf("game 2: turn started %v, deadline %v; want %v and 3 days later", g.TurnStarted, g.Deadline, v.Until)
	}
	// Well past the 3 days per move: nothing times out.
	e.clock.Advance(5 * day)
	if rep, err := e.svc.Sweep(ctx); err != nil || rep.TimedOut+rep.Aborted != 0 {
		t.Fatalf("sweep during the vacation: %+v, %v", rep, err)
	}
	// Back after 6 days and 1 hour minus the hour it began: 6 days begun.
	v, err = e.svc.EndVacation(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	now := e.clock.Now()
	if v.OnVacation() || v.Used != 6 || v.Left != 24 {
		t.Errorf("after the vacation %+v", v)
	}
	away := now.Sub(start)
	if g := e.game(t, g1.ID); !g.Deadline.Equal(t0.Add(3 * day).Add(away)) {
		t.Errorf("game 1 deadline %v, want %v", g.Deadline, t0.Add(3*day).Add(away))
	}
	if g := e.game(t, g2.ID); !g.Deadline.Equal(now.Add(3*day)) || !g.TurnStarted.Equal(now) {
		t.Errorf("game 2: turn started %v, deadline %v; want now %v", g.TurnStarted, g.Deadline, now)
	}
	if _, err := e.svc.EndVacation(ctx, "alice"); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("ending twice: %v", err)
	}
	// The clocks run again: game 1 times out 3 days after its turn's
	// start plus the time away.
	e.clock.Advance(3 * day)
	if rep, err := e.svc.Sweep(ctx); err != nil || rep.Aborted != 1 {
		t.Fatalf("sweep after the vacation: %+v, %v", rep, err)
	}
}

// TestVacationAllowanceRunsOut: a vacation ends by itself when the
// allowance runs out: the clocks then run with the time they had, the
// whole allowance counts as used, and no vacation can start until the
// next year.
func TestVacationAllowanceRunsOut(t *testing.T) {
	e := newEnv(t)
	e.svc = bot.NewService(bot.Stores{Games: e.db, Challenges: e.db, Users: e.db, Outbox: e.db}, registry(t),
		bot.Clock(e.clock.Now), bot.Coin(func() bool { return true }), bot.VacationAllowance(2))
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4")
	if _, err := e.svc.StartVacation(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(2*day + 3*day - time.Minute)
	if rep, _ := e.svc.Sweep(ctx); rep.TimedOut+rep.Aborted != 0 {
		t.Fatalf("timed out during the allowance and the turn: %+v", rep)
	}
	v, err := e.svc.Vacation(ctx, "bob")
	if err != nil || v.OnVacation() || v.Used != 2 || v.Left != 0 {
		t.Fatalf("after the allowance: %+v, %v", v, err)
	}
	if _, err := e.svc.StartVacation(ctx, "bob"); err == nil || !strings.Contains(bot.ErrorMessage(err), "no vacation days left") {
		t.Errorf("a vacation without days left: %v", err)
	}
	e.clock.Advance(time.Minute)
	if rep, _ := e.svc.Sweep(ctx); rep.Aborted != 1 {
		t.Fatalf("the clock did not run again after the allowance: %+v", rep)
	}
	// A new year, a new allowance.
	e.clock.Advance(365 * day)
	if v, err := e.svc.StartVacation(ctx, "bob"); err != nil || v.Left != 2 {
		t.Errorf("next year: %+v, %v", v, err)
	}
}

// TestPauseByConsent: a pause needs both players; a paused game takes no
// move and cannot time out; resuming gives back the time left.
func TestPauseByConsent(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4", "bob e5")
	e.clock.Advance(day)
	g = must(t)(e.svc.Act(ctx, bot.ActionRequest{Action: bot.ActPause, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}))
	if g.PauseOffer != "alice" || !g.PausedAt.IsZero() {
		t.Fatalf("after asking: %+v", g)
	}
	if _, err := e.svc.Act(ctx, bot.ActionRequest{Action: bot.ActPause, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("asking twice: %v", err)
	}
	deadline := g.Deadline
	n := len(e.outbox(t))
	g = must(t)(e.svc.Act(ctx, bot.ActionRequest{Action: bot.ActPause, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}))
	if g.PausedAt.IsZero() || !g.Deadline.IsZero() || !g.PausedDeadline.Equal(deadline) {
		t.Fatalf("after agreeing: %+v", g)
	}
	if got, want := notificationKinds(e.notifications(t, n)), []string{"pause alice", "pause bob"}; !reflect.DeepEqual(got, want) {
		t.Errorf("notifications %q, want %q", got, want)
	}
	if _, err := e.svc.Move(ctx, bot.MoveRequest{GameID: g.ID, UserID: "alice", Move: "Nf3"}); err == nil || !strings.Contains(bot.ErrorMessage(err), "is paused") {
		t.Errorf("a move in a paused game: %v", err)
	}
	e.clock.Advance(100 * day)
	if rep, err := e.svc.Sweep(ctx); err != nil || rep.Total() != 0 {
		t.Fatalf("sweep of a paused game: %+v, %v", rep, err)
	}
	g = must(t)(e.svc.Act(ctx, bot.ActionRequest{Action: bot.ActResume, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}))
	if !g.PausedAt.IsZero() || !g.Deadline.Equal(deadline.Add(100*day)) {
		t.Fatalf("after resuming: deadline %v, want %v", g.Deadline, deadline.Add(100*day))
	}
	if _, err := e.svc.Act(ctx, bot.ActionRequest{Action: bot.ActResume, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("resuming a game not paused: %v", err)
	}
	// A request lapses with the next move.
	must(t)(e.svc.Act(ctx, bot.ActionRequest{Action: bot.ActPause, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}))
	if res := e.play(t, g.ID, "alice Nf3"); res.Game.PauseOffer != "" {
		t.Errorf("the request outlived a move: %+v", res.Game)
	}
}

// TestVacationNewGame: a game accepted while its challenger is on
// vacation starts with the challenger's clock waiting for the vacation's
// end.
func TestVacationNewGame(t *testing.T) {
	e := newEnv(t)
	c, err := e.svc.Challenge(ctx, bot.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3, Color: bot.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.svc.StartVacation(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	g := must(t)(e.svc.Accept(ctx, c.ID, c.Version, "bob", inChan))
	if !g.WhiteAway.Equal(v.Until) || !g.Deadline.Equal(v.Until.Add(3*day)) {
		t.Errorf("new game: white away %v, deadline %v; want %v and 3 days later", g.WhiteAway, g.Deadline, v.Until)
	}
	v, err = e.svc.EndVacation(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if g := e.game(t, g.ID); !g.Deadline.Equal(t0.Add(3 * day)) {
		t.Errorf("after the vacation: deadline %v, want %v", g.Deadline, t0.Add(3*day))
	}
}
