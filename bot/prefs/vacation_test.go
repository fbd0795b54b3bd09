package prefs_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/internal/testkit"
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
	v, err := e.prefs.StartVacation(ctx, "alice")
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
	if _, err := e.prefs.StartVacation(ctx, "alice"); bot.ErrorCode(err) != bot.EINVALID {
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
	v, err = e.prefs.EndVacation(ctx, "alice")
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
	if _, err := e.prefs.EndVacation(ctx, "alice"); bot.ErrorCode(err) != bot.EINVALID {
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
	e.svc = gameplay.NewService(gameplay.Stores{Games: e.db, Challenges: e.db, Users: e.db, Outbox: e.db}, testkit.Registry(t),
		gameplay.Clock(e.clock.Now), gameplay.Coin(func() bool { return true }))
	e.prefs = prefs.New(e.svc, e.db, prefs.VacationAllowance(2))
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4")
	if _, err := e.prefs.StartVacation(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(2*day + 3*day - time.Minute)
	if rep, _ := e.svc.Sweep(ctx); rep.TimedOut+rep.Aborted != 0 {
		t.Fatalf("timed out during the allowance and the turn: %+v", rep)
	}
	v, err := e.prefs.Vacation(ctx, "bob")
	if err != nil || v.OnVacation() || v.Used != 2 || v.Left != 0 {
		t.Fatalf("after the allowance: %+v, %v", v, err)
	}
	if _, err := e.prefs.StartVacation(ctx, "bob"); err == nil || !strings.Contains(bot.ErrorMessage(err), "no vacation days left") {
		t.Errorf("a vacation without days left: %v", err)
	}
	e.clock.Advance(time.Minute)
	if rep, _ := e.svc.Sweep(ctx); rep.Aborted != 1 {
		t.Fatalf("the clock did not run again after the allowance: %+v", rep)
	}
	// A new year, a new allowance.
	e.clock.Advance(365 * day)
	if v, err := e.prefs.StartVacation(ctx, "bob"); err != nil || v.Left != 2 {
		t.Errorf("next year: %+v, %v", v, err)
	}
}

// TestVacationNewGame: a game accepted while its challenger is on
// vacation starts with the challenger's clock waiting for the vacation's
// end.
func TestVacationNewGame(t *testing.T) {
	e := newEnv(t)
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3, Color: bot.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.prefs.StartVacation(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	g := must(t)(e.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", inChan))
	if !g.WhiteAway.Equal(v.Until) || !g.Deadline.Equal(v.Until.Add(3*day)) {
		t.Errorf("new game: white away %v, deadline %v; want %v and 3 days later", g.WhiteAway, g.Deadline, v.Until)
	}
	v, err = e.prefs.EndVacation(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if g := e.game(t, g.ID); !g.Deadline.Equal(t0.Add(3 * day)) {
		t.Errorf("after the vacation: deadline %v, want %v", g.Deadline, t0.Add(3*day))
	}
}
