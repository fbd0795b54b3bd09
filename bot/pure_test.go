package bot_test

import (
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/internal/testkit"
)

// TestUpdatesTouchNoStore: the function of every update the Service makes
// (UpdateGame, AnnotateGame, UpdateChallenge, UpdatePreferences) touches
// no store, through every path that starts a turn or moves a reminder
// (accept, pre-game choices, moves, a takeback, a reminder setting) and
// the sweep's updates; the reminders are still scheduled from the
// players' settings, read before the updates.
func TestUpdatesTouchNoStore(t *testing.T) {
	db := testkit.OpenDB(t)
	clk := testkit.NewClock(t0)
	probe := testkit.NewProbe(testkit.Stores(db))
	svc := testkit.ServiceOver(t, probe.Stores(), clk)
	e := &env{db: db, svc: svc, clock: clk}

	if _, err := svc.SetReminder(ctx, "alice", 10); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SetReminder(ctx, "bob", 50); err != nil {
		t.Fatal(err)
	}
	// A pre-game choice: accept, two choices, then moves.
	ann := e.start(t, "annihilation") // bob picks the army
	ann = must(t)(svc.Choose(ctx, ann.ID, bot.AnyVersion, "bob", "white"))
	if want := t0.Add(72*time.Hour - 72*time.Hour/10); !ann.RemindAt.Equal(want) {
		t.Errorf("alice's choice: RemindAt %v, want %v (her 10%%)", ann.RemindAt, want)
	}
	ann = must(t)(svc.Choose(ctx, ann.ID, bot.AnyVersion, "alice", "opponent"))
	if ann.Status != bot.GameActive || ann.ToAct != "bob" {
		t.Fatalf("after the choices: %s, %q to act", ann.Status, ann.ToAct)
	}
	// A game with moves, a takeback, a reminder setting that moves a
	// reminder.
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4", "bob e5")
	clk.Advance(time.Hour)
	res := e.play(t, g.ID, "alice Nf3")
	if want := t0.Add(time.Hour + 72*time.Hour - 72*time.Hour/2); !res.Game.RemindAt.Equal(want) {
		t.Errorf("bob's turn: RemindAt %v, want %v (his 50%%)", res.Game.RemindAt, want)
	}
	must(t)(svc.RequestTakeback(ctx, g.ID, bot.AnyVersion, "alice"))
	g = must(t)(svc.AcceptTakeback(ctx, g.ID, bot.AnyVersion, "bob"))
	if g.ToAct != "alice" || g.RemindAt.IsZero() {
		t.Fatalf("after the takeback: %q to act, RemindAt %v", g.ToAct, g.RemindAt)
	}
	if _, err := svc.SetReminder(ctx, "alice", 30); err != nil {
		t.Fatal(err)
	}
	if got := must(t)(svc.Game(ctx, g.ID)); !got.RemindAt.Equal(got.Deadline.Add(-72 * time.Hour * 30 / 100)) {
		t.Errorf("after alice's new setting: RemindAt %v, deadline %v", got.RemindAt, got.Deadline)
	}
	// The sweep: a reminder, a time-out, an expired challenge.
	if _, err := svc.Challenge(ctx, bot.ChallengeRequest{Challenger: "carol", Challenged: "dave", ChannelID: "chan", Variant: "chess", DaysPerMove: 3}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(60 * time.Hour)
	if _, err := svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	clk.Advance(10 * 24 * time.Hour)
	rep, err := svc.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.TimedOut+rep.Aborted == 0 || rep.Expired == 0 {
		t.Errorf("the sweep did too little to be checked: %+v", rep)
	}
	if v := probe.Violations(); len(v) > 0 {
		t.Errorf("stores touched inside update functions: %q", v)
	}
	calls := probe.Calls()
	if calls["UpdateGame"] == 0 || calls["AnnotateGame"] == 0 || calls["UpdateChallenge"] == 0 || calls["UpdatePreferences"] == 0 {
		t.Errorf("not every kind of update was made: %v", calls)
	}
}
